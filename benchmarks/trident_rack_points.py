"""What the tiles of a full Trident rack are worth in the next turn's points: the calibration
behind the veteran's rack values.

    python benchmarks/trident_rack_points.py                     # 12,000 racks, 60 games
    python benchmarks/trident_rack_points.py --samples 1500 --games 8

It measures how the tiles of a full rack change the points of the best play that rack makes:
the least-squares fit behind :data:`~triverse.ai.knowledge.trident.RACK_TILE_POINTS`,
:data:`~triverse.ai.knowledge.trident.RACK_TRITON_POINTS` and
:data:`~triverse.ai.knowledge.trident.RACK_DUPLICATE_POINTS`, and the mean points of a turn,
:data:`~triverse.ai.knowledge.trident.NEXT_TURN_POINTS`.

Positions are taken from ``--games`` games between average players (a fifth of the positions
with more than six tiles in the bag); each sample deals a rack of three from the tiles the
player to move has not seen (and its own) and finds the points of its best play
(``TridentKnowledge.greedy_play``). The points are fitted to the count of each tile on the rack,
a Triton in hand (three numbers totalling 15) and the tiles the same as another; the tiles'
values are given against the average tile of the set (their mean, each kind weighted by its
count, is 0), and ``turn`` is the mean points of the best play. ``--samples 12000`` gave the
shipped constants (rounded to two decimals; the turn's to one); the table shows them beside the
fit. Nothing is asserted: these are measurements.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from triverse.ai.knowledge.trident import (
    NEXT_TURN_POINTS,
    RACK_DUPLICATE_POINTS,
    RACK_TILE_POINTS,
    RACK_TRITON_POINTS,
    TridentKnowledge,
    unseen_counts,
)
from triverse.games import load_game
from triverse.games.trident.engine import TridentState
from triverse.games.trident.tiles import JOKER, TILE_SET, TRIO_SUM

FEATURES = 19
"""17 kinds of tile, a Triton in hand, the tiles the same as another."""


def sample_positions(games: int) -> list[TridentState]:
    """Positions of ``games`` games between average players, a fifth of those with more than
    six tiles in the bag and more than three on the board."""
    game = load_game("trident")
    knowledge = TridentKnowledge()
    positions: list[TridentState] = []
    for index in range(games):
        state = game.new_initial_state(seed=700 + index)
        assert isinstance(state, TridentState)
        rng = random.Random(index)
        while not state.is_terminal():
            if len(state.bag) > 6 and len(state.placed) > 3 and rng.random() < 0.2:
                positions.append(state.clone())
            mover = state.current_player
            assert mover is not None
            state.apply(knowledge.average_move(state, mover, rng))
    return positions


def rack_features(rack: list[int]) -> list[float]:
    """The features of a rack: the count of each kind, a Triton in hand, the duplicates.

    >>> rack_features([4, 5, 6])[4:7], rack_features([4, 5, 6])[17:]
    ([1.0, 1.0, 1.0], [1.0, 0.0])
    """
    features = [0.0] * FEATURES
    for t in rack:
        features[t] += 1.0
    numbers = [t for t in rack if t != JOKER]
    features[17] = 1.0 if len(numbers) == 3 and sum(numbers) == TRIO_SUM else 0.0
    features[18] = float(sum(c - 1 for c in Counter(rack).values()))
    return features


def measure_rack_points(samples: int, games: int = 60, seed: int = 2) -> dict[str, float]:
    """The fitted points of each tile (``"0"`` to ``"15"``, ``"joker"``, against the average
    tile), of a Triton in hand (``"triton"``) and of a duplicate (``"duplicate"``), and the mean
    points of the best play (``"turn"``), from ``samples`` racks."""
    positions = sample_positions(games)
    knowledge = TridentKnowledge()
    rng = random.Random(seed)
    normal = [[0.0] * FEATURES for _ in range(FEATURES)]
    target = [0.0] * FEATURES
    total_points = 0
    for _ in range(samples):
        state = positions[rng.randrange(len(positions))]
        mover = state.current_player
        assert mover is not None
        rack = sorted(rng.sample(sorted(unseen_counts(state, mover).elements())
                                 + state.racks[mover], 3))
        trial = state.clone()
        trial.racks[mover] = rack
        points = knowledge.greedy_play(trial, mover)[1]
        total_points += points
        features = rack_features(rack)
        for i, x in enumerate(features):
            if x:
                target[i] += x * points
                row = normal[i]
                for j, y in enumerate(features):
                    row[j] += x * y
    coef = solve(normal, target)
    counts = Counter(TILE_SET)
    mean = sum(coef[t] * counts[t] for t in range(17)) / sum(counts.values())
    out = {("joker" if t == JOKER else str(t)): coef[t] - mean for t in range(17)}
    out["triton"] = coef[17]
    out["duplicate"] = coef[18]
    out["turn"] = total_points / samples
    return out


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """The solution of a small linear system (Gaussian elimination with partial pivoting, and a
    tiny ridge so that a feature never seen gets 0).

    >>> solve([[2.0, 0.0], [0.0, 4.0]], [2.0, 2.0])
    [1.0, 0.5]
    """
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for i in range(n):
        a[i][i] += 1e-9
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col] / a[col][col]
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    return [round(a[i][n] / a[i][i], 6) for i in range(n)]


def shipped() -> dict[str, float]:
    """The constants the veteran ships, keyed as :func:`measure_rack_points` keys its fit."""
    out = {("joker" if t == JOKER else str(t)): RACK_TILE_POINTS[t] for t in range(17)}
    out |= {"triton": RACK_TRITON_POINTS, "duplicate": RACK_DUPLICATE_POINTS,
            "turn": NEXT_TURN_POINTS}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--samples", type=int, default=12_000, help="racks dealt and played")
    parser.add_argument("--games", type=int, default=60, help="games the positions come from")
    parser.add_argument("--seed", type=int, default=2, help="seed of the racks dealt")
    args = parser.parse_args()
    fitted = measure_rack_points(args.samples, args.games, args.seed)
    constants = shipped()
    print(f"Measured by `python benchmarks/trident_rack_points.py --samples {args.samples} "
          f"--games {args.games} --seed {args.seed}`.\n")
    print("| feature | fitted points | shipped |")
    print("|---|---|---|")
    for name, value in fitted.items():
        print(f"| {name} | {value:.2f} | {constants[name]:.2f} |")


if __name__ == "__main__":
    main()
