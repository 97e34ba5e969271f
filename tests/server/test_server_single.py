"""One server process per database: the claim a server holds on its database, and replies that
state the true move number even when this process's copy of a match fell behind."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Json, auth, tokens_of, view
from test_server_postgres import pg_url  # noqa: F401  (a fixture)

from triverse import cli
from triverse.server.app import create_app
from triverse.server.exclusive import (
    DatabaseInUse,
    check_database,
    claim_database,
    lock_file_of,
)
from triverse.server.repository import MatchRepository
from triverse.server.service import MatchService

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _app(db_url: str) -> TestClient:
    return TestClient(create_app(db_url, bot_delay=0, bot_workers=1, bot_executor="thread",
                                 allow_client_seed=True, hint_budget=0.1))


# --- replies state the true move ---------------------------------------------------------------
def _trident(client: TestClient, seed: int = 3) -> tuple[str, dict[int, str]]:
    """A two-human Trident match (it has score previews): its id and tokens."""
    answer = client.post("/api/matches", json={
        "game": "trident", "mode": "hotseat", "seed": seed,
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert answer.status_code == 201, answer.text
    created: Json = answer.json()
    return created["match_id"], tokens_of(created)


def _move_elsewhere(service: MatchService, match_id: str) -> Any:
    """Store the match's next move as another server process would: through a repository of
    its own, which this process's cache knows nothing of. Returns the state after it."""

    async def store() -> Any:
        other = MatchRepository(service.settings.db_url)
        try:
            stored = await other.load(match_id)
            assert stored is not None
            state = service.matches.build(stored).state
            number, seat = state.move_number, state.current_player
            action = next(iter(state.legal_actions()))
            after = state.clone()
            after.apply(action)
            await other.store_move(match_id, number, seat, str(action), after,
                                   service.clock.now(), None)
            return after
        finally:
            other.close()

    return asyncio.run(store())


def _cached_move(service: MatchService, match_id: str) -> int:
    live = service.matches.cache.get(match_id)
    assert live is not None
    return int(live.state.move_number)


def _reply(ws: Any, request_id: str) -> Json:
    """The answer to the request ``request_id`` (views pushed meanwhile are skipped)."""
    while True:
        message: Json = ws.receive_json()
        if message.get("id") == request_id:
            return message


def test_replies_state_the_true_move_when_the_cache_is_behind(db_url: str) -> None:
    with _app(db_url) as client:
        service: MatchService = client.app.state.service  # type: ignore[attr-defined]
        match_id, tokens = _trident(client)
        first = view(client, match_id)["to_move"]
        second = 1 - first
        with client.websocket_connect(f"/ws/matches/{match_id}") as mover, \
                client.websocket_connect(f"/ws/matches/{match_id}") as waiter:
            mover.send_json({"type": "hello", "token": tokens[first]})
            waiter.send_json({"type": "hello", "token": tokens[second]})
            assert mover.receive_json()["view"]["move"] == 0
            assert waiter.receive_json()["view"]["move"] == 0

            # Another process plays move 0: this process's cached match is still at move 0.
            after = _move_elsewhere(service, match_id)
            assert after.move_number == 1 and after.current_player == second
            assert _cached_move(service, match_id) == 0

            # preview: for the true move, by the seat truly to move; the other is refused.
            play = str(next(iter(after.legal_actions())))
            waiter.send_json({"type": "preview", "id": "p", "action": play})
            previewed = _reply(waiter, "p")
            assert previewed["type"] == "preview_result" and previewed["move"] == 1, previewed
            mover.send_json({"type": "preview", "id": "q", "action": play, "move": 0})
            stale = _reply(mover, "q")
            assert stale["code"] == "stale_move" and "at move 1" in stale["message"]
            # Again behind: sync sends the view of the true move.
            after = _move_elsewhere(service, match_id)
            assert after.move_number == 2 and _cached_move(service, match_id) == 1
            mover.send_json({"type": "sync", "id": "s"})
            synced = mover.receive_json()
            assert synced["type"] == "view" and synced["view"]["move"] == 2
            assert synced["view"]["your_turn"] is (after.current_player == first)

            # Behind again: the REST replies state the true move too.
            after = _move_elsewhere(service, match_id)
            assert _cached_move(service, match_id) == 2 and after.move_number == 3
            previewed = client.post(
                f"/api/matches/{match_id}/preview", headers=auth(tokens[after.current_player]),
                json={"action": str(next(iter(after.legal_actions())))}).json()
            assert previewed["move"] == 3
            _move_elsewhere(service, match_id)
            hinted = client.post(f"/api/matches/{match_id}/hint", headers=auth(tokens[0]),
                                 json={"move": 3})
            assert hinted.json()["error"]["code"] == "stale_move", hinted.text
            assert "at move 4" in hinted.json()["error"]["message"]
            _move_elsewhere(service, match_id)
            assert view(client, match_id)["move"] == 5

            # An action over the websocket is acknowledged with the true move number.
            after = _move_elsewhere(service, match_id)
            assert _cached_move(service, match_id) == 5 and after.move_number == 6
            socket = waiter if after.current_player == second else mover
            socket.send_json({"type": "action", "id": "a", "move": 6,
                              "action": str(next(iter(after.legal_actions())))})
            accepted = _reply(socket, "a")
            assert accepted["type"] == "accepted" and accepted["move"] == 6
        assert view(client, match_id)["move"] == 7


# --- the claim on the database -----------------------------------------------------------------
def _refused(db_url: str) -> str:
    """Start a second server on ``db_url``; the refusal's message."""
    with pytest.raises(DatabaseInUse) as refused, _app(db_url):
        pass
    return str(refused.value)


def test_a_second_server_on_a_sqlite_file_is_refused_until_the_first_stops(
    db_url: str, tmp_path: Path
) -> None:
    database = str(tmp_path / "triverse.sqlite3")
    with _app(db_url) as first:
        match_id, _ = _trident(first)
        message = _refused(db_url)
        assert message.startswith(f"another Triverse server is using the database {database} "
                                  f"(pid {os.getpid()} on ")
        assert "stop it first" in message
        # Another file, and in-memory databases, are no one else's.
        with _app(f"sqlite:///{tmp_path / 'other.sqlite3'}") as other:
            assert other.get("/api/health").status_code == 200
        with _app("sqlite://") as one, _app("sqlite://") as two:
            assert one.get("/api/health").status_code == two.get("/api/health").status_code
        assert view(first, match_id)["move"] == 0  # the first server was not disturbed
    assert lock_file_of(database).exists()
    with _app(db_url) as second:  # the first released its claim when it stopped
        assert view(second, match_id)["move"] == 0


def test_a_claim_follows_symbolic_links(tmp_path: Path) -> None:
    real = tmp_path / "games.sqlite3"
    link = tmp_path / "link.sqlite3"
    link.symlink_to(real)
    claim = claim_database(f"sqlite:///{real}")
    try:
        assert claim.held
        with pytest.raises(DatabaseInUse):
            claim_database(f"sqlite:///{link}")
    finally:
        claim.release()
    claim_database(f"sqlite:///{link}").release()


HOLDER = textwrap.dedent("""
    import os, sys, time
    from triverse.server.exclusive import claim_database
    claim = claim_database(sys.argv[1])
    if sys.argv[2] == "fork":
        child = os.fork()
        if child == 0:
            time.sleep(60)
            os._exit(0)
        print(child, flush=True)
    print("held", flush=True)
    time.sleep(60)
""")


@pytest.fixture
def holders() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes that claim a database, killed at the end."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        process.kill()
        process.wait()


def _hold(url: str, holders: list[subprocess.Popen[str]], fork: bool = False) -> int | None:
    """Claim ``url`` in a process of its own (which forks a child first with ``fork``);
    returns the child's pid."""
    env = {**os.environ, "PYTHONPATH": SRC}
    process = subprocess.Popen([sys.executable, "-c", HOLDER, url, "fork" if fork else "-"],
                               stdout=subprocess.PIPE, text=True, env=env)
    holders.append(process)
    assert process.stdout is not None
    child = int(process.stdout.readline()) if fork else None
    assert process.stdout.readline() == "held\n"
    return child


def _claim_soon(url: str) -> Any:
    """The database's claim, taken within 10 s: PostgreSQL (or the OS, for a file lock) may take
    a moment to see a killed holder's socket closed."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return claim_database(url)
        except DatabaseInUse:
            assert time.monotonic() < deadline, "the killed holder's claim was never released"
            time.sleep(0.05)


def _killed_holder_leaves_no_claim(url: str, holders: list[subprocess.Popen[str]]) -> None:
    _hold(url, holders)
    with pytest.raises(DatabaseInUse, match="another Triverse server is using the database"):
        claim_database(url)
    holders[-1].send_signal(signal.SIGKILL)
    holders[-1].wait()
    claim = _claim_soon(url)
    assert claim.held
    claim.release()
    # A forked child (a worker of the pool, say) outliving its killed parent holds nothing.
    child = _hold(url, holders, fork=True)
    assert child is not None
    try:
        holders[-1].send_signal(signal.SIGKILL)
        holders[-1].wait()
        os.kill(child, 0)  # still alive
        _claim_soon(url).release()
    finally:
        os.kill(child, signal.SIGKILL)


@pytest.mark.skipif(sys.platform == "win32", reason="kill -9 and fork")
def test_a_killed_sqlite_server_leaves_no_claim(
    db_url: str, holders: list[subprocess.Popen[str]]
) -> None:
    _killed_holder_leaves_no_claim(db_url, holders)


def test_serve_refuses_a_database_in_use(db_url: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    claim = claim_database(db_url)
    try:
        code = cli.main(["serve", "--port", str(port), "--db", db_url])
    finally:
        claim.release()
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.startswith("triverse serve: another Triverse server is using the "
                                   f"database {tmp_path / 'triverse.sqlite3'} (pid ")


def test_a_look_takes_nothing(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    check_database(f"sqlite:///{fresh}")
    assert not lock_file_of(fresh).exists()  # a look makes no lock file
    claim = claim_database(f"sqlite:///{fresh}")
    written = lock_file_of(fresh).read_text()
    assert written.startswith(f"triverse serve: pid {os.getpid()} on ")
    with pytest.raises(DatabaseInUse):
        check_database(f"sqlite:///{fresh}")
    claim.release()
    check_database(f"sqlite:///{fresh}")
    assert lock_file_of(fresh).read_text() == written  # nor writes into one
    claim_database(f"sqlite:///{fresh}").release()


# --- on PostgreSQL -----------------------------------------------------------------------------
def test_a_second_server_on_postgresql_is_refused_until_the_first_stops(
    pg_url: str,  # noqa: F811
) -> None:
    with _app(pg_url) as first:
        match_id, _ = _trident(first)
        message = _refused(pg_url)
        assert message.startswith("another Triverse server is using the database "
                                  "postgresql+psycopg://postgres@127.0.0.1:5432/test")
        assert "(schema triverse_test_" in message and f"pid {os.getpid()} on " in message
        assert view(first, match_id)["move"] == 0
    with _app(pg_url) as second:
        assert view(second, match_id)["move"] == 0


def test_servers_on_other_postgresql_schemas_are_not_refused(
    pg_url: str,  # noqa: F811
) -> None:
    psycopg = pytest.importorskip("psycopg")
    other_schema = pg_url.rsplit("%3D", 1)[1] + "_b"
    with psycopg.connect(pg_url.split("?")[0], autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{other_schema}"')
        try:
            other = pg_url.rsplit("%3D", 1)[0] + "%3D" + other_schema
            with _app(pg_url) as first, _app(other) as second:
                assert first.get("/api/health").status_code == 200
                assert second.get("/api/health").status_code == 200
        finally:
            admin.execute(f'DROP SCHEMA "{other_schema}" CASCADE')


def test_a_killed_postgresql_server_leaves_no_claim(
    pg_url: str, holders: list[subprocess.Popen[str]],  # noqa: F811
) -> None:
    _killed_holder_leaves_no_claim(pg_url, holders)


def test_the_stale_cache_on_postgresql(pg_url: str) -> None:  # noqa: F811
    with _app(pg_url) as client:
        service: MatchService = client.app.state.service  # type: ignore[attr-defined]
        match_id, tokens = _trident(client)
        first = view(client, match_id)["to_move"]
        with client.websocket_connect(f"/ws/matches/{match_id}") as waiter:
            waiter.send_json({"type": "hello", "token": tokens[1 - first]})
            assert waiter.receive_json()["view"]["move"] == 0
            after = _move_elsewhere(service, match_id)
            assert after.move_number == 1
            waiter.send_json({"type": "preview", "id": "p",
                              "action": str(next(iter(after.legal_actions())))})
            assert _reply(waiter, "p")["move"] == 1
            assert _move_elsewhere(service, match_id).move_number == 2
            waiter.send_json({"type": "sync"})
            assert waiter.receive_json()["view"]["move"] == 2


def _terminate(url: str, backend: int | None) -> None:
    """End a PostgreSQL connection from the outside (as a database restart would)."""
    psycopg = pytest.importorskip("psycopg")
    assert backend is not None
    with psycopg.connect(url.split("?")[0], autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (backend,)).fetchone() == (True,)
        deadline = time.monotonic() + 10  # the signal is sent; wait for the process to end
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s UNION ALL "
                            "SELECT 1 FROM pg_locks WHERE pid = %s",
                            (backend, backend)).fetchone():
            assert time.monotonic() < deadline, "the connection did not end"
            time.sleep(0.02)


def _eventually_refused(url: str) -> None:
    deadline = time.monotonic() + 10
    while True:
        try:
            claim_database(url).release()
        except DatabaseInUse:
            return
        assert time.monotonic() < deadline, "the claim was not taken again"
        time.sleep(0.05)


def test_a_lost_postgresql_claim_is_taken_again(
    pg_url: str, caplog: pytest.LogCaptureFixture,  # noqa: F811
) -> None:
    claim = claim_database(pg_url)
    try:
        assert claim.can_lapse and claim.renew()
        _terminate(pg_url, getattr(claim, "backend", None))
        other = claim_database(pg_url)  # the lock went with the connection
        other.release()
        assert claim.renew()  # a new connection, the lock again
        with pytest.raises(DatabaseInUse):
            claim_database(pg_url)
        # Taken by another server meanwhile: said loudly, and taken back once it is free.
        _terminate(pg_url, getattr(claim, "backend", None))
        other = claim_database(pg_url)
        with caplog.at_level("ERROR", logger="triverse.server.exclusive"):
            assert not claim.renew()
        assert "lost its claim on the database, and cannot take it again: another Triverse " \
               "server is using the database" in caplog.text
        other.release()
        assert claim.renew() and claim.held
    finally:
        claim.release()
    assert not claim.renew()
    claim_database(pg_url).release()


def test_a_server_renews_its_postgresql_claim(
    pg_url: str, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
) -> None:
    import triverse.server.exclusive as exclusive

    monkeypatch.setattr(exclusive, "RENEW_EVERY", 0.05)
    backends: list[int] = []
    real = exclusive._PostgresClaim._take

    def take(self: Any) -> None:
        real(self)
        backends.append(self.backend)

    monkeypatch.setattr(exclusive._PostgresClaim, "_take", take)
    with _app(pg_url) as client:
        assert client.get("/api/health").status_code == 200
        _terminate(pg_url, backends[-1])
        deadline = time.monotonic() + 10
        while len(backends) < 2:
            assert time.monotonic() < deadline, "the server did not claim its database again"
            time.sleep(0.02)
        _eventually_refused(pg_url)
    claim_database(pg_url).release()
