"""Engine speed: random full games per second, and the time to list legal moves mid-game.

    python benchmarks/engine.py                       # every built game, default sizes
    python benchmarks/engine.py --games 200 --write docs/performance.md

With ``--write`` the table replaces the block between ``<!-- engine:start -->`` and
``<!-- engine:end -->`` in that file. No figure is asserted anywhere: these are measurements.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from pathlib import Path
from typing import Any

from docblock import markers, write_block
from triverse.core.game import State
from triverse.games import available_games, load_game


def random_game(name: str, players: int, seed: int) -> tuple[State[Any], list[State[Any]]]:
    """Play one game of uniformly random legal actions; return it and snapshots along the way."""
    game = load_game(name, players)
    state: State[Any] = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    snapshots = []
    while not state.is_terminal():
        actions = state.legal_action_list()
        state.apply_unchecked(rng.choice(actions))
        if rng.random() < 0.05:
            snapshots.append(state.clone())
    return state, snapshots


def measure(name: str, players: int, games: int, seed: int) -> dict[str, float]:
    start = time.perf_counter()
    total_actions = 0
    snapshots: list[State[Any]] = []
    for i in range(games):
        final, snaps = random_game(name, players, seed + i)
        total_actions += len(final.history)
        snapshots.extend(snaps)
    elapsed = time.perf_counter() - start
    # Mid-game: the middle 60% of the snapshots, by move number.
    snapshots = [s for s in snapshots if not s.is_terminal()]
    snapshots.sort(key=lambda s: s.move_number)
    cut = len(snapshots) // 5
    middle = snapshots[cut: len(snapshots) - cut] or snapshots
    timings = []
    counts = []
    for snap in middle:
        t0 = time.perf_counter()
        actions = list(snap.legal_actions())
        timings.append(time.perf_counter() - t0)
        counts.append(len(actions))
    return {
        "games_per_s": games / elapsed,
        "actions_per_s": total_actions / elapsed,
        "actions_per_game": total_actions / games,
        "legal_median_us": statistics.median(timings) * 1e6 if timings else float("nan"),
        "legal_moves_median": statistics.median(counts) if counts else float("nan"),
        "positions": len(middle),
    }


def table(rows: list[tuple[str, int, dict[str, float]]], games: int) -> str:
    lines = [
        f"Measured by `python benchmarks/engine.py --games {games}` on "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, one process.",
        "",
        "| game | players | random games/s | actions/s | actions/game | legal-move listing, "
        "median (mid-game) | legal moves, median | positions |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, players, m in rows:
        lines.append(
            f"| {name} | {players} | {m['games_per_s']:.1f} | {m['actions_per_s']:,.0f} | "
            f"{m['actions_per_game']:.0f} | {m['legal_median_us']:.0f} µs | "
            f"{m['legal_moves_median']:.0f} | {m['positions']:.0f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--write", metavar="FILE", help="update the engine block of FILE")
    args = parser.parse_args()
    rows = []
    for name in args.game or available_games():
        cls = type(load_game(name))
        for players in sorted({cls.min_players, cls.default_players, cls.max_players}):
            rows.append((name, players, measure(name, players, args.games, args.seed)))
    text = table(rows, args.games)
    print(text)
    if args.write:
        start, end = markers("engine")
        write_block(Path(args.write), start, end,
                    "## Engines: random games and legal-move listing", text)


if __name__ == "__main__":
    main()
