"""Helpers of the server tests: creating matches, playing them, and checking hidden tiles."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from fastapi.testclient import TestClient

from triverse.core.game import State
from triverse.core.records import Record
from triverse.server.accounts import CSRF_HEADER, SESSION_COOKIE

TILE = re.compile(r"(?<![0-9A-Za-z_-])([0-5]-[0-5]-[0-5])(?![0-9A-Za-z_-])")
"""A Tri-ominoes tile in any text (not inside a token or a date)."""

Json = dict[str, Any]


def auth(token: str | None) -> dict[str, str]:
    """The header that carries a seat token."""
    return {} if token is None else {"X-Seat-Token": token}


def create(
    client: TestClient, kinds: Iterable[str], mode: str = "computer", seed: int | None = 7,
    **options: Any,
) -> Json:
    """Create a Tri-ominoes match (target 60 unless told) and return the answer."""
    options.setdefault("target", 60)
    body: Json = {"game": "triominoes", "options": options, "mode": mode,
                  "seats": [{"kind": kind} for kind in kinds]}
    if seed is not None:
        body["seed"] = seed
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 201, answer.text
    created: Json = answer.json()
    return created


def tokens_of(created: Json) -> dict[int, str]:
    """The human seats' tokens of a create answer."""
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"] is not None}


def view(client: TestClient, match_id: str, token: str | None = None) -> Json:
    """A seat's view (or the public one) over REST."""
    answer = client.get(f"/api/matches/{match_id}/view", headers=auth(token))
    assert answer.status_code == 200, answer.text
    result: Json = answer.json()
    return result


def wait_view(
    client: TestClient, match_id: str, token: str | None, until: Callable[[Json], bool],
    timeout: float = 30.0,
) -> Json:
    """Poll the view until ``until`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        current = view(client, match_id, token)
        if until(current):
            return current
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s; the view is at move {current['move']}, "
                                 f"to move {current['to_move']}, paused {current['paused']}")
        time.sleep(0.005)


def act(client: TestClient, match_id: str, token: str, action: str, move: int) -> Any:
    """POST an action; returns the raw answer."""
    return client.post(f"/api/matches/{match_id}/actions", headers=auth(token),
                       json={"action": action, "move": move})


def play_to_end(
    client: TestClient, match_id: str, tokens: Mapping[int, str],
    seen: dict[int, list[Json]] | None = None, max_moves: int | None = None,
) -> Json:
    """Play the human seats over REST, always the first legal action, until the end (or
    ``max_moves`` human moves). Every answer is appended to ``seen[seat]``."""
    played = 0
    while True:
        public = view(client, match_id)
        if public["finished"] or (max_moves is not None and played >= max_moves):
            return public
        seat = public["to_move"]
        if seat not in tokens:
            seen_move: int = public["move"]

            def moved(v: Json, m: int = seen_move) -> bool:
                return bool(v["move"] > m or v["finished"])

            wait_view(client, match_id, None, moved)
            continue
        mine = view(client, match_id, tokens[seat])
        if seen is not None:
            seen.setdefault(seat, []).append(mine)
        assert mine["your_turn"] and mine["legal_actions"], mine
        answer = act(client, match_id, tokens[seat], mine["legal_actions"][0]["notation"],
                     mine["move"])
        assert answer.status_code == 200, answer.text
        if seen is not None:
            seen[seat].append(answer.json())
        played += 1


# --- hidden information ---------------------------------------------------------------------
def hidden_from(state: State[Any], seat: int | None) -> set[str]:
    """The tiles ``seat`` may not know of in ``state``: the other hands and the pool, less the
    opening tile(s) the rules announce."""
    n = state.game.num_players
    hidden: set[str] = set()
    for other in range(n):
        if other != seat:
            hidden |= set(state.observation(other).to_json()["hand"])
    pool = getattr(state, "pool", None)
    if pool is not None:
        hidden |= {str(t) for t in pool[getattr(state, "pool_pos", 0):]}
    hidden -= set(state.observation(None).to_json()["opening"])
    return hidden


def hidden_by_move(record: Json, seats: Iterable[int | None]) -> list[dict[int | None, set[str]]]:
    """For each move number k (0 to the end): per seat, the tiles hidden from it after k
    moves, from the true game replayed from its record."""
    seats = list(seats)
    rec = Record.from_json(record)
    state = rec.initial_state()
    out = [{s: hidden_from(state, s) for s in seats}]
    for _index, _text, after, _events in rec.steps(state):
        out.append({s: hidden_from(after, s) for s in seats})
    return out


def _views_in(message: Json) -> list[Json]:
    if "observation" in message:
        return [message]
    inner = message.get("view")
    return [inner] if isinstance(inner, dict) else []


def assert_nothing_hidden(
    messages: Iterable[Json], seat: int | None, hidden: list[dict[int | None, set[str]]]
) -> int:
    """Check that no message ``seat`` received names a tile hidden from it at that moment.

    A view is checked against the position it shows; each log entry against the position
    right after its move (less the tile that move put on the board), and it must carry no
    other seat's secrets or notation. Other messages are checked against the position of the
    last view before them. Returns how many tile mentions were checked.
    """
    move = 0
    checked = 0
    for message in messages:
        views = _views_in(message)
        if not views:
            found = set(TILE.findall(json.dumps(message)))
            assert not found & hidden[move][seat], (seat, move, found & hidden[move][seat])
            checked += len(found)
        for v in views:
            move = v["move"]
            assert v["seat"] == seat
            if seat is None:
                assert v["observation"]["hand"] is None and v["legal_actions"] == []
            body = {k: val for k, val in v.items() if k != "log"}
            found = set(TILE.findall(json.dumps(body)))
            leak = found & hidden[move][seat]
            assert not leak, (f"seat {seat} sees {sorted(leak)} at move {move}")
            checked += len(found)
            for entry in v["log"]:
                if entry["player"] != seat:
                    assert "action" not in entry, entry
                    assert all("secret" not in e for e in entry["events"]), entry
                placed = {e["data"]["tile"] for e in entry["events"] if e["kind"] == "place"}
                found = set(TILE.findall(json.dumps(entry))) - placed
                leak = found & hidden[entry["move"] + 1][seat]
                assert not leak, (f"seat {seat} sees {sorted(leak)} in the log entry of move "
                                  f"{entry['move']}")
                checked += len(found)
    return checked


# --- Redis ----------------------------------------------------------------------------------------
REDIS_URL = "redis://127.0.0.1:6379/0"
"""This machine's Redis (the tests that share it use a key prefix of their own)."""



PASSWORD = "correct horse battery"
"""The password of the tests' accounts."""


class Browser:
    """A logged-in account: its session cookie and CSRF token, sent by hand so that one test
    client plays several browsers (its own cookie jar is kept empty)."""

    def __init__(self, client: TestClient, name: str) -> None:
        answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.name = name
        self.cookie = answer.cookies[SESSION_COOKIE]
        self.csrf: str = answer.json()["csrf"]
        client.cookies.clear()

    def headers(self, csrf: bool = True) -> dict[str, str]:
        out = {"Cookie": f"{SESSION_COOKIE}={self.cookie}"}
        if csrf:
            out[CSRF_HEADER] = self.csrf
        return out
