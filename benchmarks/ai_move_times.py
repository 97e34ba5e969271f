"""The computer players' move times, in wall-clock time: what a player waits for a reply.

    python benchmarks/ai_move_times.py --games 4
    python benchmarks/ai_move_times.py --games 4 --write docs/performance.md

For every game, plays ``--games`` games of the veteran against the average and as many of the
novice against the average (``triverse arena``, one process, the wall clock, the veteran's
default budget unless ``--budget``), and reports each level's median, 95th percentile and
longest time over its moves with a choice (a forced move is answered at once and not counted).
The load average before and after is printed with the table, because wall time is only
meaningful on a quiet machine. The issue's targets: veteran median at most 1 s and 95th
percentile at most 2 s; novice and average median at most 50 ms.

With ``--write`` the table replaces the ``movetimes`` block of FILE.
"""

from __future__ import annotations

import argparse
import os
import platform
from pathlib import Path

from docblock import markers, write_block
from triverse.ai.stats import percentile
from triverse.arena import ArenaConfig, run_arena
from triverse.games import available_games

HEADING = "## Computer players: move times"
LEVELS = ("novice", "average", "veteran")


def measure(game: str, games: int, seed: int, budget: float | None) -> dict[str, list[float]]:
    """Every level's wall-clock seconds for its moves with a choice in ``game``."""
    times: dict[str, list[float]] = {level: [] for level in LEVELS}
    for players in (("veteran", "average"), ("novice", "average")):
        config = ArenaConfig(game, players, games=games, seed=seed, jobs=1,
                             time_budget=budget, clock="wall")
        result = run_arena(config)
        for entry in result.entries:
            times[entry.kind].extend(entry.choice_times)
    return times


def _ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:.2f}" if ms < 10 else f"{ms:,.0f}"


def table(rows: dict[str, dict[str, list[float]]], games: int, seed: int,
          budget: float | None, loads: tuple[float, float]) -> str:
    budget_text = f"--budget {budget} " if budget is not None else ""
    lines = [
        f"`python benchmarks/ai_move_times.py --games {games} --seed {seed} {budget_text}"
        f"--write docs/performance.md`: per game, {games} games of veteran against average and "
        f"{games} of novice against average, one process, wall-clock time of the moves with a "
        f"choice. CPython {platform.python_version()}; load average {loads[0]:.2f} before, "
        f"{loads[1]:.2f} after (2 cores).",
        "",
        "| game | level | moves | median ms | 95th percentile ms | longest ms |",
        "|---|---|---|---|---|---|",
    ]
    for game, times in rows.items():
        for level in LEVELS:
            values = times[level]
            if not values:
                continue
            lines.append(f"| {game} | {level} | {len(values)} | "
                         f"{_ms(percentile(values, 0.5))} | {_ms(percentile(values, 0.95))} | "
                         f"{_ms(max(values))} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per match-up and game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, help="the veteran's seconds a move")
    parser.add_argument("--only", action="append", choices=available_games(),
                        help="only these games (repeatable)")
    parser.add_argument("--write", metavar="FILE", help="update the movetimes block of FILE")
    args = parser.parse_args()
    before = os.getloadavg()[0]
    rows = {game: measure(game, args.games, args.seed, args.budget)
            for game in args.only or available_games()}
    text = table(rows, args.games, args.seed, args.budget, (before, os.getloadavg()[0]))
    print(text)
    if args.write:
        start, end = markers("movetimes")
        write_block(Path(args.write), start, end, HEADING, text)


if __name__ == "__main__":
    main()
