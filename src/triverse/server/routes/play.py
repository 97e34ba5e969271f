"""Play: actions, score previews and pause over REST, and the match websocket."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket
from fastapi.responses import JSONResponse, Response

from triverse.server.guards import origin_allowed, refuse_origin
from triverse.server.routes.deps import ERRORS, LogLimit, SeatToken, Service, limited
from triverse.server.schemas import (
    ActionAccepted,
    ActionRequest,
    PauseRequest,
    PreviewAnswer,
    PreviewRequest,
    View,
)
from triverse.server.views import render_view
from triverse.server.ws import MatchConnection

router = APIRouter(tags=["matches"])


@router.post("/api/matches/{match_id}/actions", response_model=ActionAccepted,
             responses=ERRORS, dependencies=[limited("action")])
async def post_action(match_id: str, body: ActionRequest, service: Service, token: SeatToken,
                      log: LogLimit = None) -> Response:
    """Play an action for the token's seat. ``move`` must be the view's ``move``; the
    action is stored before this answer, and every seat's websocket gets its view."""
    live = await service.act(match_id, token, body.action, body.move)
    entry = live.log[body.move]
    seat = await service.seat_of(live, token)
    return JSONResponse({"accepted": True, "move": entry.number, "action": entry.action,
                         "view": render_view(live, seat, log_limit=log)})


@router.post("/api/matches/{match_id}/preview", response_model=PreviewAnswer,
             responses=ERRORS, dependencies=[limited("preview")])
async def preview(match_id: str, body: PreviewRequest, service: Service,
                  token: SeatToken) -> Response:
    """What a tentative action would score for the token's seat, which must be the seat to
    move, as the game explains it (each line and bonus, or why it is illegal). Nothing is
    played or stored. ``422 not_supported`` for a game without previews."""
    move, data = await service.preview(match_id, token, body.action, body.move)
    return JSONResponse({"move": move, "preview": data})


@router.post("/api/matches/{match_id}/pause", response_model=View, responses=ERRORS,
             dependencies=[limited("action")])
async def pause(match_id: str, body: PauseRequest, service: Service, token: SeatToken,
                log: LogLimit = None) -> Response:
    """Pause (``paused: true``) or resume the computer players; any seat may. Answers
    with the seat's view."""
    live = await service.set_paused(match_id, token, body.paused)
    return JSONResponse(render_view(live, await service.seat_of(live, token), log_limit=log))


@router.websocket("/ws/matches/{match_id}")
async def match_socket(websocket: WebSocket, match_id: str, service: Service) -> None:
    """Live play: see ``docs/protocol.md``. A page of another origin may not open it."""
    if not origin_allowed(websocket.headers, service.settings.allowed_origins):
        await refuse_origin(websocket)
        return
    await MatchConnection(websocket, service, service.pubsub, match_id).run()
