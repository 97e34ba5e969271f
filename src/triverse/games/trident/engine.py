"""Trident: the rules engine (seed 003: Triolet, DJ Games 1996, played online with hidden racks).

The seed's rules are the default; ``variant="triolet"`` plays the Triolet rulebook where the
two differ. ``docs/rules/trident.md`` lists every rule with the seed sentence it comes from and
every decision where both are silent; ``docs/notation.md`` the notation of the actions.

>>> game = TridentGame(2)
>>> setup = complete_setup({"racks": [[11, 3, 0], [1, 4, 4]]})
>>> state = game.new_initial_state(seed=1, setup=setup)
>>> state.current_player, state.rack(0)
(0, (0, 3, 11))
>>> [(e.label, e.points) for e in state.apply_notation("7:7=11,7:8=3") if e.points]
[('Pair 11×2+3 = 25', 25)]
>>> state.current_player, state.scores
(1, [25, 0])
>>> [(item.label, item.points) for item in state.preview("7:9=1").items]
[('Trio 11+3+1 = 15, +15 bonus = 30', 30)]
>>> state.preview("7:9=4").reason
'three tiles side by side total exactly 15, not 11 + 3 + 4 = 18 (across from 7:7)'
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from triverse.core.errors import GameOverError, IllegalActionError, NotationError
from triverse.core.events import Event
from triverse.core.game import Game, Observation, State
from triverse.core.messages import Reason, message_of
from triverse.core.options import OptionSpec
from triverse.core.rng import derive, fresh_seed
from triverse.games.trident.action_ids import (
    NUM_ACTION_IDS,
    PASS_ID,
    TIMEOUT_ID,
    decode,
    play_or_exchange_id,
)
from triverse.games.trident.board import (
    CENTRE,
    IS_BIS,
    cell_code,
    compute_anchors,
    compute_cross,
    new_board,
    square_name,
    update_after_play,
)
from triverse.games.trident.legality import exchange_problem, play_problem
from triverse.games.trident.messages import MESSAGES
from triverse.games.trident.movegen import generate_exchanges, generate_plays
from triverse.games.trident.observation import TENSOR_SIZE, Preview, TridentObservation
from triverse.games.trident.rules import (
    ANNOUNCE_AT,
    BONUS_NAMES,
    MAX_PLAYERS,
    MAX_RACK_POINTS,
    MAX_TIME_LIMIT,
    RULES,
    STALL_ROUNDS,
    Rules,
    plural,
    seat_text,
)
from triverse.games.trident.scoring import TRITON_BONUS, ScoreItem, score_play
from triverse.games.trident.setup import (
    complete_setup,
    deal_json,
    load_setup,
    position_json,
    seed_deal,
)
from triverse.games.trident.text import describe, render
from triverse.games.trident.tiles import (
    JOKER,
    NUM_TILES,
    PASS,
    RACK_SIZE,
    TIMEOUT,
    Action,
    Exchange,
    Pass,
    Play,
    TimeOut,
    parse_action,
    tile_points,
    tile_text,
)
from triverse.games.trident.unseen import deal_unseen


# --- the game ------------------------------------------------------------------------------------
class TridentGame(Game["TridentState", Action]):
    """Trident for 2-4 players: number tiles laid crossword style, lines of three total 15."""

    name: ClassVar[str] = "trident"
    title: ClassVar[str] = "Trident"
    messages = MESSAGES
    summary: ClassVar[str] = (
        "Number tiles 0-15 laid crossword style: every line of three must total exactly 15."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    default_players: ClassVar[int] = 2
    perfect_information: ClassVar[bool] = False
    variants: ClassVar[Mapping[str, str]] = {
        "seed": "The seed's rules: a double or triple multiplies the tile on it (the Trio's "
                "points only in a Triton); exchanges while more than five tiles are in the bag.",
        "triolet": "The Triolet rulebook: a double or triple under a tile that completes a Trio "
                   "multiplies the Trio's 30 points; exchanges while at least five tiles are in "
                   "the bag; three unseen tiles are set aside at the start.",
    }
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("variant", str, "seed", "Rules: the seed's, or the Triolet rulebook's",
                   choices=("seed", "triolet"), label="Rules", choice_labels={
                       "seed": ("This app's rules", "The rules of the original app: "
                                "exchanges while more than five tiles are in the bag."),
                       "triolet": ("Triolet rulebook", "The boxed game's rules: premium "
                                   "squares multiply a Trio, three tiles set aside."),
                   }),
        OptionSpec("time_limit", int, 0, "Seconds a player has for a turn before missing it "
                   "(0: no limit; at most 24 hours)", minimum=0, maximum=MAX_TIME_LIMIT,
                   label="Time for a turn (seconds)"),
    )

    def __init__(self, players: int | None = None, options: Mapping[str, object] | None = None):
        super().__init__(players, options)
        self.rules: Rules = RULES[str(self.options["variant"])]
        self.time_limit = int(self.options["time_limit"])
        self.stall_limit = STALL_ROUNDS * self.num_players

    # --- building states -----------------------------------------------------------------------
    def _initial_state(self, seed: int, setup: Mapping[str, Any] | None) -> TridentState:
        state = TridentState(self, seed)
        if setup is None:
            state._deal()
        else:
            state._load_setup(setup)
        return state

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def determinize(self, observation: Any, rng: random.Random) -> TridentState:
        """A full state matching ``observation``: the tiles it does not show (all but the board
        and the seat's own rack) shuffled into the other racks, by their counts, the tiles set
        aside and the bag; a fresh seed from ``rng`` for the exchanges to come."""
        obs: TridentObservation = observation
        if not isinstance(obs, TridentObservation):
            raise TypeError(f"not a Trident observation: {obs!r}")
        if obs.num_players != self.num_players or obs.variant != self.rules.name:
            raise ValueError(f"the observation is of a {obs.num_players}-player {obs.variant} "
                             f"game, not this {self.num_players}-player {self.rules.name} one")
        racks, bag, aside = deal_unseen(obs, rng)
        state = TridentState(self, fresh_seed(rng))
        state.board = list(obs.board)
        state.placed = list(obs.placed)
        state.cross = compute_cross(state.board)
        state.anchors = compute_anchors(state.board)
        state.racks = racks
        state.bag = bag
        state.aside = aside
        state.order = obs.order
        state.scores = list(obs.scores)
        state.passes = obs.consecutive_passes
        state.idle = obs.idle_turns
        state.moves_before = obs.move_number
        if obs.current_player is None:
            state.over = True
            state.end_reason = obs.end_reason
        else:
            state.turn = obs.order.index(obs.current_player)
        state._setup = state._position_json()
        return state

    # --- sizes ------------------------------------------------------------------------------------
    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTION_IDS

    @property
    def max_game_length(self) -> int:
        """Every play places a tile, so there are at most as many plays as tiles in play; and
        ``3 x players`` turns in a row without a tile placed end the game (``docs``)."""
        plays = NUM_TILES - self.rules.aside
        return self.stall_limit * (plays + 1)

    @property
    def tensor_size(self) -> int:
        return TENSOR_SIZE

    @property
    def min_score(self) -> int:
        """Plays never lose points; a blocked end takes at most a full rack's 15 + 14 + 13."""
        return -MAX_RACK_POINTS

    @property
    def max_score(self) -> int:
        """A bound on the points of a whole game (``docs/rules/trident.md``): at most 83 runs,
        each scored at most as a pair (15) and a Trio (30); at most 30 (double) or 60 (triple)
        more from each premium square; +50 for at most 27 Tritons; a lone opening tile on the
        star; and the tiles left on the other racks."""
        runs = NUM_TILES * (15 + 30)
        premiums = 9 * 30 + 8 * 60
        tritons = (NUM_TILES // 3) * TRITON_BONUS
        return runs + premiums + tritons + 2 * 15 + (self.num_players - 1) * MAX_RACK_POINTS

    # --- text -------------------------------------------------------------------------------------
    def render_text(self, observation: Observation) -> str:
        if not isinstance(observation, TridentObservation):
            raise TypeError(f"not a Trident observation: {observation!r}")
        return render(observation)

    def describe_action(self, action: Action) -> str:
        return describe(action)


# --- the state -----------------------------------------------------------------------------------
class TridentState(State[Action]):
    """One position of a game of Trident."""

    game: TridentGame

    def __init__(self, game: TridentGame, seed: int) -> None:
        super().__init__(game, seed)
        self.rules = game.rules
        self.board: list[int] = new_board()
        self.cross: list[int] = compute_cross(self.board)
        self.anchors: set[int] = {CENTRE}
        self.placed: list[int] = []
        self.racks: list[list[int]] = [[] for _ in range(game.num_players)]
        self.bag: list[int] = []
        """The tiles to draw; the next one drawn is the last."""
        self.aside: list[int] = []
        self.order: tuple[int, ...] = tuple(range(game.num_players))
        """The seats in their order of play."""
        self.turn = 0
        """Index in ``order`` of the seat to act."""
        self.passes = 0
        """Passes (and time-outs) in a row."""
        self.idle = 0
        """Turns in a row without a tile placed."""
        self.over = False
        self.end_reason: str | None = None
        self.moves_before = 0
        """Actions played before the position this state was built from (a determinization)."""
        self._setup: dict[str, Any] | None = None

    def _deal(self) -> None:
        """Shuffle the 83 tiles with ``derive(seed, "bag")``; draw the order of play with
        ``derive(seed, "order")``; set tiles aside (variant), then deal three to each seat in
        that order."""
        tiles, order = seed_deal(self.seed, self.game.num_players)
        self.order = tuple(order)
        pos = self.rules.aside
        self.aside = sorted(tiles[:pos])
        for seat in self.order:
            self.racks[seat] = sorted(tiles[pos:pos + RACK_SIZE])
            pos += RACK_SIZE
        self.bag = tiles[pos:][::-1]

    # --- reading the state ---------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.over else self.order[self.turn]

    def is_terminal(self) -> bool:
        return self.over

    @property
    def move_number(self) -> int:
        return self.moves_before + len(self.history)

    def rack(self, seat: int) -> tuple[int, ...]:
        """A seat's tiles, sorted, jokers last (the engine's view: hidden information)."""
        return tuple(self.racks[seat])

    @property
    def bag_count(self) -> int:
        return len(self.bag)

    def legal_actions(self) -> Iterator[Action]:
        if self.over:
            return
        rack = self.racks[self.order[self.turn]]
        yield from generate_plays(self.board, self.cross, self.anchors, rack, self.placed)
        if len(self.bag) >= self.rules.exchange_min:
            yield from generate_exchanges(rack)
        yield PASS

    def illegal_reason(self, action: Action) -> str | None:
        if self.over:
            return Reason("the game is over", "refused.game_over")
        seat = self.order[self.turn]
        if isinstance(action, Play):
            return play_problem(self.board, self.placed, self.racks[seat], action)
        if isinstance(action, Exchange):
            return exchange_problem(self.rules, len(self.bag), self.racks[seat], action)
        if isinstance(action, Pass):
            return None
        if isinstance(action, TimeOut):
            if not self.game.time_limit:
                return Reason("this game has no time limit, so no turn can time out (a "
                              "time-out is recorded by the server, never chosen)",
                              "refused.no_time_limit")
            return None
        return Reason(f"not a Trident action: {action!r}", "refused.not_an_action")

    # --- a preview of a play ----------------------------------------------------------------------
    def preview(self, play: Play | str) -> Preview:
        """What ``play`` would score for the player to move, each line and bonus explained, or
        the reason it is illegal (a :class:`Reason`: its code and parameters, ``action`` the
        play as sent, say it too). Nothing changes."""
        text = play if isinstance(play, str) else str(play)
        if isinstance(play, str):
            try:
                parsed = parse_action(play)
            except NotationError as exc:
                return Preview(text, Reason(str(exc), "refused.unreadable", action=text),
                               0, (), False)
            if not isinstance(parsed, Play):
                return Preview(text, Reason("only a play of tiles has a preview",
                                            "refused.no_preview", action=text), 0, (), False)
            play = parsed
        reason = self.illegal_reason(play)
        if reason is not None:
            code, params = message_of(reason)
            return Preview(text, Reason(reason, code, **{**params, "action": text}), 0, (), False)
        items = tuple(self._score_items(play))
        return Preview(str(play), None, sum(i.points for i in items), items,
                       any(IS_BIS[s] for s in play.squares))

    def _score_items(self, play: Play) -> list[ScoreItem]:
        return score_play(self.board, play.tiles, self.rules.triolet_multipliers, BONUS_NAMES)

    # --- applying actions ------------------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        seat = self.order[self.turn]
        if isinstance(action, Play):
            return self._play(seat, action)
        if isinstance(action, Exchange):
            return self._exchange(seat, action)
        if isinstance(action, TimeOut):
            events = [Event("timeout", seat, 0, "Out of time: the turn is missed",
                            code="timed_out")]
        else:
            events = [Event("pass", seat, 0, "Passes", code="passed")]
        self.passes += 1
        self.idle += 1
        return events + self._next_turn()

    def time_out(self) -> list[Event]:
        """The server's call when the player to move runs out of time: the player misses the
        turn and play moves on. Recorded in the history as ``timeout``.

        Raises :class:`IllegalActionError` in a game without a time limit, and
        :class:`GameOverError` once the game is over.
        """
        if self.over:
            raise GameOverError("timeout: the game is over")
        return self.apply(TIMEOUT)

    def _draw(self, seat: int, count: int) -> list[int]:
        drawn = [self.bag.pop() for _ in range(min(count, len(self.bag)))]
        if drawn:
            self.racks[seat].extend(drawn)
            self.racks[seat].sort()
        return drawn

    def _draw_event(self, seat: int, drawn: list[int]) -> Event:
        return Event("draw", seat, 0, f"Draws {plural(len(drawn), 'tile')}",
                     {"count": len(drawn), "bag": len(self.bag)},
                     {"tiles": [tile_text(t) for t in drawn]}, code="drew",
                     params={"count": len(drawn)})

    def _play(self, seat: int, play: Play) -> list[Event]:
        items = self._score_items(play)
        text = str(play)
        total = 0
        for item in items:
            total += item.points
        events = [Event("place", seat, 0, f"Plays {text}", {
            "play": text,
            "tiles": [{"row": p.row, "col": p.col, "value": p.value, "joker": p.joker}
                      for p in play.tiles]}, None, "played",
            {"play": text, "values": [f"*{p.value}" if p.joker else p.value for p in play.tiles],
             "total": total})]
        rack = self.racks[seat]
        squares = play.squares
        for p, s in zip(play.tiles, squares, strict=True):
            self.board[s] = cell_code(p.value, p.joker)
            self.placed.append(s)
            rack.remove(JOKER if p.joker else p.value)
        for item in items:
            data = item.to_json()
            for key in ("kind", "points", "label"):
                data.pop(key)
            values = [self.board[s] & 15 for s in item.squares]
            params = {"values": values, "sum": "+".join(map(str, values)),
                      "multiplier": item.multiplier, "total": item.points}
            if item.kind == "triton":
                params = {"bonus": item.points}
            events.append(self._score(seat, item.points, "score", item.label,
                                      code=f"score.{item.kind}", params=params,
                                      line=item.kind, **data))
        update_after_play(self.board, self.cross, self.anchors, squares)
        drawn = self._draw(seat, len(squares))
        if drawn:
            events.append(self._draw_event(seat, drawn))
            if len(self.bag) <= ANNOUNCE_AT:
                events.append(Event("bag", None, 0, f"{plural(len(self.bag), 'tile')} left in "
                                    f"the bag", {"count": len(self.bag)}, code="bag_count",
                                    params={"count": len(self.bag)}))
        self.passes = 0
        self.idle = 0
        if not rack and not self.bag:
            return events + self._end_out(seat)
        if any(IS_BIS[s] for s in squares):
            events.append(Event("bis", seat, 0, "BIS square: plays again",
                                {"square": square_name(next(s for s in squares if IS_BIS[s]))},
                                code="bis"))
            return events
        self.turn = (self.turn + 1) % len(self.order)
        return events

    def _exchange(self, seat: int, action: Exchange) -> list[Event]:
        rack = self.racks[seat]
        for t in action.tiles:
            rack.remove(t)
        self.bag.extend(action.tiles)
        derive(self.seed, "exchange", self.move_number).shuffle(self.bag)
        drawn = self._draw(seat, len(action.tiles))
        events = [
            Event("exchange", seat, 0, f"Exchanges {plural(len(action.tiles), 'tile')}",
                  {"count": len(action.tiles)},
                  {"returned": [tile_text(t) for t in action.tiles]}, code="exchanged",
                  params={"count": len(action.tiles)}),
            self._draw_event(seat, drawn),
        ]
        self.passes = 0
        self.idle += 1
        return events + self._next_turn()

    def _next_turn(self) -> list[Event]:
        """After a turn without a tile placed: the blocked end, or the next seat."""
        if self.passes >= self.game.num_players:
            return self._end_blocked("passes")
        if self.idle >= self.game.stall_limit:
            return self._end_blocked("stalled")
        self.turn = (self.turn + 1) % len(self.order)
        return []

    def _end_out(self, seat: int) -> list[Event]:
        """The bag is empty and ``seat`` has placed its last tile: it adds the tiles left on
        every other rack."""
        total = sum(tile_points(t) for other, rack in enumerate(self.racks) if other != seat
                    for t in rack)
        events = [self._score(seat, total, "score", f"Tiles left on the other racks +{total}",
                              code="score.other_racks", line="end")]
        return events + self._game_over("out")

    def _end_blocked(self, reason: str) -> list[Event]:
        """Everybody passed in turn (or nobody placed a tile for three rounds): each player
        loses the value of the tiles on the rack."""
        events = []
        for seat, rack in enumerate(self.racks):
            value = sum(tile_points(t) for t in rack)
            events.append(self._score(seat, -value, "score", f"Tiles left on the rack -{value}",
                                      code="score.own_rack", line="end"))
        return events + self._game_over(reason)

    def _game_over(self, reason: str) -> list[Event]:
        self.over = True
        self.end_reason = reason
        result = self.result()
        names = ", ".join(seat_text(s) for s in result.winners)
        verb = "wins" if len(result.winners) == 1 else "tie for first"
        why = {"out": "a player placed the last tile", "passes": "everybody passed in turn",
               "stalled": f"no tile was placed in {STALL_ROUNDS} rounds"}[reason]
        return [Event("game_over", None, 0, f"Game over ({why}): {names} {verb}", {
            "reason": reason, "scores": list(self.scores), "ranks": list(result.ranks),
            "racks": [[tile_text(t) for t in rack] for rack in self.racks]},
            code=f"game_over.{reason}", params={"winners": list(result.winners)})]

    # --- views ----------------------------------------------------------------------------------
    def observation(self, player: int | None) -> TridentObservation:
        game = self.game
        if player is not None and not 0 <= player < game.num_players:
            raise ValueError(f"no seat {player} in a {game.num_players}-player game")
        return TridentObservation(
            player=player,
            num_players=game.num_players,
            variant=self.rules.name,
            time_limit=game.time_limit,
            board=tuple(self.board),
            placed=tuple(self.placed),
            rack=None if player is None else tuple(self.racks[player]),
            rack_counts=tuple(len(r) for r in self.racks),
            bag_count=len(self.bag),
            aside_count=len(self.aside),
            scores=tuple(self.scores),
            order=self.order,
            current_player=self.current_player,
            consecutive_passes=self.passes,
            idle_turns=self.idle,
            end_reason=self.end_reason,
            move_number=self.move_number,
        )

    def clone(self) -> TridentState:
        other = TridentState.__new__(TridentState)
        self._copy_base_into(other)
        other.rules = self.rules
        other.board = self.board.copy()
        other.cross = self.cross.copy()
        other.anchors = self.anchors.copy()
        other.placed = self.placed.copy()
        other.racks = [r.copy() for r in self.racks]
        other.bag = self.bag.copy()
        other.aside = self.aside
        other.order = self.order
        other.turn = self.turn
        other.passes = self.passes
        other.idle = self.idle
        other.over = self.over
        other.end_reason = self.end_reason
        other.moves_before = self.moves_before
        other._setup = self._setup
        return other

    def __repr__(self) -> str:
        return (f"<TridentState {len(self.placed)} tiles down, bag {len(self.bag)}, to move "
                f"{self.current_player}, scores {self.scores}>")

    # --- integer ids ----------------------------------------------------------------------------
    def encode_action(self, action: Action) -> int:
        """A play: ``(first square * 39 + shape) * 16 + joker value``, the shape naming the
        tiles' offsets from the first square, their direction and the rack slot each comes
        from (equal tiles: the lowest slots); an exchange: ``140400 + slot set - 1``; pass
        140407; timeout 140408 (:mod:`~triverse.games.trident.action_ids`)."""
        if isinstance(action, Pass):
            return PASS_ID
        if isinstance(action, TimeOut):
            return TIMEOUT_ID
        if self.over:
            raise IllegalActionError(f"{action}: the game is over")
        return play_or_exchange_id(self.racks[self.order[self.turn]], action)

    def decode_action(self, action_id: int) -> Action:
        if action_id == PASS_ID:
            return PASS
        if action_id == TIMEOUT_ID:
            return TIMEOUT
        if not 0 <= action_id < PASS_ID:
            raise IllegalActionError(f"no Trident action has id {action_id}")
        if self.over:
            raise IllegalActionError(f"action id {action_id}: the game is over")
        return decode(self.racks[self.order[self.turn]], action_id)

    # --- setups -----------------------------------------------------------------------------------
    def deal(self) -> dict[str, Any]:
        """The tiles in the order they are used, the order of play (:func:`deal_json`)."""
        return deal_json(self)

    def setup(self) -> dict[str, Any] | None:
        if self._setup is None:
            return None
        return {key: (list(value) if isinstance(value, list) else value)
                for key, value in self._setup.items()} | {
                    "racks": [list(r) for r in self._setup["racks"]]}

    def _position_json(self) -> dict[str, Any]:
        """This position as a setup (used for determinizations)."""
        return position_json(self)

    def _load_setup(self, setup: Mapping[str, Any]) -> None:
        """Build the position of an explicit setup; see ``docs/rules/trident.md``."""
        load_setup(self, setup)


__all__ = [
    "MAX_PLAYERS",
    "NUM_ACTION_IDS",
    "RULES",
    "Preview",
    "Rules",
    "TridentGame",
    "TridentObservation",
    "TridentState",
    "complete_setup",
]
