"""Trident's score preview says each line, bonus and refusal as a message code with parameters
(docs/messages.md), which render with Trident's templates to the English the preview always
showed (its labels and reasons)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from trident_helpers import position

from triverse.core.messages import Reason, render
from triverse.games.trident.engine import TridentGame

TEMPLATES = TridentGame.messages
DOCS = Path(__file__).resolve().parents[2] / "docs" / "messages.md"

# board, racks of the two seats, variant, play: each item's code, parameters and English label
# (the labels as the preview wrote them before it had codes).
CASES: list[tuple[list[str], list[list[int | str]], str, str,
                  list[tuple[str, dict[str, Any], str]]]] = [
    (["7:7=4"], [[2, 0, 0], [0]], "seed", "7:8=2", [
        ("preview.pair", {"values": [4, 2], "sum": "4+2", "multiplier": 1, "total": 6},
         "Pair 4+2 = 6")]),
    (["4:3=1", "5:4=3"], [[11, 0, 0], [0]], "seed", "4:4=11", [
        ("preview.pair", {"values": [1, 11], "sum": "1+11×2", "multiplier": 2, "total": 23},
         "Pair 1+11×2 = 23"),
        ("preview.pair", {"values": [11, 3], "sum": "11+3", "multiplier": 1, "total": 14},
         "Pair 11+3 = 14")]),
    (["7:7=3"], [["*", 0, 0], [1, 0, 0]], "seed", "7:8=*11", [
        ("preview.pair_joker", {"values": [3, 11], "sum": "3+*11", "multiplier": 1, "total": 3},
         "Pair 3+*11 = 3 (a joker scores nothing in a pair)")]),
    (["7:7=2", "7:8=4"], [[9, 0, 0], [0]], "seed", "7:9=9", [
        ("preview.trio", {"values": [2, 4, 9], "sum": "2+4+9", "multiplier": 1, "subtotal": 15,
                          "bonus": 15, "total": 30},
         "Trio 2+4+9 = 15, +15 bonus = 30")]),
    (["7:4=2", "7:5=4"], [[9, 0, 0], [0]], "seed", "7:3=9", [
        ("preview.trio", {"values": [9, 2, 4], "sum": "9×2+2+4", "multiplier": 2,
                          "subtotal": 24, "bonus": 15, "total": 39},
         "Trio 9×2+2+4 = 24, +15 bonus = 39")]),
    (["7:4=2", "7:5=4"], [[9, 0, 0], [0]], "triolet", "7:3=9", [
        ("preview.trio_multiplied", {"values": [9, 2, 4], "sum": "9+2+4", "multiplier": 2,
                                     "subtotal": 15, "bonus": 15, "base": 30, "total": 60},
         "Trio 9+2+4 = 15, +15 bonus = 30, ×2 = 60")]),
    ([], [[4, 5, 6], [0]], "seed", "7:6=4,7:7=5,7:8=6", [
        ("preview.trio_multiplied", {"values": [4, 5, 6], "sum": "4+5+6", "multiplier": 2,
                                     "subtotal": 15, "bonus": 15, "base": 30, "total": 60},
         "Trio 4+5+6 = 15, +15 bonus = 30, ×2 = 60"),
        ("preview.triton", {"name": "Triton", "bonus": 50},
         "Triton: all three rack tiles in one play +50")]),
    ([], [[4, 5, 6], [0]], "triolet", "7:6=4,7:7=5,7:8=6", [
        ("preview.trio_multiplied", {"values": [4, 5, 6], "sum": "4+5+6", "multiplier": 2,
                                     "subtotal": 15, "bonus": 15, "base": 30, "total": 60},
         "Trio 4+5+6 = 15, +15 bonus = 30, ×2 = 60"),
        ("preview.triton", {"name": "Triolet", "bonus": 50},
         "Triolet: all three rack tiles in one play +50")]),
    ([], [[4, 5, "*"], [0]], "seed", "7:6=4,7:7=5,7:8=*6", [
        ("preview.trio_multiplied", {"values": [4, 5, 6], "sum": "4+5+*6", "multiplier": 2,
                                     "subtotal": 15, "bonus": 15, "base": 30, "total": 60},
         "Trio 4+5+*6 = 15, +15 bonus = 30, ×2 = 60"),
        ("preview.triton_joker", {"name": "Triton", "bonus": 50},
         "Triton with a joker: no +50 bonus")]),
    ([], [[7, 0, 0], [0]], "seed", "7:7=7", [
        ("preview.tile", {"values": [7], "sum": "7×2", "multiplier": 2, "total": 14},
         "Tile 7×2 = 14")]),
    ([], [["*", 0, 0], [0]], "seed", "7:7=*7", [
        ("preview.tile_joker", {"values": [7], "sum": "*7×2", "multiplier": 2, "total": 0},
         "Tile *7×2 = 0 (a joker scores nothing)")]),
]


@pytest.mark.parametrize(("board", "racks", "variant", "play", "expected"), CASES)
def test_preview_items_carry_codes_that_render_to_their_english(
        board: list[str], racks: list[list[int | str]], variant: str, play: str,
        expected: list[tuple[str, dict[str, Any], str]]) -> None:
    state = position(board, racks, variant=variant)
    preview = state.preview(play)
    assert preview.legal, preview.reason
    assert [(i.code, i.params, i.label) for i in preview.items] == expected
    for code, params, label in expected:
        assert render(code, params, TEMPLATES) == label
    # The JSON clients receive: the code and parameters beside the label, JSON values only.
    data = json.loads(json.dumps(preview.to_json()))
    assert [(i["code"], i["params"], i["label"]) for i in data["items"]] == expected
    assert data["refusal"] is None and data["reason"] is None
    assert data["points"] == sum(i["points"] for i in data["items"])
    # The play scores what its preview said, with the same words in its events.
    events = state.apply_notation(play)
    assert [e.label for e in events if e.kind == "score"] == [label for _, _, label in expected]


def test_a_refused_play_says_why_with_its_refusal_code() -> None:
    state = position(["7:7=11", "7:8=3"], [[4, 1, 0], [0]])
    preview = state.preview("7:9=4")
    assert not preview.legal and isinstance(preview.reason, Reason)
    assert preview.reason == ("three tiles side by side total exactly 15, not 11 + 3 + 4 = 18 "
                              "(across from 7:7)")
    data = json.loads(json.dumps(preview.to_json()))
    assert data["reason"] == str(preview.reason) and data["items"] == []
    refusal = data["refusal"]
    assert refusal["code"] == "refused.trio_not_15"
    assert refusal["params"]["action"] == "7:9=4"
    assert refusal["params"]["values"] == [11, 3, 4] and refusal["params"]["total"] == 18
    # The same code and parameters as the refusal of the play submitted.
    submitted = state.illegal_reason(state.game.parse_action("7:9=4"))
    assert isinstance(submitted, Reason) and submitted.code == refusal["code"]
    assert refusal["params"] == {**submitted.params, "action": "7:9=4"}
    assert render(refusal["code"], refusal["params"], TEMPLATES) == (
        "three tiles side by side total exactly 15, not 11 + 3 + 4 = 18")


@pytest.mark.parametrize(("play", "code", "english", "words"), [
    ("7:8", "refused.unreadable", "7:8 cannot be read as a play (a play is written like 7:8=5)",
     "is not a tile placement"),
    ("pass", "refused.no_preview", "only a play of tiles has a preview",
     "only a play of tiles has a preview"),
    ("7:9=9", "refused.no_contact", "a play must touch a tile already on the board", "touch"),
    ("7:8=2", "refused.not_on_rack", "you do not have 2 on your rack", "rack"),
])
def test_unreadable_and_illegal_previews_have_codes(play: str, code: str, english: str,
                                                     words: str) -> None:
    state = position(["7:7=4"], [[9, 0, 0], [0]])
    data = json.loads(json.dumps(state.preview(play).to_json()))
    assert not data["legal"] and words in data["reason"]
    assert data["refusal"]["code"] == code and data["refusal"]["params"]["action"] == play
    assert render(code, data["refusal"]["params"], TEMPLATES) == english


def _documented_trident() -> dict[str, set[str]]:
    """docs/messages.md's Trident codes and their parameters."""
    section = DOCS.read_text(encoding="utf-8").split("\n## trident\n", 1)[1]
    return {m.group(1): set(re.findall(r"`(\w+)`", m.group(2)))
            for m in re.finditer(r"^\| `([\w.]+)` \| ([^|]*)\|", section, re.MULTILINE)}


def test_every_preview_code_is_documented_with_its_parameters() -> None:
    docs = _documented_trident()
    for board, racks, variant, play, _expected in CASES:
        items = position(board, racks, variant=variant).preview(play).items
        for item in items:
            assert set(item.params) == docs[item.code], item.code
    for code in ("refused.unreadable", "refused.no_preview"):
        assert docs[code] == {"action"}
    previews = {code for code in TEMPLATES if code.startswith("preview.")}
    assert previews == {code for _, _, _, _, exp in CASES for code, _, _ in exp}
