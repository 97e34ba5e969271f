"""Finished games: the record to download, and the positions step by step."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from triverse.server.routes.deps import ERRORS, LogLimit, Service
from triverse.server.schemas import ReplayStep

router = APIRouter(tags=["finished games"])


@router.get("/api/matches/{match_id}/record", responses=ERRORS)
async def record(match_id: str, service: Service) -> Response:
    """The game record (``docs/records.md``) of a finished match, as a download;
    ``409 not_finished`` before the end."""
    data = await service.record(match_id)
    name = f"{data['game']}-{match_id}.json"
    return JSONResponse(data, headers={
        "Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/api/matches/{match_id}/replay/{move}", response_model=ReplayStep,
            responses=ERRORS)
async def replay_step(match_id: str, move: int, service: Service,
                      log: LogLimit = None) -> Response:
    """The public view after the first ``move`` actions of a finished match (0: the
    start; ``total``: the end)."""
    total, view = await service.replay_view(match_id, move, log)
    return JSONResponse({"match_id": match_id, "move": move, "total": total, "view": view})
