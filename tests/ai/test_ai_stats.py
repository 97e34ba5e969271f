"""The arena's statistics on fixed results: Wilson intervals, Elo, draws counted as half."""

from __future__ import annotations

import math

import pytest

from triverse.ai.stats import (
    elo_from_rate,
    elo_ratings,
    expected_score,
    pairwise_from_ranks,
    percentile,
    wilson_interval,
)
from triverse.arena import ArenaConfig, EntrySpec, GameOutcome, summarize


def test_wilson_interval_known_values() -> None:
    # Textbook values (Wilson 1927; e.g. Newcombe 1998, table I): 81 of 263.
    low, high = wilson_interval(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4)
    assert high == pytest.approx(0.3662, abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_is_symmetric_and_contains_the_rate() -> None:
    for wins, games in ((3, 7), (50, 100), (399.5, 400)):
        low, high = wilson_interval(wins, games)
        assert low <= wins / games <= high
        mirror = wilson_interval(games - wins, games)
        assert mirror[0] == pytest.approx(1 - high) and mirror[1] == pytest.approx(1 - low)


def test_elo_of_two_players_is_the_logit_of_the_rate() -> None:
    ratings = elo_ratings(["a", "b"], {("a", "b"): (64.0, 36.0)}, prior_draws=0.0)
    assert ratings["a"] - ratings["b"] == pytest.approx(elo_from_rate(0.64), abs=1e-6)
    assert (ratings["a"] + ratings["b"]) / 2 == pytest.approx(1500.0)
    assert expected_score(ratings["a"], ratings["b"]) == pytest.approx(0.64, abs=1e-9)


def test_elo_prior_keeps_a_clean_sweep_finite() -> None:
    ratings = elo_ratings(["a", "b"], {("a", "b"): (10.0, 0.0)})
    gap = ratings["a"] - ratings["b"]
    assert math.isfinite(gap)
    assert gap == pytest.approx(elo_from_rate(10.5 / 11), abs=1e-6)


def test_elo_is_maximum_likelihood_for_three_players() -> None:
    results = {("a", "b"): (30.0, 10.0), ("b", "c"): (25.0, 15.0), ("a", "c"): (35.0, 5.0)}
    ratings = elo_ratings(["a", "b", "c"], results, prior_draws=0.0)
    assert ratings["a"] > ratings["b"] > ratings["c"]
    # At the maximum of the Bradley-Terry likelihood each player's expected wins equal its wins.
    wins = {"a": 65.0, "b": 35.0, "c": 20.0}
    for player in "abc":
        expected = 0.0
        for (x, y), (wx, wy) in results.items():
            if player in (x, y):
                other = y if player == x else x
                expected += (wx + wy) * expected_score(ratings[player], ratings[other])
        assert expected == pytest.approx(wins[player], abs=1e-6)


def test_elo_entry_without_games_gets_the_mean() -> None:
    ratings = elo_ratings(["a", "b", "c"], {("a", "b"): (3.0, 1.0)})
    assert ratings["c"] == 1500.0


def test_pairwise_counts_draws_as_half() -> None:
    assert pairwise_from_ranks(["x", "y"], [1, 1]) == [("x", "y", 0.5, 0.5)]
    assert pairwise_from_ranks(["x", "y"], [2, 1]) == [("x", "y", 0.0, 1.0)]


def test_percentile() -> None:
    assert percentile([3, 1, 2], 0.5) == 2
    assert percentile(list(range(101)), 0.95) == pytest.approx(95.0)
    assert math.isnan(percentile([], 0.5))


def _outcome(index: int, scores: list[int], ranks: list[int]) -> GameOutcome:
    return GameOutcome(index=index, seed=index, seats=[index % 2, (index + 1) % 2],
                       scores=scores, ranks=ranks, actions=10,
                       specials=[{"hexagon": 1}, {}], choice_times=[[0.5, 1.5], [0.01]],
                       forced_times=[[0.0], []], seconds=1.0)


def test_summary_of_fixed_outcomes() -> None:
    config = ArenaConfig("triominoes", ("veteran", "average"), games=4, seed=1)
    outcomes = [
        _outcome(0, [400, 300], [1, 2]),
        _outcome(1, [410, 200], [1, 2]),
        _outcome(2, [350, 350], [1, 1]),   # a draw: half a win each
        _outcome(3, [100, 420], [2, 1]),
    ]
    result = summarize(config, outcomes, 10.0)
    veteran, average = result.entries
    assert veteran.wins == 2.5 and average.wins == 1.5
    assert veteran.outright_wins == 2 and veteran.draws == 1
    assert veteran.win_rate == pytest.approx(0.625)
    data = result.to_json()
    first = data["entries"][0]
    assert first["wilson95"] == list(wilson_interval(2.5, 4))
    assert first["average_score"] == pytest.approx(315.0)
    assert first["specials_per_game"] == {"hexagon": 1.0}
    assert first["move_time"]["choices"]["median"] == pytest.approx(1.0)
    assert first["move_time"]["all"]["moves"] == 12
    assert data["pairwise"][0]["wins_a"] == 2.5 and data["pairwise"][0]["wins_b"] == 1.5
    gap = result.elo["veteran"] - result.elo["average"]
    assert gap == pytest.approx(elo_from_rate(3.0 / 5.0), abs=1e-6)  # with one virtual draw
    assert "veteran" in result.text()


def test_entry_labels_and_specs() -> None:
    config = ArenaConfig("trident", ("veteran@0.5", "veteran@0.5", "average"))
    assert config.labels() == ["veteran@0.5#1", "veteran@0.5#2", "average"]
    assert EntrySpec.parse("ismcts@2") == EntrySpec("ismcts", 2.0)
    for bad in ("expert", "average@1", "veteran@x", "veteran@0"):
        with pytest.raises(Exception, match=r"arena player|time budget"):
            EntrySpec.parse(bad)
