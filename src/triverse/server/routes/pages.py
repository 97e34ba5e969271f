"""The web UI: ``/``, the invite and spectator links (all ``index.html``), and its files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from triverse.server.catalog import GameEntry

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Triverse</title></head>
<body><h1>Triverse</h1><p>The server is running, but the web UI is not installed here.</p>
<p>The API is documented at <a href="/docs">/docs</a>.</p></body></html>
"""
"""The page served at ``/`` when the web UI is not installed."""


def pages_router(web_dir: Path) -> APIRouter:
    """The routes of the UI's pages, served from ``web_dir``."""
    router = APIRouter(include_in_schema=False)

    def index() -> Response:
        page = web_dir / "index.html"
        if page.is_file():
            return FileResponse(page, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(PLACEHOLDER)

    @router.get("/")
    async def home() -> Response:
        return index()

    @router.get("/play/{match_id}")
    async def play(match_id: str) -> Response:
        return index()

    @router.get("/watch/{match_id}")
    async def watch(match_id: str) -> Response:
        return index()

    return router


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
