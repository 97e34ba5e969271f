"""Trivinity balance: computer players over every pair of modules.

    python benchmarks/trivinity_balance.py                      # 4 games a pair, all cores
    python benchmarks/trivinity_balance.py --games 2000 --seed 1 --workers 2 \
        --write docs/balance/trivinity.md                       # the published report

Each game is two Trivinity ``average`` players, one module each (every unordered pair of the
seven modules; the seats swap modules from one game to the next, and turn order is random).
The report gives each module's win rate, the win rates pair by pair, the first player's
advantage, the distribution of game length, how the games end, and per card how often it is
bought and the win rate of the players who acquired it. The games run in parallel
(multiprocessing); the numbers depend only on ``--seed``, ``--games`` and ``--variant``.

Both modules of a game go into the same stacks, so the seat that chose a module has no cards the
other seat lacks: with equal players the module-by-seat win rates are 50% but for chance. The
report therefore also measures the modules by the cards the players bought ("module lean").

The report's first line is the command that regenerates it. When ``--write`` replaces a report,
its hand-written section (from :data:`NOTES_HEADING` to the end) is carried over.
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

from triverse.ai.knowledge.trivinity_mind import TrivinityAveragePlayer
from triverse.core.rng import derive
from triverse.games.trivinity.cards import load_table
from triverse.games.trivinity.engine import LINES, TrivinityGame

MODULES = load_table().module_keys
NOTES_HEADING = "## Changes made from the simulation"


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


def command(games: int, seed: int, workers: int, variant: str = "seed",
            write: str | None = None) -> str:
    """The command line that produces a report with these settings."""
    parts = ["python benchmarks/trivinity_balance.py", f"--games {games}", f"--seed {seed}",
             f"--workers {workers}"]
    if variant != "seed":
        parts.append(f"--variant {variant}")
    if write:
        parts.append(f"--write {write}")
    return " ".join(parts)


LeanWins = tuple[dict[tuple[str, str], float], Counter[tuple[str, str]]]


def lean_wins(outcomes: list[Outcome]) -> LeanWins:
    """Per ordered pair (a, b): wins and decided games of the player who leaned to a's cards.

    In a game with modules a and b, a player leans to a by (a cards bought) - (b cards bought);
    the player who leans further to a than the other "plays a". Games in which both lean alike
    are left out.
    """
    table = load_table()
    wins: dict[tuple[str, str], float] = defaultdict(float)
    decided: Counter[tuple[str, str]] = Counter()
    for o in outcomes:
        a, b = o.pair
        lean = [sum((table.design(k).module == a) - (table.design(k).module == b) for k in keys)
                for keys in o.bought]
        if len(lean) != 2 or lean[0] == lean[1]:
            continue
        seat_a = 0 if lean[0] > lean[1] else 1
        decided[(a, b)] += 1
        decided[(b, a)] += 1
        share = 1 / len(o.winners)
        if seat_a in o.winners:
            wins[(a, b)] += share
        if 1 - seat_a in o.winners:
            wins[(b, a)] += share
    return wins, decided


def report(outcomes: list[Outcome], games: int, seed: int, workers: int,
           seconds: float, variant: str = "seed", write: str | None = None) -> str:
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
        f"Regenerate this report with `{command(games, seed, workers, variant, write)}`.",
        "",
        "# Trivinity balance",
        "",
        f"Measured by `{command(games, seed, workers, variant)}` "
        f"({n} games: {games} for each of the {n // max(games, 1)} pairs of modules, two "
        f"Trivinity `average` players, seats swapping modules game by game, turn order random) "
        f"in {seconds:.0f} s on {workers} processes, {platform.python_implementation()} "
        f"{platform.python_version()}. Small samples are noisy: a win rate over {games * 6} "
        f"games (a module) has a standard error near {50 / max(games * 6, 1) ** 0.5:.1f} "
        f"points, over {games} (a pair) near {50 / max(games, 1) ** 0.5:.1f}.",
        "",
        "## Modules",
        "",
        "Win rate of the seat that chose each module. Both modules of a game are shuffled into "
        "the same stacks and either player may buy any card, so with equal players these are "
        "50% but for chance; the second table below measures the modules by the cards bought.",
        "",
        "| module | games | win rate | win rate by cards bought |",
        "|---|---|---|---|",
    ]
    lwins, ldecided = lean_wins(outcomes)
    lean_total = {m: sum(lwins[(m, o)] for o in MODULES if o != m) for m in MODULES}
    lean_games = {m: sum(ldecided[(m, o)] for o in MODULES if o != m) for m in MODULES}
    for module in sorted(MODULES, key=lambda m: -wins[m] / max(played[m], 1)):
        lines.append(f"| {name[module]} | {played[module]} | "
                     f"{_pct(wins[module] / max(played[module], 1))} | "
                     f"{_pct(lean_total[module] / max(lean_games[module], 1))} |")

    def matrix(num: dict[tuple[str, str], float], den: Counter[tuple[str, str]]) -> list[str]:
        rows = ["| | " + " | ".join(name[m] for m in MODULES) + " |",
                "|---" * (len(MODULES) + 1) + "|"]
        for row in MODULES:
            cells = [_pct(num[(row, col)] / den[(row, col)]) if den[(row, col)] else "-"
                     for col in MODULES]
            rows.append(f"| {name[row]} | " + " | ".join(cells) + " |")
        return rows

    def extreme(num: dict[tuple[str, str], float], den: Counter[tuple[str, str]]) -> str:
        rates = {k: num[k] / den[k] for k in den if den[k]}
        if not rates:
            return "-"
        (row, col), rate = max(rates.items(), key=lambda kv: kv[1])
        return f"{_pct(rate)}, {name[row]} against {name[col]} ({den[(row, col)]} games)"

    lines += ["", "Win rate of the seat that chose the row's module against the column's "
              f"(highest: {extreme(pair_wins, pair_games)}):", ""]
    lines += matrix(pair_wins, pair_games)
    lines += ["", "Win rate by cards bought: in a game with modules A and B, the player whose "
              "A cards bought minus B cards bought is the greater plays A. Row A against column B "
              f"(games where both leaned alike left out; highest: {extreme(lwins, ldecided)}):",
              ""]
    lines += matrix(lwins, ldecided)
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
    more: Counter[str] = Counter()
    more_wins: dict[str, float] = defaultdict(float)
    for o in outcomes:
        counts = [Counter(keys) for keys in o.bought]
        if len(counts) == 2:
            for key in set(counts[0]) | set(counts[1]):
                if counts[0][key] != counts[1][key]:
                    seat = 0 if counts[0][key] > counts[1][key] else 1
                    more[key] += 1
                    if seat in o.winners:
                        more_wins[key] += 1 / len(o.winners)
        for key in o.in_play:
            in_games[key] += 1
        for seat in range(len(o.modules)):
            bought.update(o.bought[seat])
            for key in o.acquired[seat]:
                holders[key] += 1
                if seat in o.winners:
                    holder_wins[key] += 1 / len(o.winners)
    cards = sorted((c for c in table.designs if c.tier and in_games[c.key]),
                   key=lambda c: (c.module != "core", c.module, c.tier, c.name))
    tier_rate: dict[int, float] = {}
    for tier in (1, 2, 3):
        h = sum(holders[c.key] for c in cards if c.tier == tier)
        tier_rate[tier] = sum(holder_wins[c.key] for c in cards if c.tier == tier) / max(h, 1)
    copy_share = {c.key: bought[c.key] / (c.copies * in_games[c.key]) for c in cards}
    never = [c.name for c in cards if not bought[c.key]]
    least = min(cards, key=lambda c: copy_share[c.key]) if cards else None
    lines += ["## Cards", "",
              "Bought a game: copies bought per game in which the card is in play. Copies "
              "bought: the share of its copies in play that were bought (a copy dealt to Limbo "
              "at the start cannot be). Win rate: of the players who bought or gained at least "
              "one copy; against tier: that minus the win rate of all acquirers of the tier's "
              "cards (" + ", ".join(f"tier {t} {_pct(r)}" for t, r in tier_rate.items()) + "). "
              "Bought more: in the games where one player bought more copies than the other, "
              "the win rate of that player (it compares the two players of the same game; "
              "cheap cards are bought more by the player who is behind, so tier 1 sits below "
              "50% and tier 3 above).",
              "",
              "Cards never bought: " + (", ".join(never) if never else "none") + "."
              + (f" Least bought: {least.name}, {_pct(copy_share[least.key])} of its copies "
                 f"({bought[least.key] / in_games[least.key]:.2f} a game)." if least else ""),
              "",
              "| card | module | tier | copies | games in play | bought a game | copies bought "
              "| acquirers | win rate when acquired | against tier | bought more |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for card in cards:
        g = in_games[card.key]
        h = holders[card.key]
        rate = holder_wins[card.key] / h if h else None
        lines.append(f"| {card.name} | {name[card.module]} | {card.tier} | {card.copies} | {g} | "
                     f"{bought[card.key] / g:.2f} | {_pct(copy_share[card.key])} | {h} | "
                     f"{'-' if rate is None else _pct(rate)} | "
                     f"{'-' if rate is None else f'{100 * (rate - tier_rate[card.tier]):+.1f}'} | "
                     f"{_pct(more_wins[card.key] / more[card.key]) if more[card.key] else '-'} |")
    return "\n".join(lines) + "\n"


def with_notes(text: str, previous: str) -> str:
    """``text`` followed by the hand-written section of ``previous`` (if it has one)."""
    at = previous.find(NOTES_HEADING)
    if at < 0:
        return text
    return text + "\n" + previous[at:].rstrip("\n") + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=4, help="games per pair of modules")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--variant", default="seed", choices=tuple(TrivinityGame.variants))
    parser.add_argument("--write", metavar="FILE", help="write the report here")
    args = parser.parse_args()
    outcomes, seconds = run(args.games, args.seed, args.workers, args.variant)
    text = report(outcomes, args.games, args.seed, args.workers, seconds, args.variant,
                  args.write)
    print(text)
    print(f"{len(outcomes) / seconds:.1f} games/s with {args.workers} processes")
    if args.write:
        path = Path(args.write)
        path.parent.mkdir(parents=True, exist_ok=True)
        previous = path.read_text(encoding="utf-8") if path.exists() else ""
        path.write_text(with_notes(text, previous), encoding="utf-8")


if __name__ == "__main__":
    main()
