"""Finished games: a match's record, and its positions replayed step by step.

Both are refused (``not_finished``) while the game goes on: a record or an earlier position
would show what the seats may not see yet (the seed, the other hands).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from triverse.core.game import State
from triverse.core.records import PlayerInfo, Record
from triverse.server.errors import ServerError
from triverse.server.live import LiveMatch
from triverse.server.views import render_view


def record_json(live: LiveMatch) -> dict[str, Any]:
    """The record (``docs/records.md``) of a finished match."""
    if not live.finished:
        raise ServerError("not_finished", "the record is available when the game is over "
                          f"(it is at move {live.state.move_number})")
    players = [PlayerInfo(s.name, s.kind) for s in live.seats]
    meta = {"match_id": live.id, "mode": live.mode,
            "created": live.created_at.isoformat(timespec="seconds")}
    # The match's salt: the record's commitment is the one shown from the first move. A match
    # made before commitments (no salt) showed none, so its record carries none either.
    record = Record.from_state(live.state, players, meta, salt=live.salt)
    return (record if live.salt is not None else replace(record, commitment=None)).to_json()


async def replay_view(
    live: LiveMatch, move: int, log_limit: int | None = None
) -> tuple[int, dict[str, Any]]:
    """The public view after ``move`` actions of a finished match, and the total."""
    if not live.finished:
        raise ServerError("not_finished", "a game can be replayed when it is over")
    total = live.state.move_number
    if not 0 <= move <= total:
        raise ServerError("bad_request", f"move is from 0 to {total}, not {move}")

    def build() -> dict[str, Any]:
        state: State[Any] = live.game.new_initial_state(seed=live.seed)
        for entry in live.log[:move]:
            state.apply_notation(entry.action)
        return render_view(live, None, state, live.log[:move], log_limit)

    return total, await asyncio.to_thread(build)
