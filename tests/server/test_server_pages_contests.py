"""The contests' pages (issue 24) are the web UI's page, like a profile's: ``/contests`` (the
list and the New contest form) and ``/contests/{id}`` (a contest; an entrant's personal link
adds ``#me=SECRET``, a fragment no server ever sees)."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_the_contests_pages_are_the_ui_page(client: TestClient) -> None:
    lobby = client.get("/").text
    for path in ("/contests", "/contests/AbC-12_x", "/contests/some%20id"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert page.text == lobby and '<script type="module" src="/js/main.js">' in page.text
        assert page.headers["cache-control"] == "no-cache"
    assert client.get("/contests/abc/more").status_code == 404
    # The page's modules and style sheet are the server's own files (no inline script).
    for asset in ("/js/contests.js", "/js/contest.js", "/js/contest-boards.js",
                  "/js/contest-me.js", "/js/contest-host.js", "/js/contest-new.js",
                  "/css/contests.css"):
        answer = client.get(asset)
        assert answer.status_code == 200, asset
        assert "script-src 'self'" in answer.headers["content-security-policy"]
