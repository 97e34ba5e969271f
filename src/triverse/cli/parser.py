"""The ``triverse`` command line: its parser, its help in the player's language, and ``--lang``.

The help is built after the language is chosen (:func:`triverse.cli.main` reads ``--lang`` first,
with :func:`language_arg`), so that it is read in that language too.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from triverse import __version__
from triverse.games import available_games
from triverse.i18n import _

LANGUAGE_CODES = ("en", "pl", "fr")
"""What ``--lang`` takes: the languages Triverse speaks."""


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
        return _("{help} (default: %(default)s)").format(help=text)


def examples() -> str:
    """The end of ``triverse --help``: examples, and where to read more."""
    return _("examples:") + """
  triverse games
  triverse play triominoes --players human,average
  triverse simulate triominoes --players novice,average --games 100 --seed 1 --json
  triverse replay game.json
  triverse verify game.json
  triverse arena triominoes --players veteran,average --games 400 --jobs 2
  triverse --lang pl play triominoes
  triverse serve

""" + _("Game options are --option NAME=VALUE (repeatable); 'triverse games' lists them. "
        "'triverse COMMAND --help' tells more about each command.")


Subcommands = argparse._SubParsersAction  # the type of add_subparsers()'s result


def _add_lang(parser: argparse.ArgumentParser, default: str | None) -> None:
    parser.add_argument("--lang", choices=LANGUAGE_CODES, default=default,
                        help=_("the language to speak: en, pl or fr (default: from LANGUAGE, "
                               "LC_ALL or LANG, else English)"))


def language_arg(argv: Sequence[str] | None) -> str | None:
    """The language ``--lang`` asks for, before or after the command, or None; a bad value is
    left for the whole parser to refuse."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang")
    known, _rest = early.parse_known_args(argv)
    lang = known.lang
    return lang if lang in LANGUAGE_CODES else None


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser: one subcommand for each of the commands."""
    parser = argparse.ArgumentParser(
        prog="triverse", formatter_class=HelpFormatter, epilog=examples(),
        description=_("Five 'tri' games: play them in the terminal, let computer players play "
                      "each other, check game records, or run the web server."))
    parser.add_argument("--version", action="version", version=f"triverse {__version__}")
    _add_lang(parser, None)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                title=_("commands"))
    _command(sub, "games", _("list the games and their options"),
             _("List the games, how many players each takes, and their options with defaults."))
    _add_play(sub)
    _add_simulate(sub)
    _add_serve(sub)
    _add_replay(sub)
    _add_verify(sub)
    _add_arena(sub)
    return parser


def _command(sub: Subcommands[argparse.ArgumentParser], name: str, summary: str,
             description: str) -> argparse.ArgumentParser:
    """Add the subcommand ``name`` (``summary`` in the list, ``description`` in its help); it
    takes ``--lang`` too, so that the option may follow the command."""
    command = sub.add_parser(name, help=summary, description=description,
                             formatter_class=HelpFormatter)
    _add_lang(command, argparse.SUPPRESS)
    return command


def _add_game_args(p: argparse.ArgumentParser) -> None:
    """The arguments of a command that plays a game: the game, its options and its seed."""
    p.add_argument("game", help=_("one of: {games}").format(games=", ".join(available_games())))
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help=_("a game option (repeatable; 'triverse games' lists them)"))
    p.add_argument("--seed", type=int, help=_("seed of the game's chance (fresh if omitted)"))


def _add_play(sub: Subcommands[argparse.ArgumentParser]) -> None:
    play = _command(sub, "play", _("play in the terminal"),
                    _("Play a game in the terminal, against computer players or people at the "
                      "same keyboard. A move is typed as it is listed, by its number or in "
                      "notation; ? lists the moves."))
    _add_game_args(play)
    play.add_argument("--players", default="human,average",
                      help=_("one entry per seat: human, novice, average or veteran"))
    play.add_argument("--save", metavar="FILE",
                      help=_("save the game's record here at the end"))


def _add_simulate(sub: Subcommands[argparse.ArgumentParser]) -> None:
    sim = _command(sub, "simulate", _("play computer players against each other"),
                   _("Play computer players against each other, rotating the seats, and print "
                     "their wins and average scores."))
    _add_game_args(sim)
    sim.add_argument("--players", default="novice,average",
                     help=_("one entry per seat: novice, average or veteran"))
    sim.add_argument("--games", type=int, default=100, help=_("how many games to play"))
    sim.add_argument("--records", metavar="DIR", help=_("save every game's record here"))
    sim.add_argument("--json", action="store_true",
                     help=_("print a machine-readable summary"))


def _add_serve(sub: Subcommands[argparse.ArgumentParser]) -> None:
    srv = _command(sub, "serve", _("run the web server"),
                   _("Run the web server: the lobby, the tables and the rules in a browser. "
                     "Needs the server extra (pip install 'triverse[server]'). Each flag "
                     "overrides its TRIVERSE_* environment variable (docs/server.md)."))
    srv.add_argument("--host", help=_("address to listen on, 0.0.0.0 opens it to the network "
                                      "(default: $TRIVERSE_HOST, else 127.0.0.1)"))
    srv.add_argument("--port", type=int, help=_("port to listen on (default: $TRIVERSE_PORT, "
                                                "else 8000)"))
    srv.add_argument("--db", metavar="URL",
                     help=_("database URL, sqlite:///FILE or postgresql://USER@HOST/DB "
                            "(default: $TRIVERSE_DB_URL, else triverse.sqlite3 in the user data "
                            "directory; the server prints which)"))
    srv.add_argument("--redis", metavar="URL",
                     help=_("the Redis that several server processes on one PostgreSQL "
                            "database share, redis://HOST:6379/0 (default: "
                            "$TRIVERSE_REDIS_URL, else none: one process)"))
    srv.add_argument("--workers", type=int, metavar="N",
                     help=_("how many server processes to start on the port; more than one "
                            "needs --redis (default: $TRIVERSE_WORKERS, else 1)"))
    srv.add_argument("--log-json", action="store_true",
                     help=_("write the logs as JSON lines, for a log collector (default: "
                            "$TRIVERSE_LOG_FORMAT, else text)"))


def _add_replay(sub: Subcommands[argparse.ArgumentParser]) -> None:
    rep = _command(sub, "replay", _("check a record by replaying it"),
                   _("Replay a game record, checking that every action is legal and that the "
                     "recorded result matches."))
    rep.add_argument("file", help=_("a record saved by play --save, simulate --records or the "
                                    "web server"))
    rep.add_argument("--json", action="store_true",
                     help=_("print a machine-readable summary"))


def _add_verify(sub: Subcommands[argparse.ArgumentParser]) -> None:
    ver = _command(sub, "verify", _("check a record's shuffle commitment"),
                   _("Check that a finished game's tiles and cards came in the order the "
                     "server committed to at its start: recompute the commitment from the "
                     "seed and salt the record reveals, compare the deal, replay every action "
                     "and draw from the seed, and check the result (docs/records.md). Exit "
                     "status 0 when it holds, 1 when it does not, 2 for a file that is not a "
                     "record."))
    ver.add_argument("file", help=_("a record saved by play --save, simulate --records or the "
                                    "web server"))
    ver.add_argument("--json", action="store_true",
                     help=_("print a machine-readable summary"))


def _add_arena(sub: Subcommands[argparse.ArgumentParser]) -> None:
    from triverse.arena import add_arguments as add_arena_arguments

    add_arena_arguments(_command(
        sub, "arena", _("computer players against each other, with win rates and Elo"),
        _("Play computer players against each other (in parallel with --jobs), and print win "
          "rates with 95% intervals, average scores and an Elo table.")))
