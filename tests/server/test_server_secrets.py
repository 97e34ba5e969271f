"""What the server keeps secret until the end: the seed, and the chance of its computer players.

A Triangles view sends the star cloud itself, never the seed; a computer player's generator is
keyed by a server secret, so that even a seat that knows the seed (one it chose, on a server that
allows that) cannot foresee a computer's reply.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from pydantic import SecretStr
from server_helpers import Json, act, auth, tokens_of, view, wait_view

from triverse.core.records import Record
from triverse.core.rng import derive
from triverse.games.triangles.cloud import BOARDS, generate_stars
from triverse.server.app import create_app
from triverse.server.bots import GameSpec, choose_notation
from triverse.server.config import Settings

SEED = 734_019_283_746_551
"""A seed no view could hold by chance."""

TRIANGLES = "triverse.games.triangles.engine:TrianglesGame"


def create_triangles(client: TestClient, kinds: list[str], seed: int = SEED,
                     mode: str = "computer") -> Json:
    answer = client.post("/api/matches", json={
        "game": "triangles", "options": {"stars": 24}, "mode": mode, "seed": seed,
        "seats": [{"kind": kind} for kind in kinds]})
    assert answer.status_code == 201, answer.text
    created: Json = answer.json()
    return created


def test_the_triangles_view_sends_the_stars_never_the_seed(client: TestClient) -> None:
    created = create_triangles(client, ["human", "human"], mode="online")
    match_id, tokens = created["match_id"], tokens_of(created)
    received: list[Any] = [created]
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        first = ws.receive_json()
        received.append(first)
        for move in range(4):
            seat = move % 2
            mine = view(client, match_id, tokens[seat])
            received.append(mine)
            answer = act(client, match_id, tokens[seat], mine["legal_actions"][0]["notation"],
                         move)
            assert answer.status_code == 200, answer.text
            received.append(answer.json())
            received.append(ws.receive_json())
        received.append(client.post(f"/api/matches/{match_id}/pause", headers=auth(tokens[1]),
                                    json={"paused": True}).json())
    received.append(view(client, match_id))
    for message in received:
        text = json.dumps(message)
        assert str(SEED) not in text, text[:300]
    observation = first["view"]["observation"]
    assert "seed" not in observation
    # The board is sent whole: the very stars the seed makes.
    assert observation["stars"] == [list(p) for p in generate_stars(SEED, BOARDS["phone-24"])]


def foreseen(record: Json, seat: int) -> tuple[int, int]:
    """How many of ``seat``'s computer replies in a finished match's record follow from its
    seed alone, as the server chose them before its key: (foreseen, replies)."""
    rec = Record.from_json(record)
    state = rec.initial_state()
    spec = GameSpec.of(TRIANGLES, state.game)
    hits = replies = 0
    for number, text in enumerate(rec.actions):
        if state.current_player == seat:
            guess = choose_notation("novice", spec, state.observation(seat),
                                    derive(rec.seed, "bot", seat, number))
            hits += guess == text
            replies += 1
        state.apply_notation(text)
    return hits, replies


def play_first_legal(client: TestClient, match_id: str, token: str) -> Json:
    """Play seat 0 of a human-against-computer match, always its first legal action."""
    while True:
        mine = wait_view(client, match_id, token, lambda v: v["finished"] or v["your_turn"])
        if mine["finished"]:
            return mine
        answer = act(client, match_id, token, mine["legal_actions"][0]["notation"],
                     mine["move"])
        assert answer.status_code == 200, answer.text


def test_a_computer_reply_cannot_be_foreseen_from_the_seed(client: TestClient) -> None:
    # A seat that chose the seed (or, before, read it in the Triangles view) knew every
    # computer reply in advance: the computer's generator was derive(seed, "bot", seat, move).
    created = create_triangles(client, ["human", "novice"])
    play_first_legal(client, created["match_id"], tokens_of(created)[0])
    record = client.get(f"/api/matches/{created['match_id']}/record").json()
    hits, replies = foreseen(record, 1)
    assert replies >= 10
    assert hits <= replies // 2, f"{hits} of {replies} computer replies foreseen"


def computer_game(db_url: str, secret: str, seed: int = SEED) -> list[str]:
    """The moves of a novice-against-novice Triangles match on a server keyed by ``secret``."""
    settings = Settings(db_url=db_url, bot_delay=0, bot_workers=1, bot_executor="thread",
                        allow_client_seed=True, bot_secret=SecretStr(secret))
    with TestClient(create_app(settings=settings)) as client:
        created = create_triangles(client, ["novice", "novice"], seed=seed)
        match_id = created["match_id"]
        wait_view(client, match_id, None, lambda v: v["finished"])
        actions: list[str] = client.get(f"/api/matches/{match_id}/record").json()["actions"]
        return actions


def test_computer_moves_repeat_under_one_key_and_differ_under_another(tmp_path: Path) -> None:
    one = computer_game(f"sqlite:///{tmp_path / 'a.sqlite3'}", "a key of the server's")
    again = computer_game(f"sqlite:///{tmp_path / 'b.sqlite3'}", "a key of the server's")
    other = computer_game(f"sqlite:///{tmp_path / 'c.sqlite3'}", "another key")
    assert one == again
    assert one != other
