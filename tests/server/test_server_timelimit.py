"""Turn time limits: missed turns, the deadline scheduler, restarts, and races with moves.

The server's clock is a :class:`ManualClock` here: a minute-long turn times out when the test
moves the clock on, not after a minute.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Json, act, auth, tokens_of, view, wait_view
from sqlalchemy import create_engine, text

from triverse.core.records import Record, replay
from triverse.games.trident.engine import TridentGame
from triverse.server.app import create_app
from triverse.server.clock import ManualClock, iso_utc
from triverse.server.deadlines import DeadlineScheduler, Pending
from triverse.server.service import MatchService

LIMIT = 60
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> ManualClock:
    """The server's clock, standing still until a test moves it."""
    return ManualClock(START)


def _app(db_url: str, clock: ManualClock, bot_delay: float = 0) -> TestClient:
    return TestClient(create_app(db_url, bot_delay=bot_delay, bot_workers=1,
                                 allow_client_seed=True, clock=clock))


def _seed_where(test: Callable[[Any], bool], players: int = 2) -> int:
    """The first seed whose Trident deal passes ``test`` (a fresh state)."""
    game = TridentGame(players, {"time_limit": LIMIT})
    for seed in range(5000):
        if test(game.new_initial_state(seed=seed)):
            return seed
    raise AssertionError("no such deal")


def _trident(client: TestClient, kinds: list[str], mode: str, seed: int,
             time_limit: int = LIMIT) -> Json:
    answer = client.post("/api/matches", json={
        "game": "trident", "options": {"time_limit": time_limit}, "mode": mode, "seed": seed,
        "seats": [{"kind": kind} for kind in kinds]})
    assert answer.status_code == 201, answer.text
    created: Json = answer.json()
    return created


def _in(clock: ManualClock, seconds: float = LIMIT) -> str:
    return iso_utc(clock.now() + timedelta(seconds=seconds))


def _kinds(v: Json) -> list[str]:
    return [e["kind"] for entry in v["log"] for e in entry["events"]]


def _past(move: int) -> Callable[[Json], bool]:
    return lambda v: bool(v["move"] > move)


def _service(client: TestClient) -> MatchService:
    service: MatchService = client.app.state.service  # type: ignore[attr-defined]
    return service


def test_a_missed_turn_moves_play_on_to_the_computer_and_back(
        db_url: str, clock: ManualClock) -> None:
    seed = _seed_where(lambda s: s.current_player == 0)
    with _app(db_url, clock, bot_delay=0.5) as client:
        created = _trident(client, ["human", "novice"], "computer", seed)
        match_id, token = created["match_id"], tokens_of(created)[0]
        start = view(client, match_id, token)
        assert start["your_turn"] and start["time_limit"] == LIMIT
        assert start["deadline"] == _in(clock)
        assert start["game"]["options"]["time_limit"] == LIMIT
        mine = client.post("/api/my-games", json={"tokens": [token]}).json()["matches"][0]
        assert mine["deadline"] == start["deadline"]
        # A second before the deadline nothing happens.
        clock.advance(LIMIT - 1)
        time.sleep(0.2)
        assert view(client, match_id, token)["move"] == 0
        # Past it, the human misses the turn: a "timeout" move of seat 0.
        clock.advance(2)
        after = wait_view(client, match_id, token, lambda v: v["move"] >= 1)
        assert after["log"][0]["player"] == 0 and after["log"][0]["action"] == "timeout"
        assert [e["kind"] for e in after["log"][0]["events"]] == ["timeout"]
        if after["move"] == 1:  # the computer thinking: no clock runs for it
            assert after["to_move"] == 1 and after["deadline"] is None
        # The computer plays (it is not timed), and the human has a fresh minute.
        back = wait_view(client, match_id, token, lambda v: v["move"] >= 2)
        assert back["your_turn"] and back["deadline"] == _in(clock)
        assert back["log"][1]["player"] == 1 and "action" not in back["log"][1]
        public = view(client, match_id)
        assert public["deadline"] == back["deadline"] and public["time_limit"] == LIMIT
        # And the human still plays normally.
        answer = act(client, match_id, token, back["legal_actions"][0]["notation"], 2)
        assert answer.status_code == 200, answer.text


def test_time_outs_are_recorded_pushed_and_replay(db_url: str, clock: ManualClock) -> None:
    seed = _seed_where(lambda s: s.current_player == 0)
    with _app(db_url, clock) as client:
        created = _trident(client, ["human", "human"], "hotseat", seed)
        match_id, tokens = created["match_id"], tokens_of(created)
        first = view(client, match_id, tokens[0])
        answer = act(client, match_id, tokens[0], first["legal_actions"][0]["notation"], 0)
        assert answer.status_code == 200, answer.text
        assert answer.json()["view"]["deadline"] == _in(clock)
        with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[1]})
            hello = ws.receive_json()
            assert hello["view"]["your_turn"] and hello["view"]["deadline"] == _in(clock)
            assert hello["server_time"] == iso_utc(clock.now())
            # Seat 1 runs out of time: its socket is told, with no request of its own.
            clock.advance(LIMIT + 1)
            pushed = ws.receive_json()
            assert pushed["type"] == "view" and pushed["view"]["move"] == 2
            assert pushed["view"]["log"][-1] == {
                "move": 1, "player": 1, "action": "timeout",
                "events": pushed["view"]["log"][-1]["events"]}
            assert _kinds(pushed["view"])[-1] == "timeout"
            assert pushed["view"]["to_move"] == 0 and pushed["view"]["deadline"] == _in(clock)
        # Nobody plays any more: missed turns end the game (a round of them, rule 29 with
        # decision D4 of docs/rules/trident.md; at the latest three rounds, D5).
        current = pushed["view"]
        while not current["finished"]:
            clock.advance(LIMIT + 1)
            current = wait_view(client, match_id, tokens[0], _past(current["move"]))
        final = view(client, match_id, tokens[0])
        assert 3 <= final["move"] <= 7 and _kinds(final)[-1] == "game_over"
        assert final["deadline"] is None and final["time_limit"] == LIMIT
        record = client.get(f"/api/matches/{match_id}/record").json()
        assert record["options"]["time_limit"] == LIMIT
        assert record["actions"][1:] == ["timeout"] * (final["move"] - 1)
        assert replay(Record.from_json(record)).scores == final["scores"]
        steps = client.get(f"/api/matches/{match_id}/replay/2").json()
        assert steps["view"]["deadline"] is None and steps["view"]["move"] == 2
        assert _kinds(steps["view"])[-1] == "timeout"
    engine = create_engine(db_url)
    with engine.connect() as connection:
        stored = connection.execute(
            text("SELECT action, seat FROM moves WHERE match_id = :m ORDER BY number"),
            {"m": match_id}).all()
        deadline = connection.execute(text("SELECT deadline FROM matches WHERE id = :m"),
                                      {"m": match_id}).scalar()
    engine.dispose()
    assert [tuple(row) for row in stored[1:]] == [
        ("timeout", (1 + k) % 2) for k in range(final["move"] - 1)]
    assert deadline is None


def test_deadlines_survive_a_restart(db_url: str, clock: ManualClock) -> None:
    seed = _seed_where(lambda s: s.current_player == 0)
    with _app(db_url, clock) as first:
        # Match A's deadline will pass while the server is down; B's later; C's clock is
        # lost (a match stored before deadlines were kept).
        a = _trident(first, ["human", "human"], "hotseat", seed)
        clock.advance(50)
        b = _trident(first, ["human", "human"], "hotseat", seed)
        c = _trident(first, ["human", "human"], "hotseat", seed)
        b_deadline = view(first, b["match_id"])["deadline"]
        assert b_deadline == _in(clock)
    engine = create_engine(db_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE matches SET deadline = NULL WHERE id = :m"),
                           {"m": c["match_id"]})
    engine.dispose()
    clock.advance(20)  # A is 10 s overdue; B has 40 s left
    with _app(db_url, clock) as second:
        # A's time-out is applied at start-up, without any request asking for it.
        a_view = wait_view(second, a["match_id"], None, lambda v: v["move"] >= 1)
        assert a_view["move"] == 1 and _kinds(a_view) == ["timeout"]
        assert a_view["deadline"] == _in(clock)
        # B's deadline is restored as it was; C's clock starts now.
        assert view(second, b["match_id"])["deadline"] == b_deadline
        c_view = wait_view(second, c["match_id"], None, lambda v: v["deadline"] is not None)
        assert c_view["deadline"] == _in(clock) and c_view["move"] == 0
        clock.advance(39)
        time.sleep(0.2)
        assert view(second, b["match_id"])["move"] == 0
        # The restored deadline fires later, by the scheduler alone.
        clock.advance(2)
        b_view = wait_view(second, b["match_id"], None, lambda v: v["move"] >= 1)
        assert _kinds(b_view) == ["timeout"] and b_view["move"] == 1
        assert view(second, c["match_id"])["move"] == 0
        assert view(second, a["match_id"])["move"] == 1
        tokens = tokens_of(b)
        assert view(second, b["match_id"], tokens[1])["your_turn"]


def test_a_client_may_never_send_the_time_out(db_url: str, clock: ManualClock) -> None:
    seed = _seed_where(lambda s: s.current_player == 0)
    with _app(db_url, clock) as client:
        created = _trident(client, ["human", "human"], "hotseat", seed)
        match_id, token = created["match_id"], tokens_of(created)[0]
        before = view(client, match_id, token)
        for notation in ("timeout", " TIMEOUT "):
            answer = act(client, match_id, token, notation, 0)
            assert answer.status_code == 422, answer.text
            error = answer.json()["error"]
            assert error["code"] == "reserved_action" and "time-out" in error["message"]
        with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
            ws.send_json({"type": "hello", "token": token})
            ws.receive_json()
            ws.send_json({"type": "action", "action": "timeout", "move": 0, "id": 3})
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == "reserved_action"
            assert reply["id"] == 3
        assert view(client, match_id, token) == before
        # In a game without a time limit the engine itself refuses it.
        untimed = _trident(client, ["human", "human"], "hotseat", seed, time_limit=0)
        quiet = view(client, untimed["match_id"], tokens_of(untimed)[0])
        assert quiet["time_limit"] is None and quiet["deadline"] is None
        answer = act(client, untimed["match_id"], tokens_of(untimed)[0], "timeout", 0)
        assert answer.status_code == 422
        assert answer.json()["error"]["code"] == "illegal_action"
        assert "time limit" in answer.json()["error"]["message"]


def test_a_move_just_before_the_deadline_wins(db_url: str, clock: ManualClock) -> None:
    seed = _seed_where(lambda s: s.current_player == 0)
    with _app(db_url, clock) as client:
        # A move a millisecond before the deadline is played; the deadline passing then
        # changes nothing (the time-out was for move 0), and there is no double turn.
        created = _trident(client, ["human", "human"], "hotseat", seed)
        match_id, tokens = created["match_id"], tokens_of(created)
        start = view(client, match_id, tokens[0])
        clock.advance(LIMIT - 0.001)
        answer = act(client, match_id, tokens[0], start["legal_actions"][0]["notation"], 0)
        assert answer.status_code == 200, answer.text
        next_deadline = answer.json()["view"]["deadline"]
        assert next_deadline == _in(clock)
        clock.advance(1)
        time.sleep(0.2)
        current = view(client, match_id, tokens[1])
        assert current["move"] == 1 and current["your_turn"] and "timeout" not in _kinds(current)
        assert current["deadline"] == next_deadline

        # The same race inside the server: the move takes the match's lock first, the clock
        # passes the deadline while it is being stored, the time-out comes second.
        raced = _trident(client, ["human", "human"], "hotseat", seed)
        race_id, race_tokens = raced["match_id"], tokens_of(raced)
        legal = view(client, race_id, race_tokens[0])["legal_actions"][0]["notation"]
        service = _service(client)
        clock.advance(LIMIT - 0.001)

        async def race() -> tuple[bool, int]:
            move = asyncio.ensure_future(service.act(race_id, race_tokens[0], legal, 0))
            await asyncio.sleep(0)  # the move holds the lock, storing itself
            clock.advance(1)
            timed_out = await service.time_out(race_id, 0)
            live = await move
            return timed_out, live.state.move_number

        timed_out, moves = client.portal.call(race)  # type: ignore[union-attr]
        assert not timed_out and moves == 1
        raced_view = view(client, race_id, race_tokens[1])
        assert raced_view["your_turn"] and "timeout" not in _kinds(raced_view)

        # A late time-out for move 0 stays void even once move 1's deadline has passed too:
        # it is for the turn it was set for, not for whoever is to move.
        time.sleep(0.2)  # (the scheduler's own stale call for move 0 is over by then)
        async def late_call() -> bool:
            service.scheduler.set(race_id, 1, None)
            clock.set(datetime.fromisoformat(raced_view["deadline"]) + timedelta(seconds=1))
            return await service.time_out(race_id, 0)

        assert not client.portal.call(late_call)  # type: ignore[union-attr]
        # (the scheduler, told again by that call, times out move 1: once)
        raced_view = wait_view(client, race_id, None, lambda v: v["move"] >= 2)
        assert _kinds(raced_view).count("timeout") == 1 and raced_view["move"] == 2

        # A move arriving after the deadline is too late, even before the scheduler ran: the
        # time-out is recorded and the move refused.
        late = _trident(client, ["human", "human"], "hotseat", seed)
        late_id, late_tokens = late["match_id"], tokens_of(late)
        notation = view(client, late_id, late_tokens[0])["legal_actions"][0]["notation"]
        # The scheduler forgets this deadline, so that the move sees it pass first.
        client.portal.call(service.scheduler.set, late_id, 0, None)  # type: ignore[union-attr]
        clock.advance(LIMIT)
        answer = act(client, late_id, late_tokens[0], notation, 0)
        assert answer.status_code == 409, answer.text
        assert answer.json()["error"]["code"] == "time_up"
        after = view(client, late_id, late_tokens[1])
        assert after["move"] == 1 and _kinds(after) == ["timeout"] and after["your_turn"]
        # Asking again for move 0 is now simply stale.
        again = act(client, late_id, late_tokens[0], notation, 0)
        assert again.json()["error"]["code"] == "stale_move"


def test_untimed_games_and_computers_have_no_deadline(db_url: str, clock: ManualClock) -> None:
    with _app(db_url, clock) as client:
        created = client.post("/api/matches", json={
            "game": "triominoes", "mode": "hotseat", "seed": 3,
            "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        tri = view(client, created["match_id"], tokens_of(created)[0])
        assert tri["time_limit"] is None and tri["deadline"] is None
        assert tri["game"]["preview"]  # the tile games preview a placement's score
        # Two computers with a time limit: no clock runs, and the game plays to the end.
        watched = _trident(client, ["novice", "novice"], "computer",
                           _seed_where(lambda s: True))
        final = wait_view(client, watched["match_id"], None, lambda v: v["finished"],
                          timeout=60)
        assert "timeout" not in _kinds(final) and final["deadline"] is None
        assert _service(client).scheduler.pending() == {}
        headers = auth(None)
        assert client.get(f"/api/matches/{watched['match_id']}/record",
                          headers=headers).status_code == 200


def test_manual_clock_needs_aware_times() -> None:
    with pytest.raises(ValueError):
        ManualClock(datetime(2026, 1, 1))
    clock = ManualClock(START)
    calls: list[int] = []
    stop = clock.subscribe(lambda: calls.append(1))
    clock.advance(1)
    stop()
    clock.advance(1)
    assert calls == [1] and clock.now() == START + timedelta(seconds=2)


def test_the_scheduler_alone() -> None:
    """Newest turn wins, stale entries never fire, a jumping clock wakes it, a failing
    time-out does not stop it."""

    async def main() -> list[tuple[str, int]]:
        clock = ManualClock(START)
        fired: list[tuple[str, int]] = []

        async def load() -> list[Pending]:
            return [("a", 3, START + timedelta(seconds=10))]

        async def fire(match_id: str, move: int) -> None:
            fired.append((match_id, move))
            if match_id == "boom":
                raise RuntimeError("a failing time-out")

        async def until(test: Callable[[], bool]) -> None:
            for _ in range(400):
                if test():
                    return
                await asyncio.sleep(0.005)
            raise AssertionError("the scheduler did not get there")

        scheduler = DeadlineScheduler(clock, load, fire, poll=3600)
        scheduler.start()
        await until(lambda: "a" in scheduler.pending())  # restored by the first read
        scheduler.set("a", 2, START + timedelta(seconds=1))  # older news: ignored
        assert scheduler.pending()["a"] == (3, START + timedelta(seconds=10))
        scheduler.set("boom", 0, START + timedelta(seconds=4))
        scheduler.set("b", 0, START + timedelta(seconds=5))
        clock.advance(6)
        await until(lambda: len(fired) == 2)
        scheduler.set("a", 4, START + timedelta(seconds=20))  # the next turn of "a"
        clock.advance(5)  # past the old deadline of "a": nothing fires
        await asyncio.sleep(0.05)
        assert fired == [("boom", 0), ("b", 0)]
        clock.advance(10)
        await until(lambda: len(fired) == 3)
        scheduler.set("c", 1, START + timedelta(seconds=99))
        scheduler.set("c", 2, None)  # its game ended
        clock.advance(100)
        await asyncio.sleep(0.05)
        await scheduler.close()
        assert scheduler.pending() == {}
        return fired

    assert asyncio.run(main()) == [("boom", 0), ("b", 0), ("a", 4)]
