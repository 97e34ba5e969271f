"""``triverse play``: a game in the terminal, against computer players or people at the same
keyboard.

A human's turn shows the board and the legal moves, numbered. A move is typed as it is listed
(in any case and spacing, or the start of it when only one move starts so), by its number, or
in the game's notation. When there are more than :data:`LIST_LIMIT` moves (Triangles' 200-odd
lines, say) the list waits for ``?``: the board (Triangles' star map) and the notation (``3-7``)
are the way to play. A forced draw or pass (the only legal move, when no tile fits) is made for
the player without asking, and what happened is told when a seat's run of moves ends, from the
events' message codes: a turn of seven draws is one line, "You drew 7 tiles (-35)".
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from triverse.ai import make_player
from triverse.ai.basic import Player
from triverse.cli.common import bot_move, level_name, make_game, parse_players
from triverse.core.errors import IllegalActionError, NotationError
from triverse.core.events import Event
from triverse.core.game import Game, State
from triverse.core.messages import CORE_MESSAGES, grouped, render, second_person
from triverse.core.records import PlayerInfo, Record
from triverse.core.rng import fresh_seed
from triverse.i18n import _, game_message, ngettext, pgettext

LIST_LIMIT = 40
"""The most moves listed at every turn; a longer list is shown on ``?``."""

FORCED = ("draw", "pass")
"""The notation of the moves made for a player when they are the only legal one: with nothing
to choose and nothing to place, the board is not shown again for them."""

QUIT = ("q", "quit")
WIDTH = 96
COLUMNS_FROM = 12
"""A list of more moves than this is written in columns, within ``WIDTH`` characters."""
MORE = 5
"""How many of the moves an ambiguous entry fits are named."""


def squeezed(text: str) -> str:
    """``text`` as a typed move is compared: without spaces, in any case.

    >>> squeezed("  Play 1-4-4 at 1,0,  corners:4 1 4 ")
    'play1-4-4at1,0,corners:414'
    """
    return "".join(text.split()).casefold()


def player_names(kinds: Sequence[str]) -> list[PlayerInfo]:
    """The seats' names: "You" for the one human (or "Player 2" among several), and a computer
    by its level ("Computer (average)"; "Computer 3 (average)" when two play at that level)."""
    names = []
    for seat, kind in enumerate(kinds):
        if kind == "human":
            name = (_("You") if kinds.count("human") == 1
                    else _("Player {n}").format(n=seat + 1))
        elif kinds.count(kind) == 1:
            name = _("Computer ({level})").format(level=level_name(kind))
        else:
            name = _("Computer {n} ({level})").format(n=seat + 1, level=level_name(kind))
        names.append(PlayerInfo(name, kind))
    return names


@dataclass
class Table:
    """A game being played in the terminal: its state, its seats and what is still to be told."""

    game: Game[Any, Any]
    state: State[Any]
    players: list[PlayerInfo]
    bots: list[Player | None]
    seed: int
    out: TextIO
    read: Callable[[str], str]
    pending: list[Event | str] = field(default_factory=list)
    """What happened since it was last told: events, and lines for moves that made none."""

    def write(self, text: str = "") -> None:
        self.out.write(text + "\n")

    @property
    def humans(self) -> list[int]:
        return [seat for seat, bot in enumerate(self.bots) if bot is None]

    def play(self) -> bool:
        """Play to the end: False when a player quits."""
        state = self.state
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            action = self.next_action(seat)
            if action is None:
                self.tell()
                return False
            described = state.describe_action(action)
            events = state.apply(action)
            if self.lines(events):
                self.pending.extend(events)
            else:
                self.pending.append(_("{name}: {move}").format(name=self.players[seat].name,
                                                               move=described))
            if state.is_terminal() or state.current_player != seat:
                self.tell()
        return True

    def next_action(self, seat: int) -> Any | None:
        """The move of ``seat``: its computer player's, a forced draw or pass, or the one typed
        (None when the player quits)."""
        bot = self.bots[seat]
        if bot is not None:
            return bot_move(self.game, self.state, bot, self.seed, seat)
        legal = self.state.legal_action_list()
        if len(legal) == 1 and str(legal[0]).casefold() in FORCED:
            return legal[0]
        self.tell()
        return Prompt(self, seat, legal).ask()

    def tell(self) -> None:
        """Write what happened since last time, a run of one player's draws as one line."""
        run: list[Event] = []
        for item in [*self.pending, ""]:
            if isinstance(item, Event):
                run.append(item)
                continue
            for line in self.lines(run):
                self.write(f"    {line}")
            run = []
            if item:
                self.write(f"    {item}")
        self.pending = []

    def lines(self, events: Sequence[Event]) -> list[str]:
        """The events in words, from their message codes (the drawn tiles or cards to their
        own player only)."""
        lines = []
        names = [p.name for p in self.players]
        for event in grouped(events):
            if not event.label:
                continue
            who = names[event.player] if event.player is not None else ""
            you = len(self.humans) == 1 and event.player in self.humans  # "You drew 3 tiles"
            text = say(self.game, event.code, event.params, who=who, points=event.points,
                       names=names, you=you)
            if not text:  # said by another line (a placing line's total)
                continue
            if event.secret and event.player in self.humans:
                text = _("{event}: {secret}").format(
                    event=text, secret=secret_words(event.secret, self.game.name))
            lines.append(text)
        return lines

    def standings(self) -> None:
        result = self.state.result()
        self.write()
        self.write(_("Final standings:"))
        order = sorted(range(self.game.num_players), key=lambda s: (result.ranks[s], s))
        for seat in order:
            self.write(_("  {rank}. {name}: {score}").format(
                rank=result.ranks[seat], name=self.players[seat].name, score=result.scores[seat]))


def words_of(text: str) -> set[str]:
    """The words of ``text``, as ``? WORDS`` compares them.

    >>> sorted(words_of("Line 3-17")), words_of("? 3") <= words_of("line 3-17")
    (['17', '3', 'line'], True)
    """
    return set(re.findall(r"\w+", text.casefold()))


def columns(items: Sequence[str], width: int = WIDTH) -> list[str]:
    """``items`` in as many columns as fit ``width``, read down each column.

    >>> columns(["1. a", "2. b", "3. c"], 14)
    ['1. a   3. c', '2. b']
    """
    cell = max(map(len, items)) + 3
    rows = -(-len(items) // max(1, width // cell))
    return ["".join(item.ljust(cell) for item in items[row::rows]).rstrip()
            for row in range(rows)]


def say(game: Game[Any, Any], code: str, params: Mapping[str, Any], *, who: str = "",
        points: int = 0, names: Sequence[str] | None = None, you: bool = False) -> str:
    """A message of ``game`` in the current language: its template translated (the context
    ``"<game>:<code>"``, the plural form for ``count``) and the names it shows (a card's, context
    ``"<game>:name"``), then filled in by :func:`~triverse.core.messages.render`. With ``you``,
    it is said to its own player ("You drew a tile") where the template has that form."""
    english = {**CORE_MESSAGES, **game.messages}
    template = (second_person(code, english) if you else None) or english.get(code)
    if template is None:
        return render(code, params, english, who=who, points=points, names=names)
    count = params.get("count")
    templates = {code: game_message(game.name, code, template,
                                    count if isinstance(count, int) else None) if template else ""}
    names_context = names_context_of(game.name)
    for value in _strings(params.values()):
        name = english.get(f"name:{value}")
        if name is not None:
            templates[f"name:{value}"] = pgettext(names_context, name)
    return render(code, params, templates, who=who, points=points, names=names)


def names_context_of(game: str) -> str:
    """The gettext context of the names a game's messages show (Trivinity's cards).

    >>> names_context_of("trivinity")
    'trivinity:name'
    """
    return game + ":name"


def _strings(values: Iterable[Any]) -> Iterator[str]:
    for value in values:
        if isinstance(value, str):
            yield value
        elif isinstance(value, list | tuple):
            yield from _strings(value)


def secret_words(secret: Mapping[str, Any], game: str) -> str:
    """What a player alone may see, as a list: the cards' names (context ``"<game>:name"``), or
    the tiles.

    >>> secret_words({"cards": [4, 9], "names": ["Oracle", "Mana"]}, "trivinity")
    'Oracle, Mana'
    >>> secret_words({"tile": ["1-2-3", "0-0-4"]}, "triominoes")
    '1-2-3, 0-0-4'
    """
    if "names" in secret:
        context = names_context_of(game)
        return ", ".join(pgettext(context, name) for name in _strings(secret["names"]))
    flat = [v for value in secret.values() for v in (value if isinstance(value, list) else [value])]
    return ", ".join(map(str, flat))


class Prompt:
    """A human's turn: the board, the moves (or how to list them), and the move typed."""

    def __init__(self, table: Table, seat: int, legal: list[Any]) -> None:
        self.table = table
        self.seat = seat
        self.legal = legal
        self.shown = False
        self._described: list[str] | None = None

    @property
    def described(self) -> list[str]:
        """Each legal move as the list shows it."""
        if self._described is None:
            self._described = [self.table.state.describe_action(a) for a in self.legal]
        return self._described

    def ask(self) -> Any | None:
        """The move typed, or None when the player quits."""
        table = self.table
        table.write()
        table.write(table.game.render_text(table.state.observation(self.seat)))
        name = table.players[self.seat].name
        table.write(_("Your move:") if len(table.humans) == 1
                    else _("{name}, your move:").format(name=name))
        if len(self.legal) <= LIST_LIMIT:
            self.show()
        else:
            table.write(ngettext("{n} legal move: ? lists it.",
                                 "{n} legal moves: ? lists them, ? 3 only those with a 3.",
                                 len(self.legal)).format(n=len(self.legal)))
        while True:
            try:
                text = table.read("> ").strip()
            except EOFError:
                text = "q"
            if text.casefold() in QUIT:
                return None
            if text.startswith("?"):
                self.show(text[1:].strip())
                continue
            action, problem = self.find(text)
            if action is not None:
                return action
            table.write(problem)

    def show(self, words: str = "") -> None:
        """List the moves, numbered (in columns when there are many); with ``words``, only
        those that have each of these words (``? 3``: Triangles' lines from star 3)."""
        wanted = words_of(words)
        items = [f"{number:>3}. {text}" for number, text in enumerate(self.described, 1)
                 if wanted <= words_of(text)]
        if not items:
            self.table.write(_("No legal move has {words}.").format(words=words))
            return
        for line in columns(items) if len(items) > COLUMNS_FROM else items:
            self.table.write(f"  {line}")
        self.shown = True

    def find(self, text: str) -> tuple[Any | None, str]:
        """The legal move ``text`` means, or None and what is wrong: by its number, as it is
        listed, in notation, or by the start of one listed move."""
        if not text:
            return None, _("Type a move, ? to list the moves, or q to quit.")
        if text.isdigit():
            return self.by_number(int(text))
        key = squeezed(text)
        for action, described in zip(self.legal, self.described, strict=True):
            if squeezed(described) == key:
                return action, ""
        try:
            return self.table.state.parse_action(text), ""
        except IllegalActionError as exc:
            return None, _("Not possible: {reason}").format(
                reason=say(self.table.game, exc.code, exc.params))
        except NotationError as exc:
            refused = str(exc)
        starting = [i for i, described in enumerate(self.described)
                    if squeezed(described).startswith(key)]
        if len(starting) == 1:
            return self.legal[starting[0]], ""
        if starting:
            moves = "; ".join(self.described[i] for i in starting[:MORE])
            return None, ngettext("{text} fits {n} move: {moves}",
                                  "{text} fits {n} moves: {moves}", len(starting)).format(
                text=repr(text), n=len(starting), moves=moves + ("; ..." if len(starting) > MORE
                                                                else ""))
        return None, _("Not possible: {reason}").format(reason=refused)

    def by_number(self, number: int) -> tuple[Any | None, str]:
        """The move numbered ``number`` in the list, once the list is shown."""
        if not 1 <= number <= len(self.legal):
            return None, _("Choose a number from 1 to {n}.").format(n=len(self.legal))
        if not self.shown:
            return None, _("? lists the moves; then choose one by its number.")
        return self.legal[number - 1], ""


def cmd_play(args: argparse.Namespace, out: TextIO, read: Callable[[str], str] = input) -> int:
    """``triverse play``: a game in the terminal, saved at its end when asked."""
    kinds = parse_players(args.players)
    game = make_game(args.game, len(kinds), args.option)
    seed = args.seed if args.seed is not None else fresh_seed()
    bots = [None if kind == "human" else make_player(kind) for kind in kinds]
    table = Table(game, game.new_initial_state(seed=seed), player_names(kinds), bots, seed, out,
                  read)
    table.write(_("{game}: {players}. Seed {seed}.").format(
        game=pgettext("game", game.title), players=", ".join(p.name for p in table.players),
        seed=seed))
    table.write(_("Type a move as it is listed, its number or its notation; ? lists the moves, "
                  "q quits."))
    finished = table.play()
    if finished:
        table.standings()
    if args.save:
        Record.from_state(table.state, table.players).save(args.save)
        table.write(_("Record saved to {path}").format(path=args.save))
    if not finished:
        table.write(_("Game abandoned."))
    return 0
