"""The pages of issue 23 (a player's profile, a game's leaderboard) are the web UI's page, like
an invite link's; and the service worker of "your move" notifications is served at the root,
for the whole site, never cached."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_profile_and_leaderboard_pages_are_the_ui_page(client: TestClient) -> None:
    lobby = client.get("/").text
    for path in ("/players/Ann", "/players/Zo%C3%AB%20K", "/leaderboard/trident",
                 "/leaderboard/triangles?players=3"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert page.text == lobby and '<script type="module" src="/js/main.js">' in page.text
        assert page.headers["cache-control"] == "no-cache"
    assert client.get("/players/Ann/more").status_code == 404


def test_the_service_worker_is_served_at_the_root(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["service-worker-allowed"] == "/"
    assert answer.headers["cache-control"] == "no-cache"
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    # It shows the server's payload and opens its address (same origin only).
    assert "showNotification" in answer.text and "notificationclick" in answer.text
    assert "self.location.origin" in answer.text
    favicon = client.get("/favicon-turn.svg")
    assert favicon.status_code == 200 and favicon.headers["content-type"].startswith(
        "image/svg+xml")
