"""The web UI: ``/``, the invite and spectator links, the players' profiles, the
leaderboards and the contests (all ``index.html``), its service worker (``/sw.js``) and its
files; and the API's documentation page, ``/docs``.

Every page keeps its scripts and styles in files of the server's own, so that the
Content-Security-Policy of :mod:`triverse.server.guards` can forbid inline ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from triverse.server.catalog import GameEntry
from triverse.server.routes.languages import request_language
from triverse.webpages import localized_index

RULES_PAGE = re.compile(r"[a-z0-9-]+\.html")
"""The name of a rules page (``/rules/pl/trident.html`` is served by the static files)."""

VARY = {"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"}
"""A page written in the request's language."""

UI_PAGES = ("/", "/play/{match_id}", "/watch/{match_id}", "/players/{name}",
            "/leaderboard/{game}", "/contests", "/contests/{contest_id}")
"""The addresses of the UI's page (``index.html``; ``main.js`` draws what each one shows):
the lobby, a seat, a spectator, a player's profile, a game's leaderboard, the contests, a
contest."""

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Triverse</title></head>
<body><h1>Triverse</h1><p>The server is running, but the web UI is not installed here.</p>
<p>The API is documented at <a href="/docs">/docs</a>.</p></body></html>
"""
"""The page served at ``/`` when the web UI is not installed."""


def pages_router(web_dir: Path) -> APIRouter:
    """The routes of the UI's pages, served from ``web_dir``."""
    router = APIRouter(include_in_schema=False)

    def index(request: Request) -> Response:
        page = web_dir / "index.html"
        if not page.is_file():
            return HTMLResponse(PLACEHOLDER)
        lang = request_language(request)
        html = localized_index(page.read_text(encoding="utf-8"), lang)
        return HTMLResponse(html, headers={**VARY, "Content-Language": lang})

    async def page(request: Request) -> Response:
        return index(request)

    for path in UI_PAGES:
        router.add_api_route(path, page, methods=["GET"])

    @router.get("/sw.js")
    async def service_worker() -> Response:
        """The service worker of "your move" notifications, for the whole site (scope ``/``);
        never cached, so that a new one takes over at the next visit."""
        script = web_dir / "sw.js"
        if not script.is_file():
            raise HTTPException(404)
        return FileResponse(script, media_type="text/javascript", headers={
            "Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})

    @router.get("/rules/")
    async def rules_index(request: Request) -> Response:
        return rules_page("index.html", request)

    @router.get("/rules/{name}")
    async def rules(name: str, request: Request) -> Response:
        return rules_page(name, request)

    def rules_page(name: str, request: Request) -> Response:
        """A rules page in the request's language where it is translated, else in English."""
        if not RULES_PAGE.fullmatch(name):
            raise HTTPException(404)
        lang = request_language(request)
        for page in (web_dir / "rules" / lang / name, web_dir / "rules" / name):
            if page.is_file():
                return FileResponse(page, headers={**VARY, "Content-Language": (
                    lang if page.parent.name == lang else "en")})
        raise HTTPException(404)

    return router


DOCS_ASSETS = "/docs/assets"
"""Where Swagger UI's script and styles are served, from the ``fastapi-offline`` package."""

DOCS_PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Triverse: the REST API</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{DOCS_ASSETS}/swagger-ui.css">
</head><body><div id="swagger-ui"></div>
<script src="{DOCS_ASSETS}/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body></html>
"""
"""``/docs``: Swagger UI, started by ``/docs/start.js`` (no inline script)."""

DOCS_START = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
"""
"""``/docs/start.js``: starts Swagger UI on the server's OpenAPI schema (and asks no outside
validator)."""


def install_api_docs(app: FastAPI) -> None:
    """``/docs``: the REST API's interactive documentation, with Swagger UI's files from the
    ``fastapi-offline`` package at :data:`DOCS_ASSETS` (no CDN)."""
    router = APIRouter(include_in_schema=False)

    @router.get("/docs")
    async def docs() -> Response:
        return HTMLResponse(DOCS_PAGE, headers={"Cache-Control": "no-cache"})

    @router.get("/docs/start.js")
    async def docs_start() -> Response:
        return Response(DOCS_START, media_type="text/javascript")

    app.include_router(router)
    assets = files("fastapi_offline") / "static"
    app.mount(DOCS_ASSETS, StaticFiles(directory=str(assets)), name="docs-assets")


def install_pages(app: FastAPI, web_dir: Path, games: Iterable[GameEntry] = ()) -> None:
    """Add the pages; the static files a game plugin from another package ships (its
    ``static``, ``"package:folder"``) at ``/games/{name}/``; then the UI's files at ``/``
    (last, since the mount takes every path no route took)."""
    app.include_router(pages_router(web_dir))
    for game in games:
        if game.static is not None:
            package, _, folder = game.static.partition(":")
            app.mount(f"/games/{game.name}", StaticFiles(packages=[(package, folder or "web")]),
                      name=f"game-{game.name}")
    if web_dir.is_dir():
        app.mount("/", StaticFiles(directory=web_dir, html=True), name="web")
