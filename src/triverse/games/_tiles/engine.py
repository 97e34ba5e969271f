"""The engine shared by the tile games (Tri-ominoes, Trinity): hands, a pool, a board of triangles.

A game subclasses :class:`TileGame`, :class:`TileState` and :class:`TileObservation` and writes
only what its rules say differently: how a round opens, what a placement earns beyond the sum of
its numbers (:meth:`TileState._bonuses`, read from the grid's one detector
:meth:`~triverse.games._tiles.trigrid.Board.specials`), how a round ends and when the game does.

Everything else is written here once: the deal, the legal placements, drawing and passing, the
reasons an action is refused, going out, determinization, clones and the integer action ids. What
a seat sees is in :mod:`.observation`, explicit setups in :mod:`.setup`.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Self, TypeVar

from triverse.core.errors import IllegalActionError
from triverse.core.events import Event
from triverse.core.game import Game, Observation, State
from triverse.core.messages import Reason
from triverse.core.rng import derive, fresh_seed
from triverse.core.schema import Schema
from triverse.games._tiles.observation import WINDOW_X, WINDOW_Y, TileObservation
from triverse.games._tiles.preview import TilePreview, preview_placement
from triverse.games._tiles.setup import load_setup
from triverse.games._tiles.tiles import DRAW, PASS, Action, Draw, Pass, Place, Tile, TileSet
from triverse.games._tiles.trigrid import ORIGIN, Board, Specials, format_cell


def seat_text(seat: int) -> str:
    return f"Seat {seat}"


# --- the game ------------------------------------------------------------------------------------
S = TypeVar("S", bound="TileState")


class TileGame(Game[S, Action]):
    """A tile game's definition: its tile set, hand sizes and the numbers its rules use."""

    tileset: ClassVar[TileSet]
    observation_class: ClassVar[type[TileObservation]]
    hand_sizes: ClassVar[Mapping[int, int]]
    """Tiles dealt to each seat of a round, by the number of seats dealt to."""
    draw_penalty: int = 5
    pass_penalty: int = 0
    out_bonus: int = 25
    max_draws: int | None = None
    """Draws allowed in one turn (``None``: until a tile can be played)."""

    def __init__(self, players: int | None = None, options: Mapping[str, object] | None = None):
        super().__init__(players, options)
        self.hand_size: int = self.hand_sizes[self.num_players]

    @property
    @abstractmethod
    def last_round(self) -> int:
        """The highest round number a game can reach."""

    @abstractmethod
    def _new_state(self, seed: int) -> S:
        """A blank state (no deal yet) of this game."""

    # --- building states -----------------------------------------------------------------------
    def _initial_state(self, seed: int, setup: Mapping[str, Any] | None) -> S:
        state = self._new_state(seed)
        if setup is None:
            state._deal(1)
            state._open_round()
        else:
            state._load_setup(setup)
        return state

    def parse_action(self, text: str) -> Action:
        return self.tileset.parse_action(text)

    def _same_rules(self, observation: Any) -> bool:
        """Whether ``observation`` comes from a game with this game's rules."""
        return True

    def determinize(self, observation: Any, rng: random.Random) -> S:
        """A full state matching ``observation``: the unseen tiles (all but the board, the
        seat's own hand and any tiles the rules announced) shuffled into the other hands, by
        their counts, and the pool; a fresh seed from ``rng`` for the rounds to come."""
        obs = observation
        if not isinstance(obs, self.observation_class):
            raise TypeError(f"not a {self.title} observation: {obs!r}")
        if obs.num_players != self.num_players or not self._same_rules(obs):
            raise ValueError(f"the observation is not of {self!r}")
        state = self._new_state(fresh_seed(rng))
        state._restore(obs)
        own = obs.hand or ()
        opener = obs.current_player if state.opening else None
        announced = tuple(t for t in state.opening if opener != obs.player)
        known = {p.tile for p in obs.board} | set(own) | set(announced)
        unseen = [t for t in self.tileset.tiles if t not in known]
        rng.shuffle(unseen)
        hands: list[list[Tile]] = []
        for seat, count in enumerate(obs.hand_counts):
            if seat == obs.player:
                hands.append(list(own))
                continue
            fixed = list(announced) if seat == opener else []
            take = count - len(fixed)
            if take < 0 or take > len(unseen):
                raise ValueError(f"seat {seat}'s hand count {count} does not fit the "
                                 f"observation")
            hands.append(fixed + unseen[:take])
            unseen = unseen[take:]
        if len(unseen) != obs.pool_count:
            raise ValueError(f"{len(unseen)} unseen tiles left for a pool of {obs.pool_count}")
        state.round = obs.round
        state.hands = [dict.fromkeys(h) for h in hands]
        state.pool = tuple(unseen)
        state.pool_pos = 0
        for p in obs.board:
            state.board.place(p.cell, p.values)
        state.placed = list(obs.board)
        state.scores = list(obs.scores)
        state.current = obs.current_player
        state.draws = obs.draws_this_turn
        state.passes = obs.passes_in_row
        return state

    # --- sizes -----------------------------------------------------------------------------------
    @property
    def num_distinct_actions(self) -> int:
        count = len(self.tileset)
        return count * count * 9 + count + 2

    @property
    def tensor_size(self) -> int:
        return self.observation_class.tensor_length()

    def round_length_bound(self, seats: int) -> int:
        """Actions in one round at most: every tile placed, every tile drawn, and the passes:
        with an empty pool at most ``seats`` in a row between two placements (the last of them
        ends the round); with draws capped, one after each capped run of draws."""
        count = len(self.tileset)
        capped = count // self.max_draws if self.max_draws else 0
        return 2 * count + (count + 1) * seats + capped

    # --- text ------------------------------------------------------------------------------------
    def render_text(self, observation: Observation) -> str:
        if not isinstance(observation, self.observation_class):
            raise TypeError(f"not a {self.title} observation: {observation!r}")
        return self._render(observation)

    @abstractmethod
    def _render(self, observation: Any) -> str:
        """The terminal picture of an observation of this game."""

    def describe_action(self, action: Action) -> str:
        from triverse.games._tiles.text import describe

        return describe(action)


# --- the state -----------------------------------------------------------------------------------
class TileState(State[Action]):
    """One position of a tile game (all its rounds)."""

    game: TileGame[Any]

    def __init__(self, game: TileGame[Any], seed: int) -> None:
        super().__init__(game, seed)
        self.round = 1
        self.hands: list[dict[Tile, None]] = [{} for _ in range(game.num_players)]
        self.pool: tuple[Tile, ...] = ()
        self.pool_pos = 0
        self.board = Board()
        self.placed: list[Place] = []
        self.current: int | None = 0
        self.opening: tuple[Tile, ...] = ()
        """Tiles one of which must open the round on the empty board (announced by the rules;
        empty once a tile is down, and always empty in games that turn a tile up instead)."""
        self.draws = 0
        self.passes = 0
        self._setup: dict[str, Any] | None = None

    # --- what each game says -------------------------------------------------------------------
    @abstractmethod
    def _open_round(self) -> list[Event]:
        """Start the round just dealt: who opens and how; its events."""

    @abstractmethod
    def _bonuses(self, seat: int, action: Place, specials: Specials | None) -> list[Event]:
        """The score events a placement earns beyond its numbers (``specials`` is ``None`` for
        the round's first tile on the empty board)."""

    @abstractmethod
    def _end_round(self, out: int | None) -> list[Event]:
        """Round-end scoring (``out``: the seat that went out; ``None``: nobody could play),
        then the next round or the end of the game."""

    @abstractmethod
    def _restore(self, observation: Any) -> None:
        """Set this game's own fields from an observation (for determinization)."""

    def _read_setup(self, setup: Mapping[str, Any], normal: dict[str, Any]) -> None:
        """Read this game's own setup keys (:meth:`_setup_fields`, checked and converted) into
        the state (and ``normal``)."""

    def seats_in_round(self) -> tuple[int, ...]:
        """The seats dealt into the current round."""
        return tuple(range(self.game.num_players))

    def _next_seat(self, seat: int) -> int:
        return (seat + 1) % self.game.num_players

    # --- dealing ---------------------------------------------------------------------------------
    def _deal(self, round_number: int, seats: Sequence[int] | None = None) -> None:
        """Shuffle all the tiles with ``derive(seed, "round", n)`` and deal the hands to
        ``seats`` (all by default) in seat order; the rest is the pool."""
        tiles = self._shuffled(round_number)
        n = self.game.num_players
        seats = range(n) if seats is None else seats
        size = self.game.hand_sizes[len(seats)]
        self.round = round_number
        self.hands = [{} for _ in range(n)]
        for k, seat in enumerate(seats):
            self.hands[seat] = dict.fromkeys(tiles[k * size:(k + 1) * size])
        self.pool = tuple(tiles[len(seats) * size:])
        self.pool_pos = 0
        self.board = Board()
        self.placed = []
        self.draws = 0
        self.passes = 0

    # --- reading the state ---------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self.current

    def is_terminal(self) -> bool:
        return self.current is None

    @property
    def pool_count(self) -> int:
        """Tiles left to draw."""
        return len(self.pool) - self.pool_pos

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """A seat's tiles, sorted (the engine's view: hidden information)."""
        return tuple(sorted(self.hands[seat]))

    def _placements(self) -> Iterator[Place]:
        assert self.current is not None
        hand = self.hands[self.current]
        for t, cell, rotation in self.board.placements(self.game.tileset.placements, hand):
            yield Place(t, cell, rotation)

    def _may_draw(self) -> bool:
        limit = self.game.max_draws
        return self.pool_pos < len(self.pool) and (limit is None or self.draws < limit)

    def legal_actions(self) -> Iterator[Action]:
        if self.current is None:
            return
        if self.opening:
            for t in self.opening:
                yield Place(t, ORIGIN, 0)
            return
        found = False
        for action in self._placements():
            found = True
            yield action
        if not found:
            yield DRAW if self._may_draw() else PASS

    def illegal_reason(self, action: Action) -> str | None:
        seat = self.current
        if seat is None:
            return Reason("the game is over", "refused.game_over")
        if isinstance(action, Place):
            return self._placement_problem(seat, action)
        if not isinstance(action, (Draw, Pass)):
            return Reason(f"not a {self.game.title} action: {action!r}", "refused.not_an_action")
        verb = "draw" if isinstance(action, Draw) else "pass"
        if self.opening:
            return Reason(f"the round opens first: play {self.opening[0]}@0,0/0 before you "
                          f"{verb}", "refused.open_first", tile=str(self.opening[0]))
        playable = next(self._placements(), None)
        if playable is not None:
            return Reason(f"you can play {playable}; you {verb} only when you cannot play",
                          "refused.can_play", play=str(playable))
        if isinstance(action, Draw):
            if self.pool_pos >= len(self.pool):
                return Reason("the pool is empty: pass", "refused.pool_empty")
            if not self._may_draw():
                return Reason(f"you have drawn {self.draws} tiles this turn, the most allowed: "
                              "pass", "refused.draw_limit", count=self.draws)
            return None
        if self._may_draw():
            return Reason(f"the pool still has {self.pool_count} tiles: draw",
                          "refused.must_draw", count=self.pool_count)
        return None

    def _placement_problem(self, seat: int, action: Place) -> str | None:
        t = action.tile
        tiles = self.game.tileset.tiles
        if not isinstance(t, Tile) or not 0 <= t.index < len(tiles) or t is not tiles[t.index]:
            return Reason(f"not a {self.game.title} tile: {t!r}", "refused.not_a_tile")
        if action.rotation not in (0, 1, 2):
            return Reason(f"the rotation is 0, 1 or 2, not {action.rotation}",
                          "refused.bad_rotation", rotation=action.rotation)
        if t.is_triple and action.rotation != 0:
            return Reason(f"{t} looks the same every way round: write it with rotation 0",
                          "refused.triple_rotation", tile=str(t))
        if t not in self.hands[seat]:
            return Reason(f"{t} is not in your hand", "refused.not_in_hand", tile=str(t))
        if self.opening:
            if t not in self.opening:
                names = " or ".join(str(o) for o in self.opening)
                return Reason(f"the round opens with {names}", "refused.opens_with",
                              tiles=[str(o) for o in self.opening])
            if action.cell != ORIGIN or action.rotation != 0:
                return Reason("the first tile of a round goes at 0,0 with rotation 0",
                              "refused.open_at_origin")
            return None
        return self.board.misfit(action.cell, action.values)

    def preview(self, text: str) -> TilePreview:
        """What the placement ``text`` would score for the seat to move, part by part, or why
        it is illegal (:mod:`.preview`); nothing changes."""
        return preview_placement(self, text)

    # --- applying --------------------------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        seat = self.current
        assert seat is not None
        if isinstance(action, Place):
            return self._place(seat, action)
        if isinstance(action, Draw):
            return self._draw(seat)
        return self._pass(seat)

    def _place(self, seat: int, action: Place) -> list[Event]:
        t = action.tile
        specials = None if self.opening else self.board.specials(action.cell)
        self.board.place(action.cell, action.values)
        self.placed.append(action)
        del self.hands[seat][t]
        self.draws = 0
        self.passes = 0
        tile, cell = str(t), format_cell(action.cell)  # each made once, for the events below
        scored = [self._score(seat, t.total, "score", f"Tile {tile} +{t.total}",
                              code="tile_points", params={"tile": tile},
                              reason="tile", tile=tile),
                  *self._bonuses(seat, action, specials)]
        total = 0
        for e in scored:
            total += e.points
        events = [Event("place", seat, 0, f"{seat_text(seat)} plays {tile} at {cell}",
                        {"action": str(action), "tile": tile,
                         "cell": list(action.cell), "rotation": action.rotation,
                         "corners": list(action.values)},
                        None, "placed", {"tile": tile, "cell": cell, "total": total}),
                  *scored]
        self.opening = ()
        if not self.hands[seat]:
            events.extend(self._end_round(out=seat))
        else:
            self.current = self._next_seat(seat)
        return events

    def _draw(self, seat: int) -> list[Event]:
        drawn = self.pool[self.pool_pos]
        self.pool_pos += 1
        self.hands[seat][drawn] = None
        self.draws += 1
        penalty = self.game.draw_penalty
        return [self._score(seat, -penalty, "draw", f"Draw -{penalty}",
                            secret={"tile": str(drawn)}, code="drew", params={"count": 1},
                            pool=self.pool_count, draws=self.draws)]

    def _pass(self, seat: int) -> list[Event]:
        penalty = self.game.pass_penalty
        if penalty:
            events = [self._score(seat, -penalty, "pass", f"Pass -{penalty}", code="passed")]
        else:
            events = [Event("pass", seat, 0, "Pass", code="passed")]
        self.passes += 1
        self.draws = 0
        if self.passes >= len(self.seats_in_round()) and self.pool_pos >= len(self.pool):
            events.extend(self._end_round(out=None))
        else:
            self.current = self._next_seat(seat)
        return events

    def hand_totals(self) -> list[int]:
        """The sum of the numbers in each seat's hand."""
        return [sum(t.total for t in hand) for hand in self.hands]

    def _going_out(self, out: int) -> list[Event]:
        """The seat that played its last tile scores the bonus and every other hand's
        numbers."""
        others = sum(self.hand_totals())
        bonus = self.game.out_bonus
        return [self._score(out, bonus, "score", f"Going out +{bonus}", code="bonus.out",
                            reason="out"),
                self._score(out, others, "score", f"Opponents' tiles +{others}",
                            code="bonus.opponents_tiles", reason="opponents_tiles")]

    def _game_over(self) -> Event:
        """End the game; the event that announces the standings."""
        self.current = None
        result = self.result()
        names = ", ".join(seat_text(s) for s in result.winners)
        return Event("game_end", None, 0,
                     f"Game over: {names} {'wins' if len(result.winners) == 1 else 'tie'}",
                     {"scores": list(self.scores), "ranks": list(result.ranks),
                      "rounds": self.round},
                     code="game_over", params={"winners": list(result.winners)})

    # --- views ----------------------------------------------------------------------------------
    def _observed(self, player: int | None) -> dict[str, Any]:
        """The fields every tile game's observation has."""
        n = self.game.num_players
        if player is not None and not 0 <= player < n:
            raise ValueError(f"no seat {player} in a {n}-player game")
        return {
            "player": player,
            "num_players": n,
            "round": self.round,
            "current_player": self.current,
            "board": tuple(self.placed),
            "hand": None if player is None else self.hand(player),
            "hand_counts": tuple(len(h) for h in self.hands),
            "pool_count": self.pool_count,
            "scores": tuple(self.scores),
            "draws_this_turn": self.draws,
            "passes_in_row": self.passes,
        }

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        self._copy_base_into(other)
        other.hands = [h.copy() for h in self.hands]
        other.board = self.board.copy()
        other.placed = self.placed.copy()
        return other

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} round {self.round}, {len(self.placed)} tiles down, "
                f"to move {self.current}, scores {self.scores}>")

    # --- integer ids ----------------------------------------------------------------------------
    def encode_action(self, action: Action) -> int:
        """Placements: ``((tile * N + anchor) * 3 + edge) * 3 + rotation`` (``N`` tiles in the
        set), the anchor being the earliest placed tile of the round that shares an edge with
        the cell; a first tile on the empty board: ``9 N² + tile``; draw ``9 N² + N``; pass
        ``9 N² + N + 1``."""
        count = len(self.game.tileset)
        opening_base = count * count * 9
        if isinstance(action, Draw):
            return opening_base + count
        if isinstance(action, Pass):
            return opening_base + count + 1
        if not isinstance(action, Place):
            raise IllegalActionError(f"not a {self.game.title} action: {action!r}")
        t = action.tile
        if not self.placed:
            if action.cell != ORIGIN or action.rotation != 0:
                raise IllegalActionError(f"{action}: the first tile of a round goes at 0,0/0")
            return opening_base + t.index
        anchor = self.board.anchor(action.cell)
        if anchor is None or action.cell in self.board or action.rotation not in (0, 1, 2):
            raise IllegalActionError(f"{action}: no action id here (the cell must be empty "
                                     f"and share an edge with a tile)")
        k, edge = anchor
        return ((t.index * count + k) * 3 + edge) * 3 + action.rotation

    def decode_action(self, action_id: int) -> Action:
        tiles = self.game.tileset.tiles
        count = len(tiles)
        opening_base = count * count * 9
        if action_id == opening_base + count:
            return DRAW
        if action_id == opening_base + count + 1:
            return PASS
        if opening_base <= action_id < opening_base + count:
            if self.placed:
                raise IllegalActionError(f"action id {action_id} opens a round, but this "
                                         f"round has opened")
            return Place(tiles[action_id - opening_base], ORIGIN, 0)
        if not 0 <= action_id < opening_base:
            raise IllegalActionError(f"no {self.game.title} action has id {action_id}")
        rest, rotation = divmod(action_id, 3)
        rest, edge = divmod(rest, 3)
        tile_index, k = divmod(rest, count)
        t = tiles[tile_index]
        cell = self.board.from_anchor(k, edge)
        if cell is None:
            raise IllegalActionError(f"action id {action_id} names placed tile {k + 1}; "
                                     f"{len(self.placed)} are down this round")
        if cell in self.board:
            raise IllegalActionError(f"action id {action_id} names cell {format_cell(cell)}, "
                                     f"which is occupied")
        if self.board.anchor(cell) != (k, edge):
            raise IllegalActionError(f"action id {action_id} is not the id of any action here "
                                     f"(cell {format_cell(cell)} has an earlier anchor)")
        if t.is_triple and rotation:
            raise IllegalActionError(f"action id {action_id}: a triple only has rotation 0")
        return Place(t, cell, rotation)

    def _shuffled(self, round_number: int) -> list[Tile]:
        """All the tiles in the order ``derive(seed, "round", n)`` shuffles them."""
        tiles = list(self.game.tileset.tiles)
        derive(self.seed, "round", round_number).shuffle(tiles)
        return tiles

    # --- setups ----------------------------------------------------------------------------------
    def deal(self) -> dict[str, Any]:
        """Round 1's tiles in the order shuffled: ``hands``, each seat's in seat order, then
        the ``pool`` in drawing order (an explicit setup's, as it gives them). Every later round
        n is shuffled afresh with ``derive(seed, "round", n)``."""
        setup = self.setup()
        if setup is not None:
            return {"hands": setup["hands"], "pool": setup["pool"]}
        tiles = [str(t) for t in self._shuffled(1)]
        size = self.game.hand_sizes[self.game.num_players]
        n = self.game.num_players
        return {"hands": [tiles[k * size:(k + 1) * size] for k in range(n)],
                "pool": tiles[n * size:]}

    def setup(self) -> dict[str, Any] | None:
        if self._setup is None:
            return None
        out = {k: (list(v) if isinstance(v, list) else v) for k, v in self._setup.items()}
        out["hands"] = [list(h) for h in self._setup["hands"]]
        return out

    def _setup_fields(self) -> dict[str, Schema[Any]]:
        """This game's own optional setup keys and their shapes (:mod:`.setup`)."""
        return {}

    def _load_setup(self, setup: Mapping[str, Any]) -> None:
        """Build a position from an explicit setup (the game's rules document describes it)."""
        load_setup(self, setup)


__all__ = [
    "WINDOW_X",
    "WINDOW_Y",
    "TileGame",
    "TileObservation",
    "TileState",
    "seat_text",
]
