"""Triangles (seed 001): two players draw non-crossing lines between stars; empty triangles score.

The rules, with the seed sentence behind each, are in ``docs/rules/triangles.md``; the notation
is ``a-b`` (``docs/notation.md``). A board is a :class:`~.board.Board` (the candidate
lines and empty triangles of one star cloud, computed once and shared); a state keeps two
bitmasks over it (the lines drawn, the lines legal) and a cursor over its empty triangles, kept
up to date line by line, so cloning is cheap.

>>> game = TrianglesGame(options={"stars": 24})
>>> state = game.new_initial_state(setup={"stars": [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]})
>>> for text in ["0-1", "1-2", "2-3", "0-3"]:
...     _ = state.apply_notation(text)
>>> [e.label for e in state.apply_notation("0-2")]     # the diagonal closes two triangles
['Line 0-2', 'Triangle +1', 'Triangle +1', 'Game over: Player 1 wins 2-0']
>>> state.illegal_reason(Line(1, 3))
'crosses a line: 1-3 would cross 0-2'
>>> state.is_terminal(), state.result().winners
(True, (0,))
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

from triverse.core.errors import IllegalActionError, NotationError, OptionError, RecordError
from triverse.core.events import Event
from triverse.core.game import Game, Observation, State
from triverse.core.messages import Reason
from triverse.core.options import OptionSpec
from triverse.games.triangles.action import Line, id_pair, pair_id
from triverse.games.triangles.board import Board, board_for
from triverse.games.triangles.cloud import (
    AGAIN_LABELS,
    BOARDS,
    DEVICE_LABELS,
    PHONE_STARS,
    STAR_COUNTS,
    STAR_LABELS,
    BoardSpec,
    generate_stars,
)
from triverse.games.triangles.geometry import Point, segments_cross
from triverse.games.triangles.messages import MESSAGES
from triverse.games.triangles.observation import TrianglesObservation

_LINE = re.compile(r"\s*([0-9]+)\s*[-\u2013]\s*([0-9]+)\s*")
"""Two star numbers joined by a hyphen (or the en dash the seed writes: ``B–D``)."""


def _bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of ``mask``, lowest first.

    >>> list(_bits(0b101001))
    [0, 3, 5]
    """
    text = bin(mask)[:1:-1]
    i = text.find("1")
    while i >= 0:
        yield i
        i = text.find("1", i + 1)


def _seat(player: int) -> str:
    return f"Player {player + 1}"


# --- the game ------------------------------------------------------------------------------------
class TrianglesGame(Game["TrianglesState", Line]):
    """Triangles for two players on one of six boards; see ``docs/rules/triangles.md``.

    Options: ``stars`` (24, 60, 80, 120 or 180), ``device`` (``auto``, ``phone``, ``tablet``:
    ``auto`` is a phone for 24, 60 and 120 stars, a tablet for 80 and 180; it is resolved, so
    ``game.options["device"]`` is always ``phone`` or ``tablet``), and ``again`` ("play again
    after a triangle", off by default).

    >>> TrianglesGame(options={"stars": "180"}).board_name
    'tablet-180'
    >>> TrianglesGame(options={"stars": 120, "device": "tablet"}).options
    {'stars': 120, 'device': 'tablet', 'again': False}
    >>> TrianglesGame(options={"stars": 80, "device": "phone"})
    Traceback (most recent call last):
    ...
    triverse.core.errors.OptionError: a phone board has 24, 60 or 120 stars, not 80
    """

    name = "triangles"
    title = "Triangles"
    messages = MESSAGES
    summary = (
        "Two players draw non-crossing lines between the stars of a random cloud; closing an "
        "empty triangle scores."
    )
    min_players = 2
    max_players = 2
    default_players = 2
    perfect_information = True
    option_specs = (
        OptionSpec("stars", int, 24, "Stars on the board: 24, 60 or 120 on a phone; 80, 120 "
                   "or 180 on a tablet", choices=STAR_COUNTS, label="Stars",
                   choice_labels=STAR_LABELS),
        OptionSpec(
            "device", str, "auto",
            "The board's shape: phone or tablet (auto: phone for 24, 60 and 120 stars, "
            "tablet for 80 and 180)",
            choices=("auto", "phone", "tablet"), label="Board shape", choice_labels=DEVICE_LABELS,
        ),
        OptionSpec("again", bool, False, "Play again after a triangle",
                   label="Play again after a triangle", choice_labels=AGAIN_LABELS),
    )

    def __init__(self, players: int | None = None, options: Mapping[str, object] | None = None):
        super().__init__(players, options)
        stars = int(self.options["stars"])
        device = str(self.options["device"])
        if device == "auto":
            device = "phone" if stars in PHONE_STARS else "tablet"
        name = f"{device}-{stars}"
        if name not in BOARDS:
            sizes = ", ".join(str(s.stars) for s in BOARDS.values() if s.device == device)
            sizes = " or ".join(sizes.rsplit(", ", 1))
            raise OptionError(f"a {device} board has {sizes} stars, not {stars}")
        self.options = {**self.options, "device": device}
        self.spec: BoardSpec = BOARDS[name]

    @property
    def board_name(self) -> str:
        """``"phone-24"`` ... ``"tablet-180"``."""
        return self.spec.name

    @property
    def num_stars(self) -> int:
        """The board's number of stars (an explicit setup may have fewer)."""
        return self.spec.stars

    @property
    def again(self) -> bool:
        return bool(self.options["again"])

    # --- states ------------------------------------------------------------------------------
    def _initial_state(self, seed: int, setup: Mapping[str, Any] | None) -> TrianglesState:
        if setup is None:
            board = board_for(generate_stars(seed, self.spec), self.spec.tolerance)
            return TrianglesState(self, seed, board, None)
        stars, tolerance = self._check_setup(setup)
        canonical = {"stars": [list(p) for p in stars], "tolerance": tolerance}
        return TrianglesState(self, seed, board_for(stars, tolerance), canonical)

    def _check_setup(self, setup: Mapping[str, Any]) -> tuple[tuple[Point, ...], int]:
        """The stars and tolerance of an explicit setup, checked; :class:`RecordError` if bad."""
        unknown = sorted(set(setup) - {"stars", "tolerance"})
        if unknown:
            raise RecordError(f"setup: unknown field {unknown[0]!r}; a Triangles setup has "
                              "'stars' and optionally 'tolerance'")
        raw = setup.get("stars")
        if not isinstance(raw, (list, tuple)):
            raise RecordError("setup: 'stars' must be a list of [x, y] pairs of whole numbers")
        spec = self.spec
        if not 3 <= len(raw) <= spec.stars:
            raise RecordError(f"setup: {len(raw)} stars; a {spec.name} board takes 3 to "
                              f"{spec.stars}")
        stars: list[Point] = []
        seen: dict[Point, int] = {}
        for i, item in enumerate(raw):
            if (
                not isinstance(item, (list, tuple))
                or len(item) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
            ):
                raise RecordError(f"setup: star {i} is {item!r}, not an [x, y] pair of whole "
                                  "numbers")
            x, y = item
            if not (0 <= x <= spec.width and 0 <= y <= spec.height):
                raise RecordError(f"setup: star {i} at [{x}, {y}] is off the {spec.name} board "
                                  f"(x 0 to {spec.width}, y 0 to {spec.height})")
            if (x, y) in seen:
                raise RecordError(f"setup: star {i} at [{x}, {y}] is star {seen[x, y]} again")
            seen[x, y] = i
            stars.append((x, y))
        tolerance = setup.get("tolerance", spec.tolerance)
        if not isinstance(tolerance, int) or isinstance(tolerance, bool) or not (
            0 <= tolerance <= 1000
        ):
            raise RecordError(f"setup: 'tolerance' is a whole number of board units from 0 to "
                              f"1000, not {tolerance!r}")
        return tuple(stars), tolerance

    def parse_action(self, text: str) -> Line:
        """``a-b`` with star numbers, in either order (an en dash ``–`` also joins them).

        >>> TrianglesGame().parse_action(" 17 - 3 "), TrianglesGame().parse_action("3–17")
        (Line(a=3, b=17), Line(a=3, b=17))
        >>> TrianglesGame().parse_action("3 17")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        triverse.core.errors.NotationError: a line is written a-b ..., like 3-17; not '3 17'
        """
        match = _LINE.fullmatch(text)
        if match is None:
            raise NotationError(
                f"a line is written a-b with two star numbers, like 3-17; not {text!r}"
            )
        return Line(int(match[1]), int(match[2]))

    def determinize(self, observation: Any, rng: random.Random) -> TrianglesState:
        """An exact copy of the observed state (nothing is hidden; ``rng`` is not used).

        With the observation's private snapshot this is a clone; an observation read back from
        JSON is replayed line by line on its stars instead, and must agree with its own scores
        and triangles. The observation holds no seed, so such a copy's seed is 0.
        """
        if not isinstance(observation, TrianglesObservation):
            raise TypeError(f"not a Triangles observation: {observation!r}")
        if observation.max_stars != self.num_stars or observation.again != self.again:
            raise ValueError(f"the observation is of another game than {self!r}")
        snapshot = observation.snapshot
        if snapshot is not None and snapshot.game == self:
            copy = snapshot.clone()
            copy.game = self
            return copy
        if observation.board != self.board_name:
            raise ValueError(f"the observation is of a {observation.board} board, not "
                             f"{self.board_name}")
        try:
            stars, tolerance = self._check_setup({"stars": [list(p) for p in observation.stars],
                                                  "tolerance": observation.tolerance})
        except RecordError as exc:
            raise ValueError(f"the observation's stars are not a board: {exc}") from None
        setup = {"stars": [list(p) for p in stars], "tolerance": tolerance}
        # The observation has the stars, not the seed: the copy is built on them (its seed,
        # which no later chance uses, is 0; a generated board stays one with no setup).
        state = TrianglesState(self, 0, board_for(stars, tolerance),
                               setup if observation.custom else None)
        for a, b, player in observation.lines:
            if state.current_player != player:
                raise ValueError(f"line {a}-{b} is Player {player + 1}'s, but it was "
                                 f"{state.current_player}'s turn")
            state.apply(Line(a, b))
        if tuple(state.scores) != observation.scores or (
            state.observation(None).triangles != observation.triangles
        ):
            raise ValueError("the observation's scores or triangles do not follow from its lines")
        return state

    # --- integer ids -------------------------------------------------------------------------
    @property
    def num_distinct_actions(self) -> int:
        """One id per pair of stars: ``N(N-1)/2``."""
        n = self.num_stars
        return n * (n - 1) // 2

    @property
    def max_game_length(self) -> int:
        """``3N - 6``: the drawn lines never cross, so they form a planar straight-line graph on
        the ``N`` stars, which has at most ``3N - 6`` edges."""
        return 3 * self.num_stars - 6

    @property
    def tensor_size(self) -> int:
        """``2N + N(N-1) + 4`` (see :meth:`TrianglesObservation.to_tensor`)."""
        n = self.num_stars
        return 2 * n + n * (n - 1) + 4

    @property
    def min_score(self) -> int:
        return 0

    @property
    def max_score(self) -> int:
        """A triangulation of ``N`` points has at most ``2N - 5`` triangles."""
        return 2 * self.num_stars - 5

    # --- text --------------------------------------------------------------------------------
    def render_text(self, observation: Observation) -> str:
        from triverse.games.triangles.text import render

        if not isinstance(observation, TrianglesObservation):
            raise TypeError(f"not a Triangles observation: {observation!r}")
        return render(observation)

    def describe_action(self, action: Line) -> str:
        """A line in words.

        >>> TrianglesGame().describe_action(Line(3, 17))
        'line 3-17'
        """
        return f"line {action}"


# --- the state -----------------------------------------------------------------------------------
class TrianglesState(State[Line]):
    """A position: the lines drawn, the triangles closed, and what can still be drawn.

    Bitmasks over the board's candidate lines: ``_drawn``, and ``_legal`` (the candidates neither
    drawn nor crossed by a drawn line; a new line removes ``board.crossing(line)``). An empty
    triangle is *alive* while it is not closed and each side is drawn or legal. Lines never
    disappear, so a triangle that is not alive never becomes alive again; and the missing sides
    of an alive one can always all be drawn (sides of one triangle never cross each other), so
    it can still be closed and scored. The game is over exactly when no triangle is alive:
    ``_first_alive`` is a cursor over the board's triangles that only moves forward.
    """

    game: TrianglesGame

    def __init__(
        self, game: TrianglesGame, seed: int, board: Board, setup: dict[str, Any] | None
    ) -> None:
        super().__init__(game, seed)
        self.game = game
        self.board = board
        self._setup = setup
        self._legal = (1 << board.num_candidates) - 1
        self._drawn = 0
        self._lines: list[tuple[int, int]] = []
        """(candidate, player) in the order drawn."""
        self._closed: list[tuple[int, int]] = []
        """(empty triangle, player) in the order closed."""
        self._first_alive = 0  # at the start every empty triangle can be closed
        """Every empty triangle before this one is closed or can never be closed (a side was
        crossed before it was drawn); this one can still be closed. Both facts are permanent
        (lines are never removed), so the cursor only moves forward; at the end, no triangle
        can be scored any more and the game is over."""
        self._to_move = 0

    # --- queries -----------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.is_terminal() else self._to_move

    def is_terminal(self) -> bool:
        return self._first_alive == len(self.board.triangles)

    def scorable_triangles(self) -> list[tuple[int, int, int]]:
        """The empty triangles that can still be closed and scored (none: the game is over).

        A scan of the board's empty triangles, for tests and tools; play uses a cursor.
        """
        out = []
        t, end = self._first_alive, len(self.board.triangles)
        while t < end:
            out.append(self.board.triangles[t])
            t = self._next_alive(t + 1)
        return out

    def legal_actions(self) -> Iterator[Line]:
        """The legal lines, in the order of their action ids."""
        if self.is_terminal():
            return
        lines = self.board.lines
        for i in _bits(self._legal):
            yield lines[i]

    def num_legal_actions(self) -> int:
        return 0 if self.is_terminal() else self._legal.bit_count()

    def illegal_reason(self, action: Line) -> str | None:
        a, b = action.a, action.b
        board = self.board
        n = board.n
        for star in (a, b):
            if star >= n:
                return Reason(f"no such star: {star} (the stars are 0 to {n - 1})",
                              "refused.no_such_star", star=star, last=n - 1)
        if a == b:
            return Reason(f"a line joins two different stars: {a}-{b} joins star {a} to itself",
                          "refused.same_star", star=a)
        i = board.candidate(a, b)
        if i is None:
            blocker = board.blocker(a, b)
            return Reason(f"passes through a star: {a}-{b} passes star {blocker}",
                          "refused.passes_star", line=f"{a}-{b}", star=blocker)
        if (self._drawn >> i) & 1:
            owner = next(p for j, p in self._lines if j == i)
            return Reason(f"already drawn: {a}-{b} is {_seat(owner)}'s line",
                          "refused.already_drawn", line=f"{a}-{b}", owner=owner)
        if (self._legal >> i) & 1:
            return None
        stars = board.stars
        for j, _ in self._lines:
            c, d = board.pair(j)
            if segments_cross(stars[a], stars[b], stars[c], stars[d]):
                return Reason(f"crosses a line: {a}-{b} would cross {c}-{d}", "refused.crosses",
                              line=f"{a}-{b}", other=f"{c}-{d}")
        raise AssertionError(f"{a}-{b} is neither legal nor refused")  # pragma: no cover

    def lines(self) -> list[tuple[Line, int]]:
        """The lines drawn, with who drew each, in order."""
        board = self.board
        return [(board.lines[i], p) for i, p in self._lines]

    def closed_triangles(self) -> list[tuple[tuple[int, int, int], int]]:
        """The triangles closed (stars in increasing order), with who closed each, in order."""
        return [(self.board.triangles[t], p) for t, p in self._closed]

    # --- applying a line -----------------------------------------------------------------------
    def _apply(self, action: Line) -> list[Event]:
        board = self.board
        i = board.candidate(action.a, action.b)
        assert i is not None
        player = self._to_move
        text = str(action)
        events = [Event("line", player, 0, f"Line {text}", {"a": action.a, "b": action.b},
                        None, "line", {"line": text})]
        drawn = self._drawn | (1 << i)
        legal = self._legal & ~(board.crossing(i) | (1 << i))
        self._drawn, self._legal = drawn, legal
        self._lines.append((i, player))
        closed = 0
        triangles = board.triangles
        for t in self._closing(i, drawn):
            closed += 1
            self._closed.append((t, player))
            events.append(self._score(player, 1, "triangle", "Triangle +1", code="triangle",
                                      params={"stars": list(triangles[t])},
                                      stars=list(triangles[t])))
        self._first_alive = self._next_alive(self._first_alive)
        if self._first_alive == len(triangles):
            scores = list(self.scores)
            if scores[0] == scores[1]:
                label = f"Game over: a draw {scores[0]}-{scores[1]}"
                winners = [0, 1]
            else:
                w = 0 if scores[0] > scores[1] else 1
                label = f"Game over: {_seat(w)} wins {scores[w]}-{scores[1 - w]}"
                winners = [w]
            events.append(Event("game_end", None, 0, label,
                                {"scores": scores, "winners": winners},
                                code="game_over", params={"winners": winners, "scores": scores}))
        elif closed and self.game.again:
            events.append(Event("again", player, 0, "Plays again after a triangle",
                                code="again"))
        else:
            self._to_move = 1 - player
        return events

    def _closing(self, i: int, drawn: int) -> list[int]:
        """The empty triangles with line ``i`` as a side whose three sides are all in ``drawn``
        (the lines drawn, line ``i`` included): those drawing it closes."""
        tri_sides = self.board.tri_sides
        out = []
        for t in self.board.seg_triangles[i]:
            s1, s2, s3 = tri_sides[t]
            if (drawn >> s1) & 1 and (drawn >> s2) & 1 and (drawn >> s3) & 1:
                out.append(t)
        return out

    def closes(self, action: Line) -> list[tuple[int, int, int]]:
        """The triangles drawing ``action`` would close now (stars in increasing order).

        >>> game = TrianglesGame(options={"stars": 24})
        >>> square = {"stars": [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]}
        >>> state = game.new_initial_state(setup=square)
        >>> for text in ["0-1", "1-2", "2-3", "0-3"]:
        ...     _ = state.apply_notation(text)
        >>> state.closes(Line(0, 2))
        [(0, 1, 2), (0, 2, 3)]
        """
        i = self.board.candidate(action.a, action.b)
        if i is None:
            return []
        return [self.board.triangles[t] for t in self._closing(i, self._drawn | (1 << i))]

    def action_notes(self, action: Line) -> dict[str, Any]:
        """What a UI shows beside a legal line (docs/protocol.md, ``legal_actions``): the
        triangles it would close."""
        return {"closes": [list(t) for t in self.closes(action)]}

    def _next_alive(self, start: int) -> int:
        """The first empty triangle from ``start`` on that can still be closed (the number of
        triangles if none can): not closed, and each side drawn or legal."""
        drawn, legal = self._drawn, self._legal
        usable = drawn | legal
        tri_sides = self.board.tri_sides
        t, end = start, len(tri_sides)
        while t < end:
            s1, s2, s3 = tri_sides[t]
            if (
                (usable >> s1) & 1 and (usable >> s2) & 1 and (usable >> s3) & 1
                and not ((drawn >> s1) & 1 and (drawn >> s2) & 1 and (drawn >> s3) & 1)
            ):
                break
            t += 1
        return t

    # --- views and copies ----------------------------------------------------------------------
    def observation(self, player: int | None) -> TrianglesObservation:
        board, spec = self.board, self.game.spec
        a_of, b_of, triangles = board.cand_a, board.cand_b, board.triangles
        return TrianglesObservation(
            player=player,
            board=spec.name,
            max_stars=spec.stars,
            width=spec.width,
            height=spec.height,
            tolerance=board.tolerance,
            stars=board.stars,
            lines=tuple([(a_of[i], b_of[i], p) for i, p in self._lines]),
            triangles=tuple([(*triangles[t], p) for t, p in self._closed]),
            scores=tuple(self.scores),
            to_move=self.current_player,
            again=self.game.again,
            custom=self._setup is not None,
            snapshot=self.clone(),
        )

    def clone(self) -> TrianglesState:
        other = TrianglesState.__new__(TrianglesState)
        self._copy_base_into(other)
        other.board = self.board
        other._setup = self._setup
        other._legal = self._legal
        other._drawn = self._drawn
        other._lines = self._lines.copy()
        other._closed = self._closed.copy()
        other._first_alive = self._first_alive
        other._to_move = self._to_move
        return other

    def encode_action(self, action: Line) -> int:
        n = self.game.num_stars
        if action.b >= n or action.a == action.b:
            raise IllegalActionError(f"{action}: not a line of the {self.game.board_name} board")
        return pair_id(action.a, action.b, n)

    def decode_action(self, action_id: int) -> Line:
        n = self.game.num_stars
        if not 0 <= action_id < n * (n - 1) // 2:
            raise IllegalActionError(f"action id {action_id} is not one of 0 to "
                                     f"{n * (n - 1) // 2 - 1}")
        a, b = id_pair(action_id, n)
        if b >= self.board.n:
            raise IllegalActionError(f"action id {action_id} is line {a}-{b}, but this board "
                                     f"has {self.board.n} stars")
        return Line(a, b)

    def deal(self) -> dict[str, Any]:
        """The star cloud, ``stars`` as ``[x, y]`` in star-number order (from the seed with
        ``derive(seed, "stars", board)``, or the setup's); the only chance in the game."""
        return {"stars": [list(p) for p in self.board.stars]}

    def setup(self) -> dict[str, Any] | None:
        if self._setup is None:
            return None
        return {"stars": [list(p) for p in self._setup["stars"]],
                "tolerance": self._setup["tolerance"]}
