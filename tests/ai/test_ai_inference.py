"""The inference script (benchmarks/tiles_inference.py): a tiny real run whose figures hold
together."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from types import ModuleType


def test_the_veterans_deals_explain_the_opponents_placements_better(
        benchmark_script: Callable[[str], ModuleType]) -> None:
    ti = benchmark_script("tiles_inference")
    summary = ti.measure(games=1, deals=3, seed=7)
    assert 10 <= summary.decisions <= summary.choices
    for way in (summary.plain, summary.kept):
        assert len(way.shortfalls) == len(way.real) == 3 * summary.decisions
        assert min(way.shortfalls) >= 0.0
    # Every real tile dealt is one of the opponent's, never more than its hand holds.
    sizes = [size for size in summary.sizes for _ in range(3)]
    assert all(0 <= real <= size for real, size in zip(summary.kept.real, sizes, strict=True))
    assert len(summary.tries) == 3 * summary.decisions and min(summary.tries) >= 1
    assert max(summary.tries) <= ti.TrinityKnowledge.choice_tries
    assert statistics.fmean(summary.kept.shortfalls) < statistics.fmean(summary.plain.shortfalls)
    text = ti.report(summary, 1)
    assert f"{summary.decisions} of seat 0's {summary.choices} decisions" in text
