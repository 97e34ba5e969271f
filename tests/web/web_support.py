"""What the browser tests share: the live server in a thread, screenshots, viewports.

The server runs in the test process so that a test can peek at what the server holds (the
hands, to prove that no page ever receives another seat's tiles) and stop and restart it on the
same port and database.
"""
from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("TRIVERSE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """The Triverse server under uvicorn in a background thread."""

    def __init__(self, db_url: str, port: int | None = None) -> None:
        self.db_url = db_url
        self.port = port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.error: BaseException | None = None

    def start(self) -> LiveServer:
        import uvicorn

        from triverse.server.app import create_app

        self.app = create_app(self.db_url, bot_delay=0.05, bot_workers=1,
                              bot_executor="thread", allow_client_seed=True,
                              hint_budget=0.15, review_budget=0.05, review_total=2.0)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="on", timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)

        def run() -> None:
            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)
            try:
                self.loop.run_until_complete(self.server.serve())
            except BaseException as exc:  # reported by start()
                self.error = exc
            finally:
                self.loop.close()

        self.thread = threading.Thread(target=run, name=f"triverse-{self.port}", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if self.error is not None or not self.thread.is_alive():
                raise RuntimeError(f"the server did not start: {self.error!r}")
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start within 20 s")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self.thread is None:
            return
        self.server.should_exit = True
        self.thread.join(15)
        assert not self.thread.is_alive(), "the server did not stop"
        self.thread = None

    def call(self, make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
        """Run a coroutine on the server's event loop and return its result."""
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(make(), self.loop).result(15)

    def observations(self, match_id: str, seat: int) -> list[dict[str, Any]]:
        """The engine's observation of ``seat`` after each move 0..n, replayed from the match's
        seed and stored moves: the hands exactly as the server holds them."""
        service = self.app.state.service

        async def replay() -> list[dict[str, Any]]:
            live = await service.live(match_id, fresh=True)
            state = live.game.new_initial_state(seed=live.seed)
            out = [state.observation(seat).to_json()]
            for entry in live.log:
                state.apply_notation(entry.action)
                out.append(state.observation(seat).to_json())
            return out

        result: list[dict[str, Any]] = self.call(replay)
        return result


    def state(self, match_id: str) -> Any:
        """The match's position now, replayed from its seed and stored moves (the server's
        own)."""
        service = self.app.state.service

        async def replay() -> Any:
            live = await service.live(match_id, fresh=True)
            state = live.game.new_initial_state(seed=live.seed)
            for entry in live.log:
                state.apply_notation(entry.action)
            return state

        return self.call(replay)


def started_with(db: Path, settings: dict[str, str]) -> LiveServer:
    """A server on the SQLite file ``db`` started with the ``TRIVERSE_*`` environment
    ``settings`` (``docs/server.md``), which are restored once it has read them."""
    saved = {name: os.environ.get(name) for name in settings}
    os.environ.update(settings)
    try:
        return LiveServer(f"sqlite:///{db}").start()
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value


def screenshot(page: Any, name: str) -> Path:
    """Save a screenshot under test-artifacts/screenshots/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
