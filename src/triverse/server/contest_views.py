"""What a contest looks like in answers (``docs/contests.md``, "The contest"): its rows and its
boards' matches, rendered as JSON. Nothing secret goes in: no secret or token hash, no match
seed, no rack; the contest's seed and salt only once the draw is made.

A contest whose draw is being made (stored status ``closing``, for a moment) shows as
``running`` without boards, and without the seed and salt yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from triverse.server.clock import iso_utc
from triverse.server.contest_draw import Standing, overall, places, reward
from triverse.server.contest_store import ContestData, Summary
from triverse.server.live import LiveMatch
from triverse.server.repository import aware
from triverse.server.seats import spectator_link

PUBLIC_STATUS = {"closing": "running"}
"""Stored statuses shown as another (the draw being made: sign-up is closed)."""
REVEALED = ("running", "finished")
"""The statuses in which the draw's seed and salt are shown."""


def public_status(status: str) -> str:
    """The status a contest shows.

    >>> public_status("closing"), public_status("signup")
    ('running', 'signup')
    """
    return PUBLIC_STATUS.get(status, status)


def summary_json(summary: Summary, game_title: str) -> dict[str, Any]:
    """A contest as ``GET /api/contests`` lists it."""
    contest = summary.contest
    return {"id": contest.id, "title": contest.title, "game": contest.game,
            "game_title": game_title, "status": public_status(contest.status),
            "entrants": summary.entrants,
            "signup_closes": iso_utc(aware(contest.signup_closes)),
            "host": contest.host_name}


def entry_json(entry: Any) -> dict[str, Any]:
    """An entrant as the contest lists it."""
    return {"entry": entry.entry, "name": entry.name, "kind": entry.kind,
            "account": entry.account_id is not None, "removed": bool(entry.removed),
            "board": entry.board, "seat": entry.seat}


def me_json(entry: Any | None) -> dict[str, Any] | None:
    """The viewer's own entry, in the contest's ``me``."""
    if entry is None:
        return None
    return {"entry": entry.entry, "board": entry.board, "seat": entry.seat,
            "removed": bool(entry.removed)}


def missed_turns(live: LiveMatch) -> list[int]:
    """How many turns each seat of ``live`` missed: its time-outs (a removed entrant's passed
    turns are recorded as time-outs too)."""
    missed = [0] * len(live.seats)
    for entry in live.log:
        if any(event.kind == "timeout" for event in entry.events):
            missed[entry.seat] += 1
    return missed


def board_seats(data: ContestData, board: int, live: LiveMatch) -> list[dict[str, Any]]:
    """A board's seats in seat (posting) order, with live scores, missed turns and, once its
    match is over, places and rewards."""
    by_seat = {e.seat: e for e in data.entries if e.board == board}
    scores = [int(score) for score in live.state.scores]
    missed = missed_turns(live)
    entries = [by_seat.get(seat.seat) for seat in live.seats]
    removed = [bool(e is not None and e.removed) for e in entries]
    placed: list[int | None] = [None] * len(entries)
    if live.finished:
        placed = places(live.state.result().ranks, removed)
    rewards = list(data.contest.rewards)
    return [{"seat": seat.seat, "entry": None if entry is None else entry.entry,
             "name": seat.name if entry is None else entry.name,
             "kind": seat.kind if entry is None else entry.kind,
             "removed": gone, "score": score, "missed": misses, "place": place,
             "reward": reward(place, rewards) if live.finished and not gone else None}
            for seat, entry, gone, score, misses, place in zip(
                live.seats, entries, removed, scores, missed, placed, strict=True)]


def board_json(data: ContestData, board: Any, live: LiveMatch) -> dict[str, Any]:
    """A board: its match, whose turn it is and until when, and its seats."""
    seats = board_seats(data, board.board, live)
    to_move = live.to_move
    return {"board": board.board, "match_id": live.id, "watch": spectator_link(live.id),
            "status": "finished" if live.finished else "active",
            "move": live.state.move_number, "to_move": to_move,
            "to_move_name": None if to_move is None else seats[to_move]["name"],
            "deadline": (None if live.finished or live.deadline is None
                         else iso_utc(live.deadline)),
            "seats": seats}


def standings_json(boards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The overall table of a finished contest (:func:`~triverse.server.contest_draw.overall`):
    every seated entrant, removed ones last."""
    table = [Standing(seat["entry"], seat["name"], board["board"], seat["place"],
                      seat["reward"], seat["score"], seat["removed"])
             for board in boards for seat in board["seats"] if seat["entry"] is not None]
    return [{"entry": s.entry, "name": s.name, "board": s.board, "place": s.place,
             "reward": s.reward, "score": s.score, "removed": s.removed}
            for s in overall(table)]


def contest_json(data: ContestData, game_title: str,
                 lives: Mapping[str, LiveMatch]) -> dict[str, Any]:
    """The public contest (the websocket's, and ``GET``'s with ``is_host`` false and no
    ``me``): ``lives`` holds its boards' matches by id."""
    contest = data.contest
    status = public_status(contest.status)
    boards = [board_json(data, board, lives[board.match_id]) for board in data.boards
              if board.match_id in lives and contest.status != "closing"]
    revealed = status in REVEALED and contest.status != "closing"
    return {
        "id": contest.id, "title": contest.title, "game": contest.game,
        "game_title": game_title, "options": dict(contest.options),
        "players_per_board": contest.players_per_board,
        "turn_seconds": contest.turn_seconds,
        "signup_closes": iso_utc(aware(contest.signup_closes)),
        "status": status, "cancel_reason": contest.cancel_reason,
        "host": contest.host_name, "is_host": False,
        "rewards": list(contest.rewards), "reward_name": contest.reward_name,
        "entries": [entry_json(entry) for entry in data.entries],
        "boards": boards,
        "standings": standings_json(boards) if status == "finished" else [],
        "announcements": [{"at": iso_utc(aware(a.created_at)), "text": a.text}
                          for a in data.announcements],
        "draw": {"commitment": contest.commitment,
                 "seed": contest.seed if revealed else None,
                 "salt": contest.salt if revealed else None},
        "me": None,
    }
