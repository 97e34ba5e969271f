"""Every event and every refusal of every game carries a message code from its documented list,
with parameters in JSON values that fill in the game's English template."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from triverse.core.errors import GameOverError, IllegalActionError
from triverse.core.events import Event
from triverse.core.game import Game
from triverse.core.messages import CORE_MESSAGES, Reason, render, template_fields
from triverse.core.plugins import load_game

GAMES = ("trinity", "triominoes", "trivinity", "triangles", "trident")
DOCS = Path(__file__).resolve().parents[1] / "docs" / "messages.md"


def documented() -> dict[str, dict[str, set[str]]]:
    """docs/messages.md's codes and their parameters, per game section (``## name``)."""
    sections: dict[str, dict[str, set[str]]] = {}
    current: dict[str, set[str]] = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"## (\w[\w-]*)", line)
        if heading:
            current = sections.setdefault(heading.group(1).lower(), {})
            continue
        row = re.match(r"\| `([\w.]+)` \| ([^|]*)\|", line)
        if row:
            current[row.group(1)] = set(re.findall(r"`(\w+)`", row.group(2)))
    return sections


def check_message(game: Game[Any, Any], code: str, params: dict[str, Any], where: str) -> None:
    docs = documented()
    listed = {**docs["core"], **docs[game.name]}
    assert code in listed, f"{game.name}: {where} code {code!r} is not in docs/messages.md"
    assert code in game.messages or code in CORE_MESSAGES, f"{game.name}: no template {code!r}"
    assert json.loads(json.dumps(params)) == params, f"{code}: params not JSON: {params!r}"
    assert set(params) <= listed[code] | {"action"}, f"{code}: undocumented {set(params)}"
    template = game.messages.get(code, CORE_MESSAGES.get(code, ""))
    assert template_fields(template) <= set(params) | {"who", "points"}, code
    assert render(code, params, game.messages, who="Ann") != code


def play_and_check(name: str, seed: int) -> tuple[set[str], set[str]]:
    game = load_game(name)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    seen_events: set[str] = set()
    seen_refusals: set[str] = set()
    candidates: list[Any] = []
    for _ in range(400):
        if state.is_terminal():
            break
        legal = state.legal_action_list()
        candidates.extend(rng.sample(legal, min(3, len(legal))))
        for candidate in rng.sample(candidates, min(8, len(candidates))):
            reason = state.illegal_reason(candidate)
            if reason is None:
                continue
            assert isinstance(reason, Reason), f"{name}: plain refusal {reason!r}"
            check_message(game, reason.code, reason.params, "refusal")
            seen_refusals.add(reason.code)
            with pytest.raises(IllegalActionError) as refused:
                state.apply(candidate)
            assert refused.value.code == reason.code
            assert refused.value.params["action"] == str(candidate)
        events: list[Event] = state.apply(rng.choice(legal))
        for event in events:
            assert event.code, f"{name}: event without a code: {event}"
            check_message(game, event.code, dict(event.params), "event")
            assert event.to_json()["code"] == event.code
            seen_events.add(event.code)
    if state.is_terminal():
        with pytest.raises(GameOverError) as over:
            state.apply(candidates[0])
        assert over.value.code == "refused.game_over"
    return seen_events, seen_refusals


@pytest.mark.parametrize("name", GAMES)
def test_every_event_and_refusal_has_a_documented_code(name: str) -> None:
    events: set[str] = set()
    refusals: set[str] = set()
    for seed in range(4):
        e, r = play_and_check(name, seed)
        events |= e
        refusals |= r
    assert len(events) >= 3 and refusals, (events, refusals)


@pytest.mark.parametrize("name", GAMES)
def test_every_template_is_documented_and_every_documented_code_has_a_template(name: str) -> None:
    game = load_game(name)
    docs = documented()[name]
    codes = {code: t for code, t in game.messages.items()
             if not code.startswith(("name:", "you:"))}  # names, and forms said to the player
    assert set(codes) == set(docs), set(codes) ^ set(docs)
    for code, template in codes.items():
        assert template_fields(template) <= docs[code] | {"who", "points"}, code
