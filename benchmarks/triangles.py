"""Triangles engine speed and memory on each of the six boards.

    python benchmarks/triangles.py                  # 3 games a board, a markdown table
    python benchmarks/triangles.py --games 10 --seed 7

For each board: the one-off setup of a new star cloud (generation and the precomputed
:class:`~triverse.games.triangles.board.Board`, with its memory), a full game of uniformly
random legal lines on a fresh board ("cold": it also fills the board's lazily kept crossing
masks) and on a board already used ("warm", as in a server or a search), the time to list the
legal lines mid-game, and the cost of one search step (clone, then apply a legal line) mid-game.
Times are medians over the games. Nothing is asserted: these are measurements.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
import tracemalloc

from triverse.games.triangles.board import Board, board_for
from triverse.games.triangles.cloud import BOARDS, generate_stars
from triverse.games.triangles.engine import TrianglesGame, TrianglesState


def play_out(state: TrianglesState, rng: random.Random) -> list[TrianglesState]:
    """Play random lines to the end; return snapshots of the middle third of the game."""
    snapshots = []
    while not state.is_terminal():
        state.apply_unchecked(rng.choice(state.legal_action_list()))
        if rng.random() < 0.1:
            snapshots.append(state.clone())
    n = len(state.history)
    return [s for s in snapshots if n // 3 <= s.move_number < 2 * n // 3 and not s.is_terminal()]


def measure(name: str, games: int, seed: int) -> dict[str, float]:
    spec = BOARDS[name]
    game = TrianglesGame(options={"stars": spec.stars, "device": spec.device})
    setups, colds, warms, lengths, listings, counts, steps = [], [], [], [], [], [], []
    memory = 0.0
    candidates = triangles = 0
    for i in range(games):
        board_for.cache_clear()
        t0 = time.perf_counter()
        stars = generate_stars(seed + i, spec)
        board = board_for(stars, spec.tolerance)
        setups.append(time.perf_counter() - t0)
        if i == 0:
            tracemalloc.start()
            kept = Board(stars, spec.tolerance)
            memory = tracemalloc.get_traced_memory()[0] / 1e6
            tracemalloc.stop()
            del kept
            candidates, triangles = board.num_candidates, len(board.triangles)
        for kind in ("cold", "warm"):
            state = game.new_initial_state(seed=seed + i)
            rng = random.Random(seed + i)
            t0 = time.perf_counter()
            middle = play_out(state, rng)
            (colds if kind == "cold" else warms).append(time.perf_counter() - t0)
        lengths.append(len(state.history))
        for snap in middle:
            t0 = time.perf_counter()
            legal = snap.legal_action_list()
            listings.append(time.perf_counter() - t0)
            counts.append(len(legal))
            t0 = time.perf_counter()
            for line in legal:
                snap.clone().apply_unchecked(line)
            steps.append((time.perf_counter() - t0) / len(legal))
    # After all games: the crossing masks a full search would fill (every candidate), in MB.
    for j in range(board.num_candidates):
        board.crossing(j)
    crossing_mb = sum((board.crossing(j).bit_length() + 7) // 8 + 28
                      for j in range(board.num_candidates)) / 1e6
    return {
        "setup_ms": statistics.median(setups) * 1e3,
        "memory_mb": memory,
        "crossing_mb": crossing_mb,
        "candidates": candidates,
        "triangles": triangles,
        "cold_ms": statistics.median(colds) * 1e3,
        "warm_ms": statistics.median(warms) * 1e3,
        "lines": statistics.median(lengths),
        "listing_us": statistics.median(listings) * 1e6 if listings else float("nan"),
        "legal": statistics.median(counts) if counts else float("nan"),
        "step_us": statistics.median(steps) * 1e6 if steps else float("nan"),
    }


def table(rows: list[tuple[str, dict[str, float]]], games: int) -> str:
    lines = [
        f"Measured by `python benchmarks/triangles.py --games {games}` on "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, one process; medians over {games} boards.",
        "",
        "| board | candidate lines | empty triangles | setup | board memory | "
        "all crossing masks | random game, cold | random game, warm | lines a game | "
        "legal lines mid-game | listing them | clone + apply |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, m in rows:
        lines.append(
            f"| {name} | {m['candidates']:,.0f} | {m['triangles']:,.0f} | "
            f"{m['setup_ms']:.0f} ms | {m['memory_mb']:.1f} MB | {m['crossing_mb']:.1f} MB | "
            f"{m['cold_ms']:.0f} ms | {m['warm_ms']:.0f} ms | {m['lines']:.0f} | "
            f"{m['legal']:.0f} | {m['listing_us']:.0f} µs | {m['step_us']:.0f} µs |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="boards (and games) per size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--board", action="append", choices=sorted(BOARDS),
                        help="only these boards (repeatable)")
    args = parser.parse_args()
    rows = [(name, measure(name, args.games, args.seed)) for name in args.board or BOARDS]
    print(table(rows, args.games))


if __name__ == "__main__":
    main()
