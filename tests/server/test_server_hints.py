"""Hints (the veteran's suggested move for the seat to move) and post-game reviews."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Json, act, auth, create, tokens_of, view, wait_view

import triverse.server.bots as bots_module
from triverse.core.game import Observation, State
from triverse.server.app import create_app
from triverse.server.bots import GameSpec


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[TestClient]:
    """A server whose veteran thinks briefly, in threads (so that tests can watch its jobs)."""
    app = create_app(f"sqlite:///{tmp_path / 'hints.sqlite3'}", bot_delay=0, bot_workers=2,
                     bot_executor="thread", allow_client_seed=True, hint_budget=0.1,
                     review_budget=0.05, review_total=1.0)
    with TestClient(app) as test_client:
        yield test_client


def _hint(client: TestClient, match_id: str, token: str | None, move: int | None = None,
          body: bool = True) -> Any:
    payload: Json | None = None if not body else ({} if move is None else {"move": move})
    return client.post(f"/api/matches/{match_id}/hint", headers=auth(token), json=payload)


def _review(client: TestClient, match_id: str, token: str | None = None) -> Any:
    return client.get(f"/api/matches/{match_id}/review", headers=auth(token))


def _passed_trident(client: TestClient) -> tuple[str, dict[int, str]]:
    """A hot-seat Trident match that both players ended at once by passing."""
    answer = client.post("/api/matches", json={
        "game": "trident", "mode": "hotseat", "seed": 4,
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert answer.status_code == 201, answer.text
    match_id, tokens = answer.json()["match_id"], tokens_of(answer.json())
    for move in (0, 1):
        seat = view(client, match_id)["to_move"]
        assert act(client, match_id, tokens[seat], "pass", move).status_code == 200
    assert view(client, match_id)["finished"]
    return match_id, tokens


def test_a_hint_is_a_legal_move_of_the_seat_to_move(quick: TestClient) -> None:
    created = create(quick, ["human", "average"])
    match_id, token = created["match_id"], tokens_of(created)[0]
    mine = wait_view(quick, match_id, token, lambda v: bool(v["your_turn"]))
    answer = _hint(quick, match_id, token, mine["move"])
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["move"] == mine["move"]
    legal = {a["notation"]: a for a in mine["legal_actions"]}
    assert data["hint"]["notation"] in legal
    assert data["hint"] == legal[data["hint"]["notation"]]        # fields to highlight it
    assert view(quick, match_id, token) == mine                    # nothing played or stored
    again = _hint(quick, match_id, token, body=False)              # no body, no move: fine
    assert again.status_code == 200 and again.json() == data        # the same, at once
    # and it can be played
    assert act(quick, match_id, token, data["hint"]["notation"], mine["move"]).status_code == 200


def test_hint_refusals_change_nothing(quick: TestClient) -> None:
    created = create(quick, ["human", "human"], mode="hotseat")
    match_id, tokens = created["match_id"], tokens_of(created)
    public = view(quick, match_id)
    seat = public["to_move"]
    other = 1 - seat
    before = {s: view(quick, match_id, t) for s, t in tokens.items()}
    cases = [
        (_hint(quick, match_id, tokens[other]), 409, "not_your_turn"),
        (_hint(quick, match_id, None), 401, "missing_token"),
        (_hint(quick, match_id, "not-a-token"), 403, "wrong_token"),
        (_hint(quick, match_id, tokens[seat], public["move"] + 1), 409, "stale_move"),
        (_hint(quick, "nosuchmatch", tokens[seat]), 404, "unknown_match"),
        (quick.post(f"/api/matches/{match_id}/hint", headers=auth(tokens[seat]),
                    json={"move": "0"}), 422, "bad_request"),
    ]
    for answer, status, code in cases:
        assert answer.status_code == status, answer.text
        assert answer.json()["error"]["code"] == code
    assert {s: view(quick, match_id, t) for s, t in tokens.items()} == before

    finished, trident_tokens = _passed_trident(quick)
    answer = _hint(quick, finished, trident_tokens[0])
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_over"


def test_a_hint_is_computed_from_the_seats_observation_only(
    quick: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    jobs: list[tuple[Any, ...]] = []
    real = bots_module.hint_notation

    def spy(*args: Any) -> str:
        jobs.append(args)
        return real(*args)

    monkeypatch.setattr(bots_module, "hint_notation", spy)
    created = create(quick, ["human", "average"], seed=11)
    match_id, token = created["match_id"], tokens_of(created)[0]
    mine = wait_view(quick, match_id, token, lambda v: bool(v["your_turn"]))
    assert _hint(quick, match_id, token).status_code == 200
    assert len(jobs) == 1
    spec, observation, budget, _rng, memory = jobs[0]
    assert isinstance(spec, GameSpec)
    assert isinstance(observation, Observation)
    assert not any(isinstance(arg, State) for arg in jobs[0])
    # What the seat remembers comes from its own observations only.
    assert isinstance(memory, dict)
    assert not any(isinstance(value, State) for value in memory.values())
    assert memory.get("observation") is None or memory["observation"].player == 0
    assert observation.player == 0
    assert observation.to_json() == mine["observation"]   # exactly what the seat is shown
    assert budget == pytest.approx(0.1)


def test_a_review_waits_for_the_end(quick: TestClient) -> None:
    created = create(quick, ["human", "average"])
    match_id, token = created["match_id"], tokens_of(created)[0]
    wait_view(quick, match_id, token, lambda v: bool(v["your_turn"]))
    for who in (token, None):
        answer = _review(quick, match_id, who)
        assert answer.status_code == 409, answer.text
        assert answer.json()["error"]["code"] == "not_finished"
    assert _review(quick, "nosuchmatch").json()["error"]["code"] == "unknown_match"
    assert _review(quick, match_id, "bad").json()["error"]["code"] == "wrong_token"


MOVE_KEYS = {"index", "move", "seat", "played", "played_description", "suggested",
             "suggestion", "points_lost", "stderr", "played_value", "best_value", "worlds"}


def test_a_review_of_a_finished_game_and_its_cache(
    quick: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    real = bots_module.review_seat

    def spy(record: Json, seat: int, *rest: Any) -> list[Json]:
        calls.append(seat)
        return real(record, seat, *rest)

    monkeypatch.setattr(bots_module, "review_seat", spy)
    match_id, tokens = _passed_trident(quick)
    first = view(quick, match_id)["log"][0]["player"]
    answer = _review(quick, match_id, tokens[first])
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["match_id"] == match_id and data["seat"] == first and data["total"] == 2
    assert [s["seat"] for s in data["seats"]] == [first]
    assert data["seats"][0]["decisions"] == 1
    assert 0 < data["seats"][0]["budget"] <= 0.05
    # Passing at once, which ends the game, is a blunder the veteran sees.
    assert len(data["moves"]) == 1
    note = data["moves"][0]
    assert set(note) == MOVE_KEYS
    assert (note["index"], note["move"], note["seat"], note["played"]) == (0, 0, first, "pass")
    assert note["points_lost"] >= 0.5 and note["suggested"] != "pass"
    assert note["suggestion"]["notation"] == note["suggested"]
    assert note["suggestion"]["kind"] in ("play", "exchange")
    assert data["seats"][0]["points_lost"] == pytest.approx(note["points_lost"])
    assert calls == [first]

    started = time.monotonic()
    assert _review(quick, match_id, tokens[first]).json() == data    # cached: no new job
    assert time.monotonic() - started < 0.5
    assert calls == [first]

    everyone = _review(quick, match_id).json()                        # a spectator's
    assert everyone["seat"] is None
    assert [s["seat"] for s in everyone["seats"]] == [0, 1]
    assert sorted(calls) == [0, 1]                                     # only the missing seat
    assert everyone["moves"][0] == note
    assert [m["index"] for m in everyone["moves"]] == sorted(m["index"]
                                                             for m in everyone["moves"])
    assert _review(quick, match_id).json() == everyone
    assert sorted(calls) == [0, 1]
