"""The balance script (benchmarks/trivinity_balance.py): its statistics on hand-made outcomes,
a tiny real run, and the report's first line (the command that regenerates it)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def tb(benchmark_script: Callable[[str], ModuleType]) -> ModuleType:
    return benchmark_script("trivinity_balance")


def _outcome(tb: ModuleType, pair: tuple[str, str], swap: bool, winners: tuple[int, ...],
             first: int, turns: int, bought: list[list[str]]) -> object:
    modules = (pair[1], pair[0]) if swap else pair
    return tb.Outcome(pair, modules, winners, first, turns, 10 * turns, "row 1", (50, 40),
                      bought, [set(b) for b in bought], {"acolyte", "tremor", "squire"})


def test_statistics_on_hand_made_games(tb: ModuleType) -> None:
    pair = ("heroes", "disasters")
    outcomes = [
        # seat 0 (Heroes) wins, moves first, leans to Heroes
        _outcome(tb, pair, False, (0,), 0, 20, [["squire", "squire"], ["tremor"]]),
        # seat 1 (Heroes, swapped) wins, seat 0 moved first, seat 1 leans to Heroes
        _outcome(tb, pair, True, (1,), 0, 24, [["tremor", "acolyte"], ["squire"]]),
        # seat 0 (Heroes) loses to the first player; both lean alike: left out of the lean
        _outcome(tb, pair, False, (1,), 1, 31, [["acolyte"], ["acolyte"]]),
    ]
    text = tb.report(outcomes, 3, 5, 1, 1.0, write="docs/balance/x.md")
    lines = text.splitlines()
    assert lines[0] == ("Regenerate this report with `python benchmarks/trivinity_balance.py "
                        "--games 3 --seed 5 --workers 1 --write docs/balance/x.md`.")
    assert "| Heroes | 3 | 66.7% | 100.0% |" in lines
    assert "| Disasters | 3 | 33.3% | 0.0% |" in lines
    assert "The first player in turn order won 66.7% of the games (0 draws, shared)." in lines
    assert any(line.startswith("Turns in a game (both players together): mean 25.0") and
               "shortest 20, longest 31" in line for line in lines)
    wins, decided = tb.lean_wins(outcomes)
    assert decided[pair] == 2 and wins[pair] == 2 and wins[(pair[1], pair[0])] == 0
    # Tier 1 acquirers: Squire 2 (both won), Tremor 2 (both lost), Acolyte 3 (one won): 3/7.
    assert "(tier 1 42.9%, " in text
    # Squire: 3 copies, 3 bought in 3 games; bought by two winners, each buying more than
    # the other player
    assert "| Squire | Heroes | 1 | 3 | 3 | 1.00 | 33.3% | 2 | 100.0% | +57.1 | 100.0% |" in lines
    # Tremor: bought twice, by two losers
    assert "| Tremor | Disasters | 1 | 2 | 3 | 0.67 | 33.3% | 2 | 0.0% | -42.9 | 0.0% |" in lines
    # Acolyte: both bought one in the third game, so only the second game compares them
    assert "| Acolyte | Core | 1 | 2 | 3 | 1.00 | 50.0% | 3 | 33.3% | -9.5 | 0.0% |" in lines
    assert "Cards never bought: none." in text


def test_a_tiny_real_run_and_the_notes_carried_over(tb: ModuleType) -> None:
    outcomes, seconds = tb.run(1, 3, 1)
    assert len(outcomes) == 21 and seconds >= 0
    for o in outcomes:
        assert len(o.winners) >= 1 and o.turns > 0 and set(o.modules) == set(o.pair)
    again, _ = tb.run(1, 3, 1)
    assert [(o.winners, o.turns, o.scores) for o in again] == [
        (o.winners, o.turns, o.scores) for o in outcomes]
    text = tb.report(outcomes, 1, 3, 1, seconds)
    assert text.startswith("Regenerate this report with `python benchmarks/trivinity_balance.py "
                           "--games 1 --seed 3 --workers 1`.\n")
    old = "old report\n\n" + tb.NOTES_HEADING + "\n\n- a change.\n"
    merged = tb.with_notes(text, old)
    assert merged.startswith(text) and merged.endswith(tb.NOTES_HEADING + "\n\n- a change.\n")
    assert tb.with_notes(text, "no notes") == text
