"""The decision-quality script (benchmarks/tiles_regret.py): its split-half statistics on fixed
values, and a tiny real run whose decisions and report agree."""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def tr(benchmark_script: Callable[[str], ModuleType]) -> ModuleType:
    return benchmark_script("tiles_regret")


def test_the_oracle_picks_on_one_half_and_is_valued_on_the_other(tr: ModuleType) -> None:
    # "a" looks best on the first half only; on the second half "b" is best.
    values = {"a": [9.0, 9.0, 0.0, 0.0], "b": [1.0, 1.0, 6.0, 6.0], "c": [2.0, 2.0, 2.0, 2.0]}
    veteran, oracle, best = tr.gains(values, average="c", veteran="b")
    assert veteran == pytest.approx(3.5 - 2.0)
    assert oracle == pytest.approx(0.0 - 2.0)  # the oracle's own luck does not count
    assert best == pytest.approx(4.5 - 2.0)  # the biased maximum over all worlds


def test_the_average_against_itself_gains_nothing(tr: ModuleType) -> None:
    values = {"a": [3.0, 5.0], "b": [4.0, 4.0]}
    assert tr.gains(values, average="a", veteran="a")[0] == 0.0


def test_a_short_run_notes_every_decision_with_a_choice(tr: ModuleType) -> None:
    decisions = tr.measure("trinity", games=1, worlds=2, seed=5, budget=0.01)
    assert decisions
    for decision in decisions:
        assert decision.choices >= 2
        assert all(math.isfinite(x) for x in (decision.veteran, decision.oracle,
                                              decision.oracle_max))
        assert decision.oracle_max >= decision.veteran or math.isclose(
            decision.oracle_max, decision.veteran)
        if decision.same:
            assert decision.veteran == 0.0
    first = tr.report(decisions, 1).splitlines()[0]
    assert first.startswith(f"{len(decisions)} decisions of seat 0 with a choice in 1 games")
