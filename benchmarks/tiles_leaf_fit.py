"""What a tile-game position is worth at the end of its round: a least-squares fit.

    python benchmarks/tiles_leaf_fit.py trinity --games 300
    python benchmarks/tiles_leaf_fit.py triominoes --games 200

Plays ``--games`` games of the average player against itself and, after a quarter of the
placements (at random), notes for both seats the position's features: the score lead, and the
seat's minus the opponent's tiles in hand, numbers in hand, tiles in hand that fit the board
(at most :data:`FIT_CAP`) and whose turn it is. When the round ends, each noted position is
paired with the seat's score lead then. A least-squares fit of that lead on the features says
what each feature is worth in points at the end of the round; ``docs/ai.md`` compares it with
the veteran's leaf evaluation (``TileKnowledge.evaluate``). Two players only.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from triverse.ai.knowledge import knowledge_for
from triverse.games import load_game
from triverse.games._tiles.engine import TileState

FIT_CAP = 4
FEATURES = ("lead", "tiles in hand", "numbers in hand", "tiles that fit", "to move", "constant")
SAMPLE = 0.25


def fitting(state: TileState, seat: int) -> int:
    """How many of the seat's tiles fit some open cell of the board."""
    candidates = state.game.tileset.placements.candidates
    hand = state.hands[seat]
    found = {tile for pattern in state.board.frontier.values()
             for tile, _rotation in candidates.get(pattern, ()) if tile in hand}
    return min(len(found), FIT_CAP)


def features(state: TileState, seat: int) -> list[float]:
    other = 1 - seat
    totals = state.hand_totals()
    return [float(state.scores[seat] - state.scores[other]),
            float(len(state.hands[seat]) - len(state.hands[other])),
            float(totals[seat] - totals[other]),
            float(fitting(state, seat) - fitting(state, other)),
            1.0 if state.current == seat else -1.0,
            1.0]


def sample(game_name: str, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    game = load_game(game_name, players=2)
    knowledge = knowledge_for(game)
    rows: list[list[float]] = []
    leads: list[float] = []
    for index in range(games):
        state = game.new_initial_state(seed=seed + index)
        assert isinstance(state, TileState)
        rng = random.Random(seed + index)
        noted: list[tuple[int, list[float]]] = []
        while not state.is_terminal():
            seat = state.current
            assert seat is not None
            round_number = state.round
            state.apply(knowledge.average_move(state, seat, rng))
            if state.round != round_number or state.is_terminal():
                for who, row in noted:
                    rows.append(row)
                    leads.append(float(state.scores[who] - state.scores[1 - who]))
                noted = []
            elif state.placed and not state.opening and rng.random() < SAMPLE:
                noted.extend((who, features(state, who)) for who in (0, 1))
    return np.array(rows), np.array(leads)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", choices=("trinity", "triominoes"))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=10_000)
    args = parser.parse_args()
    x, y = sample(args.game, args.games, args.seed)
    coefficients, *_ = np.linalg.lstsq(x, y, rcond=None)
    residual = y - x @ coefficients
    r2 = 1 - float(residual.var() / y.var())
    print(f"{args.game}: {len(y)} positions of {args.games} games, R^2 {r2:.2f}")
    for name, value in zip(FEATURES, coefficients, strict=True):
        print(f"  {name:<16} {value:+8.3f}")


if __name__ == "__main__":
    main()
