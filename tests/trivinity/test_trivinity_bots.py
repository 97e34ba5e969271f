"""Trivinity's computer players: legal moves only, and the average player beats random play."""

from __future__ import annotations

import random

from triverse.ai.basic import GreedyPlayer, Player, RandomPlayer
from triverse.ai.knowledge.trivinity_mind import TrivinityAveragePlayer, effect_value
from triverse.core.rng import derive
from triverse.games.trivinity.cards import load_table
from triverse.games.trivinity.engine import TrivinityGame


def _play(game: TrivinityGame, bots: list[Player], seed: int) -> tuple[int, ...]:
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(game, state.observation(seat),
                                   derive(seed, "bot", state.move_number))
        assert state.is_legal(action), action
        state.apply(action)
    return state.result().winners


def test_average_beats_random() -> None:
    game = TrivinityGame(2)
    wins = 0
    for seed in range(6):
        seats = [TrivinityAveragePlayer(), RandomPlayer()]
        if seed % 2:
            seats.reverse()
        winners = _play(game, seats, seed)
        wins += (seed % 2) in winners
    assert wins >= 5


def test_average_plays_every_module_and_three_or_four_players() -> None:
    for seed, players in ((1, 3), (2, 4)):
        game = TrivinityGame(players)
        _play(game, [TrivinityAveragePlayer() for _ in range(players)], seed)


def test_generic_players_stay_legal() -> None:
    game = TrivinityGame(2, {"turn_limit": 8})
    _play(game, [GreedyPlayer(), RandomPlayer()], 3)


def test_interface_and_effect_values() -> None:
    bot = TrivinityAveragePlayer()
    assert isinstance(bot, Player) and bot.level == "average"
    table = load_table()
    assert effect_value(table.design("divine-forge")) == 0
    assert effect_value(table.design("prophet")) == 2
    game = TrivinityGame(2)
    state = game.new_initial_state(seed=1)
    seat = state.current_player
    assert seat is not None
    assert state.is_legal(bot.choose(game, state.observation(seat), random.Random(1)))
