"""Advice: the veteran's hint for the seat to move, and its review of a finished match."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from triverse.server.routes.deps import ERRORS, SeatToken, Service, limited
from triverse.server.schemas import HintAnswer, HintRequest, ReviewAnswer

router = APIRouter()


@router.post("/api/matches/{match_id}/hint", response_model=HintAnswer, responses=ERRORS,
             tags=["matches"], dependencies=[limited("hint")])
async def hint(match_id: str, service: Service, token: SeatToken,
               body: HintRequest | None = None) -> Response:
    """The veteran's suggested move for the token's seat, which must be the seat to move.
    It is computed from what that seat may see (its observation), within a second; nothing
    is played or stored."""
    move = None if body is None else body.move
    return JSONResponse(await service.hint(match_id, token, move))


@router.get("/api/matches/{match_id}/review", response_model=ReviewAnswer, responses=ERRORS,
            tags=["finished games"], dependencies=[limited("review")])
async def review(match_id: str, service: Service, token: SeatToken) -> Response:
    """The veteran's review of a finished match: each decision where it would have played
    differently, and the points it estimates that cost. With a token, that seat's
    decisions; without, every seat's. The first request takes up to some seconds a seat;
    the answer is then cached. ``409 not_finished`` before the end."""
    return JSONResponse(await service.review(match_id, token))
