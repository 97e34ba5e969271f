"""Contests: creating, listing and reading them, signing up and withdrawing, the host's
actions, and the contest's websocket (:mod:`triverse.server.contests`, ``docs/contests.md``).

Every change needs a session's CSRF token (a guest's sign-up needs none: it has no session);
the host's changes need the host's session (``403 not_host`` for another account). Changes
count against the ``contest`` rate limit, reads against ``contest_read``.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import JSONResponse, Response

from triverse.server.accounts import SESSION_COOKIE, Account
from triverse.server.contest_models import (
    Announcement,
    AnnouncementRequest,
    ComputerRequest,
    Contest,
    ContestList,
    CreatedContest,
    Entry,
    MeAnswer,
    NewContestRequest,
    SignedUpAnswer,
    SignUpRequest,
)
from triverse.server.contests import NewContest
from triverse.server.guards import origin_allowed, refuse_origin
from triverse.server.routes.deps import (
    ERRORS,
    Changing,
    MaybeChanging,
    SeatToken,
    Service,
    limited,
)
from triverse.server.service import MatchService
from triverse.server.ws import ContestConnection

router = APIRouter(tags=["contests"])
NO_STORE = {"Cache-Control": "no-store"}
CHANGE = [limited("contest")]
READ = [limited("contest_read")]


async def _viewer(service: MatchService, request: Request) -> Account | None:
    """The request's account, if a live session comes with it (reads need no CSRF)."""
    logged = await service.accounts.session(request.cookies.get(SESSION_COOKIE))
    return None if logged is None else logged.account


@router.post("/api/contests", status_code=201, dependencies=CHANGE, responses=ERRORS)
async def create(body: NewContestRequest, service: Service, logged: Changing) -> CreatedContest:
    """Create a contest hosted by the session's account: its game and options, board size,
    time per turn (``turn_seconds``, in a game with a time-out rule), close of sign-up and
    place rewards."""
    contest_id = await service.contests.create(logged.account, NewContest(
        body.title, body.game, body.options, body.players_per_board, body.turn_seconds,
        body.signup_closes, tuple(body.rewards), body.reward_name))
    return CreatedContest(id=contest_id, link=f"/contests/{contest_id}")


@router.get("/api/contests", response_model=ContestList, dependencies=READ, responses=ERRORS)
async def contests(service: Service) -> Response:
    """The newest contests first, at most 100."""
    return JSONResponse({"contests": await service.contests.summaries()}, headers=NO_STORE)


@router.get("/api/contests/{contest_id}", response_model=Contest, dependencies=READ,
            responses=ERRORS)
async def contest(contest_id: str, service: Service, request: Request) -> Response:
    """A contest: entrants, boards, standings, announcements and the draw's commitment
    (its seed and salt once drawn). With a session: ``is_host`` and the account's entry
    (``me``)."""
    account = await _viewer(service, request)
    return JSONResponse(await service.contests.view(contest_id, account), headers=NO_STORE)


@router.post("/api/contests/{contest_id}/entries", status_code=201, dependencies=CHANGE,
             responses=ERRORS)
async def sign_up(contest_id: str, service: Service, logged: MaybeChanging,
                  body: SignUpRequest | None = None) -> SignedUpAnswer:
    """Sign up: logged in, as the account (once a contest); else as a guest named ``name``.
    The answer holds the entrant's secret, shown once: it is their seat's token when the
    boards start. ``409 signup_closed``, ``409 already_entered``, ``409 contest_full``."""
    signed = await service.contests.sign_up(
        contest_id, None if logged is None else logged.account,
        None if body is None else body.name)
    return SignedUpAnswer(entry=signed.entry, name=signed.name, secret=signed.secret,
                          link=f"/contests/{contest_id}#me={signed.secret}")


@router.get("/api/contests/{contest_id}/me", response_model=MeAnswer, dependencies=READ,
            responses=ERRORS)
async def me(contest_id: str, service: Service, token: SeatToken,
             request: Request) -> Response:
    """The entrant's own entry: by their secret (``X-Seat-Token``) or their account's
    session; ``play`` is their seat's page once the boards started."""
    account = await _viewer(service, request)
    entry = await service.contests.entry_of(contest_id, token, account)
    data = await service.contests.data(contest_id)
    board = next((b for b in data.boards if b.board == entry.board), None)
    play = (None if board is None or entry.seat is None
            else f"/play/{board.match_id}?seat={entry.seat}")
    return JSONResponse({"entry": entry.entry, "name": entry.name, "board": entry.board,
                         "seat": entry.seat, "play": play, "removed": bool(entry.removed)},
                        headers=NO_STORE)


@router.delete("/api/contests/{contest_id}/entries/me", status_code=204, dependencies=CHANGE,
               responses=ERRORS)
async def withdraw(contest_id: str, service: Service, token: SeatToken,
                   logged: MaybeChanging) -> Response:
    """Withdraw during sign-up, by the secret or the account's session."""
    await service.contests.withdraw(contest_id, token,
                                    None if logged is None else logged.account)
    return Response(status_code=204)


@router.post("/api/contests/{contest_id}/computers", status_code=201, dependencies=CHANGE,
             responses=ERRORS)
async def add_computer(contest_id: str, body: ComputerRequest, service: Service,
                       logged: Changing) -> Entry:
    """The host adds a computer entrant during sign-up."""
    return Entry.model_validate(await service.contests.add_computer(
        contest_id, logged.account, body.kind, body.name))


@router.post("/api/contests/{contest_id}/close", response_model=Contest, dependencies=CHANGE,
             responses=ERRORS)
async def close(contest_id: str, service: Service, logged: Changing) -> Response:
    """The host closes the sign-up now: the draw is made and the boards start, or the
    contest is cancelled for too few entrants."""
    await service.contests.close_now(contest_id, logged.account)
    return JSONResponse(await service.contests.view(contest_id, logged.account))


@router.post("/api/contests/{contest_id}/entries/{entry}/remove", response_model=Contest,
             dependencies=CHANGE, responses=ERRORS)
async def remove(contest_id: str, entry: int, service: Service, logged: Changing) -> Response:
    """The host removes an entrant: deleted during sign-up; once playing, their turns are
    passed (or a novice plays their seat, in a game without a time-out rule)."""
    await service.contests.remove(contest_id, logged.account, entry)
    return JSONResponse(await service.contests.view(contest_id, logged.account))


@router.post("/api/contests/{contest_id}/announcements", status_code=201,
             dependencies=CHANGE, responses=ERRORS)
async def announce(contest_id: str, body: AnnouncementRequest, service: Service,
                   logged: Changing) -> Announcement:
    """The host posts an announcement (at most 100 a contest)."""
    return Announcement.model_validate(await service.contests.announce(
        contest_id, logged.account, body.text))


@router.delete("/api/contests/{contest_id}", status_code=204, dependencies=CHANGE,
               responses=ERRORS)
async def cancel(contest_id: str, service: Service, logged: Changing) -> Response:
    """The host cancels the contest during sign-up (``409 not_in_signup`` later)."""
    await service.contests.cancel(contest_id, logged.account)
    return Response(status_code=204)


@router.websocket("/ws/contests/{contest_id}")
async def contest_socket(websocket: WebSocket, contest_id: str, service: Service) -> None:
    """The contest, live: ``{"type": "contest", "contest": ...}`` at once and after every
    change. A page of another origin may not open it."""
    if not origin_allowed(websocket.headers, service.settings.allowed_origins):
        await refuse_origin(websocket)
        return
    await ContestConnection(websocket, service, contest_id).run()
