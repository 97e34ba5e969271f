"""The arena: computer players against each other, with statistics.

    triverse arena GAME --players veteran,average [--games N] [--seed S] [--jobs J]
                   [--option NAME=VALUE] [--time-budget T] [--json] [--records DIR]

(also ``python -m triverse.arena ...``). One entry of ``--players`` per seat: a level
(``novice``, ``average``, ``veteran``), ``ismcts`` (OpenSpiel's ISMCTS bot, calibrated to the
same wall time per move; in Triangles, a perfect-information game, OpenSpiel's MCTS bot), or the
old generic players ``random`` and ``greedy``. ``KIND@SECONDS`` gives one entry its own time
budget (``veteran@0.25``); ``--time-budget`` sets it for every searching entry.

Seats rotate: with ``n`` entries, games ``kn`` to ``kn + n - 1`` share one deal (one seed) and
each entry sits in every seat once, so the luck of the deal is the same for all. Games run in
``--jobs`` processes. The report gives, per entry, the win rate (a draw, or a shared first
place, counts as a share of a win) with its 95% Wilson interval, the average score, the special
plays per game (the score events whose ``reason`` the game's knowledge names, e.g. hexagons),
and the move times (median, 95th percentile) of the moves with a choice (two or more legal
actions) and of all moves; then maximum-likelihood Elo ratings from the pairwise results
(:func:`triverse.ai.stats.elo_ratings`).

>>> result = run_arena(ArenaConfig("triangles", ("average", "novice"), games=4, seed=1))
>>> [entry.games for entry in result.entries], sum(e.wins for e in result.entries)
([4, 4], 4.0)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from triverse.ai.basic import GreedyPlayer, Player, RandomPlayer
from triverse.ai.knowledge import knowledge_for
from triverse.ai.levels import AveragePlayer, NovicePlayer, VeteranPlayer
from triverse.ai.search import CLOCKS
from triverse.ai.stats import elo_ratings, pairwise_from_ranks, percentile, wilson_interval
from triverse.core.game import Game
from triverse.core.options import parse_option_args
from triverse.core.records import PlayerInfo, Record
from triverse.core.rng import derive, fresh_seed
from triverse.games import available_games, load_game

KINDS = ("novice", "average", "veteran", "ismcts", "random", "greedy")
"""What an arena entry may be."""

SEARCHING = ("veteran", "ismcts")
"""The kinds that take a time budget."""

RECORD_KINDS = {"novice": "novice", "average": "average", "veteran": "veteran",
                "random": "novice", "greedy": "average", "ismcts": "veteran"}
"""How each kind is written in a record's player list (records know the three levels)."""


class ArenaError(Exception):
    """A bad arena configuration, reported without a traceback."""


# --- configuration ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EntrySpec:
    """One entry: its kind and its own time budget (``None``: the arena's or the default)."""

    kind: str
    budget: float | None = None

    @classmethod
    def parse(cls, text: str) -> EntrySpec:
        """``veteran``, ``veteran@0.25``.

        >>> EntrySpec.parse(" veteran@0.25 ")
        EntrySpec(kind='veteran', budget=0.25)
        """
        kind, _, budget = text.strip().partition("@")
        if kind not in KINDS:
            raise ArenaError(f"{kind!r} is not an arena player; use one of {', '.join(KINDS)}")
        if not budget:
            return cls(kind)
        try:
            seconds = float(budget)
        except ValueError:
            raise ArenaError(f"{text!r}: the time budget after @ is seconds, like 0.25") from None
        if not seconds > 0 or kind not in SEARCHING:
            raise ArenaError(f"{text!r}: only {' and '.join(SEARCHING)} take a time budget, "
                             "of more than 0 seconds")
        return cls(kind, seconds)

    def label(self) -> str:
        return self.kind if self.budget is None else f"{self.kind}@{self.budget:g}"


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What to play: ``game`` with one entry per seat in ``players``, ``games`` games."""

    game: str
    players: tuple[str, ...]
    games: int = 100
    seed: int = 0
    jobs: int = 1
    options: tuple[str, ...] = ()
    """Game options as ``NAME=VALUE`` texts."""
    time_budget: float | None = None
    """Seconds per move for the searching entries without their own ``@`` budget."""
    records: str | None = None
    """A directory to save every game's record in."""
    clock: str = "wall"
    """What the searching entries' budgets count: wall-clock or CPU seconds (``--clock``)."""

    def entries(self) -> list[EntrySpec]:
        return [EntrySpec.parse(p) for p in self.players]

    def labels(self) -> list[str]:
        """Each entry's name in the report: its kind (and budget), numbered if repeated."""
        labels = [e.label() for e in self.entries()]
        counts = Counter(labels)
        seen: Counter[str] = Counter()
        out = []
        for label in labels:
            if counts[label] > 1:
                seen[label] += 1
                label = f"{label}#{seen[label]}"
            out.append(label)
        return out

    def budget_of(self, entry: EntrySpec) -> float | None:
        return entry.budget if entry.budget is not None else self.time_budget

    def make_game(self) -> Game[Any, Any]:
        return load_game(self.game, len(self.players), **parse_option_args(self.options))


def make_entry_player(entry: EntrySpec, budget: float | None, clock: str = "wall") -> Player:
    """The player of an entry."""
    if entry.kind == "novice":
        return NovicePlayer()
    if entry.kind == "average":
        return AveragePlayer()
    if entry.kind == "veteran":
        return VeteranPlayer(budget or 0.0, clock=clock)
    if entry.kind == "random":
        return RandomPlayer()
    if entry.kind == "greedy":
        return GreedyPlayer()
    from triverse.arena.openspiel_bots import OpenSpielSearchPlayer

    return OpenSpielSearchPlayer(budget or 0.0, clock)


# --- one game --------------------------------------------------------------------------------
@dataclass(slots=True)
class GameOutcome:
    """One game's result, by entry (not by seat)."""

    index: int
    seed: int
    seats: list[int]
    """The seat of each entry."""
    scores: list[int]
    ranks: list[int]
    actions: int
    specials: list[dict[str, int]]
    choice_times: list[list[float]]
    """Seconds per move with two or more legal actions, per entry."""
    forced_times: list[list[float]]
    """Seconds per move with one legal action, per entry."""
    seconds: float
    choice_cpu: list[list[float]] = field(default_factory=list)
    """CPU seconds of this process per move with a choice, per entry."""


def game_seed(config: ArenaConfig, index: int) -> int:
    """The seed of game ``index``: games ``kn`` to ``kn + n - 1`` share a deal."""
    deal = index // len(config.players)
    return derive(config.seed, "arena", deal).randrange(2**62)


def play_game(config: ArenaConfig, index: int) -> GameOutcome:
    """Play game ``index`` of the arena (in the current process)."""
    start = time.perf_counter()
    game = config.make_game()
    n = len(config.players)
    entries = config.entries()
    seats = [(e + index) % n for e in range(n)]
    entry_at = {seat: e for e, seat in enumerate(seats)}
    players = [make_entry_player(entries[entry_at[s]], config.budget_of(entries[entry_at[s]]),
                                 config.clock) for s in range(n)]
    seed = game_seed(config, index)
    state = game.new_initial_state(seed=seed)
    knowledge = knowledge_for(game)
    specials: list[Counter[str]] = [Counter() for _ in range(n)]
    choice_times: list[list[float]] = [[] for _ in range(n)]
    forced_times: list[list[float]] = [[] for _ in range(n)]
    choice_cpu: list[list[float]] = [[] for _ in range(n)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        choices = len(state.legal_action_list())
        rng = derive(seed, "bot", seat, state.move_number)
        observation = state.observation(seat)
        t0, c0 = time.perf_counter(), time.process_time()
        action = players[seat].choose(game, observation, rng)
        elapsed = time.perf_counter() - t0
        (choice_times if choices > 1 else forced_times)[entry_at[seat]].append(elapsed)
        if choices > 1:
            choice_cpu[entry_at[seat]].append(time.process_time() - c0)
        for event in state.apply(action):
            special = knowledge.special_play(event)
            if special is not None and event.player is not None:
                specials[entry_at[event.player]][special] += 1
    result = state.result()
    if config.records:
        labels = config.labels()
        infos = [PlayerInfo(f"{labels[entry_at[s]]} {s + 1}",
                            RECORD_KINDS[entries[entry_at[s]].kind]) for s in range(n)]
        path = Path(config.records)
        path.mkdir(parents=True, exist_ok=True)
        Record.from_state(state, infos, {"arena_seed": config.seed, "index": index}).save(
            path / f"{config.game}-{index + 1:05d}.json")
    return GameOutcome(
        index=index, seed=seed, seats=seats,
        scores=[result.scores[seats[e]] for e in range(n)],
        ranks=[result.ranks[seats[e]] for e in range(n)],
        actions=len(state.history),
        specials=[dict(specials[e]) for e in range(n)],
        choice_times=choice_times, forced_times=forced_times, choice_cpu=choice_cpu,
        seconds=time.perf_counter() - start)


def _play_task(task: tuple[ArenaConfig, int]) -> GameOutcome:
    return play_game(*task)


# --- the statistics --------------------------------------------------------------------------
@dataclass(slots=True)
class EntryStats:
    """One entry's totals over the arena."""

    label: str
    kind: str
    games: int = 0
    wins: float = 0.0
    """Wins, a first place shared by ``k`` counting ``1/k``."""
    outright_wins: int = 0
    draws: int = 0
    """Games in which it shared first place."""
    total_score: float = 0.0
    specials: Counter[str] = field(default_factory=Counter)
    choice_times: list[float] = field(default_factory=list)
    forced_times: list[float] = field(default_factory=list)
    choice_cpu: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = wilson_interval(self.wins, self.games)
        n = max(self.games, 1)
        everything = self.choice_times + self.forced_times
        return {
            "label": self.label, "kind": self.kind, "games": self.games,
            "wins": self.wins, "outright_wins": self.outright_wins, "draws": self.draws,
            "win_rate": self.win_rate, "wilson95": [low, high],
            "average_score": self.total_score / n,
            "specials_per_game": {k: v / n for k, v in sorted(self.specials.items())},
            "special_plays_per_game": sum(self.specials.values()) / n,
            "move_time": {
                "choices": _time_summary(self.choice_times),
                "all": _time_summary(everything),
                "choices_cpu": _time_summary(self.choice_cpu),
            },
        }


def _time_summary(times: Sequence[float]) -> dict[str, Any]:
    if not times:
        return {"moves": 0, "median": None, "p95": None, "max": None, "mean": None}
    return {"moves": len(times), "median": statistics.median(times),
            "p95": percentile(times, 0.95), "max": max(times),
            "mean": statistics.fmean(times)}


@dataclass(slots=True)
class ArenaResult:
    """The arena's statistics."""

    config: ArenaConfig
    entries: list[EntryStats]
    pairwise: dict[tuple[str, str], tuple[float, float]]
    elo: dict[str, float]
    games: int
    average_length: float
    seconds: float
    outcomes: list[GameOutcome]

    def to_json(self) -> dict[str, Any]:
        cfg = self.config
        return {
            "game": cfg.game, "players": list(cfg.players), "games": self.games,
            "seed": cfg.seed, "jobs": cfg.jobs, "options": list(cfg.options),
            "time_budget": cfg.time_budget, "clock": cfg.clock,
            "command": command_line(cfg),
            "entries": [e.to_json() for e in self.entries],
            "pairwise": [{"a": a, "b": b, "wins_a": wa, "wins_b": wb,
                          "rate_a": wa / (wa + wb) if wa + wb else None,
                          "wilson95_a": list(wilson_interval(wa, wa + wb))}
                         for (a, b), (wa, wb) in self.pairwise.items()],
            "elo": self.elo,
            "average_length": self.average_length,
            "seconds": round(self.seconds, 2),
        }

    def text(self) -> str:
        cfg = self.config
        lines = [f"{self.games} games of {cfg.game} ({len(cfg.players)} players, seats rotated, "
                 f"seed {cfg.seed}), {self.seconds:.0f} s with {cfg.jobs} job(s)",
                 f"  {command_line(cfg)}", ""]
        lines.append(f"{'player':<16}{'wins':>8}{'rate':>8}{'95% (Wilson)':>16}{'score':>9}"
                     f"{'specials':>10}{'choice med':>12}{'p95':>8}{'all med':>9}{'cpu med':>9}"
                     f"{'Elo':>7}")
        for e in self.entries:
            data = e.to_json()
            low, high = data["wilson95"]
            choice = data["move_time"]["choices"]
            every = data["move_time"]["all"]
            cpu = data["move_time"]["choices_cpu"]
            lines.append(
                f"{e.label:<16}{e.wins:>8.1f}{e.win_rate:>8.1%}"
                f"{f'{low:.1%}-{high:.1%}':>16}{data['average_score']:>9.1f}"
                f"{data['special_plays_per_game']:>10.2f}{_ms(choice['median']):>12}"
                f"{_ms(choice['p95']):>8}{_ms(every['median']):>9}{_ms(cpu['median']):>9}"
                f"{self.elo[e.label]:>7.0f}")
        lines.append(f"average length {self.average_length:.1f} actions")
        return "\n".join(lines)


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.0f}ms" if seconds < 10 else f"{seconds:.0f}s"


def command_line(config: ArenaConfig) -> str:
    """The command that runs this arena."""
    parts = ["triverse arena", config.game, "--players", ",".join(config.players),
             "--games", str(config.games), "--seed", str(config.seed), "--jobs", str(config.jobs)]
    for option in config.options:
        parts += ["--option", option]
    if config.time_budget is not None:
        parts += ["--time-budget", f"{config.time_budget:g}"]
    if config.clock != "wall":
        parts += ["--clock", config.clock]
    return " ".join(parts)


def summarize(config: ArenaConfig, outcomes: Sequence[GameOutcome], seconds: float) -> ArenaResult:
    """The statistics of a set of game outcomes (in any order)."""
    labels = config.labels()
    entries = [EntryStats(label, spec.kind) for label, spec in zip(labels, config.entries(),
                                                                    strict=True)]
    pairwise: dict[tuple[str, str], tuple[float, float]] = {}
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            pairwise[labels[i], labels[j]] = (0.0, 0.0)
    total_actions = 0
    for outcome in outcomes:
        total_actions += outcome.actions
        first = [e for e, rank in enumerate(outcome.ranks) if rank == 1]
        for e, stats in enumerate(entries):
            stats.games += 1
            stats.total_score += outcome.scores[e]
            stats.specials.update(outcome.specials[e])
            stats.choice_times.extend(outcome.choice_times[e])
            stats.forced_times.extend(outcome.forced_times[e])
            if outcome.choice_cpu:
                stats.choice_cpu.extend(outcome.choice_cpu[e])
            if e in first:
                stats.wins += 1 / len(first)
                if len(first) == 1:
                    stats.outright_wins += 1
                else:
                    stats.draws += 1
        for a, b, wa, wb in pairwise_from_ranks(labels, outcome.ranks):
            old_a, old_b = pairwise[a, b]
            pairwise[a, b] = (old_a + wa, old_b + wb)
    elo = elo_ratings(labels, pairwise)
    n = max(len(outcomes), 1)
    return ArenaResult(config, entries, pairwise, elo, len(outcomes), total_actions / n,
                       seconds, sorted(outcomes, key=lambda o: o.index))


# --- running ---------------------------------------------------------------------------------
def _outcomes(config: ArenaConfig) -> Iterator[GameOutcome]:
    tasks = [(config, index) for index in range(config.games)]
    if config.jobs <= 1:
        for task in tasks:
            yield _play_task(task)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(config.jobs) as pool:
        yield from pool.imap_unordered(_play_task, tasks, chunksize=1)


def run_arena(config: ArenaConfig, progress: TextIO | None = None) -> ArenaResult:
    """Play the arena's games (in ``config.jobs`` processes) and summarize them; show the
    progress on ``progress`` (:class:`triverse.progress.Progress`: a bar on a terminal)."""
    from triverse.progress import Progress

    if config.game not in available_games():
        raise ArenaError(f"{config.game!r} is not a built game; the games are: "
                         f"{', '.join(available_games())}")
    if config.games < 1:
        raise ArenaError("--games must be at least 1")
    if config.jobs < 1:
        raise ArenaError("--jobs must be at least 1")
    config.entries()
    config.make_game()  # a bad option or player count fails here, not in a worker
    start = time.perf_counter()
    outcomes = []
    with Progress(config.games, progress) as bar:
        for outcome in _outcomes(config):
            outcomes.append(outcome)
            bar.update(len(outcomes))
    return summarize(config, outcomes, time.perf_counter() - start)


# --- the command -----------------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arena's arguments (for ``triverse arena``)."""
    parser.add_argument("game", help=f"one of: {', '.join(available_games())}")
    parser.add_argument("--players", default="veteran,average",
                        help="one entry per seat: novice, average, veteran, ismcts, random, "
                             "greedy; KIND@SECONDS sets one entry's time budget")
    parser.add_argument("--games", type=int, default=100, help="how many games to play")
    parser.add_argument("--seed", type=int, help="the arena's seed (fresh if omitted)")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option (repeatable)")
    parser.add_argument("--time-budget", type=float, metavar="SECONDS",
                        help="seconds per move for veteran and ismcts entries")
    parser.add_argument("--clock", choices=CLOCKS, default="wall",
                        help="what time budgets count: wall-clock seconds (what a player "
                             "waits), or CPU seconds of the game's process (strength that does "
                             "not depend on the machine's load)")
    parser.add_argument("--records", metavar="DIR", help="save every game's record here")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the arena from parsed arguments; print the report to ``out``."""
    config = ArenaConfig(
        game=args.game,
        players=tuple(p.strip() for p in args.players.split(",") if p.strip()),
        games=args.games,
        seed=args.seed if args.seed is not None else fresh_seed() % 1_000_000,
        jobs=args.jobs,
        options=tuple(args.option),
        time_budget=args.time_budget,
        records=args.records,
        clock=args.clock,
    )
    if len(config.players) < 2:
        raise ArenaError("--players needs one entry per seat, at least two")
    if config.time_budget is not None and not config.time_budget > 0:
        raise ArenaError("--time-budget is more than 0 seconds")
    result = run_arena(config, sys.stderr)
    if args.json:
        out.write(json.dumps(result.to_json(), indent=1) + "\n")
    else:
        out.write(result.text() + "\n")
    return 0


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """``python -m triverse.arena GAME ...``."""
    parser = argparse.ArgumentParser(prog="triverse arena",
                                     description="Computer players against each other.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args, out if out is not None else sys.stdout)
    except ArenaError as exc:
        sys.stderr.write(f"triverse arena: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        return 130



__all__ = [
    "KINDS",
    "ArenaConfig",
    "ArenaError",
    "ArenaResult",
    "EntrySpec",
    "EntryStats",
    "GameOutcome",
    "add_arguments",
    "command_line",
    "main",
    "play_game",
    "run",
    "run_arena",
    "summarize",
]


