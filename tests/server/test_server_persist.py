"""Persistence: restarts, pending computer turns, "my games", records."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from server_helpers import act, auth, create, play_to_end, tokens_of, view, wait_view
from sqlalchemy import create_engine, insert, text

from triverse.core.records import Record, replay
from triverse.games import load_game
from triverse.server.app import create_app
from triverse.server.db import MIGRATIONS_DIR, MatchRow, MoveRow, SeatRow, hash_token

OLD_RECORD = Path(__file__).parents[1] / "triominoes" / "data" / "blocked_seed_round_v1.json"
"""A seed-rules Tri-ominoes game finished before a blocked seed round kept the scores: its
round 1 is blocked and was settled (Seat 1 +39 -6)."""


def _app(db_url: str, delay: float = 0) -> TestClient:
    return TestClient(create_app(db_url, bot_delay=delay, bot_workers=1,
                                 allow_client_seed=True))


def test_a_game_continues_after_a_restart(db_url: str) -> None:
    with _app(db_url, delay=30) as first:
        # The computer waits 30 s before each move here: find a deal where the human opens,
        # play until it is the computer's turn, then stop the server.
        for seed in range(9, 40):
            created = create(first, ["human", "average"], seed=seed)
            match_id, tokens = created["match_id"], tokens_of(created)
            token = tokens[0]
            current = view(first, match_id, token)
            if current["your_turn"]:
                break
        assert current["your_turn"]
        while current["your_turn"]:
            answer = act(first, match_id, token, current["legal_actions"][0]["notation"],
                         current["move"])
            assert answer.status_code == 200
            current = answer.json()["view"]
        before = view(first, match_id, token)
        assert before["to_move"] == 1
    with _app(db_url, delay=0.5) as second:
        # The same view after the restart; then the pending computer turn is played by itself
        # (nothing here asks for it: only GETs).
        again = view(second, match_id, token)
        assert again == before
        wait_view(second, match_id, token, lambda v: v["move"] > before["move"])
    with _app(db_url) as third:
        final = play_to_end(third, match_id, tokens)
        assert final["finished"]
        record = third.get(f"/api/matches/{match_id}/record").json()
        assert record["meta"]["match_id"] == match_id
        assert replay(Record.from_json(record)).scores == final["scores"]
    engine = create_engine(db_url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == (
            "0008")
        stored = connection.execute(text("SELECT COUNT(*) FROM moves WHERE match_id = :m"),
                                    {"m": match_id}).scalar()
        hashes = connection.execute(text("SELECT token_hash FROM seats")).scalars().all()
    engine.dispose()
    assert stored == final["move"]
    assert token not in hashes and len([h for h in hashes if h]) == 1


def test_paused_games_stay_paused_after_a_restart(db_url: str) -> None:
    with _app(db_url, delay=30) as first:
        created = create(first, ["human", "novice"], seed=9)
        match_id, token = created["match_id"], tokens_of(created)[0]
        current = view(first, match_id, token)
        first.post(f"/api/matches/{match_id}/pause", headers=auth(token), json={"paused": True})
        while current["your_turn"]:
            current = act(first, match_id, token, current["legal_actions"][0]["notation"],
                          current["move"]).json()["view"]
    with _app(db_url) as second:
        time.sleep(0.3)
        still = view(second, match_id, token)
        assert still["paused"] and still["move"] == current["move"]
        second.post(f"/api/matches/{match_id}/pause", headers=auth(token),
                    json={"paused": False})
        wait_view(second, match_id, token, lambda v: v["move"] > current["move"])


def test_my_games_lists_unfinished_and_finished_matches(client: TestClient) -> None:
    done = create(client, ["human", "novice"], seed=1)
    going = create(client, ["human", "human"], mode="hotseat", seed=2)
    other = create(client, ["human", "average"], seed=3)
    done_token = tokens_of(done)[0]
    going_tokens = tokens_of(going)
    record = client.get(f"/api/matches/{done['match_id']}/record")
    assert record.status_code == 409 and record.json()["error"]["code"] == "not_finished"
    play_to_end(client, done["match_id"], {0: done_token})
    answer = client.post("/api/my-games", json={
        "tokens": [done_token, going_tokens[0], going_tokens[1], "unknown-token"]})
    assert answer.status_code == 200
    games = answer.json()["matches"]
    assert {(g["match_id"], g["seat"]) for g in games} == {
        (done["match_id"], 0), (going["match_id"], 0), (going["match_id"], 1)}
    assert other["match_id"] not in {g["match_id"] for g in games}
    by_key = {(g["match_id"], g["seat"]): g for g in games}
    finished = by_key[(done["match_id"], 0)]
    assert finished["finished"] and finished["result"] is not None and not finished["your_turn"]
    assert finished["players"][1]["kind"] == "novice" and finished["title"] == "Tri-ominoes"
    assert finished["link"] == f"/play/{done['match_id']}?seat=0#{done_token}"
    open_ = [by_key[(going["match_id"], s)] for s in (0, 1)]
    assert not any(g["finished"] for g in open_)
    assert sum(g["your_turn"] for g in open_) == 1 and open_[0]["mode"] == "hotseat"
    assert games[0]["match_id"] == done["match_id"]  # most recently active first
    assert client.post("/api/my-games", json={"tokens": []}).json() == {"matches": []}
    assert client.post("/api/my-games", json={"tokens": "x"}).status_code == 422
    download = client.get(f"/api/matches/{done['match_id']}/record")
    assert download.status_code == 200
    assert "attachment" in download.headers["content-disposition"]
    rec = Record.from_json(download.json())
    assert rec.result is not None and [p.kind for p in rec.players] == ["human", "novice"]
    assert replay(rec).result() == rec.result


def test_a_match_stored_before_rules_version_2_replays_under_version_1(db_url: str) -> None:
    old_rules_matches_replay(db_url)


def old_rules_matches_replay(db_url: str) -> None:
    """A database at revision 0003 holding the finished seed-rules match of the old record (and
    an unfinished one) is migrated at start-up: both name rules version 1, so the blocked round
    is settled again and the stored result is what the replay gives (also run on PostgreSQL)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = create_engine(db_url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
    old = json.loads(OLD_RECORD.read_text(encoding="utf-8"))
    assert old["version"] == 1 and "rules_version" not in old["options"]
    # The seat of each move, from a replay under the rules it was played with.
    state = load_game("triominoes", 2, **old["options"], rules_version=1).new_initial_state(
        seed=old["seed"])
    seats = []
    for action in old["actions"]:
        seats.append(state.current_player)
        state.apply_notation(action)
    assert state.is_terminal() and list(state.scores) == old["result"]["scores"]
    when = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    with engine.begin() as connection:
        for match_id, finished, moves in (("oldblocked01", True, len(seats)),
                                          ("oldblocked02", False, 60)):
            connection.execute(insert(MatchRow.__table__).values(
                id=match_id, game="triominoes", num_players=2, options=old["options"],
                seed=old["seed"], mode="hotseat", status="finished" if finished else "active",
                paused=False, move_count=moves, to_move=None if finished else seats[moves],
                result=old["result"] if finished else None, created_at=when, updated_at=when,
                finished_at=when if finished else None, deadline=None))
            connection.execute(insert(SeatRow.__table__), [
                {"match_id": match_id, "seat": seat, "kind": "human", "name": name,
                 "token_hash": hash_token(f"{match_id}-{seat}")}
                for seat, name in enumerate(["Ann", "Bob"])])
            connection.execute(insert(MoveRow.__table__), [
                {"match_id": match_id, "number": number, "seat": seats[number],
                 "action": old["actions"][number], "created_at": when}
                for number in range(moves)])
    engine.dispose()
    with _app(db_url) as client:
        final = view(client, "oldblocked01", "oldblocked01-0")
        assert final["finished"] and final["scores"] == [144, 328]
        record = client.get("/api/matches/oldblocked01/record").json()
        assert record["options"]["rules_version"] == 1
        assert record["result"] == old["result"] and record["actions"] == old["actions"]
        assert replay(Record.from_json(record)).scores == [144, 328]
        # Right after the blocked round (move 90): settled, Seat 1 +39 -6.
        step = client.get("/api/matches/oldblocked01/replay/90").json()
        assert step["view"]["scores"] == [115, 143]
        # The unfinished match goes on under the rules it started with: the same blocked
        # round is settled.
        going = view(client, "oldblocked02", f"oldblocked02-{seats[60]}")
        assert not going["finished"] and going["move"] == 60
        for number in range(60, 90):
            answer = act(client, "oldblocked02", f"oldblocked02-{seats[number]}",
                         old["actions"][number], number)
            assert answer.status_code == 200, answer.text
        assert answer.json()["view"]["scores"] == [115, 143]
    engine = create_engine(db_url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == (
            "0008")
        options = connection.execute(text("SELECT options FROM matches ORDER BY id")).scalars()
        assert [json.loads(o) if isinstance(o, str) else o for o in options] == [
            {**old["options"], "rules_version": 1}] * 2
    engine.dispose()
