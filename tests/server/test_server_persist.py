"""Persistence: restarts, pending computer turns, "my games", records."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient
from server_helpers import act, auth, create, play_to_end, tokens_of, view, wait_view
from sqlalchemy import create_engine, text

from triverse.core.records import Record, replay
from triverse.server.app import create_app


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
            "0003")
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
