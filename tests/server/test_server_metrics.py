"""Observability: ``/metrics`` (Prometheus), the moves' JSON log lines, and ``/api/health``
checking the database and Redis for real (PostgreSQL and Redis on this machine's loopback;
the tests that need them are skipped, with the reason, when they do not answer)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import Json, act, auth, create, play_to_end, tokens_of, view, wait_view
from sqlalchemy import create_engine
from test_server_postgres import pg_url  # noqa: F401  (a fixture)

import triverse
from triverse.server.app import create_app
from triverse.server.clock import ManualClock
from triverse.server.config import Settings
from triverse.server.guards import SECURITY_HEADERS
from triverse.server.health import Health
from triverse.server.logs import MOVES, JsonFormatter, logging_config
from triverse.server.service import MatchService

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
REDIS = ("127.0.0.1", 6379)


def scrape(client: TestClient) -> Samples:
    """Every sample ``/metrics`` shows, by name and labels."""
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(answer.text)
            for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    """A sample's value (0 when the series does not exist yet)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def service_of(client: TestClient) -> MatchService:
    service: MatchService = client.app.state.service  # type: ignore[attr-defined]
    return service


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def app_with(db_url: str, **given: Any) -> TestClient:
    """A server with these settings (and instant computer players)."""
    settings = Settings(db_url=db_url, bot_delay=0, bot_workers=1, bot_executor="thread",
                        allow_client_seed=True, **given)
    return TestClient(create_app(settings=settings))


def computer_moves(client: TestClient, match_id: str) -> int:
    """The moves of the match's computer seat (seat 1) so far."""
    return sum(1 for entry in view(client, match_id)["log"] if entry["player"] == 1)


# --- /metrics --------------------------------------------------------------------------------
def test_moves_errors_and_sockets_show_in_the_metrics(client: TestClient) -> None:
    created = create(client, ["human", "average"], seed=5)
    match_id, token = created["match_id"], tokens_of(created)[0]
    play_to_end(client, match_id, {0: token}, max_moves=3)
    settled = wait_view(client, match_id, token, lambda v: v["your_turn"] or v["finished"])
    human = sum(1 for entry in settled["log"] if entry["player"] == 0)
    assert human == 3
    stale = act(client, match_id, token, "anything", settled["move"] - 1)
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_move"
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "view"
        ws.send_json({"type": "dance"})
        assert ws.receive_json()["code"] == "bad_request"
        during = scrape(client)
    after = scrape(client)

    assert value(after, "triverse_moves_total", game="triominoes", player="human") == 3
    assert value(after, "triverse_moves_total", game="triominoes", player="computer") == (
        computer_moves(client, match_id)) >= 3
    assert value(after, "triverse_move_seconds_count", game="triominoes") == 3
    assert value(after, "triverse_move_seconds_bucket", game="triominoes", le="+Inf") == 3
    assert 0 < value(after, "triverse_move_seconds_sum", game="triominoes") < 30
    assert value(after, "triverse_errors_total", code="stale_move", via="http") == 1
    assert value(after, "triverse_errors_total", code="bad_request", via="websocket") == 1
    assert value(during, "triverse_websockets_open") == 1
    assert value(after, "triverse_websockets_open") == 0
    assert value(after, "triverse_live_matches") == 1
    assert value(after, "triverse_computer_queue") == 0
    assert value(after, "triverse_worker_jobs", state="waiting") == 0
    assert value(after, "process_resident_memory_bytes") > 0


def test_the_metrics_page_passes_the_guards_and_is_no_api(client: TestClient) -> None:
    answer = client.get("/metrics")
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert answer.headers["cache-control"] == "no-store"
    for name, header in SECURITY_HEADERS.items():
        assert answer.headers[name] == header
    assert "/metrics" not in client.get("/openapi.json").json()["paths"]
    open_metrics = client.get("/metrics", headers={
        "Accept": "application/openmetrics-text; version=1.0.0"})
    assert open_metrics.headers["content-type"].startswith("application/openmetrics-text")
    assert open_metrics.text.endswith("# EOF\n")
    refused = client.post("/metrics")
    assert refused.status_code == 405 and refused.headers["allow"] == "GET"


def test_two_servers_in_one_process_count_apart(tmp_path: Path) -> None:
    with app_with(f"sqlite:///{tmp_path / 'a.sqlite3'}") as one, \
            app_with(f"sqlite:///{tmp_path / 'b.sqlite3'}") as two:
        created = create(one, ["human", "human"], mode="hotseat")
        tokens = tokens_of(created)
        play_to_end(one, created["match_id"], tokens, max_moves=2)
        assert value(scrape(one), "triverse_moves_total", game="triominoes", player="human") == 2
        assert value(scrape(two), "triverse_moves_total", game="triominoes", player="human") == 0
        assert value(scrape(two), "triverse_live_matches") == 0


def test_metrics_can_be_turned_off(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIVERSE_METRICS", "false")
    with TestClient(create_app(db_url, bot_workers=1)) as off:
        answer = off.get("/metrics")
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
        assert answer.headers["x-frame-options"] == "DENY"
        assert off.get("/api/health").status_code == 200


def test_rate_limit_refusals_are_counted(db_url: str) -> None:
    with app_with(db_url, rate_create="1/minute") as server:
        create(server, ["human", "human"], mode="hotseat")
        refused = server.post("/api/matches", json={
            "game": "trident", "mode": "hotseat", "seats": [{"kind": "human"}] * 2})
        assert refused.status_code == 429 and "retry-after" in refused.headers
        assert value(scrape(server), "triverse_errors_total", code="rate_limited",
                     via="http") == 1


def test_a_time_out_counts_as_a_move(db_url: str) -> None:
    clock = ManualClock()
    with TestClient(create_app(db_url, bot_delay=0, bot_workers=1, clock=clock)) as server:
        answer = server.post("/api/matches", json={
            "game": "trident", "options": {"time_limit": 60}, "mode": "online",
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        match_id = answer.json()["match_id"]
        clock.advance(61)
        wait_view(server, match_id, None, lambda v: v["move"] == 1)
        samples = scrape(server)
    assert value(samples, "triverse_moves_total", game="trident", player="timeout") == 1
    assert value(samples, "triverse_move_seconds_count", game="trident") == 0


# --- logs ------------------------------------------------------------------------------------
@pytest.fixture
def move_lines() -> Iterator[io.StringIO]:
    """What the ``triverse.moves`` logger writes, as JSON lines."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    level = MOVES.level
    MOVES.addHandler(handler)
    MOVES.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        MOVES.removeHandler(handler)
        MOVES.setLevel(level)


def test_each_move_is_one_json_line_with_its_match_and_latency(
        client: TestClient, move_lines: io.StringIO) -> None:
    created = create(client, ["human", "novice"], seed=3)
    match_id, token = created["match_id"], tokens_of(created)[0]
    mine = view(client, match_id, token)
    answer = client.post(f"/api/matches/{match_id}/actions?token={token}",
                         json={"action": mine["legal_actions"][0]["notation"], "move": 0})
    assert answer.status_code == 200, answer.text
    wait_view(client, match_id, token, lambda v: v["move"] >= 2)
    text = move_lines.getvalue()
    assert token not in text and created["seats"][0]["link"] not in text
    events = [json.loads(line) for line in text.splitlines()]
    assert [(e["move"], e["seat"], e["player"]) for e in events[:2]] == [
        (0, 0, "human"), (1, 1, "computer")]
    first = events[0]
    assert first["event"] == "move" and first["logger"] == "triverse.moves"
    assert first["match"] == match_id and first["game"] == "triominoes"
    assert first["level"] == "INFO" and first["time"].endswith("Z")
    assert isinstance(first["latency_ms"], float) and 0 < first["latency_ms"] < 30_000
    assert first["message"] == (f"match {match_id} (triominoes): move 0 by seat 0 (human) "
                                f"in {first['latency_ms']:.1f} ms")


def test_json_lines_redact_tokens_and_give_access_fields() -> None:
    record = logging.makeLogRecord({
        "name": "uvicorn.access", "levelno": 20, "levelname": "INFO",
        "msg": '%s - "%s %s HTTP/%s" %d',
        "args": ("127.0.0.1:5000", "GET", "/api/matches/m1/view?token=fEwFMteuQgzO", "1.1", 200)})
    line = json.loads(JsonFormatter().format(record))
    assert line["path"] == "/api/matches/m1/view?token=[redacted]"
    assert (line["client"], line["method"], line["status"]) == ("127.0.0.1:5000", "GET", 200)
    assert "fEwFMteuQgzO" not in json.dumps(line)
    try:
        raise ValueError("boom")
    except ValueError:
        failed = logging.makeLogRecord({"name": "triverse.server.app", "levelno": 40,
                                        "levelname": "ERROR", "msg": "request failed",
                                        "exc_info": sys.exc_info()})
    assert "ValueError: boom" in json.loads(JsonFormatter().format(failed))["exception"]
    assert logging_config("json")["formatters"]["default"] == {
        "()": "triverse.server.logs.JsonFormatter"}
    assert "()" in logging_config("text")["formatters"]["default"]  # uvicorn's own


def test_the_log_format_comes_from_the_flag_or_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import triverse.server
    from triverse import cli

    served: list[Settings] = []
    monkeypatch.setattr(triverse.server, "serve", lambda **kw: served.append(kw["settings"]))
    monkeypatch.setenv("TRIVERSE_PORT", str(free_port()))
    monkeypatch.setenv("TRIVERSE_DB_URL", "sqlite://")
    assert cli.main(["serve"], io.StringIO()) == 0
    assert cli.main(["serve", "--log-json"], io.StringIO()) == 0
    monkeypatch.setenv("TRIVERSE_LOG_FORMAT", "json")
    assert cli.main(["serve"], io.StringIO()) == 0
    assert [s.log_format for s in served] == ["text", "json", "json"]
    monkeypatch.setenv("TRIVERSE_LOG_FORMAT", "xml")
    with pytest.raises(ValueError, match="log_format"):
        Settings()


def test_triverse_serve_log_json_writes_json_lines(tmp_path: Path) -> None:
    port = free_port()
    code = ("import sys; from triverse.cli import main; sys.exit(main(['serve', '--log-json', "
            f"'--port', '{port}', '--db', 'sqlite:///{tmp_path / 'db.sqlite3'}']))")
    env = {**os.environ, "PYTHONPATH": str(Path(triverse.__file__).parents[1]),
           "TRIVERSE_BOT_EXECUTOR": "thread", "TRIVERSE_BOT_WORKERS": "1"}
    out = tmp_path / "server.log"
    base = f"http://127.0.0.1:{port}"
    with out.open("wb") as log_file:
        server = subprocess.Popen([sys.executable, "-c", code], stdout=log_file,
                                  stderr=subprocess.STDOUT, env=env)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{base}/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline and server.poll() is None, out.read_text()
                time.sleep(0.1)
            created = httpx.post(f"{base}/api/matches", json={
                "game": "trident", "mode": "hotseat", "seats": [{"kind": "human"}] * 2}).json()
            match_id = created["match_id"]
            to_move = httpx.get(f"{base}/api/matches/{match_id}/view").json()["to_move"]
            token = created["seats"][to_move]["token"]
            mine = httpx.get(f"{base}/api/matches/{match_id}/view", headers=auth(token)).json()
            played = httpx.post(f"{base}/api/matches/{match_id}/actions?token={token}", json={
                "action": mine["legal_actions"][0]["notation"], "move": 0})
            assert played.status_code == 200, played.text
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
    lines = [line for line in out.read_text().splitlines()
             if line.startswith("{")]  # the CLI's own greeting is text
    events = [json.loads(line) for line in lines]
    assert token not in out.read_text()
    moves = [e for e in events if e.get("event") == "move"]
    assert len(moves) == 1 and moves[0]["match"] == match_id and moves[0]["move"] == 0
    assert moves[0]["game"] == "trident" and moves[0]["latency_ms"] > 0
    access = [e for e in events if e["logger"] == "uvicorn.access"]
    assert f"/api/matches/{match_id}/actions?token=[redacted]" in [e["path"] for e in access]
    assert any(e["logger"] == "triverse.server.app" and "ready" in e["message"] for e in events)


# --- /api/health -----------------------------------------------------------------------------
def test_health_checks_the_database(client: TestClient) -> None:
    answer = client.get("/api/health")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "database": "ok"}
    assert answer.headers["cache-control"] == "no-store"
    repository = service_of(client).repository
    working = repository.engine
    repository.engine = create_engine("sqlite:////no/such/directory/triverse.sqlite3")
    try:
        failing = client.get("/api/health")
    finally:
        repository.engine.dispose()
        repository.engine = working
    assert failing.status_code == 503
    assert failing.json() == {"status": "failing", "database": "failing"}
    assert failing.headers["x-content-type-options"] == "nosniff"
    assert client.get("/api/health").status_code == 200


def test_health_checks_postgresql(pg_url: str) -> None:  # noqa: F811
    with app_with(pg_url) as server:
        assert server.get("/api/health").json() == {"status": "ok", "database": "ok"}
        repository = service_of(server).repository
        working = repository.engine
        repository.engine = create_engine(
            f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/test")
        try:
            failing = server.get("/api/health")
        finally:
            repository.engine.dispose()
            repository.engine = working
        assert failing.status_code == 503
        assert failing.json() == {"status": "failing", "database": "failing"}


def _redis_answers() -> bool:
    try:
        with socket.create_connection(REDIS, timeout=1):
            return True
    except OSError:
        return False


def test_health_checks_redis_when_the_rate_limits_count_there(db_url: str) -> None:
    if not _redis_answers():
        pytest.skip(f"Redis is not reachable at {REDIS[0]}:{REDIS[1]}")
    with app_with(db_url, rate_storage=f"redis://{REDIS[0]}:{REDIS[1]}") as server:
        answer = server.get("/api/health")
        assert answer.status_code == 200
        assert answer.json() == {"status": "ok", "database": "ok", "redis": "ok"}


def test_health_fails_when_redis_is_unreachable(tmp_path: Path) -> None:
    nothing = free_port()
    with app_with(f"sqlite:///{tmp_path / 'db.sqlite3'}", health_timeout=2,
                  rate_storage=f"redis://127.0.0.1:{nothing}") as server:
        started = time.monotonic()
        answer = server.get("/api/health")
        assert time.monotonic() - started < 5
        assert answer.status_code == 503
        assert answer.json() == {"status": "failing", "database": "ok", "redis": "failing"}


def test_a_slow_check_fails_in_time_and_is_shared() -> None:
    calls = 0

    async def slow() -> bool:
        nonlocal calls
        calls += 1
        await asyncio.sleep(10)
        return True

    async def fine() -> bool:
        return True

    async def scenario() -> list[tuple[bool, dict[str, str]]]:
        health = Health({"database": fine, "redis": slow}, timeout=0.2)
        return list(await asyncio.gather(health.report(), health.report(), health.report()))

    started = time.monotonic()
    reports = asyncio.run(scenario())
    assert time.monotonic() - started < 2
    assert calls == 1
    assert reports == [(False, {"status": "failing", "database": "ok", "redis": "failing"})] * 3


def test_health_in_the_openapi_schema(client: TestClient) -> None:
    answers: Json = client.get("/openapi.json").json()["paths"]["/api/health"]["get"]["responses"]
    assert set(answers) == {"200", "503"}
