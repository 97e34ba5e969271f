"""What a veteran seat remembers of a live match (``LiveMatch.memory_of``): the same memory it
would have built playing every one of the seat's turns itself, from the seat's observations
only, brought up to date move by move, and handed to the worker with the observation."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest

import triverse.server.bots as bots_module
from triverse import load_game
from triverse.ai.knowledge import Memory, knowledge_for
from triverse.core.game import Observation, State
from triverse.games import plugin
from triverse.server.bots import GameSpec
from triverse.server.live import LiveMatch, LogEntry, SeatInfo


def _live(name: str, seed: int) -> LiveMatch:
    game = load_game(name, 2)
    return LiveMatch(
        id="m", game_name=name, title=name, mode="computer", seed=seed,
        spec=GameSpec.of(plugin(name).engine, game), game=game,
        state=game.new_initial_state(seed=seed),
        seats=(SeatInfo(0, "veteran", "Vet", None), SeatInfo(1, "average", "Avg", None)),
        created_at=datetime.now(UTC))


def _play(live: LiveMatch, moves: int, rng: random.Random,
          memories: dict[int, Memory] | None = None) -> None:
    """Play ``moves`` average-player moves on the live match as the server does (a new state,
    a log entry); with ``memories``, feed each mover's observation to its own memory first, as
    a veteran playing every turn would."""
    knowledge = knowledge_for(live.game)
    for _ in range(moves):
        state = live.state
        if state.is_terminal():
            return
        seat = state.current_player
        assert seat is not None
        if memories is not None:
            knowledge.remember(memories.setdefault(seat, {}), state.observation(seat))
        action = knowledge.average_move(state, seat, rng)
        after = state.clone()
        events = after.apply(action)
        live.log.append(LogEntry(state.move_number, seat, str(action), tuple(events)))
        live.state = after


def test_the_memory_is_what_a_veteran_playing_every_turn_would_remember() -> None:
    live = _live("trinity", seed=5)
    played: dict[int, Memory] = {}
    rng = random.Random(5)
    checked = informative = 0
    for _ in range(12):
        _play(live, 9, rng, played)
        if live.state.is_terminal():
            break
        for seat in (0, 1):
            memory = live.memory_of(seat)
            assert memory is not None
            assert memory == played.get(seat, {})
            # A fresh replay of the whole match (a server that just loaded it) agrees.
            fresh = _live("trinity", seed=5)
            fresh.log, fresh.state = list(live.log), live.state
            assert fresh.memory_of(seat) == memory
            if memory:
                assert memory["observation"].player == seat  # the seat's own view only
                informative += bool(memory["banned"])
            checked += 1
    assert checked >= 20 and informative >= 5


def test_the_caller_gets_a_copy_and_a_game_that_remembers_nothing_gets_none() -> None:
    live = _live("trinity", seed=8)
    _play(live, 30, random.Random(8))
    first = live.memory_of(0)
    assert first is not None
    first.clear()
    again = live.memory_of(0)
    assert again is not None and again.get("observation") is not None
    trident = _live("trident", seed=8)
    _play(trident, 6, random.Random(8))
    assert trident.memory_of(0) is None


def test_the_worker_hands_the_memory_to_the_veteran_only(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    live = _live("trinity", seed=3)
    _play(live, 20, random.Random(3))
    seat = live.state.current_player
    assert seat is not None
    memory = live.memory_of(seat)
    assert memory
    seen: list[Memory] = []
    real_choose = bots_module.VeteranPlayer.choose

    def choose(self: Any, game: Any, observation: Observation, rng: random.Random) -> Any:
        seen.append(self.memory)
        assert not any(isinstance(v, State) for v in self.memory.values())
        return real_choose(self, game, observation, rng)

    monkeypatch.setattr(bots_module.VeteranPlayer, "choose", choose)
    observation = live.state.observation(seat)
    for level in ("veteran", "average"):
        notation = bots_module.choose_notation(level, live.spec, observation,
                                               random.Random(1), 0.05, memory)
        assert live.state.is_legal(live.state.parse_action(notation))
    assert len(seen) == 1 and seen[0] is memory  # the average was not handed it


def test_the_tile_games_knowledge_remembers_and_the_others_do_not() -> None:
    from triverse.games import available_games

    remembering = {name for name in available_games() if knowledge_for(name).remembers}
    assert remembering == {"trinity", "triominoes"}
