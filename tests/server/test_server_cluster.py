"""Two server processes on one PostgreSQL database and one Redis (issue 22's "done when"):
live delivery across processes in every game, one acceptance of racing moves, computer players
and deadlines acting exactly once while a process is killed (``kill -9``) and restarted,
presence shared, and reconnection after a Redis restart.

The servers are real ``triverse serve`` processes (:mod:`cluster`); the database is a fresh
PostgreSQL schema of each test's own, the Redis a private ``redis-server``.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import httpx
import pytest
from cluster import (
    Cluster,
    PrivateRedis,
    Server,
    Socket,
    act,
    at_once,
    create,
    record,
    running_cluster,
    server_env,
    stored_moves,
    tokens_of,
    view,
    wait_until,
)
from test_server_postgres import pg_url  # noqa: F401  (a fixture)

from triverse.core.plugins import load_game
from triverse.core.records import Record

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="kill -9")

GAMES = ("trinity", "triangles", "trivinity", "trident", "triominoes")


@pytest.fixture
def cluster(pg_url: str, tmp_path: Path) -> Iterator[Cluster]:  # noqa: F811
    with running_cluster(pg_url, tmp_path) as running:
        yield running


def first_legal(socket: Socket) -> str:
    legal = socket.view["legal_actions"]
    assert socket.view["your_turn"] and legal, socket.view
    notation: str = legal[0]["notation"]
    return notation


# --- live delivery -----------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_a_move_through_one_process_reaches_the_sockets_of_the_other(
    cluster: Cluster, game: str,
) -> None:
    created = create(cluster.a, game, ["human", "human"], seed=11)
    match_id, tokens = created["match_id"], tokens_of(created)
    # Seat 0 plays through server a, seat 1 and a spectator watch through server b.
    seats = {0: Socket(cluster.a, match_id, tokens[0]), 1: Socket(cluster.b, match_id, tokens[1])}
    spectator = Socket(cluster.b, match_id)
    try:
        for number in range(6):
            mover = seats[0].view["to_move"]
            assert mover in seats and not seats[0].view["finished"]
            seats[mover].view_at(number)
            seats[mover].send({"type": "action", "action": first_legal(seats[mover]),
                               "move": number, "id": number})
            accepted = seats[mover].until(lambda m: m["type"] in ("accepted", "error"))
            assert accepted["type"] == "accepted", accepted
            for socket in (*seats.values(), spectator):
                assert socket.view_at(number + 1)["move"] == number + 1
            # The same entry (each seeing only what it may: a drawn tile, the notation).
            last = [(v["log"][-1]["move"], v["log"][-1]["player"])
                    for v in (seats[0].view, seats[1].view, spectator.view)]
            assert last == [(number, mover)] * 3
            assert spectator.view["scores"] == seats[0].view["scores"] == seats[1].view["scores"]
        # Then the seat to move sends one move through both processes at the same moment.
        token = tokens[seats[0].view["to_move"]]
        action = view(cluster.a, match_id, token)["legal_actions"][0]["notation"]
        answers = at_once(partial(act, cluster.a, match_id, token, action, 6),
                          partial(act, cluster.b, match_id, token, action, 6))
        assert sorted(answer.status_code for answer in answers) == [200, 409]
        for socket in (*seats.values(), spectator):
            assert socket.view_at(7)["move"] == 7
    finally:
        for socket in (*seats.values(), spectator):
            socket.close()
    assert cluster.moves_logged(match_id) == {n: 1 for n in range(7)}


def test_a_seat_connected_to_one_process_is_connected_on_the_other(cluster: Cluster) -> None:
    created = create(cluster.a, "trident", ["human", "human"])
    match_id, tokens = created["match_id"], tokens_of(created)

    def connected(server: Server) -> list[bool]:
        return [seat["connected"] for seat in view(server, match_id)["players"]]

    assert connected(cluster.b) == [False, False]
    watcher = Socket(cluster.b, match_id)
    player = Socket(cluster.a, match_id, tokens[0])
    try:
        assert connected(cluster.b) == [True, False]
        # The spectator on b is told, live, that seat 0 came (through server a).
        watcher.until(lambda m: m["type"] == "view" and m["view"]["players"][0]["connected"])
        player.close()
        wait_until(lambda: connected(cluster.b) == [False, False], 10,
                   "seat 0 to show as away on server b")
        watcher.until(lambda m: m["type"] == "view"
                      and not m["view"]["players"][0]["connected"])
    finally:
        watcher.close()


# --- racing moves ------------------------------------------------------------------------------
def test_racing_moves_through_two_processes_one_is_accepted(cluster: Cluster) -> None:
    created = create(cluster.a, "trident", ["human", "human"], seed=5)
    match_id, tokens = created["match_id"], tokens_of(created)
    for number in range(6):
        mine = view(cluster.a, match_id, tokens[view(cluster.a, match_id)["to_move"]])
        token = tokens[mine["to_move"]]
        legal = [a["notation"] for a in mine["legal_actions"]]
        # The same move, or two different ones, sent through both processes at once.
        first = legal[0]
        second = legal[1] if number % 2 and len(legal) > 1 else legal[0]
        answers = at_once(partial(act, cluster.a, match_id, token, first, number),
                          partial(act, cluster.b, match_id, token, second, number))
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses == [200, 409], [answer.text for answer in answers]
        refused = next(answer for answer in answers if answer.status_code == 409)
        assert refused.json()["error"]["code"] == "stale_move"
        played = next(answer for answer in answers if answer.status_code == 200).json()
        # Neither process's memory diverges from the database: both show the accepted move.
        for server in cluster.servers:
            shown = view(server, match_id, token)
            assert shown["move"] == number + 1
            assert shown["log"][-1]["action"] == played["action"]
    assert cluster.moves_logged(match_id) == {n: 1 for n in range(6)}


# --- computer players and deadlines with a process killed ------------------------------------
def test_computer_players_act_once_while_a_process_is_killed_and_restarted(
    cluster: Cluster,
) -> None:
    # A match of two novices in every game, made through either server.
    servers = (cluster.a, cluster.b)
    matches = {create(servers[n % 2], game, ["novice", "novice"], seed=20 + n,
                      mode="computer")["match_id"]: game for n, game in enumerate(GAMES)}

    def moves(match_id: str) -> int:
        shown = view(cluster.b, match_id)
        return 10**6 if shown["finished"] else int(shown["move"])

    def all_past(marks: dict[str, int]) -> bool:
        return all(moves(m) >= mark for m, mark in marks.items())

    def three_more() -> dict[str, int]:
        """Three moves on from where each match is (a finished one stays finished)."""
        return {m: min(moves(m) + 3, 10**6) for m in matches}

    wait_until(lambda: all_past({m: 3 for m in matches}), 60, "every match to start")
    cluster.a.kill()  # mid-game: its matches' claims die with its database connection
    marks = three_more()
    wait_until(lambda: all_past(marks), 30, "server b to take over every match")
    cluster.a.start()
    marks = three_more()
    wait_until(lambda: all_past(marks), 30, "the matches to go on with both servers")
    cluster.a.stop()
    cluster.b.stop()
    for match_id, game in matches.items():
        stored = stored_moves(cluster.a.db_url, match_id)
        # Every stored move is the next one, and legal: replayed from the match's seed.
        state = load_game(game, 2, **stored.options).new_initial_state(seed=stored.seed)
        for number, (seat, action) in enumerate(stored.moves):
            assert state.current_player == seat, (game, number)
            state.apply_notation(action)
        logged = cluster.moves_logged(match_id)
        # Each was stored once; one may lack its log line (stored by server a in the instant
        # before kill -9 reached it).
        assert set(logged.values()) == {1}, (game, logged)
        assert set(logged) <= set(range(len(stored.moves)))
        assert len(logged) >= len(stored.moves) - 1, game
        kinds = {e["player"] for s in cluster.servers for e in s.events()
                 if e.get("match") == match_id}
        assert kinds == {"computer"}
    assert any(e.get("match") in matches for e in cluster.a.events())
    assert any(e.get("match") in matches for e in cluster.b.events())


def test_deadlines_fire_once_while_a_process_is_killed_and_restarted(cluster: Cluster) -> None:
    # Nobody plays: every turn times out after two seconds, and a game ends once every
    # player has missed a turn in a row (time-outs count as passes: four for four players).
    def timed(server: Server, seed: int) -> str:
        created = create(server, "trident", ["human"] * 4, seed=seed, options={"time_limit": 2})
        match_id: str = created["match_id"]
        return match_id

    def moves(match_id: str) -> int:
        shown: int = view(cluster.b, match_id)["move"]
        return shown

    early = [timed(cluster.a, 1), timed(cluster.b, 2)]
    wait_until(lambda: all(moves(m) >= 1 for m in early), 20, "a first turn to time out")
    cluster.a.kill()  # the deadlines it would have fired are server b's now
    cluster.a.start()
    late = [timed(cluster.a, 3), timed(cluster.b, 4)]
    for match_id in early + late:
        wait_until(lambda m=match_id: bool(view(cluster.a, m)["finished"]), 40,
                   f"match {match_id} to end")
    for match_id in early + late:
        assert Record.from_json(record(cluster.b, match_id)).actions == ("timeout",) * 4
        logged = cluster.moves_logged(match_id)
        assert set(logged.values()) == {1}, logged  # no time-out was recorded twice
        # (one may lack its log line: stored in the instant before kill -9 reached server a)
        assert set(logged) <= set(range(4)) and len(logged) >= (3 if match_id in early else 4)
        kinds = {e["player"] for s in cluster.servers for e in s.events()
                 if e.get("match") == match_id}
        assert kinds == {"timeout"}


# --- Redis restarts ----------------------------------------------------------------------------
def test_sockets_catch_up_after_a_redis_restart(cluster: Cluster) -> None:
    created = create(cluster.a, "trident", ["human", "human"], seed=3)
    match_id, tokens = created["match_id"], tokens_of(created)
    watcher = Socket(cluster.b, match_id)
    try:
        mover = tokens[watcher.view["to_move"]]
        mine = view(cluster.a, match_id, mover)
        assert act(cluster.a, match_id, mover, mine["legal_actions"][0]["notation"],
                   0).status_code == 200
        watcher.view_at(1, timeout=10)  # live, through Redis

        cluster.redis.stop()
        wait_until(lambda: httpx.get(cluster.b.url + "/api/health").status_code == 503, 10,
                   "server b's health to see Redis gone")
        mine = view(cluster.a, match_id, tokens[view(cluster.a, match_id)["to_move"]])
        # Moves live in PostgreSQL: one made while Redis is down is stored all the same.
        assert act(cluster.a, match_id, tokens[mine["to_move"]],
                   mine["legal_actions"][0]["notation"], 1).status_code == 200

        cluster.redis.start()
        # Server b's subscriber reconnects and tells its sockets to catch up.
        assert watcher.view_at(2, timeout=20)["move"] == 2
        wait_until(lambda: httpx.get(cluster.b.url + "/api/health").status_code == 200, 10,
                   "server b's health to see Redis back")
        mine = view(cluster.a, match_id, tokens[view(cluster.a, match_id)["to_move"]])
        assert act(cluster.a, match_id, tokens[mine["to_move"]],
                   mine["legal_actions"][0]["notation"], 2).status_code == 200
        assert watcher.view_at(3, timeout=10)["move"] == 3  # live again
    finally:
        watcher.close()


# --- triverse serve --workers ----------------------------------------------------------------
def test_serve_workers_starts_processes_that_share_the_news(
    pg_url: str, tmp_path: Path,  # noqa: F811
) -> None:
    redis = PrivateRedis(tmp_path)
    redis.start()
    prefix = "triverse-test-workers:"
    server = Server("workers", pg_url, redis.url, server_env(prefix), tmp_path / "w.log",
                    flags=("--workers", "2"))
    sockets: list[Socket] = []
    try:
        server.start()
        # Each worker process beats in the shared presence: two processes.
        wait_until(lambda: processes(redis, prefix) == 2, 20, "both workers to run")
        created = create(server, "triominoes", ["human", "human"], seed=4)
        match_id, tokens = created["match_id"], tokens_of(created)
        # The kernel spreads connections over the workers: however they land, every socket
        # sees every move made through any connection.
        sockets = [Socket(server, match_id) for _ in range(4)]
        for number in range(5):
            mine = view(server, match_id, tokens[view(server, match_id)["to_move"]])
            answer = act(server, match_id, tokens[mine["to_move"]],
                         mine["legal_actions"][0]["notation"], number)
            assert answer.status_code == 200, answer.text
            for socket in sockets:
                assert socket.view_at(number + 1)["move"] == number + 1
        workers = {event["instance"] for event in server.events("started")}
        assert len(workers) == 2
    finally:
        for socket in sockets:
            socket.close()
        server.stop()
        redis.stop()


def processes(redis: PrivateRedis, prefix: str) -> int:
    """How many server processes beat in the shared presence."""
    module = pytest.importorskip("redis")
    client = module.Redis.from_url(redis.url)
    try:
        count: int = client.zcard(f"{prefix}processes")
        return count
    finally:
        client.close()


# --- the claim on the database -----------------------------------------------------------------
def test_a_server_without_redis_is_kept_off_the_shared_database(
    cluster: Cluster, tmp_path: Path,
) -> None:
    lone = Server("lone", cluster.a.db_url, None, server_env("unused:"), tmp_path / "lone.log")
    finished = subprocess.run(lone.command(), env=lone.env, capture_output=True, text=True,
                              timeout=60, check=False)
    assert finished.returncode == 2
    assert finished.stderr.startswith("triverse serve: another Triverse server is using the "
                                      "database ")
    assert "only with Redis" in finished.stderr
    assert view(cluster.a, create(cluster.b, "trident", ["human", "human"])["match_id"])
