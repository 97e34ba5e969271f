"""The browser's translation catalogues, and which language a request asks for.

A browser keeps its language in localStorage and in the ``triverse_lang`` cookie
(``web/js/i18n.js``), so that the pages the server writes (the lobby's header, the rules pages)
come in the same language; without the cookie, ``Accept-Language`` decides.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from triverse.i18n import LANGUAGES, browser_catalogue, language_code, negotiate
from triverse.server.errors import ServerError, clip
from triverse.server.routes.deps import ERRORS

COOKIE = "triverse_lang"
"""The cookie in which a browser keeps its chosen language."""

router = APIRouter()


def request_language(request: Request) -> str:
    """The language of a request: its cookie's, else its ``Accept-Language``'s, else English."""
    chosen = language_code(request.cookies.get(COOKIE))
    return chosen or negotiate(request.headers.get("accept-language"))


@router.get("/api/i18n/{lang}", responses=ERRORS, tags=["games"])
async def catalogue(lang: str, response: Response) -> dict[str, Any]:
    """The browser's catalogue of ``lang`` (``en``, ``pl`` or ``fr``): each msgid's text or plural
    forms, from the gettext catalogues (docs/i18n.md)."""
    if lang not in LANGUAGES:
        raise ServerError("unknown_language",
                          f"no language {clip(lang)}: Triverse speaks {', '.join(LANGUAGES)}")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return browser_catalogue(lang)
