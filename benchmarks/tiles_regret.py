"""How good are the tile-game veteran's decisions, one by one? Points gained over the average.

    python benchmarks/tiles_regret.py trinity --games 5 --worlds 300
    python benchmarks/tiles_regret.py triominoes --games 3 --worlds 200

Plays ``--games`` games of the average player against itself. At each decision of seat 0 with
two or more placements, the veteran (``--budget`` CPU seconds a move, by default its own; with
its memory of the game) is asked what it would play there, and every placement is valued by a
slow *oracle*: ``--worlds``
worlds sampled from the seat's view (as the veteran samples them), in each of which every
placement is played and the round is played on to its end by the average policy for both seats,
on the same world and the same random numbers for every placement; a placement's value is the
seat's score lead at the round's end. Per decision it notes, in points of that lead:

- ``veteran``: the veteran's choice minus the average's, over all the worlds;
- ``oracle``: the best placement on the first half of the worlds, valued on the second half,
  minus the average's choice there (the halves keep the oracle's own luck out of its value);
- ``oracle max``: the best placement's value on all the worlds minus the average's (biased
  upwards: the luckiest of a few noisy values).

If the veteran gains as much as the oracle, a better one-move judgement cannot gain more than
the difference between ``oracle max`` and ``veteran`` a decision (an upper bound): what would
lift it further lies beyond judging one move by the average's continuation. ``docs/ai.md`` has
the measured figures. Two players only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from triverse.ai.knowledge import knowledge_for, score_margin
from triverse.ai.levels import VeteranPlayer
from triverse.games import load_game
from triverse.games._tiles.engine import TileState
from triverse.games._tiles.tiles import Place


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision's gains over the average's choice, in points of the round's final lead."""

    choices: int
    veteran: float
    oracle: float
    oracle_max: float
    same: bool
    """Whether the veteran chose what the average chose."""


def gains(values: dict[Any, list[float]], average: Any, veteran: Any) -> tuple[float, float,
                                                                             float]:
    """``(veteran, oracle, oracle max)`` from each move's values world by world (see the
    module's documentation); the oracle picks on the first half and is valued on the second.

    >>> values = {"a": [10.0, 0.0, 4.0, 6.0], "b": [0.0, 8.0, 2.0, 2.0], "c": [3.0, 3.0, 1.0, 1.0]}
    >>> gains(values, average="b", veteran="c")
    (-1.0, 3.0, 2.0)
    """
    half = len(values[average]) // 2
    pick = max(values, key=lambda move: statistics.fmean(values[move][:half]))
    rest = {move: statistics.fmean(v[half:]) for move, v in values.items()}
    whole = {move: statistics.fmean(v) for move, v in values.items()}
    return (whole[veteran] - whole[average], rest[pick] - rest[average],
            max(whole.values()) - whole[average])


def to_round_end(state: TileState, seat: int, rng: random.Random) -> float:
    """Play the round on by the average policy; the seat's lead at its end."""
    knowledge = knowledge_for(state.game)
    round_number = state.round
    while not state.is_terminal() and state.round == round_number:
        mover = state.current
        assert mover is not None
        state.apply_unchecked(knowledge.average_move(state, mover, rng))
    return score_margin(state.scores, seat)


def measure(game_name: str, games: int, worlds: int, seed: int,
            budget: float = 0.0) -> list[Decision]:
    game = load_game(game_name, players=2)
    knowledge = knowledge_for(game)
    decisions: list[Decision] = []
    for index in range(games):
        state = game.new_initial_state(seed=seed + index)
        assert isinstance(state, TileState)
        veteran = VeteranPlayer(budget, clock="cpu")
        while not state.is_terminal():
            seat = state.current
            assert seat is not None
            rng = random.Random(f"{seed}/{index}/{state.move_number}")
            places = [a for a in state.legal_action_list() if isinstance(a, Place)]
            observation = state.observation(seat)
            if seat == 0 and len(places) > 1 and not state.opening:
                average = knowledge.average_move(state, seat, random.Random(rng.random()))
                chosen = veteran.choose(game, observation, random.Random(rng.random()))
                values: dict[Any, list[float]] = {a: [] for a in places}
                for _ in range(worlds):
                    world = knowledge.sample_world(game, observation, rng, veteran.memory)
                    roll = rng.getrandbits(64)
                    for action in places:
                        child = world.clone()
                        child.apply_unchecked(action)
                        assert isinstance(child, TileState)
                        values[action].append(to_round_end(child, seat, random.Random(roll)))
                vet, oracle, best = gains(values, average, chosen)
                decisions.append(Decision(len(places), vet, oracle, best, chosen == average))
            elif seat == 0:
                veteran.choose(game, observation, random.Random(rng.random()))  # it remembers
            state.apply(knowledge.average_move(state, seat, rng))
        print(f"game {index + 1} of {games}: {len(decisions)} decisions", file=sys.stderr)
    return decisions


def report(decisions: Sequence[Decision], games: int) -> str:
    def line(name: str, values: list[float]) -> str:
        error = statistics.stdev(values) / len(values) ** 0.5
        return f"  {name:<12} {statistics.fmean(values):+6.2f} ± {error:.2f} points a decision"

    same = sum(d.same for d in decisions) / len(decisions)
    return "\n".join([
        f"{len(decisions)} decisions of seat 0 with a choice in {games} games "
        f"({len(decisions) / games:.1f} a game); the veteran chose as the average in "
        f"{100 * same:.0f}% of them. Gain over the average's choice:",
        line("veteran", [d.veteran for d in decisions]),
        line("oracle", [d.oracle for d in decisions]),
        line("oracle max", [d.oracle_max for d in decisions]),
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", choices=("trinity", "triominoes"))
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--worlds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--budget", type=float, default=0.0,
                        help="the veteran's CPU seconds a move (0: its default)")
    args = parser.parse_args()
    decisions = measure(args.game, args.games, args.worlds, args.seed, args.budget)
    print(report(decisions, args.games))


if __name__ == "__main__":
    main()
