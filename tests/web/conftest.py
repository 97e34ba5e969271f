"""Fixtures of the browser tests: the real server (uvicorn in a thread, on a free port and a
SQLite file of its own) and a headless Chromium driven by Playwright.

Debian's Chromium is used (/usr/bin/chromium, or $TRIVERSE_CHROMIUM): the tests are skipped,
with the reason, where it is missing, except under CI (where .ci/run installs it): there they fail.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import CHROMIUM, CHROMIUM_ARGS, DESKTOP, LiveServer


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        message = f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message + "; .ci/run installs it, so CI must not skip them")
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(scope="session")
def playwright_session(chromium_path: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright_session: Any, chromium_path: str) -> Iterator[Any]:
    b = playwright_session.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[LiveServer]:
    """One server for the tests of this worker that do not restart it."""
    db = tmp_path_factory.mktemp("web") / "triverse.sqlite3"
    live = LiveServer(f"sqlite:///{db}").start()
    yield live
    live.stop()


@pytest.fixture
def own_server(tmp_path: Path, chromium_path: str) -> Iterator[LiveServer]:
    """A server of this test's own (which the test may stop and restart)."""
    live = LiveServer(f"sqlite:///{tmp_path / 'triverse.sqlite3'}")
    live.start()
    yield live
    live.stop()


class PageErrors(list[str]):
    """JavaScript errors a page raised (every test asserts there were none)."""


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """Open pages in fresh browser contexts (each its own localStorage); closes them after.

    Every page records uncaught JavaScript errors in ``page.errors``; the fixture fails the
    test if any happened.
    """
    contexts: list[Any] = []
    pages: list[Any] = []

    def make(viewport: dict[str, int] | None = None, context: Any = None) -> Any:
        ctx = context
        if ctx is None:
            ctx = browser.new_context(viewport=viewport or DESKTOP, accept_downloads=True)
            contexts.append(ctx)
        page = ctx.new_page()
        page.errors = PageErrors()
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.set_default_timeout(20_000)
        pages.append(page)
        return page

    yield make
    errors = [e for p in pages for e in p.errors]
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


