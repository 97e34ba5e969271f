"""Trident engine speed: plays generated per second on mid-game positions, and more.

    python benchmarks/trident.py                      # default sizes, a markdown table
    python benchmarks/trident.py --games 40 --repeat 5

Mid-game positions are snapshots of random games (plays preferred, so the board fills up) with
10 to 60 tiles down. Each is listed ``--repeat`` times with its own rack, then once more with a
joker on the rack (a joker multiplies the plays). Nothing is asserted: these are measurements.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from triverse.games.trident.engine import TridentGame, TridentState
from triverse.games.trident.tiles import JOKER, Play


def mid_game_positions(games: int, seed: int) -> tuple[list[TridentState], float, int]:
    """Snapshots of random games; also the time the games took and their actions."""
    snapshots: list[TridentState] = []
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(seed + i)
        game = TridentGame(2 + i % 3, {"variant": "triolet" if i % 2 else "seed"})
        state = game.new_initial_state(seed=seed + i)
        while not state.is_terminal():
            legal = state.legal_action_list()
            plays = [a for a in legal if isinstance(a, Play)]
            state.apply_unchecked(rng.choice(plays) if plays and rng.random() < 0.9
                                  else rng.choice(legal))
            actions += 1
            if 10 <= len(state.placed) <= 60 and rng.random() < 0.15:
                snapshots.append(state.clone())
    return snapshots, time.perf_counter() - start, actions


def listing_speed(positions: list[TridentState], repeat: int) -> tuple[float, float, float]:
    """Plays per second, the median listing time (µs) and the median number of plays."""
    times = []
    counts = []
    total_plays = 0
    total_time = 0.0
    for state in positions:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            plays = sum(1 for a in state.legal_actions() if isinstance(a, Play))
            elapsed = time.perf_counter() - t0
            best = min(best, elapsed)
            total_plays += plays
            total_time += elapsed
        times.append(best)
        counts.append(plays)
    return total_plays / total_time, statistics.median(times) * 1e6, statistics.median(counts)


def search_speed(positions: list[TridentState]) -> float:
    """Clone-and-apply of every legal action, per second (what a one-ply search does)."""
    done = 0
    start = time.perf_counter()
    for state in positions:
        for action in state.legal_actions():
            state.clone().apply_unchecked(action)
            done += 1
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    positions, games_time, actions = mid_game_positions(args.games, args.seed)
    own = listing_speed(positions, args.repeat)
    with_joker = []
    for state in positions:
        other = state.clone()
        seat = other.current_player
        if seat is not None:
            rack = other.racks[seat]
            if JOKER not in rack:
                rack[0] = JOKER
                rack.sort()
            with_joker.append(other)
    joker = listing_speed(with_joker, args.repeat)
    search = search_speed(positions)
    lines = [
        f"Measured by `python benchmarks/trident.py --games {args.games} --repeat "
        f"{args.repeat}` on {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, one process; {len(positions)} mid-game positions (10-60 tiles "
        f"down) from {args.games} random games of 2-4 players.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| plays generated per second (own rack) | {own[0]:,.0f} |",
        f"| legal-action listing, median (own rack) | {own[1]:.0f} µs |",
        f"| plays per position, median (own rack) | {own[2]:.0f} |",
        f"| plays generated per second (a joker on the rack) | {joker[0]:,.0f} |",
        f"| legal-action listing, median (a joker on the rack) | {joker[1]:.0f} µs |",
        f"| plays per position, median (a joker on the rack) | {joker[2]:.0f} |",
        f"| clone + apply of each legal action, per second | {search:,.0f} |",
        f"| random games per second (listing every position) | {args.games / games_time:.1f} |",
        f"| actions per second in those games | {actions / games_time:,.0f} |",
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
