"""No seat learns a secret before the end, in any game: a property over many games.

Before a game ends, nothing a seat (or a spectator) is sent holds the match seed, a value
derived from it, the tiles hidden from it, or the order of a hidden pile (a pool, a bag, a
deck, face-down cards, another seat's hand). The bulk runs on the engines, which make all a
view holds (observation, legal actions, previews, errors, events): :data:`GAMES` games of each
kind, 2,000 (10,000 in all) with ``--long``. A few games then run whole through the server's
websocket and REST API, and everything they sent is scanned too. ``leak_checks`` says how.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from leak_checks import SEED_LOW, Scan, answers, probes, world_like
from server_helpers import TILE, Json, act, auth, tokens_of, view

from triverse.core.errors import TriverseError
from triverse.core.fairness import digest
from triverse.core.game import Game, State
from triverse.core.plugins import available_games, load_game
from triverse.core.records import Record
from triverse.core.verify import verify
from triverse.server.app import create_app
from triverse.server.config import settings_with

GAMES = 200
"""Games per kind in the normal suite."""
LONG_GAMES = 2_000
"""Games per kind with ``pytest --long``: 10,000 games over the five kinds."""
TWINS = 6
"""Positions per game (besides the first) where each viewer's answers are compared with a
twin world's; the seed and hidden-pile scans run at every position."""

KINDS = available_games()
"""Every game installed (a game with hidden information needs a twin maker in ``leak_checks``)."""

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "triominoes": [{"target": 60}, {"target": 60, "variant": "pressman"}],
    "trinity": [{"rounds": 1}, {"rounds": 2}],
    "triangles": [{"stars": 24}, {"stars": 24, "again": True}],
    "trident": [{}, {"variant": "triolet"}],
    "trivinity": [{"turn_limit": 12}, {"turn_limit": 12, "variant": "full-rounds"}],
}
"""Options the property games are played with (short games: more of them in the time)."""


def random_game(name: str, rng: random.Random) -> Game[Any, Any]:
    """A game of ``name`` with random players and one of its variants."""
    cls = type(load_game(name))
    players = rng.randint(cls.min_players, min(cls.max_players, 4))
    return cls(players, rng.choice(VARIANTS.get(name, [{}])))


def check_game(game: Game[Any, Any], rng: random.Random) -> int:
    """Play one game at random, checking every viewer at every position; returns the number
    of checks and of tile names checked."""
    state: State[Any] = game.new_initial_state(seed=rng.randrange(SEED_LOW, 2**63))
    viewers: list[int | None] = [*range(game.num_players), None]
    twins = {0} | {rng.randrange(0, 150) for _ in range(TWINS)}
    examples = notation_examples(game)
    checks = 0
    scans = {viewer: Scan(state, viewer) for viewer in viewers}
    while not state.is_terminal():
        number = state.move_number
        tried = probes(state, rng) if number in twins else []
        # An error may name what the seat sent (its probes), nothing else.
        sent = named(tried) | examples
        for viewer in viewers:
            told = answers(state, viewer, tried)
            checks += scans[viewer].check(told, f"{game.name} move {number}", sent) + 1
            if number in twins:
                twin = world_like(state, viewer, rng)
                assert answers(twin, viewer, tried) == told, (
                    f"{game.name} move {number}: seat {viewer} can tell the true position "
                    "from one with another seed and other hidden piles")
                checks += 1
        action = rng.choice(state.legal_action_list())
        events = state.apply(action)
        placed = [str(e.data["tile"]) for e in events if e.kind == "place" and "tile" in e.data]
        scans = {viewer: Scan(state, viewer) for viewer in viewers}
        for viewer in viewers:
            checks += scans[viewer].check([e.to_json(viewer) for e in events],
                                          f"{game.name} events of move {number}", placed) + 1
    return checks


def notation_examples(game: Game[Any, Any]) -> set[str]:
    """The tiles a notation error of ``game`` gives as examples, whatever the position."""
    try:
        game.parse_action("?")
    except TriverseError as exc:
        return set(TILE.findall(str(exc)))
    return set()


def named(notations: list[str]) -> set[str]:
    """The tiles the notations name, in any order of their numbers (an engine writes a tile
    its own way: ``1-5-3`` is ``1-3-5``)."""
    return {"-".join(p) for tile in TILE.findall(" ".join(notations))
            for p in itertools.permutations(tile.split("-"))}


@pytest.fixture
def leak_games(request: pytest.FixtureRequest) -> int:
    """How many games of each kind: :data:`GAMES`, or :data:`LONG_GAMES` with ``--long``."""
    return LONG_GAMES if request.config.getoption("--long") else GAMES


@pytest.mark.slow
@pytest.mark.parametrize("name", KINDS)
def test_no_view_holds_a_secret(name: str, leak_games: int) -> None:
    rng = random.Random(f"leaks {name}")
    started = time.perf_counter()
    checks = sum(check_game(random_game(name, rng), rng) for _ in range(leak_games))
    assert checks > leak_games * 10
    print(f"{name}: {leak_games} games, {checks} checks, {time.perf_counter() - started:.1f} s")


# --- whole games through the server ----------------------------------------------------------
SERVER_GAMES = 3
"""Games of each kind played through the server (its websocket and REST API)."""


class Seat:
    """A seat's websocket (or a spectator's) that keeps every message received."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: list[Json] = []

    def view_after(self, move: int) -> Json:
        """Read messages until a view past ``move`` (or of the end) arrives."""
        while True:
            message: Json = self.ws.receive_json()
            self.messages.append(message)
            if message["type"] == "view" and (message["view"]["move"] > move
                                               or message["view"]["finished"]):
                found: Json = message["view"]
                return found

    def ask(self, message: Json, answer: str) -> Json:
        """Send ``message`` and read until the message of type ``answer`` or an error."""
        self.ws.send_json(message)
        while True:
            got: Json = self.ws.receive_json()
            self.messages.append(got)
            if got["type"] in (answer, "error"):
                return got


Received = dict[int | None, list[Json]]


def server_game(client: TestClient, name: str, rng: random.Random,
                sent: dict[int | None, list[str]]) -> Received:
    """Play a whole match of ``name``: seat 0 over its websocket, seat 1 over REST, any other
    seat a novice computer, a spectator watching; each seat asks for previews (where the game
    has them), hints and errors on the way. Returns what each seat and the spectator received;
    ``sent`` gets the notations each seat sent."""
    game = random_game(name, rng)
    kinds = ["human", "human"] + ["novice"] * (game.num_players - 2)
    created = client.post("/api/matches", json={
        "game": name, "options": dict(game.options), "mode": "online",
        "seats": [{"kind": kind} for kind in kinds]})
    assert created.status_code == 201, created.text
    match_id, tokens = created.json()["match_id"], tokens_of(created.json())
    seen: dict[int | None, list[Json]] = {0: [created.json()], 1: [created.json()], None: []}
    url = f"/ws/matches/{match_id}"
    with client.websocket_connect(url) as ws0, client.websocket_connect(url) as wss:
        mine, spectator = Seat(ws0), Seat(wss)
        ws0.send_json({"type": "hello", "token": tokens[0]})
        wss.send_json({"type": "hello"})
        current = mine.view_after(-1)
        spectator.view_after(-1)
        while not current["finished"]:
            move = current["move"]
            if current["your_turn"]:
                legal = [a["notation"] for a in current["legal_actions"]]
                choice = rng.choice(legal)
                wrong = probes_of(legal, rng)
                sent[0] += [choice, wrong]
                if current["game"]["preview"]:
                    mine.ask({"type": "preview", "action": choice, "move": move},
                             "preview_result")
                    mine.ask({"type": "preview", "action": wrong, "move": move},
                             "preview_result")
                tried = mine.ask({"type": "action", "action": wrong, "move": move}, "accepted")
                if tried["type"] == "error":  # else the other numbers made a legal action
                    mine.ws.send_json({"type": "action", "action": choice, "move": move})
            elif current["to_move"] == 1:
                rest_turn(client, match_id, tokens[1], seen[1], rng, sent[1])
            current = mine.view_after(move)
        spectator.view_after(current["move"] - 1)
        seen[0] += mine.messages
        seen[None] += spectator.messages
    return seen


def probes_of(legal: list[str], rng: random.Random) -> str:
    """A notation like a legal one with other numbers (mostly an error)."""
    return re.sub(r"\d+", lambda m: str(rng.randrange(0, 10 ** len(m[0]) + 1)),
                  rng.choice(legal))


def rest_turn(client: TestClient, match_id: str, token: str, seen: list[Json],
              rng: random.Random, sent: list[str]) -> None:
    """Seat 1's turn over REST: its view, a preview, a hint now and then, a wrong action, then
    a random legal one; every answer kept in ``seen``."""
    mine = view(client, match_id, token)
    seen.append(mine)
    move = mine["move"]
    legal = [a["notation"] for a in mine["legal_actions"]]
    wrong = probes_of(legal, rng)
    choice = rng.choice(legal)
    sent += [legal[0], wrong, choice]
    if mine["game"]["preview"]:
        for text in (legal[0], wrong):
            seen.append(client.post(f"/api/matches/{match_id}/preview", headers=auth(token),
                                    json={"action": text, "move": move}).json())
    if rng.random() < 0.1:
        hint = client.post(f"/api/matches/{match_id}/hint", headers=auth(token),
                           json={"move": move})
        assert hint.status_code == 200, hint.text
        seen.append(hint.json())
    answer = act(client, match_id, token, wrong, move)
    seen.append(answer.json())
    if answer.status_code != 200:  # else the other numbers made a legal action
        answer = act(client, match_id, token, choice, move)
        assert answer.status_code == 200, answer.text
        seen.append(answer.json())


def check_received(record: Json, seen: Received, sent: dict[int | None, list[str]]) -> int:
    """Scan what each seat received before the end against the true game: a view against
    its position (each log entry against the position right after its move, less the tiles
    it put down), anything else against the position of the last view before it (naming
    only the tiles the seat sent, or a notation error's examples). Nothing holds the
    commitment's salt or the deal's digest either (the record reveals them at the end)."""
    rec = Record.from_json(record)
    assert rec.commitment is not None
    hidden = (rec.commitment.salt, digest(dict(rec.commitment.deal)))
    examples = notation_examples(rec.initial_state().game)
    state = rec.initial_state()
    positions = [state.clone()]
    for _index, _text, after, _events in rec.steps(state):
        positions.append(after.clone())
    scans: dict[tuple[int, int | None], Scan] = {}

    def scan(move: int, seat: int | None) -> Scan:
        if (move, seat) not in scans:
            scans[move, seat] = Scan(positions[move], seat, hidden)
        return scans[move, seat]

    checks = 0
    for seat, messages in seen.items():
        move = 0
        for message in messages:
            inner = message.get("view") if isinstance(message.get("view"), dict) else None
            shown = inner if inner is not None else (message if "observation" in message
                                                     else None)
            if shown is None:
                move = message.get("move", move) if isinstance(message.get("move"), int) \
                    else move
                checks += scan(move, seat).check(message, f"a message to {seat}",
                                                 named(sent[seat]) | examples) + 1
                continue
            if shown["finished"]:
                break  # the end: the record is public now
            if inner is not None:  # the message around a view (an accepted action's number)
                around = {k: v for k, v in message.items() if k != "view"}
                at = around["move"] if isinstance(around.get("move"), int) else move
                checks += scan(at, seat).check(around, f"a message to {seat}",
                                               named(sent[seat]) | examples) + 1
            move = shown["move"]
            assert shown["seat"] == seat
            body = {k: v for k, v in shown.items() if k != "log"}
            checks += scan(move, seat).check(body, f"the view of move {move} to {seat}") + 1
            for entry in shown["log"]:
                placed = [str(e["data"]["tile"]) for e in entry["events"]
                          if e["kind"] == "place" and "tile" in e["data"]]
                checks += scan(entry["move"] + 1, seat).check(
                    entry, f"log entry {entry['move']} to {seat}", placed) + 1
    return checks


@pytest.mark.parametrize("name", KINDS)
def test_no_message_of_the_server_holds_a_secret(name: str, db_url: str) -> None:
    rng = random.Random(f"server leaks {name}")
    # Whole games from one address: far more actions, previews and hints than a person sends.
    many = "100000/minute"
    app = create_app(settings=settings_with(
        db_url=db_url, bot_delay=0, bot_workers=1, bot_executor="thread", hint_budget=0.05,
        rate_action=many, rate_preview=many, rate_hint=many, rate_review=many))
    with TestClient(app) as client:
        checks = 0
        for _ in range(SERVER_GAMES):
            sent: dict[int | None, list[str]] = {0: [], 1: [], None: []}
            seen = server_game(client, name, rng, sent)
            match_id = seen[0][0]["match_id"]
            record = client.get(f"/api/matches/{match_id}/record").json()
            assert str(record["seed"]) not in json.dumps(seen), "the seed was sent"
            checks += check_received(record, seen, sent)
            # The end reveals the seed and the salt; the commitment shown from move 0 holds.
            shown = {m["view"]["commitment"] for messages in seen.values() for m in messages
                     if isinstance(m.get("view"), dict)}
            assert shown == {record["commitment"]["digest"]}
            assert verify(Record.from_json(record)).actions == len(record["actions"])
        assert checks > SERVER_GAMES * 20
