"""The ``triverse`` command: play in the terminal, simulate bot games, replay records.

    triverse games
    triverse play triominoes --players human,average
    triverse simulate triominoes --players novice,average --games 100 --seed 1 --json
    triverse replay game.json
    triverse arena triominoes --players veteran,average --games 400 --jobs 2

Every command takes game options as ``--option NAME=VALUE`` (repeatable), with the same names as
the records and the web New Game dialog.
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

from triverse import __version__
from triverse.ai import make_player
from triverse.ai.basic import Player
from triverse.core.errors import IllegalActionError, NotationError, TriverseError
from triverse.core.game import Game, State
from triverse.core.messages import grouped, render
from triverse.core.options import OptionSpec, parse_option_args
from triverse.core.records import PLAYER_KINDS, PlayerInfo, Record, ReplayError, replay
from triverse.core.rng import derive, fresh_seed
from triverse.games import available_games, game_class, load_game
from triverse.progress import Progress

SERVER_PACKAGES = ("fastapi", "uvicorn", "websockets", "sqlalchemy", "alembic", "platformdirs")
"""What ``triverse serve`` needs beyond the engines: the ``server`` extra."""


class CliError(Exception):
    """A problem with the command line, printed without a traceback (after ``triverse
    COMMAND:`` unless ``whole``)."""

    def __init__(self, message: str, *, whole: bool = False) -> None:
        super().__init__(message)
        self.whole = whole


# --- shared helpers ------------------------------------------------------------------------------
def _parse_players(text: str) -> list[str]:
    kinds = [p.strip() for p in text.split(",") if p.strip()]
    if not kinds:
        raise CliError("--players needs one entry per seat, e.g. human,average")
    for kind in kinds:
        if kind not in PLAYER_KINDS:
            raise CliError(f"--players: {kind!r} is not one of {', '.join(PLAYER_KINDS)}")
    return kinds


def _make_game(name: str, seats: int, option_args: Sequence[str]) -> Game[Any, Any]:
    return load_game(name, seats, **parse_option_args(option_args))


def _player_names(kinds: Sequence[str]) -> list[PlayerInfo]:
    names = []
    for seat, kind in enumerate(kinds):
        label = "You" if kind == "human" and kinds.count("human") == 1 else f"Player {seat + 1}"
        if kind != "human":
            label = f"{kind.capitalize()} {seat + 1}"
        names.append(PlayerInfo(label, kind))
    return names


def _bot_move(
    game: Game[Any, Any], state: State[Any], bot: Player, seed: int, seat: int
) -> Any:
    rng = derive(seed, "bot", seat, state.move_number)
    return bot.choose(game, state.observation(seat), rng)


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
        return f"{spec.name}: {'yes' if default else 'no'}"
    text = f"{spec.name}: {default}"
    if spec.choices:
        others = [str(c) for c in spec.choices if c != default]
        return f"{text} (or {', '.join(others)})" if others else text
    if spec.minimum is not None and spec.maximum is not None:
        return f"{text} ({spec.minimum} to {spec.maximum})"
    if spec.minimum is not None:
        return f"{text} (at least {spec.minimum})"
    if spec.maximum is not None:
        return f"{text} (at most {spec.maximum})"
    return text


def cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    table = Table(show_lines=True)
    table.add_column("game", ratio=3)
    table.add_column("players", no_wrap=True)
    table.add_column("options: --option NAME=VALUE", ratio=2)
    for name in available_games():
        cls = game_class(name)
        game = f"[bold]{name}[/bold]: {cls.title}\n[dim]{cls.summary}[/dim]"
        options = "\n".join(_option_words(spec) for spec in cls.option_specs)
        table.add_row(game, _players_range(cls.min_players, cls.max_players), options)
    _console(out).print(table)
    return 0


# --- triverse play -------------------------------------------------------------------------------
def cmd_play(
    args: argparse.Namespace, out: TextIO, read: Callable[[str], str] = input
) -> int:
    kinds = _parse_players(args.players)
    game = _make_game(args.game, len(kinds), args.option)
    seed = args.seed if args.seed is not None else fresh_seed()
    state = game.new_initial_state(seed=seed)
    bots: list[Player | None] = [None if kind == "human" else make_player(kind) for kind in kinds]
    players = _player_names(kinds)
    out.write(f"{game.title}: {', '.join(p.name for p in players)}. Seed {seed}.\n")
    out.write("Type a number from the list or an action in notation; 'q' quits.\n")
    human_seats = [seat for seat, kind in enumerate(kinds) if kind == "human"]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        bot = bots[seat]
        if bot is not None:
            action = _bot_move(game, state, bot, seed, seat)
            out.write(f"{players[seat].name}: {state.describe_action(action)}\n")
            events = state.apply(action)
            _write_events(game, events, players, human_seats, out)
            continue
        out.write("\n" + game.render_text(state.observation(seat)) + "\n")
        legal = state.legal_action_list()
        out.write(f"{players[seat].name}, your move:\n")
        for number, action in enumerate(legal, 1):
            out.write(f"  {number:>3}. {state.describe_action(action)}\n")
        while True:
            try:
                text = read("> ").strip()
            except EOFError:
                text = "q"
            if text.lower() in ("q", "quit"):
                _offer_save(state, players, args.save, out)
                out.write("Game abandoned.\n")
                return 0
            try:
                if text.isdigit():
                    index = int(text)
                    if not 1 <= index <= len(legal):
                        out.write(f"Choose a number from 1 to {len(legal)}.\n")
                        continue
                    action = legal[index - 1]
                else:
                    action = state.parse_action(text)
            except (NotationError, IllegalActionError) as exc:
                out.write(f"Not possible: {_refusal(game, exc)}\n")
                continue
            break
        events = state.apply(action)
        _write_events(game, events, players, human_seats, out)
    result = state.result()
    out.write("\nFinal standings:\n")
    order = sorted(range(game.num_players), key=lambda s: (result.ranks[s], s))
    for seat in order:
        out.write(f"  {result.ranks[seat]}. {players[seat].name}: {result.scores[seat]}\n")
    _offer_save(state, players, args.save, out)
    return 0


def _write_events(
    game: Game[Any, Any],
    events: Sequence[Any],
    players: Sequence[PlayerInfo],
    viewers: Sequence[int],
    out: TextIO,
) -> None:
    """Each event in words, from its message code; a run of one player's draws is one line."""
    for event in grouped(events):
        if not event.label:
            continue
        who = players[event.player].name if event.player is not None else ""
        text = render(event.code, event.params, game.messages, who=who, points=event.points,
                      names=[p.name for p in players])
        if not text:  # said by another line (a placing line's total)
            continue
        secret = ""
        if event.secret is not None and event.player in viewers:
            secret = " (" + "; ".join(f"{k} {_listed(v)}" for k, v in event.secret.items()) + ")"
        out.write(f"    {text}{secret}\n")


def _refusal(game: Game[Any, Any], exc: NotationError | IllegalActionError) -> str:
    """Why an action typed is refused: a rules refusal from its message code."""
    if isinstance(exc, IllegalActionError):
        return render(exc.code, exc.params, game.messages)
    return str(exc)


def _listed(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def _offer_save(
    state: State[Any], players: Sequence[PlayerInfo], path: str | None, out: TextIO
) -> None:
    if path:
        Record.from_state(state, players).save(path)
        out.write(f"Record saved to {path}\n")


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
    game = _make_game(name, n, option_args)
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
            state.apply(_bot_move(game, state, bots[seat], game_seed, seat))
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
    kinds = _parse_players(args.players)
    if "human" in kinds:
        raise CliError("simulate plays computer players only: novice or average")
    if args.games < 1:
        raise CliError("--games must be at least 1")
    seed = args.seed if args.seed is not None else fresh_seed()
    # A bar on a terminal only; a --json run shows none, so its output is the JSON alone.
    with Progress(args.games, None if args.json else sys.stderr, lines=False) as progress:
        summary = simulate(args.game, kinds, args.games, seed, args.option,
                           Path(args.records) if args.records else None, progress)
    data = summary.to_json()
    if args.json:
        out.write(json.dumps(data, indent=1) + "\n")
        return 0
    out.write(f"{args.games} games of {args.game}, seed {seed}, seats rotated\n")
    table = Table("player", "wins", "win rate", "average score")
    for column in table.columns[1:]:
        column.justify = "right"
    for entry, kind in enumerate(kinds):
        table.add_row(f"{kind} #{entry + 1}", f"{data['wins'][entry]:.1f}",
                      f"{data['win_rates'][entry]:.1%}", f"{data['average_scores'][entry]:.1f}")
    _console(out).print(table)
    out.write(f"draws {summary.draws}; average length {data['average_length']:.1f} actions; "
              f"{summary.seconds:.1f} s\n")
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
    status = "finished" if result else "unfinished"
    checked = "; the recorded result matches" if record.result is not None else ""
    out.write(f"{record.game}: {len(record.actions)} actions replayed, all legal; "
              f"{status}{checked}\n")
    for seat, info in enumerate(record.players):
        place = f"{result.ranks[seat]}. " if result else ""
        out.write(f"  {place}{info.name} ({info.kind}): {state.scores[seat]}\n")
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


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    missing = _missing_server_packages()
    if missing:
        raise CliError("triverse serve needs the server extra: pip install 'triverse[server]' "
                       f"(missing: {', '.join(missing)})", whole=True)
    from triverse.server import address, serve  # the web stack loads only for this command
    from triverse.server.config import settings_with
    from triverse.server.preflight import (
        CannotStart,
        check_database,
        check_port,
        where_games_are_kept,
    )

    # The flags override the TRIVERSE_* environment variables (docs/server.md).
    settings = settings_with(host=args.host, port=args.port, db_url=args.db)
    url = address(settings.host, settings.port)
    try:
        check_port(settings.host, settings.port, url)
        check_database(settings.db_url)
    except CannotStart as exc:
        raise CliError(str(exc)) from None
    out.write(f"Games are kept in {where_games_are_kept(settings.db_url)}\n")
    out.write(f"Triverse is running at {url} (Ctrl-C stops it)\n")
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
class HelpFormatter(argparse.HelpFormatter):
    """Help that shows each option's default (when there is one to show), lists the commands
    without a metavar line above them, and keeps the lines of indented examples as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = []
        for paragraph in text.split("\n\n"):
            lines = paragraph.splitlines()
            if len(lines) > 1 and all(line.startswith("  ") for line in lines[1:]):
                paragraphs.append("\n".join(indent + line for line in lines))
            else:
                paragraphs.append(super()._fill_text(paragraph, width, indent))
        return "\n\n".join(paragraphs)

    def _format_action(self, action: argparse.Action) -> str:
        if isinstance(action, argparse._SubParsersAction):
            return "".join(self._format_action(command) for command in action._get_subactions())
        return super()._format_action(action)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (not action.option_strings or "%(default)" in text or default is None
                or default is False or default == [] or default == argparse.SUPPRESS):
            return text
        return f"{text} (default: %(default)s)"


EXAMPLES = """\
examples:
  triverse games
  triverse play triominoes --players human,average
  triverse simulate triominoes --players novice,average --games 100 --seed 1 --json
  triverse replay game.json
  triverse arena triominoes --players veteran,average --games 400 --jobs 2
  triverse serve

Game options are --option NAME=VALUE (repeatable); 'triverse games' lists them. 'triverse
COMMAND --help' tells more about each command."""
Subcommands = argparse._SubParsersAction  # the type of add_subparsers()'s result


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser: one subcommand for each of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="triverse", formatter_class=HelpFormatter, epilog=EXAMPLES,
        description="Five 'tri' games: play them in the terminal, let computer players play "
                    "each other, check game records, or run the web server.")
    parser.add_argument("--version", action="version", version=f"triverse {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                title="commands")
    _command(sub, "games", "list the games and their options",
             "List the games, how many players each takes, and their options with defaults.")
    _add_play(sub)
    _add_simulate(sub)
    _add_serve(sub)
    _add_replay(sub)
    _add_arena(sub)
    return parser


def _command(sub: Subcommands[argparse.ArgumentParser], name: str, summary: str,
             description: str) -> argparse.ArgumentParser:
    """Add the subcommand ``name`` (``summary`` in the list, ``description`` in its help)."""
    return sub.add_parser(name, help=summary, description=description,
                          formatter_class=HelpFormatter)


def _add_game_args(p: argparse.ArgumentParser) -> None:
    """The arguments of a command that plays a game: the game, its options and its seed."""
    p.add_argument("game", help=f"one of: {', '.join(available_games())}")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a game option (repeatable; 'triverse games' lists them)")
    p.add_argument("--seed", type=int, help="seed of the game's chance (fresh if omitted)")


def _add_play(sub: Subcommands[argparse.ArgumentParser]) -> None:
    play = _command(sub, "play", "play in the terminal",
                    "Play a game in the terminal, against computer players or people at the "
                    "same keyboard. Moves are chosen by number or typed in notation.")
    _add_game_args(play)
    play.add_argument("--players", default="human,average",
                      help="one entry per seat: human, novice, average or veteran")
    play.add_argument("--save", metavar="FILE", help="save the game's record here at the end")


def _add_simulate(sub: Subcommands[argparse.ArgumentParser]) -> None:
    sim = _command(sub, "simulate", "play computer players against each other",
                   "Play computer players against each other, rotating the seats, and print "
                   "their wins and average scores.")
    _add_game_args(sim)
    sim.add_argument("--players", default="novice,average",
                     help="one entry per seat: novice, average or veteran")
    sim.add_argument("--games", type=int, default=100, help="how many games to play")
    sim.add_argument("--records", metavar="DIR", help="save every game's record here")
    sim.add_argument("--json", action="store_true", help="print a machine-readable summary")


def _add_serve(sub: Subcommands[argparse.ArgumentParser]) -> None:
    srv = _command(sub, "serve", "run the web server",
                   "Run the web server: the lobby, the tables and the rules in a browser. Needs "
                   "the server extra (pip install 'triverse[server]'). Each flag overrides its "
                   "TRIVERSE_* environment variable (docs/server.md).")
    srv.add_argument("--host", help="address to listen on, 0.0.0.0 opens it to the network "
                     "(default: $TRIVERSE_HOST, else 127.0.0.1)")
    srv.add_argument("--port", type=int, help="port to listen on (default: $TRIVERSE_PORT, "
                     "else 8000)")
    srv.add_argument("--db", metavar="URL",
                     help="database URL, sqlite:///FILE or postgresql://USER@HOST/DB "
                          "(default: $TRIVERSE_DB_URL, else triverse.sqlite3 in the user data "
                          "directory; the server prints which)")


def _add_replay(sub: Subcommands[argparse.ArgumentParser]) -> None:
    rep = _command(sub, "replay", "check a record by replaying it",
                   "Replay a game record, checking that every action is legal and that the "
                   "recorded result matches.")
    rep.add_argument("file", help="a record saved by play --save, simulate --records or the "
                                  "web server")
    rep.add_argument("--json", action="store_true", help="print a machine-readable summary")


def _add_arena(sub: Subcommands[argparse.ArgumentParser]) -> None:
    from triverse.arena import add_arguments as add_arena_arguments

    add_arena_arguments(_command(
        sub, "arena", "computer players against each other, with win rates and Elo",
        "Play computer players against each other (in parallel with --jobs), and print win "
        "rates with 95% intervals, average scores and an Elo table."))


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {
    "games": cmd_games,
    "play": cmd_play,
    "simulate": cmd_simulate,
    "replay": cmd_replay,
    "serve": cmd_serve,
    "arena": cmd_arena,
}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    stream = out if out is not None else sys.stdout
    try:
        return COMMANDS[args.command](args, stream)
    except ReplayError as exc:
        sys.stderr.write(f"triverse replay: {exc}\n")
        return 1
    except (CliError, TriverseError) as exc:
        if isinstance(exc, CliError) and exc.whole:
            sys.stderr.write(f"{exc}\n")
        else:
            sys.stderr.write(f"triverse {args.command}: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
