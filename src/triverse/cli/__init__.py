"""The ``triverse`` command: play in the terminal, simulate bot games, replay records.

    triverse games
    triverse play triominoes --players human,average
    triverse simulate triominoes --players novice,average --games 100 --seed 1 --json
    triverse replay game.json
    triverse verify game.json
    triverse arena triominoes --players veteran,average --games 400 --jobs 2

Every command takes game options as ``--option NAME=VALUE`` (repeatable), with the same names as
the records and the web New Game dialog. Every message a player reads goes through gettext
(:mod:`triverse.i18n`), in the language of ``--lang`` or of the environment. The commands live
here; the parser in :mod:`.parser`, the terminal game in :mod:`.play`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table

from triverse.ai import make_player
from triverse.cli.common import CliError, bot_move, level_name, make_game, parse_players
from triverse.cli.parser import build_parser, language_arg
from triverse.cli.play import cmd_play
from triverse.core.errors import TriverseError
from triverse.core.options import OptionSpec
from triverse.core.records import PlayerInfo, Record, ReplayError, replay
from triverse.core.rng import derive, fresh_seed
from triverse.core.verify import VerificationError, verify
from triverse.games import available_games, game_class
from triverse.i18n import _, language_from_env, ngettext, pgettext, set_language
from triverse.progress import Progress

__all__ = ["COMMANDS", "CliError", "build_parser", "cmd_play", "main", "simulate"]

SERVER_PACKAGES = ("fastapi", "uvicorn", "websockets", "sqlalchemy", "alembic", "platformdirs",
                   "prometheus_client")
"""What ``triverse serve`` needs beyond the engines: the ``server`` extra."""


# --- triverse games ------------------------------------------------------------------------------
def _console(out: TextIO) -> Console:
    return Console(file=out, highlight=False)


def _players_range(low: int, high: int) -> str:
    """How many players a game takes, in words.

    >>> _players_range(2, 2), _players_range(2, 6)
    ('2', '2-6')
    """
    return str(low) if low == high else f"{low}-{high}"


def _option_words(spec: OptionSpec) -> str:
    """An option and its default as ``triverse games`` shows them.

    >>> from triverse.core.options import OptionSpec
    >>> _option_words(OptionSpec("again", bool, False, "play again"))
    'again: no'
    >>> _option_words(OptionSpec("variant", str, "seed", "rules", choices=("seed", "pressman")))
    'variant: seed (or pressman)'
    >>> _option_words(OptionSpec("target", int, 400, "score", minimum=1, maximum=100000))
    'target: 400 (1 to 100000)'
    """
    default = spec.default
    if isinstance(default, bool):
        return f"{spec.name}: {_('yes') if default else _('no')}"
    text = f"{spec.name}: {default}"
    low, high = spec.minimum, spec.maximum
    if spec.choices:
        others = [str(c) for c in spec.choices if c != default]
        return _("{option} (or {others})").format(option=text, others=", ".join(others)) \
            if others else text
    if low is not None and high is not None:
        return _("{option} ({low} to {high})").format(option=text, low=low, high=high)
    if low is not None:
        return _("{option} (at least {low})").format(option=text, low=low)
    if high is not None:
        return _("{option} (at most {high})").format(option=text, high=high)
    return text


def cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    table = Table(show_lines=True)
    table.add_column(_("game"), ratio=3)
    table.add_column(_("players"), no_wrap=True)
    table.add_column(_("options: --option NAME=VALUE"), ratio=2)
    for name in available_games():
        cls = game_class(name)
        game = (f"[bold]{name}[/bold]: {pgettext('game', cls.title)}\n"
                f"[dim]{pgettext('game', cls.summary)}[/dim]")
        options = "\n".join(_option_words(spec) for spec in cls.option_specs)
        table.add_row(game, _players_range(cls.min_players, cls.max_players), options)
    _console(out).print(table)
    return 0


# --- triverse simulate ---------------------------------------------------------------------------
@dataclass
class SimulationSummary:
    game: str
    players: list[str]
    games: int
    seed: int
    options: dict[str, Any]
    wins: list[float] = field(default_factory=list)
    """Per entry of --players: wins, a shared first place counting as 1/k."""
    outright_wins: list[int] = field(default_factory=list)
    draws: int = 0
    total_scores: list[int] = field(default_factory=list)
    total_actions: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        n = max(self.games, 1)
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "options": self.options,
            "wins": self.wins,
            "outright_wins": self.outright_wins,
            "win_rates": [w / n for w in self.wins],
            "draws": self.draws,
            "average_scores": [s / n for s in self.total_scores],
            "average_length": self.total_actions / n,
            "seconds": round(self.seconds, 3),
        }


def simulate(
    name: str,
    kinds: Sequence[str],
    games: int,
    seed: int,
    option_args: Sequence[str] = (),
    records: Path | None = None,
    progress: Progress | None = None,
) -> SimulationSummary:
    """Play ``games`` bot games, rotating the seats so each entry plays each seat in turn."""
    n = len(kinds)
    game = make_game(name, n, option_args)
    summary = SimulationSummary(name, list(kinds), games, seed, dict(game.options),
                                [0.0] * n, [0] * n, 0, [0] * n)
    start = time.monotonic()
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    for index in range(games):
        # Entry e of --players sits at seat (e + index) % n.
        seat_of = [(entry + index) % n for entry in range(n)]
        entry_at = {seat: entry for entry, seat in enumerate(seat_of)}
        bots = [make_player(kinds[entry_at[seat]]) for seat in range(n)]
        game_seed = derive(seed, "game", index).randrange(2**62)
        state = game.new_initial_state(seed=game_seed)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            state.apply(bot_move(game, state, bots[seat], game_seed, seat))
        result = state.result()
        winners = result.winners
        if len(winners) > 1:
            summary.draws += 1
        for entry, seat in enumerate(seat_of):
            summary.total_scores[entry] += result.scores[seat]
            if seat in winners:
                summary.wins[entry] += 1 / len(winners)
                if len(winners) == 1:
                    summary.outright_wins[entry] += 1
        summary.total_actions += len(state.history)
        if records is not None:
            infos = [PlayerInfo(f"{kinds[entry_at[s]].capitalize()} {s + 1}", kinds[entry_at[s]])
                     for s in range(n)]
            Record.from_state(state, infos, {"simulation_seed": seed, "index": index}).save(
                records / f"{name}-{index + 1:05d}.json")
        if progress is not None:
            progress.update(index + 1)
    summary.seconds = time.monotonic() - start
    return summary


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    kinds = parse_players(args.players)
    if "human" in kinds:
        raise CliError(_("simulate plays computer players only: novice, average or veteran"))
    if args.games < 1:
        raise CliError(_("--games must be at least 1"))
    seed = args.seed if args.seed is not None else fresh_seed()
    # A bar on a terminal only; a --json run shows none, so its output is the JSON alone.
    with Progress(args.games, None if args.json else sys.stderr, lines=False) as progress:
        summary = simulate(args.game, kinds, args.games, seed, args.option,
                           Path(args.records) if args.records else None, progress)
    data = summary.to_json()
    if args.json:
        out.write(json.dumps(data, indent=1) + "\n")
        return 0
    out.write(ngettext("{n} game of {game}, seed {seed}, seats rotated",
                       "{n} games of {game}, seed {seed}, seats rotated", args.games).format(
        n=args.games, game=args.game, seed=seed) + "\n")
    table = Table(_("player"), _("wins"), _("win rate"), _("average score"))
    for column in table.columns[1:]:
        column.justify = "right"
    for entry, kind in enumerate(kinds):
        table.add_row(f"{level_name(kind)} #{entry + 1}", f"{data['wins'][entry]:.1f}",
                      f"{data['win_rates'][entry]:.1%}", f"{data['average_scores'][entry]:.1f}")
    _console(out).print(table)
    out.write(_("draws {draws}; average length {length:.1f} actions; {seconds:.1f} s").format(
        draws=summary.draws, length=data["average_length"], seconds=summary.seconds) + "\n")
    return 0


# --- triverse replay -----------------------------------------------------------------------------
def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    record = Record.load(args.file)
    state = replay(record)
    result = state.result() if state.is_terminal() else None
    if args.json:
        out.write(json.dumps({
            "game": record.game,
            "actions": len(record.actions),
            "finished": state.is_terminal(),
            "scores": list(state.scores),
            "ranks": list(result.ranks) if result else None,
            "result_checked": record.result is not None,
        }, indent=1) + "\n")
        return 0
    n = len(record.actions)
    replayed = ngettext("{game}: {n} action replayed, all legal",
                        "{game}: {n} actions replayed, all legal", n).format(game=record.game, n=n)
    if result is None:
        line = _("{replayed}; unfinished").format(replayed=replayed)
    elif record.result is None:
        line = _("{replayed}; finished").format(replayed=replayed)
    else:
        line = _("{replayed}; finished; the recorded result matches").format(replayed=replayed)
    out.write(line + "\n")
    for seat, info in enumerate(record.players):
        seat_line = _("  {name} ({kind}): {score}") if result is None else \
            _("  {rank}. {name} ({kind}): {score}")
        out.write(seat_line.format(rank=result.ranks[seat] if result else 0, name=info.name,
                                   kind=info.kind, score=state.scores[seat]) + "\n")
    return 0


# --- triverse verify -----------------------------------------------------------------------------
def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    """Check a record's commitment, deal and every draw (:func:`triverse.core.verify.verify`):
    0 when it holds, 1 with the check that failed (a file that is no record: 2)."""
    record = Record.load(args.file)
    try:
        report = verify(record)
    except VerificationError as exc:
        if args.json:
            out.write(json.dumps({"holds": False, "check": exc.check, "reason": exc.reason},
                                 indent=1) + "\n")
        sys.stderr.write(_("triverse verify: the record does not hold: {problem}").format(
            problem=exc) + "\n")
        return 1
    if args.json:
        out.write(json.dumps({"holds": True, **report.to_json()}, indent=1) + "\n")
        return 0
    out.write(_("{game}: the commitment {digest} holds").format(
        game=record.game, digest=report.digest) + "\n")
    out.write(ngettext("{n} action replayed from the seed", "{n} actions replayed from the seed",
                       report.actions).format(n=report.actions) + "\n")
    out.write(ngettext("{n} draw came from the seed", "{n} draws came from the seed",
                       len(report.draws)).format(n=len(report.draws)) + "\n")
    if report.result is not None:
        out.write(_("the recorded result matches: {scores}").format(
            scores=", ".join(str(s) for s in report.result.scores)) + "\n")
    return 0


# --- triverse serve -----------------------------------------------------------------------------
def _missing_server_packages() -> list[str]:
    """The packages of the ``server`` extra that cannot be imported."""
    missing = []
    for name in SERVER_PACKAGES:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    return missing


def _settings_error(exc: ValueError) -> str:
    """What is wrong with the server's settings, in a line per setting (pydantic's own error
    text without its links)."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return str(exc)
    lines = []
    for error in errors():
        where = ".".join(str(part) for part in error.get("loc", ()))
        message = str(error.get("msg", "")).removeprefix("Value error, ")
        lines.append(f"{where}: {message}" if where else message)
    return "; ".join(lines)


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    missing = _missing_server_packages()
    if missing:
        raise CliError(_("triverse serve needs the server extra: pip install "
                         "'triverse[server]' (missing: {packages})").format(
            packages=", ".join(missing)), whole=True)
    from triverse.server import address, serve  # the web stack loads only for this command
    from triverse.server.config import settings_with
    from triverse.server.preflight import (
        CannotStart,
        check_database,
        check_port,
        where_games_are_kept,
    )

    # The flags override the TRIVERSE_* environment variables (docs/server.md).
    try:
        settings = settings_with(host=args.host, port=args.port, db_url=args.db,
                                 redis_url=args.redis, workers=args.workers,
                                 log_format="json" if args.log_json else None)
    except ValueError as exc:  # pydantic's ValidationError names the setting and the reason
        raise CliError(_settings_error(exc)) from None
    url = address(settings.host, settings.port)
    try:
        check_port(settings.host, settings.port, url)
        check_database(settings.db_url, shared=settings.clustered)
    except CannotStart as exc:
        raise CliError(str(exc)) from None
    out.write(_("Games are kept in {place}").format(place=where_games_are_kept(settings.db_url))
              + "\n")
    out.write(_("Triverse is running at {url} (Ctrl-C stops it)").format(url=url) + "\n")
    out.flush()
    serve(settings=settings)
    return 0


# --- triverse arena ------------------------------------------------------------------------------
def cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    from triverse import arena

    try:
        return arena.run(args, out)
    except arena.ArenaError as exc:
        raise CliError(str(exc)) from exc


# --- entry point ---------------------------------------------------------------------------------
COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {
    "games": cmd_games,
    "play": cmd_play,
    "simulate": cmd_simulate,
    "replay": cmd_replay,
    "verify": cmd_verify,
    "serve": cmd_serve,
    "arena": cmd_arena,
}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command of ``argv`` (the process's arguments if None), writing to ``out``;
    in the language of ``--lang``, else of the environment (``LANGUAGE``, ``LC_ALL``, ``LANG``)."""
    set_language(language_arg(argv) or language_from_env())
    args = build_parser().parse_args(argv)
    stream = out if out is not None else sys.stdout
    try:
        return COMMANDS[args.command](args, stream)
    except ReplayError as exc:
        sys.stderr.write(_("triverse replay: {problem}").format(problem=exc) + "\n")
        return 1
    except (CliError, TriverseError) as exc:
        if isinstance(exc, CliError) and exc.whole:
            sys.stderr.write(f"{exc}\n")
        else:
            sys.stderr.write(f"triverse {args.command}: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\n" + _("interrupted") + "\n")
        return 130
