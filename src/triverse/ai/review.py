"""Hints and game reviews, the engine side (the browser shows them).

- :func:`hint`: the move the veteran would play now, from the seat's observation only.
- :func:`review`: for a finished (or unfinished) record, every decision of a seat where the
  veteran would have played differently, with the estimated points the played move gave away.

Both see only what the seat saw at the time: the observation before the move. The points
difference comes from the veteran's search, which tries the played move and its own choice on
the same sampled worlds (``docs/ai.md``): it is an estimate in the game's points (the change in
the seat's lead at the end of the simulations; in Triangles, triangles), not a certainty.

>>> from triverse import load_game
>>> from triverse.core.records import Record
>>> game = load_game("trident", players=2)
>>> state = game.new_initial_state(seed=4)
>>> for _ in range(2):                 # both pass at once (the game ends): weak play
...     _ = state.apply(state.legal_action_list()[-1])
>>> record = Record.from_state(state, ["A", "B"])
>>> notes = review(record, seat=0, time_budget=float("inf"), max_worlds=8)
>>> notes[0].index, notes[0].played, notes[0].points_lost > 0
(0, 'pass', True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from triverse.ai.knowledge import Memory, knowledge_for
from triverse.ai.levels import VeteranPlayer
from triverse.core.game import Game, Observation
from triverse.core.records import Record
from triverse.core.rng import derive, fresh_seed

REVIEW_BUDGET = 1.0
"""Seconds the veteran thinks about each reviewed decision, by default."""
REVIEW_MIN_WORLDS = 3
"""Worlds every reviewed decision is searched in, however short the budget: fewer cannot
estimate the noise of a difference (:meth:`SearchResult.difference`)."""
CONFIDENCE = 2.0
"""A decision is flagged only if the estimated loss is at least this many standard errors of
the estimate: a difference the simulations' luck could explain is not a mistake."""


def hint(
    game: Game[Any, Any],
    observation: Observation,
    time_budget: float | None = None,
    rng: random.Random | None = None,
    memory: Memory | None = None,
) -> Any:
    """The move the veteran suggests for the seat whose observation this is (it must be that
    seat's turn). ``time_budget``: seconds to think (``None``: the game's default); ``memory``:
    what the seat remembers of the game (``VeteranPlayer.memory``; ``None``: nothing).

    >>> import random
    >>> from triverse import load_game
    >>> game = load_game("triominoes")
    >>> state = game.new_initial_state(seed=2)
    >>> seat = state.current_player
    >>> state.is_legal(hint(game, state.observation(seat), 0.05, random.Random(1)))
    True
    """
    player = VeteranPlayer(time_budget or 0.0)
    if memory is not None:
        player.memory = memory
    return player.choose(game, observation, rng or random.Random(fresh_seed()))


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One decision where the veteran disagrees with the move played.

    ``index``: the action's place in the record (0 is the first action); ``points_lost``: the
    veteran's estimate of what the played move gave away against its own, in points (never
    negative), on the worlds both were tried in; ``stderr``: that estimate's standard error (0
    for an exact search); ``played_value`` and ``best_value``: the two moves' own estimates."""

    index: int
    seat: int
    played: str
    suggested: str
    points_lost: float
    played_value: float
    best_value: float
    worlds: int
    stderr: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "played": self.played,
                "suggested": self.suggested, "points_lost": round(self.points_lost, 2),
                "stderr": round(self.stderr, 2),
                "played_value": round(self.played_value, 2),
                "best_value": round(self.best_value, 2), "worlds": self.worlds}


def review(
    record: Record,
    seat: int | None = None,
    time_budget: float = REVIEW_BUDGET,
    max_worlds: int | None = None,
    threshold: float = 0.5,
    seed: int | None = None,
) -> list[MoveReview]:
    """The decisions of ``seat`` (every seat if ``None``) where the veteran would have played
    differently and estimates the played move lost at least ``threshold`` points, and at least
    :data:`CONFIDENCE` standard errors of that estimate (so that the simulations' noise is not
    reported as a mistake).

    Forced moves (one legal action) are skipped, but each reviewed seat's veteran still reads
    its observation there, as a veteran playing every turn would (``VeteranPlayer.memory``).
    ``time_budget`` seconds per decision, or ``max_worlds`` rounds of the search (with
    ``time_budget=float("inf")`` the review depends on ``seed`` alone).
    """
    state = record.initial_state()
    game = state.game
    knowledge = knowledge_for(game)
    players: dict[int, VeteranPlayer] = {}
    base = record.seed if seed is None else seed
    out: list[MoveReview] = []
    before = state.clone()
    for index, text, after, _events in record.steps(state):
        mover = before.current_player
        if mover is not None and (seat is None or mover == seat):
            player = players.get(mover)
            if player is None:
                player = players[mover] = VeteranPlayer(time_budget, max_worlds,
                                                        min_worlds=REVIEW_MIN_WORLDS)
            if len(before.legal_action_list()) < 2:  # forced: nothing to judge, but seen
                knowledge.remember(player.memory, before.observation(mover))
            else:
                note = _judge(player, game, before, mover, index, text,
                              derive(base, "review", index), threshold)
                if note is not None:
                    out.append(note)
        before = after.clone()
    return out


def _judge(player: VeteranPlayer, game: Game[Any, Any], before: Any, mover: int, index: int,
           text: str, rng: random.Random, threshold: float) -> MoveReview | None:
    """The review of one decision with a choice, or ``None`` if the veteran agrees."""
    played = game.parse_action(text)
    result = player.analyse(game, before.observation(mover), rng, include=(played,))
    played_value = result.value_of(played)
    best_value = result.value_of(result.best)
    difference = result.difference(result.best, played)
    if (played_value is None or best_value is None or result.best == played
            or difference is None):
        return None
    lost, error = difference
    if lost < threshold or lost < CONFIDENCE * error or math.isinf(lost):
        return None
    return MoveReview(index, mover, text, str(result.best), lost, played_value, best_value,
                      result.worlds, error)


__all__ = ["CONFIDENCE", "REVIEW_BUDGET", "MoveReview", "hint", "review"]
