"""The server's health and the lobby: the games, the computer levels and the match modes."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from triverse.ai import LEVELS
from triverse.ai.knowledge import knowledge_for
from triverse.core.messages import CORE_MESSAGES
from triverse.server.catalog import GameEntry
from triverse.server.errors import ServerError, clip
from triverse.server.health import Health
from triverse.server.routes.deps import ERRORS, Service
from triverse.server.schemas import GameInfo, GamesAnswer, OptionInfo, ThinkInfo
from triverse.server.seats import MODES, THINK_RANGE, THINKING_LEVELS
from triverse.server.service import MatchService

router = APIRouter()


def game_info(entry: GameEntry) -> GameInfo:
    """What the lobby says of a game, with its browser module and rules page."""
    cls = entry.cls()
    return GameInfo(
        name=entry.name, title=entry.title, summary=entry.summary, available=True,
        min_players=cls.min_players, max_players=cls.max_players,
        default_players=cls.default_players,
        options=[OptionInfo(**spec.to_json()) for spec in cls.option_specs],
        variants=dict(cls.variants),
        messages={**CORE_MESSAGES, **cls.messages},
        think_default=knowledge_for(entry.name).default_budget,
        view=entry.view, rules=entry.rules,
    )


def games_answer(service: MatchService) -> GamesAnswer:
    """The lobby."""
    think = ThinkInfo(levels=list(THINKING_LEVELS),
                      minimum=THINK_RANGE[0], maximum=THINK_RANGE[1])
    return GamesAnswer(games=[game_info(entry) for entry in service.games.values()],
                       levels=list(LEVELS), think=think, modes=list(MODES))


HEALTH_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"description": "every store answers",
          "content": {"application/json": {"example": {"status": "ok", "database": "ok"}}}},
    503: {"description": "a store does not answer; the failing ones are named",
          "content": {"application/json": {"example": {
              "status": "failing", "database": "ok", "redis": "failing"}}}},
}


@router.get("/api/health", tags=["server"], responses=HEALTH_ANSWERS)
async def health(request: Request) -> JSONResponse:
    """Whether the server and the stores it needs answer: the database (``SELECT 1``) and,
    when the rate limits count there, Redis (``PING``). ``200`` with ``"status": "ok"`` and
    each check ``"ok"``; ``503`` with ``"status": "failing"`` and the failing checks named
    ``"failing"`` (why is in the server's log)."""
    checks: Health = request.app.state.health
    healthy, answer = await checks.report()
    return JSONResponse(answer, status_code=200 if healthy else 503,
                        headers={"Cache-Control": "no-store"})


@router.get("/api/games", tags=["games"])
async def list_games(service: Service) -> GamesAnswer:
    """Every installed game, with its browser module and rules page, the computer levels and the
    match modes."""
    return games_answer(service)


@router.get("/api/games/{name}/data", responses=ERRORS, tags=["games"])
async def game_data(name: str, response: Response, service: Service) -> dict[str, Any]:
    """The game's public, position-independent data a client draws with
    (``Game.client_data``: Trivinity's card table); the same for every match."""
    entry = service.games.get(name)
    if entry is None or entry.module is None:
        raise ServerError("unknown_game", f"no game {clip(name)} to describe")
    response.headers["Cache-Control"] = "public, max-age=3600"
    data: dict[str, Any] = entry.cls()().client_data()
    return data
