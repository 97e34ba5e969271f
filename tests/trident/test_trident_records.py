"""Trident games as records: saved, loaded and replayed, time-outs included."""

from __future__ import annotations

import random

import pytest
from trident_helpers import position

from triverse.core.records import Record, ReplayError, replay
from triverse.games.trident.engine import TridentGame
from triverse.games.trident.tiles import TIMEOUT, Play


def play_out(state: object, seed: int, timeouts: bool) -> None:
    from triverse.games.trident.engine import TridentState

    assert isinstance(state, TridentState)
    rng = random.Random(seed)
    while not state.is_terminal():
        if timeouts and rng.random() < 0.1:
            state.time_out()
            continue
        actions = state.legal_action_list()
        plays = [a for a in actions if isinstance(a, Play)]
        state.apply(rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(actions))


@pytest.mark.parametrize(("variant", "limit"), [("seed", 0), ("triolet", 600)])
def test_a_finished_game_replays_from_its_record(variant: str, limit: int) -> None:
    game = TridentGame(3, {"variant": variant, "time_limit": limit})
    state = game.new_initial_state(seed=12)
    play_out(state, 12, timeouts=bool(limit))
    if limit:
        assert TIMEOUT in state.history
    record = Record.from_state(state, ["Ann", "Bob", "Cy"])
    loaded = Record.loads(record.dumps())
    assert loaded == record
    again = replay(loaded)
    assert again.scores == state.scores and again.result() == state.result()


def test_a_record_from_a_setup_replays() -> None:
    state = position(["7:7=5"], [[1, 2, 3], [4, 5, 6]])
    state.apply_notation("7:8=1")
    state.apply_notation("pass")
    record = Record.from_state(state, ["Ann", "Bob"])
    assert record.setup is not None and record.setup["board"] == ["7:7=5"]
    again = replay(Record.loads(record.dumps()))
    assert again.scores == state.scores and again.board == state.board


def test_a_time_out_in_a_game_without_a_limit_does_not_replay() -> None:
    record = Record("trident", tuple(Record.from_state(
        TridentGame(2).new_initial_state(seed=1), ["A", "B"]).players), 1, ("timeout",))
    with pytest.raises(ReplayError, match="no time limit"):
        replay(record)
