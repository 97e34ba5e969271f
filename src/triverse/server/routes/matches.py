"""Matches: creating one, a seat's view of it, and the matches a browser's tokens open."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from triverse.server.quotas import client_address
from triverse.server.routes.deps import (
    ERRORS,
    LogLimit,
    MaybeChanging,
    SeatToken,
    Service,
    limited,
)
from triverse.server.schemas import (
    CreatedSeat,
    CreateMatch,
    ErrorAnswer,
    MatchCreated,
    MyGames,
    MyGamesRequest,
    View,
)
from triverse.server.seats import SeatRequest, seat_link, spectator_link

router = APIRouter(tags=["matches"])


@router.post("/api/matches", status_code=201, dependencies=[limited("create")],
             responses={**ERRORS, 503: {"model": ErrorAnswer}})
async def create_match(body: CreateMatch, request: Request, service: Service,
                       logged: MaybeChanging) -> MatchCreated:
    """Create a match. The answer holds every human seat's secret token and invite link:
    hand each link to whoever plays that seat (in hot-seat, keep them all). Logged in (the
    session cookie and its ``X-CSRF-Token``), the creator's seat (every seat in hot-seat)
    belongs to the account. In mode ``open`` only the creator's seat (the first human one)
    has a token: the others are free, listed in the lobby (``GET /api/lobby``) until players
    take them (``POST /api/matches/{id}/join``). Limited per client address (``429
    rate_limited``, ``429 too_many_computer_matches``) and by the computer players' queue
    (``503 server_busy``)."""
    created = await service.create(
        body.game, body.options,
        [SeatRequest(s.kind, s.name, s.think) for s in body.seats], body.mode, body.seed,
        client_address(request), None if logged is None else logged.account, body.rated,
        body.pace)
    base = str(request.base_url).rstrip("/")
    seats = []
    for seat, token in zip(created.live.seats, created.tokens, strict=True):
        link = None if token is None else seat_link(created.match_id, seat.seat, token)
        seats.append(CreatedSeat(seat=seat.seat, name=seat.name, kind=seat.kind,
                                 think=seat.think, token=token, link=link,
                                 url=None if link is None else base + link))
    watch = spectator_link(created.match_id)
    return MatchCreated(match_id=created.match_id, game=created.live.game_name,
                        mode=body.mode, seats=seats, spectator_link=watch,
                        spectator_url=base + watch)


@router.get("/api/matches/{match_id}/view", response_model=View, responses=ERRORS)
async def get_view(match_id: str, service: Service, token: SeatToken,
                   log: LogLimit = None) -> Response:
    """A seat's view (with its token), or the public view (without one)."""
    return JSONResponse(await service.view(match_id, token, log))


@router.post("/api/my-games", responses=ERRORS)
async def my_games(body: MyGamesRequest, service: Service) -> MyGames:
    """The matches (unfinished and finished) that the given seat tokens open; unknown
    tokens are ignored. A POST, to keep tokens out of URLs."""
    return MyGames.model_validate({"matches": await service.my_games(body.tokens)})
