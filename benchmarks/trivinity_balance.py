"""Trivinity balance: computer players over every pair of modules.

    python benchmarks/trivinity_balance.py                      # 4 games a pair, all cores
    python benchmarks/trivinity_balance.py --games 200 --workers 8 --write docs/balance/trivinity.md

Each game is two Trivinity ``average`` players, one module each (every unordered pair of the
seven modules; the seats swap modules from one game to the next, and turn order is random).
The report gives each module's win rate, the win rates pair by pair, the first player's
advantage, the distribution of game length, how the games end, and per card how often it is
bought and the win rate of the players who acquired it. The games run in parallel
(multiprocessing); the numbers depend only on ``--seed`` and ``--games``.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import platform
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from triverse.core.rng import derive
from triverse.games.trivinity.bots import TrivinityAveragePlayer
from triverse.games.trivinity.cards import load_table
from triverse.games.trivinity.engine import LINES, TrivinityGame

MODULES = load_table().module_keys


@dataclass(frozen=True)
class Job:
    pair: tuple[str, str]
    index: int
    seed: int
    variant: str = "seed"


@dataclass
class Outcome:
    pair: tuple[str, str]
    modules: tuple[str, ...]
    winners: tuple[int, ...]
    first: int
    turns: int
    actions: int
    end: str
    scores: tuple[int, ...]
    bought: list[list[str]] = field(default_factory=list)
    """Per seat, the key of every card bought."""
    acquired: list[set[str]] = field(default_factory=list)
    """Per seat, every card key bought or gained."""
    in_play: set[str] = field(default_factory=set)


def _line_name(line: list[int]) -> str:
    index = LINES.index(tuple(s - 1 for s in line))
    return ("row 1", "row 2", "row 3", "column 1", "column 2", "column 3", "diagonal 1-5-9",
            "diagonal 3-5-7")[index]


def play(job: Job) -> Outcome:
    """One game between two average players."""
    a, b = job.pair
    modules = (a, b) if job.index % 2 == 0 else (b, a)
    game = TrivinityGame(2, {"module_1": modules[0], "module_2": modules[1],
                             "variant": job.variant})
    state = game.new_initial_state(seed=job.seed)
    bot = TrivinityAveragePlayer()
    table = game.table
    bought: list[list[str]] = [[], []]
    acquired: list[set[str]] = [set(), set()]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        rng = derive(job.seed, "bot", seat, state.move_number)
        for event in state.apply(bot.choose(game, state.observation(seat), rng)):
            if event.kind == "buy" and event.player is not None:
                bought[event.player].append(event.data["key"])
                acquired[event.player].add(event.data["key"])
            elif event.kind in ("gain", "steal") and event.player is not None:
                acquired[event.player].add(event.data["key"])
    reason = state.end_reason
    end = _line_name(reason["line"]) if reason["reason"] == "line" else "turn limit"
    in_play = {table.card(i).key for i in table.in_play(modules, 2) if table.card(i).tier}
    return Outcome(job.pair, modules, state.result().winners, state.order[0],
                   state.turn_number, len(state.history), end, tuple(state.scores), bought,
                   acquired, in_play)


def run(games: int, seed: int, workers: int,
        variant: str = "seed") -> tuple[list[Outcome], float]:
    jobs = [Job(pair, i, derive(seed, "balance", *pair, i).randrange(2**62), variant)
            for pair in itertools.combinations(MODULES, 2) for i in range(games)]
    start = time.perf_counter()
    if workers <= 1:
        outcomes = [play(job) for job in jobs]
    else:
        with multiprocessing.Pool(workers) as pool:
            outcomes = list(pool.imap(play, jobs, chunksize=max(1, len(jobs) // (8 * workers))))
    return outcomes, time.perf_counter() - start


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def report(outcomes: list[Outcome], games: int, seed: int, workers: int,
           seconds: float, variant: str = "seed") -> str:
    table = load_table()
    name = {m.key: m.name for m in table.modules}
    wins: dict[str, float] = defaultdict(float)
    played: Counter[str] = Counter()
    pair_wins: dict[tuple[str, str], float] = defaultdict(float)
    pair_games: Counter[tuple[str, str]] = Counter()
    first_wins = 0.0
    draws = 0
    for o in outcomes:
        share = 1 / len(o.winners)
        draws += len(o.winners) > 1
        first_wins += share if o.first in o.winners else 0.0
        for seat, module in enumerate(o.modules):
            played[module] += 1
            if seat in o.winners:
                wins[module] += share
                pair_wins[(module, o.modules[1 - seat])] += share
            pair_games[(module, o.modules[1 - seat])] += 1
    n = len(outcomes)
    lines = [
        "# Trivinity balance",
        "",
        f"Measured by `python benchmarks/trivinity_balance.py --games {games} --seed {seed}"
        f"{'' if variant == 'seed' else ' --variant ' + variant}` "
        f"({n} games: {games} for each of the {n // max(games, 1)} pairs of modules, two "
        f"Trivinity `average` players, seats swapping modules game by game, turn order random) "
        f"in {seconds:.0f} s on {workers} processes, {platform.python_implementation()} "
        f"{platform.python_version()}. Small samples are noisy: a win rate over {games * 6} "
        f"games has a standard error near {50 / max(games * 6, 1) ** 0.5:.0f} points.",
        "",
        "## Modules",
        "",
        "| module | games | win rate |",
        "|---|---|---|",
    ]
    for module in sorted(MODULES, key=lambda m: -wins[m] / max(played[m], 1)):
        lines.append(f"| {name[module]} | {played[module]} | "
                     f"{_pct(wins[module] / max(played[module], 1))} |")
    lines += ["", "Win rate of the row's module against the column's:", "",
              "| | " + " | ".join(name[m] for m in MODULES) + " |",
              "|---" * (len(MODULES) + 1) + "|"]
    for row in MODULES:
        cells = []
        for col in MODULES:
            g = pair_games[(row, col)]
            cells.append(_pct(pair_wins[(row, col)] / g) if g else "-")
        lines.append(f"| {name[row]} | " + " | ".join(cells) + " |")
    turns = sorted(o.turns for o in outcomes)
    actions = [o.actions for o in outcomes]
    quart = statistics.quantiles(turns, n=4) if len(turns) > 1 else [turns[0]] * 3
    lines += [
        "",
        "## First player",
        "",
        f"The first player in turn order won {_pct(first_wins / n)} of the games "
        f"({draws} draws, shared).",
        "",
        "## Game length",
        "",
        f"Turns in a game (both players together): mean {statistics.mean(turns):.1f}, "
        f"quartiles {quart[0]:g} / {quart[1]:g} / {quart[2]:g}, shortest {turns[0]}, "
        f"longest {turns[-1]}. Actions a game: mean {statistics.mean(actions):.0f}.",
        "",
        "| turns | games |",
        "|---|---|",
    ]
    buckets = Counter(5 * (t // 5) for t in turns)
    for start in sorted(buckets):
        lines.append(f"| {start}-{start + 4} | {buckets[start]} |")
    ends = Counter(o.end for o in outcomes)
    lines += ["", "How the games ended:", "", "| end | games |", "|---|---|"]
    for end, count in ends.most_common():
        lines.append(f"| {end} | {count} ({_pct(count / n)}) |")
    scores = [s for o in outcomes for s in o.scores]
    lines += ["", f"Final scores: mean {statistics.mean(scores):.1f}, "
              f"lowest {min(scores)}, highest {max(scores)}.", ""]
    # cards
    in_games: Counter[str] = Counter()
    bought: Counter[str] = Counter()
    holders: Counter[str] = Counter()
    holder_wins: dict[str, float] = defaultdict(float)
    for o in outcomes:
        for key in o.in_play:
            in_games[key] += 1
        for seat in range(len(o.modules)):
            bought.update(o.bought[seat])
            for key in o.acquired[seat]:
                holders[key] += 1
                if seat in o.winners:
                    holder_wins[key] += 1 / len(o.winners)
    lines += ["## Cards", "",
              "Bought: copies bought per game in which the card is in play. Win rate: of the "
              "players who bought or gained at least one copy.", "",
              "| card | module | tier | games in play | bought a game | acquirers | "
              "win rate when acquired |", "|---|---|---|---|---|---|---|"]
    for card in sorted((c for c in table.designs if c.tier), key=lambda c: (c.module != "core",
                                                                          c.module, c.tier,
                                                                          c.name)):
        g = in_games[card.key]
        if not g:
            continue
        h = holders[card.key]
        rate = _pct(holder_wins[card.key] / h) if h else "-"
        lines.append(f"| {card.name} | {name[card.module]} | {card.tier} | {g} | "
                     f"{bought[card.key] / g:.2f} | {h} | {rate} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=4, help="games per pair of modules")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--variant", default="seed", choices=tuple(TrivinityGame.variants))
    parser.add_argument("--write", metavar="FILE", help="write the report here")
    args = parser.parse_args()
    outcomes, seconds = run(args.games, args.seed, args.workers, args.variant)
    text = report(outcomes, args.games, args.seed, args.workers, seconds, args.variant)
    print(text)
    print(f"{len(outcomes) / seconds:.1f} games/s with {args.workers} processes")
    if args.write:
        path = Path(args.write)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
