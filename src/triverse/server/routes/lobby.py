"""Open games: the lobby's list (REST and its websocket), taking a free seat, and withdrawing
an open game (:mod:`triverse.server.lobby`)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket
from fastapi.responses import JSONResponse, Response

from triverse.server.guards import origin_allowed, refuse_origin
from triverse.server.lobby_models import JoinAnswer, JoinRequest, LobbyAnswer
from triverse.server.routes.deps import (
    ERRORS,
    MaybeChanging,
    SeatToken,
    Service,
    limited,
)
from triverse.server.seats import seat_link
from triverse.server.ws import LobbyConnection

router = APIRouter(tags=["lobby"])


@router.get("/api/lobby", response_model=LobbyAnswer, dependencies=[limited("lobby")],
            responses=ERRORS)
async def lobby(service: Service) -> Response:
    """The open games waiting for players, newest first (at most 100): each one's game,
    options, seats (which are free), who waits, pace and time per turn."""
    return JSONResponse({"games": await service.open.games()},
                        headers={"Cache-Control": "no-store"})


@router.post("/api/matches/{match_id}/join", dependencies=[limited("join")],
             responses=ERRORS)
async def join(match_id: str, service: Service, logged: MaybeChanging,
               body: JoinRequest | None = None) -> JoinAnswer:
    """Take a free seat of an open game (``seat``, or the first free one). The answer holds
    the seat's secret token and link, shown once. Logged in (the session cookie and its
    ``X-CSRF-Token``), the seat belongs to the account and bears its name. The last free
    seat starts the game (``started``). ``409 seat_taken``, ``409 not_open``; a rated game
    needs an account (``401 not_logged_in``); an account takes one seat a match (``422
    bad_seats``)."""
    name = None if body is None or body.name is None else body.name.strip() or None
    joined = await service.join(match_id, None if body is None else body.seat,
                                None if logged is None else logged.account, name)
    return JoinAnswer(match_id=match_id, seat=joined.seat, token=joined.token,
                      link=seat_link(match_id, joined.seat, joined.token),
                      started=joined.started)


@router.delete("/api/matches/{match_id}/open", status_code=204,
               dependencies=[limited("join")], responses=ERRORS)
async def withdraw(match_id: str, service: Service, token: SeatToken) -> Response:
    """Withdraw an open game nobody else has joined, with the creator's seat token: the match
    is deleted and leaves the lobby. ``409 already_joined`` once another player took a seat,
    ``409 not_open`` once it started."""
    await service.withdraw(match_id, token)
    return Response(status_code=204)


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket, service: Service) -> None:
    """The open games, live: ``{"type": "open_games", "games": [...]}`` at once and after
    every change. A page of another origin may not open it."""
    if not origin_allowed(websocket.headers, service.settings.allowed_origins):
        await refuse_origin(websocket)
        return
    await LobbyConnection(websocket, service).run()
