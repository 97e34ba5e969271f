"""Advice: the veteran's hints during a game and its reviews after it.

Both run in the computer players' worker pool (:class:`~triverse.server.bots.BotPool`) and are
kept in memory: a hint per (match, seat, move), up to ``cache_size`` of them; a seat's review
per (match, seat), up to ``review_cache``. While one is being computed a second request for the
same waits for the same answer. Nothing about advice is stored in the database.

:class:`Advisors` is handed a match and the seat that asks (the token already checked); it
never changes a match.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from triverse.core.records import PlayerInfo, Record
from triverse.core.rng import fresh_seed
from triverse.server.bots import BotPool
from triverse.server.config import Settings
from triverse.server.errors import ServerError
from triverse.server.live import LiveMatch
from triverse.server.views import action_json

log = logging.getLogger(__name__)

Answer = dict[str, Any]


def keep(cache: OrderedDict[Any, Answer], key: Any, value: Answer, size: int) -> None:
    """Put ``value`` in the LRU ``cache`` of at most ``size`` entries (at least one).

    >>> cache: OrderedDict[Any, Answer] = OrderedDict()
    >>> for n in range(3):
    ...     keep(cache, n, {"n": n}, 2)
    >>> list(cache)
    [1, 2]
    """
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > max(1, size):
        cache.popitem(last=False)


class Advisors:
    """The veteran's hints and reviews (see the module)."""

    def __init__(self, settings: Settings, bots: BotPool) -> None:
        self.settings = settings
        self.bots = bots
        self.hints: OrderedDict[tuple[str, int, int], Answer] = OrderedDict()
        """Hints given, by (match, seat, move): asking again for the same move is instant."""
        self.reviews: OrderedDict[tuple[str, int], Answer] = OrderedDict()
        """Reviews of finished matches, by (match, seat)."""
        self._thinking: dict[tuple[Any, ...], asyncio.Future[Answer]] = {}
        """Hints and reviews being computed: a second request waits for the same answer."""

    async def _once(
        self, key: tuple[Any, ...], compute: Callable[[], Coroutine[Any, Any, Answer]]
    ) -> Answer:
        """``compute()``, shared by every request for ``key`` while it runs."""
        running = self._thinking.get(key)
        if running is None:
            running = asyncio.ensure_future(compute())
            self._thinking[key] = running
            running.add_done_callback(lambda _f: self._thinking.pop(key, None))
        return await asyncio.shield(running)

    # --- hints ---------------------------------------------------------------------------------
    async def hint(self, live: LiveMatch, seat: int, move: int | None = None) -> Answer:
        """The veteran's suggested move for ``seat``, which must be the seat to move:
        ``{"move": n, "hint": {notation, kind, description, fields}}``.

        It is computed in the worker pool from ``state.observation(seat)`` alone, within
        ``Settings.hint_budget`` seconds. ``move``, when given, must be the current move.
        """
        state = live.state  # states are replaced, never changed in place: no lock needed
        number = state.move_number
        if state.is_terminal():
            raise ServerError("game_over", "the game is over: there is nothing to hint")
        if move is not None and move != number:
            raise ServerError("stale_move", f"you saw move {move}; the game is at move {number}")
        if state.current_player != seat:
            raise ServerError("not_your_turn", f"it is seat {state.current_player}'s turn, not "
                              f"seat {seat}'s: a hint is for the seat to move")
        key = (live.id, seat, number)
        cached = self.hints.get(key)
        if cached is not None:
            return cached

        async def compute() -> Answer:
            observation = state.observation(seat)
            rng = random.Random(fresh_seed())
            try:
                notation = await self.bots.hint(live.spec, observation,
                                                self.settings.hint_budget, rng,
                                                live.memory_of(seat), owner=live.id)
                action = state.parse_action(notation)
            except Exception:
                log.exception("match %s: no hint for seat %d at move %d", live.id, seat,
                              number)
                raise ServerError("server_error", "the veteran could not find a hint") from None
            answer = {"move": number, "hint": action_json(state, action)}
            keep(self.hints, key, answer, self.settings.cache_size)
            return answer

        return await self._once(("hint", *key), compute)

    # --- reviews -------------------------------------------------------------------------------
    async def review(self, live: LiveMatch, seat: int | None) -> Answer:
        """The veteran's review of a finished match: for ``seat``, that seat's decisions; for
        ``None`` (a spectator), every seat's.

        Each seat's review runs in the worker pool (seats in parallel), with
        ``review_total / decisions`` seconds per decision, between ``review_floor`` and
        ``review_budget``; it is cached in memory, so asking again is instant.
        """
        if not live.finished:
            raise ServerError("not_finished", "a game is reviewed when it is over (it is at "
                              f"move {live.state.move_number})")
        seats = [seat] if seat is not None else list(range(live.game.num_players))
        parts = await asyncio.gather(*(self._seat_review(live, s) for s in seats))
        moves = sorted((m for part in parts for m in part["moves"]), key=lambda m: m["index"])
        return {
            "match_id": live.id,
            "seat": seat,
            "total": live.state.move_number,
            "seats": [{k: v for k, v in part.items() if k != "moves"} for part in parts],
            "moves": moves,
        }

    def budget(self, decisions: int) -> float:
        """Seconds per decision of a seat's review with so many decisions."""
        settings = self.settings
        return min(settings.review_budget,
                   max(settings.review_floor, settings.review_total / max(1, decisions)))

    async def _seat_review(self, live: LiveMatch, seat: int) -> Answer:
        """One seat's review, cached."""
        key = (live.id, seat)
        cached = self.reviews.get(key)
        if cached is not None:
            self.reviews.move_to_end(key)
            return cached

        async def compute() -> Answer:
            players = [PlayerInfo(s.name, s.kind) for s in live.seats]
            record = Record.from_state(live.state, players)
            decisions = await asyncio.to_thread(count_decisions, record, seat)
            budget = self.budget(decisions)
            started = time.perf_counter()
            notes = await self.bots.review(record.to_json(), seat, budget, owner=live.id,
                                           cost=budget * decisions)
            moves = await asyncio.to_thread(annotate, record, notes)
            elapsed = time.perf_counter() - started
            log.info("match %s: reviewed seat %d, %d decisions at %.2f s, in %.1f s", live.id,
                     seat, decisions, budget, elapsed)
            part = {"seat": seat, "decisions": decisions, "budget": round(budget, 3),
                    "points_lost": round(sum(m["points_lost"] for m in moves), 2),
                    "moves": moves}
            keep(self.reviews, key, part, self.settings.review_cache)
            return part

        return await self._once(("review", *key), compute)


def count_decisions(record: Record, seat: int) -> int:
    """How many real decisions (two legal actions or more) ``seat`` made in ``record``."""
    state = record.initial_state()
    count = 0
    for text in record.actions:
        if state.current_player == seat and len(state.legal_action_list()) > 1:
            count += 1
        state.apply_notation(text)
    return count


def annotate(record: Record, notes: Sequence[Answer]) -> list[Answer]:
    """The review's notes with what a UI shows: ``move`` (the replay step before the move),
    and the played and suggested actions described on the position they were chosen in
    (``played_description``, ``suggestion``: notation, kind, description, fields)."""
    by_index = {note["index"]: note for note in notes}
    state = record.initial_state()
    out = []
    for index, text in enumerate(record.actions):
        note = by_index.get(index)
        if note is not None:
            played = state.parse_action(text)
            suggested = state.parse_action(note["suggested"])
            out.append({**note, "move": index,
                        "played_description": state.describe_action(played),
                        "suggestion": action_json(state, suggested)})
        state.apply_notation(text)
    return out
