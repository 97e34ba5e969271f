"""The ASGI application: REST API, the match websocket and the web UI's static files.

>>> app = create_app("sqlite://")
>>> sorted(r.path for r in app.routes if r.path.startswith("/api/"))[:3]
['/api/games', '/api/games/{name}/data', '/api/health']
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import triverse
from triverse.ai import LEVELS
from triverse.ai.knowledge import knowledge_for
from triverse.server.bots import BotPool
from triverse.server.clock import Clock
from triverse.server.config import BotExecutor, Settings, database_url, thinking_times
from triverse.server.errors import ServerError
from triverse.server.pubsub import InProcessPubSub, PubSub
from triverse.server.schemas import (
    ActionAccepted,
    ActionRequest,
    CreatedSeat,
    CreateMatch,
    ErrorAnswer,
    GameInfo,
    GamesAnswer,
    HintAnswer,
    HintRequest,
    MatchCreated,
    MyGames,
    MyGamesRequest,
    OptionInfo,
    PauseRequest,
    PreviewAnswer,
    PreviewRequest,
    ReplayStep,
    ReviewAnswer,
    ThinkInfo,
    View,
)
from triverse.server.service import (
    MODES,
    THINK_RANGE,
    THINKING_LEVELS,
    MatchService,
    SeatRequest,
    seat_link,
    spectator_link,
)
from triverse.server.views import render_view
from triverse.server.ws import MatchConnection

log = logging.getLogger(__name__)

WEB_DIR = Path(triverse.__file__).parent / "web"
TOKEN_HEADER = "X-Seat-Token"

_PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Triverse</title></head>
<body><h1>Triverse</h1><p>The server is running, but the web UI is not installed here.</p>
<p>The API is documented at <a href="/docs">/docs</a>.</p></body></html>
"""

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorAnswer} for status in (400, 401, 403, 404, 409, 422)
}

Token = Annotated[str | None, Header(alias=TOKEN_HEADER, description="the seat's token")]
TokenQuery = Annotated[str | None, Query(alias="token",
                                         description="the seat's token (prefer the header)")]
LogLimit = Annotated[int | None, Query(alias="log", ge=0,
                                       description="only the last so many log entries")]


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    bot_workers: int | None = None,
    bot_executor: BotExecutor = "process",
    static_dir: str | Path | None = None,
    allow_client_seed: bool = False,
    pubsub: PubSub | None = None,
    extra_games: Sequence[str] = (),
    clock: Clock | None = None,
    deadline_poll: float = 60.0,
    hint_budget: float | None = None,
    review_budget: float | None = None,
    review_total: float | None = None,
) -> FastAPI:
    """The Triverse web server as an ASGI application.

    ``db_url``: a SQLAlchemy URL (``postgresql://`` works and uses psycopg 3); ``None`` means
    ``$TRIVERSE_DB_URL`` or a SQLite file in the user's data directory. Migrations run when the
    application starts. ``bot_delay`` is the pause before each computer move; ``bot_workers``
    and ``bot_executor`` size and choose the pool computers think in. ``pubsub`` is the live
    update hub (in-process by default). ``extra_games`` adds ``"module:Class"`` games beyond
    the catalogue. ``clock`` is the time source of deadlines and dates (the system clock by
    default; tests pass a :class:`~triverse.server.clock.ManualClock`); ``deadline_poll`` the
    seconds between the deadline scheduler's reads of the database. ``hint_budget`` (seconds
    the veteran thinks about a hint), ``review_budget`` (at most, per reviewed decision) and
    ``review_total`` (what a seat's review should take) default to ``$TRIVERSE_HINT_BUDGET``,
    ``$TRIVERSE_REVIEW_BUDGET`` and ``$TRIVERSE_REVIEW_TOTAL``, else 0.8, 0.25 and 12.
    """
    settings = Settings(
        db_url=database_url(db_url), bot_delay=bot_delay, bot_workers=bot_workers,
        bot_executor=bot_executor,
        static_dir=Path(static_dir) if static_dir is not None else None,
        allow_client_seed=allow_client_seed, extra_games=tuple(extra_games),
        deadline_poll=deadline_poll,
    )
    settings = dataclasses.replace(settings, **thinking_times(
        hint_budget=hint_budget, review_budget=review_budget, review_total=review_total))
    own_pubsub = pubsub is None
    hub: PubSub = InProcessPubSub() if pubsub is None else pubsub
    bots = BotPool(settings.bot_executor, settings.bot_workers)
    service = MatchService(settings, hub, bots, clock)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        bots.start()  # first, before the server has threads of its own (fork safety)
        service.migrate()
        await service.start()
        log.info("Triverse server ready (database %s)", _safe_url(settings.db_url))
        try:
            yield
        finally:
            await service.close()
            bots.shutdown()
            if own_pubsub:
                await hub.close()

    app = FastAPI(
        title="Triverse",
        version=triverse.__version__,
        summary="Five 'tri' games on one server: REST, a websocket per match, the web UI.",
        description="The protocol, with every message, is in `docs/protocol.md`.",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.settings = settings
    app.state.pubsub = hub
    _install_error_handlers(app)
    _install_api(app, service)
    _install_pages(app, settings.static_dir or WEB_DIR)
    return app


def _safe_url(url: str) -> str:
    """The URL without its password, for logs."""
    head, sep, tail = url.partition("@")
    if not sep or "://" not in head:
        return url
    scheme, _, credentials = head.partition("://")
    return f"{scheme}://{credentials.split(':')[0]}@{tail}"


# --- errors ----------------------------------------------------------------------------------
def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _where(loc: Sequence[Any]) -> str:
    parts = [p for p in loc if p not in ("body", "query", "header", "path")]
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the request"


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServerError)
    async def server_error(_request: Request, exc: ServerError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        for err in errors:
            if err.get("type") == "json_invalid":
                detail = err.get("ctx", {}).get("error", "")
                return _error(400, "bad_json", f"the body is not valid JSON: {detail}".strip())
        message = "; ".join(f"{_where(err.get('loc', ()))}: {err.get('msg', 'invalid')}"
                            for err in errors)
        return _error(422, "bad_request", message or "the request is not valid")

    @app.exception_handler(Exception)
    async def crash(_request: Request, exc: Exception) -> JSONResponse:
        log.error("request failed", exc_info=exc)
        return _error(500, "server_error", "the server failed to handle this request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "http_error"
        return _error(exc.status_code, code, str(exc.detail))


# --- REST ------------------------------------------------------------------------------------
def _install_api(app: FastAPI, service: MatchService) -> None:
    def games_answer() -> GamesAnswer:
        games = []
        for entry in service.games.values():
            if entry.module is None:
                games.append(GameInfo(name=entry.name, title=entry.title,
                                       summary=entry.summary, available=False))
                continue
            cls = entry.cls()
            games.append(GameInfo(
                name=entry.name, title=entry.title, summary=entry.summary, available=True,
                min_players=cls.min_players, max_players=cls.max_players,
                default_players=cls.default_players,
                options=[OptionInfo(**spec.to_json()) for spec in cls.option_specs],
                variants=dict(cls.variants),
                think_default=knowledge_for(entry.name).default_budget,
                view=entry.view, rules=entry.rules,
            ))
        think = ThinkInfo(levels=list(THINKING_LEVELS),
                          minimum=THINK_RANGE[0], maximum=THINK_RANGE[1])
        return GamesAnswer(games=games, levels=list(LEVELS), think=think, modes=list(MODES))

    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, str]:
        """Whether the server is up."""
        return {"status": "ok"}

    @app.get("/api/games", tags=["games"])
    async def list_games() -> GamesAnswer:
        """Every installed game, with its browser module and rules page, the computer levels
        and the match modes."""
        return games_answer()

    @app.get("/api/games/{name}/data", responses=ERRORS, tags=["games"])
    async def game_data(name: str, response: Response) -> dict[str, Any]:
        """The game's public, position-independent data a client draws with
        (``Game.client_data``: Trivinity's card table); the same for every match."""
        entry = service.games.get(name)
        if entry is None or entry.module is None:
            raise ServerError("unknown_game", f"no game {name!r} to describe")
        response.headers["Cache-Control"] = "public, max-age=3600"
        data: dict[str, Any] = entry.cls()().client_data()
        return data

    @app.post("/api/matches", status_code=201, responses=ERRORS, tags=["matches"])
    async def create_match(body: CreateMatch, request: Request) -> MatchCreated:
        """Create a match. The answer holds every human seat's secret token and invite link:
        hand each link to whoever plays that seat (in hot-seat, keep them all)."""
        created = await service.create(
            body.game, body.options,
            [SeatRequest(s.kind, s.name, s.think) for s in body.seats], body.mode, body.seed)
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

    @app.get("/api/matches/{match_id}/view", response_model=View, responses=ERRORS,
             tags=["matches"])
    async def get_view(match_id: str, token: Token = None, token_q: TokenQuery = None,
                       log: LogLimit = None) -> Response:
        """A seat's view (with its token), or the public view (without one)."""
        return JSONResponse(await service.view(match_id, token or token_q, log))

    @app.post("/api/matches/{match_id}/actions", response_model=ActionAccepted,
              responses=ERRORS, tags=["matches"])
    async def post_action(match_id: str, body: ActionRequest, token: Token = None,
                          token_q: TokenQuery = None, log: LogLimit = None) -> Response:
        """Play an action for the token's seat. ``move`` must be the view's ``move``; the
        action is stored before this answer, and every seat's websocket gets its view."""
        live = await service.act(match_id, token or token_q, body.action, body.move)
        entry = live.log[body.move]
        seat = live.seat_for_token(token or token_q)
        return JSONResponse({"accepted": True, "move": entry.number, "action": entry.action,
                             "view": render_view(live, seat, log_limit=log)})

    @app.post("/api/matches/{match_id}/preview", response_model=PreviewAnswer,
              responses=ERRORS, tags=["matches"])
    async def preview(match_id: str, body: PreviewRequest, token: Token = None,
                      token_q: TokenQuery = None) -> Response:
        """What a tentative action would score for the token's seat, which must be the seat to
        move, as the game explains it (each line and bonus, or why it is illegal). Nothing is
        played or stored. ``422 not_supported`` for a game without previews."""
        move, data = await service.preview(match_id, token or token_q, body.action, body.move)
        return JSONResponse({"move": move, "preview": data})

    @app.post("/api/matches/{match_id}/hint", response_model=HintAnswer, responses=ERRORS,
              tags=["matches"])
    async def hint(match_id: str, body: HintRequest | None = None, token: Token = None,
                   token_q: TokenQuery = None) -> Response:
        """The veteran's suggested move for the token's seat, which must be the seat to move.
        It is computed from what that seat may see (its observation), within a second; nothing
        is played or stored."""
        move = None if body is None else body.move
        return JSONResponse(await service.hint(match_id, token or token_q, move))

    @app.post("/api/matches/{match_id}/pause", response_model=View, responses=ERRORS,
              tags=["matches"])
    async def pause(match_id: str, body: PauseRequest, token: Token = None,
                    token_q: TokenQuery = None, log: LogLimit = None) -> Response:
        """Pause (``paused: true``) or resume the computer players; any seat may. Answers
        with the seat's view."""
        live = await service.set_paused(match_id, token or token_q, body.paused)
        return JSONResponse(render_view(live, live.seat_for_token(token or token_q),
                                        log_limit=log))

    @app.post("/api/my-games", tags=["matches"], responses=ERRORS)
    async def my_games(body: MyGamesRequest) -> MyGames:
        """The matches (unfinished and finished) that the given seat tokens open; unknown
        tokens are ignored. A POST, to keep tokens out of URLs."""
        return MyGames.model_validate({"matches": await service.my_games(body.tokens)})

    @app.get("/api/matches/{match_id}/record", responses=ERRORS, tags=["finished games"])
    async def record(match_id: str) -> Response:
        """The game record (``docs/records.md``) of a finished match, as a download;
        ``409 not_finished`` before the end."""
        data = await service.record(match_id)
        name = f"{data['game']}-{match_id}.json"
        return JSONResponse(data, headers={
            "Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/matches/{match_id}/replay/{move}", response_model=ReplayStep,
             responses=ERRORS, tags=["finished games"])
    async def replay_step(match_id: str, move: int, log: LogLimit = None) -> Response:
        """The public view after the first ``move`` actions of a finished match (0: the
        start; ``total``: the end)."""
        total, view = await service.replay_view(match_id, move, log)
        return JSONResponse({"match_id": match_id, "move": move, "total": total,
                             "view": view})

    @app.get("/api/matches/{match_id}/review", response_model=ReviewAnswer, responses=ERRORS,
             tags=["finished games"])
    async def review(match_id: str, token: Token = None,
                     token_q: TokenQuery = None) -> Response:
        """The veteran's review of a finished match: each decision where it would have played
        differently, and the points it estimates that cost. With a token, that seat's
        decisions; without, every seat's. The first request takes up to some seconds a seat;
        the answer is then cached. ``409 not_finished`` before the end."""
        return JSONResponse(await service.review(match_id, token or token_q))

    @app.websocket("/ws/matches/{match_id}")
    async def match_socket(websocket: WebSocket, match_id: str) -> None:
        """Live play: see ``docs/protocol.md``."""
        await MatchConnection(websocket, service, service.pubsub, match_id).run()


# --- pages -----------------------------------------------------------------------------------
def _install_pages(app: FastAPI, web_dir: Path) -> None:
    def index() -> Response:
        page = web_dir / "index.html"
        if page.is_file():
            return FileResponse(page, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(_PLACEHOLDER)

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return index()

    @app.get("/play/{match_id}", include_in_schema=False)
    async def play(match_id: str) -> Response:
        return index()

    @app.get("/watch/{match_id}", include_in_schema=False)
    async def watch(match_id: str) -> Response:
        return index()

    if web_dir.is_dir():
        app.mount("/", StaticFiles(directory=web_dir, html=True), name="web")
