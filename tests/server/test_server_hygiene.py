"""Web hygiene and sizes (issue 20): every defect the audit found, refused at its root.

Sizes: request bodies and websocket messages are limited before they are parsed, a deeply
nested JSON message is ``bad_json`` (and the socket stays), and no error echoes unbounded
input. Web hygiene: security headers on every answer and pages that need no inline script or
style, ``/docs`` from the package's own files, seat tokens out of the logs and in an
``Authorization`` header, the websocket's ``Origin`` checked, and the protocol's small
mismatches (``move: 401.0``, ``Allow`` on ``405``, bad UTF-8) fixed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from server_helpers import act, auth, create, tokens_of, view
from starlette.testclient import WebSocketDenialResponse

import triverse
from triverse.server.app import WEB_DIR, create_app
from triverse.server.config import Settings

LIMIT = 64 * 1024
"""The default limit of a request body (bytes) and a websocket message (characters)."""
MESSAGE_MAX = 600
"""The longest error message."""


def _client(db_url: str, **settings: Any) -> TestClient:
    """A second server beside the fixture's, on a database of its own (one process serves a
    database: docs/server.md, "One process per database")."""
    own = db_url.replace(".sqlite3", f"-{len(settings)}-{sorted(settings)[0]}.sqlite3")
    return TestClient(create_app(settings=Settings(
        db_url=own, bot_delay=0, bot_workers=1, allow_client_seed=True, **settings)))


def _error(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, answer.text
    message: str = error["message"]
    return message


def _seat_to_move(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    """A hot-seat match: its id, the token of the seat to move, and that seat's view."""
    created = create(client, ["human", "human"], mode="hotseat")
    match_id, tokens = created["match_id"], tokens_of(created)
    seat = view(client, match_id)["to_move"]
    return match_id, tokens[seat], view(client, match_id, tokens[seat])


# --- sizes -----------------------------------------------------------------------------------
def test_a_websocket_action_is_capped_like_rest_and_no_error_echoes_it(
        client: TestClient) -> None:
    match_id, token, mine = _seat_to_move(client)
    huge = "1-4-5@2,0/1" + "x" * 100_000
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "view"
        for message in ({"type": "action", "action": "x" * 1001, "move": mine["move"]},
                        {"type": "preview", "action": "x" * 1001}):
            ws.send_json(message)
            error = ws.receive_json()
            assert error["code"] == "bad_request", error
            assert "1000 characters" in error["message"] and "xxxx" not in error["message"]
        ws.send_json({"type": "action", "action": huge[:60_000], "move": mine["move"]})
        error = ws.receive_json()
        assert error["code"] == "bad_request" and len(error["message"]) < 200, error
        ws.send_json({"type": "y" * 60_000})
        error = ws.receive_json()
        assert error["code"] == "bad_request" and len(error["message"]) < 200, error
        assert "60000 characters" in error["message"]
        ws.send_json({"type": "sync"})  # the socket is still open
        assert ws.receive_json()["view"]["move"] == mine["move"]
    # REST: a long game name and unknown option names are quoted short, too.
    message = _error(client.post("/api/matches", json={
        "game": "z" * 50_000, "seats": [{"kind": "human"}, {"kind": "novice"}]}),
        422, "unknown_game")
    assert len(message) <= MESSAGE_MAX and "triominoes" in message
    message = _error(client.post("/api/matches", json={
        "game": "triominoes", "options": {"w" * 50_000: 1},
        "seats": [{"kind": "human"}, {"kind": "novice"}]}), 422, "bad_options")
    assert len(message) <= MESSAGE_MAX
    assert view(client, match_id) == view(client, match_id)  # nothing changed


def test_a_websocket_message_over_the_limit_is_refused_unread(client: TestClient) -> None:
    match_id, token, _ = _seat_to_move(client)
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        ws.receive_json()
        ws.send_text('{"type": "action", "action": "' + "x" * (LIMIT + 10) + '", "move": 0}')
        error = ws.receive_json()
        assert error["code"] == "too_large" and "65,536" in error["message"], error
        ws.send_json({"type": "ping", "id": 1})
        assert ws.receive_json()["type"] == "pong"


def test_rest_bodies_are_limited_before_they_are_read(client: TestClient) -> None:
    # Content-Length over the limit: 413 before a byte is read (the application never runs).
    app = client.app
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        raise AssertionError("the body was read")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/matches", "raw_path":
             b"/api/matches", "root_path": "", "query_string": b"", "server": ("t", 80),
             "client": ("127.0.0.1", 5), "headers": [(b"host", b"t"),
                                                    (b"content-type", b"application/json"),
                                                    (b"content-length", b"52428800")]}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 413
    assert b'"code":"too_large"' in sent[1]["body"]
    # Through the client: a declared length, and a chunked body that only grows too long.
    body = b'{"game": "triominoes", "seats": [], "options": {"a": "' + b"x" * LIMIT + b'"}}'
    message = _error(client.post("/api/matches", content=body,
                                 headers={"Content-Type": "application/json"}),
                     413, "too_large")
    assert "65,536 bytes" in message

    def chunks() -> Iterator[bytes]:
        yield body[:40_000]
        yield body[40_000:]

    _error(client.post("/api/matches", content=chunks(),
                       headers={"Content-Type": "application/json"}), 413, "too_large")
    # Under the limit: as before.
    created = create(client, ["human", "novice"])
    assert created["match_id"]


def test_deeply_nested_json_is_bad_json_and_the_socket_stays(client: TestClient) -> None:
    match_id, token, mine = _seat_to_move(client)
    deep = "[" * 30_000 + "]" * 30_000
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        ws.receive_json()
        ws.send_text(deep)
        error = ws.receive_json()
        assert error["code"] == "bad_json" and "deep" in error["message"], error
        ws.send_text('{"type": "action", "action": ' + "[" * 20_000 + "]" * 20_000 + "}")
        assert ws.receive_json()["code"] == "bad_json"
        # Deep enough to read, but too deep to echo in the answer: refused before it is.
        for depth in (33, 500, 977):
            ws.send_text('{"type": "ping", "id": ' + "[" * depth + "]" * depth + "}")
            assert ws.receive_json()["code"] == "bad_json", depth
        ws.send_json({"type": "ping", "id": {"a": [[[[1]]]]}})  # but an id may nest a little
        pong = ws.receive_json()
        assert pong["type"] == "pong" and pong["id"] == {"a": [[[[1]]]]}, pong
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["view"]["move"] == mine["move"]
    # The first message too: a hello that cannot be read is refused as bad_json.
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_text(deep)
        assert ws.receive_json()["code"] == "bad_json"
    # And over REST.
    _error(client.post(f"/api/matches/{match_id}/actions", headers={
        **auth(token), "Content-Type": "application/json"}, content=deep.encode()),
        400, "bad_json")


# --- headers and pages -----------------------------------------------------------------------
def test_every_answer_has_the_security_headers(client: TestClient) -> None:
    match_id, token, _ = _seat_to_move(client)
    answers = [
        client.get("/"), client.get(f"/play/{match_id}"), client.get("/css/app.css"),
        client.get("/js/main.js"), client.get("/rules/trident.html"), client.get("/docs"),
        client.get("/openapi.json"), client.get("/api/health"), client.get("/api/games"),
        client.get(f"/api/matches/{match_id}/view", headers=auth(token)),
        client.get("/api/nowhere"), client.get("/no/such/file.js"),
        client.post("/api/health"),
        client.post("/api/matches", json={"game": "nope", "seats": []}),
        client.post("/api/matches", content=b"{", headers={"Content-Type": "application/json"}),
        client.post("/api/matches", content=b"x" * (LIMIT + 1)),
    ]
    csp = answers[0].headers.get("content-security-policy", "")
    for answer in answers:
        headers = answer.headers
        assert headers.get("content-security-policy") == csp, answer.url
        assert headers.get("x-content-type-options") == "nosniff", answer.url
        assert headers.get("referrer-policy") == "no-referrer", answer.url
        assert headers.get("x-frame-options") == "DENY", answer.url
    policy = dict(part.split(" ", 1) for part in csp.split("; "))
    assert policy["default-src"] == "'self'" and policy["connect-src"] == "'self'"
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'" and "unsafe" not in csp


class _Inline(HTMLParser):
    """What a page has that a Content-Security-Policy without 'unsafe-inline' blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.sources: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and not names.get("src"):
            self.found.append("an inline <script>")
        if tag == "style":
            self.found.append("a <style> element")
        for name, value in attrs:
            if name == "style":
                self.found.append(f"style={value!r} on <{tag}>")
            if name.startswith("on"):
                self.found.append(f"{name}= on <{tag}>")
            if name in ("href", "src") and value and value.startswith("javascript:"):
                self.found.append(f"a javascript: URL on <{tag}>")
        for name in ("src", "href"):
            if tag in ("script", "link", "img") and names.get(name):
                self.sources.append(str(names[name]))


def _inline(html: str) -> _Inline:
    parser = _Inline()
    parser.feed(html)
    return parser


def test_the_pages_need_no_inline_script_or_style(client: TestClient) -> None:
    pages = [WEB_DIR / "index.html", *sorted((WEB_DIR / "rules").glob("*.html"))]
    assert len(pages) >= 7
    for page in pages:
        assert _inline(page.read_text(encoding="utf-8")).found == [], page
    assert _inline(client.get("/docs").text).found == []


def test_the_api_docs_come_from_the_package_or_not_at_all(
        client: TestClient, db_url: str) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and "swagger-ui" in page.text
    sources = _inline(page.text).sources
    assert any(s.endswith("swagger-ui-bundle.js") for s in sources)
    for source in sources:
        assert source.startswith("/"), source  # no CDN: everything from this server
        asset = client.get(source)
        assert asset.status_code == 200 and asset.content, source
    assert "/openapi.json" in client.get("/docs/start.js").text
    assert client.get("/redoc").status_code == 404  # its script would come from a CDN
    with _client(db_url, api_docs=False) as off:
        assert off.get("/docs").status_code == 404
        assert off.get("/api/health").status_code == 200


# --- tokens ----------------------------------------------------------------------------------
def test_a_bearer_token_opens_the_seat(client: TestClient) -> None:
    match_id, token, mine = _seat_to_move(client)
    bearer = {"Authorization": f"Bearer {token}"}
    assert client.get(f"/api/matches/{match_id}/view", headers=bearer).json() == mine
    legal = mine["legal_actions"][0]["notation"]
    answer = client.post(f"/api/matches/{match_id}/actions", headers=bearer,
                         json={"action": legal, "move": mine["move"]})
    assert answer.status_code == 200 and answer.json()["accepted"], answer.text
    _error(client.get(f"/api/matches/{match_id}/view",
                      headers={"Authorization": "Bearer not-a-token"}), 403, "wrong_token")
    # Another scheme is no token: the public view.
    other = client.get(f"/api/matches/{match_id}/view", headers={"Authorization": f"Basic {token}"})
    assert other.status_code == 200 and other.json()["seat"] is None
    assert "SeatToken" in client.get("/openapi.json").json()["components"]["securitySchemes"]


def test_the_web_client_sends_the_token_in_a_header() -> None:
    api = (WEB_DIR / "js" / "api.js").read_text(encoding="utf-8")
    assert "Authorization = `Bearer ${token}`" in api and "token=" not in api


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_tokens_in_query_strings_never_reach_the_logs(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    port = _free_port()
    secret = "fEwFMteuQgzO-YKviUrlB26t619kdwCD"
    code = ("from triverse.server import serve; "
            f"serve('127.0.0.1', {port}, 'sqlite:///{tmp_path / 'db.sqlite3'}', "
            "bot_executor='thread', bot_workers=1)")
    env = {**os.environ, "PYTHONPATH": str(Path(triverse.__file__).parents[1])}
    out = tmp_path / "server.log"
    with out.open("wb") as log_file:
        server = subprocess.Popen([sys.executable, "-c", code], stdout=log_file,
                                  stderr=subprocess.STDOUT, env=env)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{base}/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline and server.poll() is None, out.read_text()
                time.sleep(0.1)
            for path in (f"/api/matches/m1/view?token={secret}",
                         f"/api/matches/m1/view?log=3&token={secret}&x=1",
                         f"/play/m1?TOKEN={secret}"):
                httpx.get(base + path)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
    logged = out.read_text()
    assert "/api/matches/m1/view?log=3&token=[redacted]&x=1" in logged, logged
    assert "/play/m1?TOKEN=[redacted]" in logged
    assert secret not in logged
    # The server's own loggers hide them too.
    with caplog.at_level(logging.INFO):
        create_app("sqlite://")
        logging.getLogger("triverse.server.ws").warning("bad link %s", f"/x?token={secret}")
        logging.getLogger("uvicorn.error").info('"WebSocket /ws/matches/m?token=%s"', secret)
    assert secret not in caplog.text and caplog.text.count("token=[redacted]") == 2


# --- the websocket's origin ------------------------------------------------------------------
def _hello(client: TestClient, match_id: str, origin: str | None) -> str:
    headers = {} if origin is None else {"Origin": origin}
    try:
        with client.websocket_connect(f"/ws/matches/{match_id}", headers=headers) as ws:
            ws.send_json({"type": "hello"})
            kind: str = ws.receive_json()["type"]
            return kind
    except WebSocketDenialResponse as refusal:
        assert refusal.status_code == 403
        code: str = refusal.json()["error"]["code"]
        return code


def test_a_websocket_from_a_foreign_origin_is_refused(client: TestClient, db_url: str) -> None:
    match_id = create(client, ["human", "novice"])["match_id"]
    assert _hello(client, match_id, None) == "view"  # a program, not a browser
    assert _hello(client, match_id, "http://testserver") == "view"  # the server's own pages
    assert _hello(client, match_id, "https://testserver") == "view"  # behind a TLS proxy
    for foreign in ("http://evil.example", "http://testserver.evil.example",
                    "http://testserver:8080", "null", "file://"):
        assert _hello(client, match_id, foreign) == "bad_origin", foreign
    with _client(db_url, allowed_origins="https://play.example.org") as other:
        theirs = create(other, ["human", "novice"])["match_id"]
        assert _hello(other, theirs, "https://play.example.org") == "view"
        assert _hello(other, theirs, "https://PLAY.example.org/") == "view"
        assert _hello(other, theirs, "http://evil.example") == "bad_origin"
    with _client(db_url, allowed_origins="*") as anyone:
        theirs = create(anyone, ["human", "novice"])["match_id"]
        assert _hello(anyone, theirs, "http://evil.example") == "view"


# --- protocol mismatches ---------------------------------------------------------------------
def test_a_move_number_may_be_an_integral_float(client: TestClient) -> None:
    match_id, token, mine = _seat_to_move(client)
    legal = mine["legal_actions"][0]["notation"]
    for move in (mine["move"] + 0.5, "0", True):
        _error(act(client, match_id, token, legal, move), 422, "bad_request")
    answer = act(client, match_id, token, legal, float(mine["move"]))
    assert answer.status_code == 200 and answer.json()["move"] == mine["move"], answer.text
    assert isinstance(answer.json()["move"], int)
    # The other optional move numbers too: this hint's move is read (the seat is not to move).
    hint = client.post(f"/api/matches/{match_id}/hint", headers=auth(token),
                       json={"move": float(mine["move"] + 1)})
    _error(hint, 409, "not_your_turn")


def test_a_websocket_move_number_may_be_an_integral_float(client: TestClient) -> None:
    match_id, token, mine = _seat_to_move(client)
    legal = mine["legal_actions"][0]["notation"]
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": token, "seat": float(mine["seat"]), "log": 5.0})
        assert ws.receive_json()["view"]["seat"] == mine["seat"]
        ws.send_json({"type": "action", "action": legal, "move": mine["move"] + 0.5, "id": 1})
        assert ws.receive_json()["code"] == "bad_request"
        ws.send_json({"type": "action", "action": legal, "move": float(mine["move"]), "id": 2})
        answer = ws.receive_json()
        assert answer["type"] == "accepted" and answer["move"] == mine["move"], answer


def test_a_405_says_which_methods_are_allowed(client: TestClient) -> None:
    for method, path, allowed in [("POST", "/api/health", "GET"),
                                  ("DELETE", "/api/matches", "POST"),
                                  ("PUT", "/api/matches/m1/actions", "POST"),
                                  ("POST", "/css/app.css", "GET, HEAD")]:
        answer = client.request(method, path)
        _error(answer, 405, "http_error")
        assert answer.headers["allow"] == allowed, (method, path)


def test_bad_utf8_is_bad_json(client: TestClient) -> None:
    match_id, token, _ = _seat_to_move(client)
    message = _error(client.post(f"/api/matches/{match_id}/actions", headers={
        **auth(token), "Content-Type": "application/json"},
        content=b'{"action": "\xff\xfe", "move": 0}'), 400, "bad_json")
    assert "UTF-8" in message
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        ws.receive_json()
        ws.send_bytes(b'{"type": "action", "action": "\xff", "move": 0}')
        assert ws.receive_json()["code"] == "bad_json"
        ws.send_bytes(b'{"type": "ping"}')  # a binary frame of UTF-8 JSON is read as before
        assert ws.receive_json()["type"] == "pong"
