"""Seats and tokens: who may sit where, and which seat a token opens.

A human seat gets a random secret token when its match is created; the database keeps only
its sha256 (:func:`~triverse.server.db.hash_token`). :func:`open_seat` is the one check of a
token against a match's seats: the seat's own token, or a device key (a token minted for an
account's seat and one logged-in browser, :func:`device_key`), looked up in the database;
:func:`check_seats` the one check of the seats asked for a new
match; :func:`my_game_json` describes a seat a token opens, for "my games".

>>> seat_link("abc", 1, "TOKEN")
'/play/abc?seat=1#TOKEN'
>>> check_seats("Trinity", 2, 3, [SeatRequest("human"), SeatRequest("veteran", think=2)],
...             "computer")
[('human', 'Player 1', None), ('veteran', 'Veteran 2', 2.0)]
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from triverse.ai import LEVELS
from triverse.server.clock import iso_utc
from triverse.server.db import hash_token
from triverse.server.errors import ServerError, clip
from triverse.server.live import LiveMatch
from triverse.server.repository import HeldSeat, KeyedSeat, aware

MODES = ("computer", "hotseat", "online", "open")
"""``computer``: one human (or none, to watch) against computer players; ``hotseat``: several
human seats in one browser; ``online``: human seats invited by link; ``open``: the creator
takes the first human seat and the others wait in the lobby for whoever takes them."""
MAX_NAME = 40
THINK_RANGE = (0.2, 5.0)
"""The seconds a seat's thinking time may be (``SeatRequest.think``), inclusive."""
THINKING_LEVELS = ("veteran",)
"""The computer levels that search within a time budget per move (``docs/ai.md``), so that a
seat of that level may be given a thinking time; the others answer at once."""

CheckedSeat = tuple[str, str, float | None]
"""A seat checked for a new match: its kind, its name and its thinking time."""


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A seat asked for when creating a match."""

    kind: str = "human"
    name: str | None = None
    think: float | None = None
    """Seconds a computer seat of one of the :data:`THINKING_LEVELS` may think about a move
    (``None``: the game's default)."""


def seat_link(match_id: str, seat: int, token: str) -> str:
    """The invite link of a seat: the token sits in the fragment, which browsers never send."""
    return f"/play/{match_id}?seat={seat}#{token}"


def spectator_link(match_id: str) -> str:
    """The link that shows a match's public view.

    >>> spectator_link("abc")
    '/watch/abc'
    """
    return f"/watch/{match_id}"


def new_token() -> str:
    """A fresh secret seat token (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


KeyLookup = Callable[[str, str], Awaitable[KeyedSeat | None]]
"""Finds the seat a device key opens: ``(match_id, sha256 of the key)`` to the seat, while
its session lives (:meth:`MatchRepository.seat_for_key
<triverse.server.repository.MatchRepository.seat_for_key>`)."""



async def open_seat(
    live: LiveMatch, token: str | None, seat: int | None, required: bool, keys: KeyLookup,
) -> KeyedSeat | None:
    """The seat ``token`` opens: the seat's own token, else a device key an account's session
    holds (``keys`` looks it up, in the database every time, so that a key stops working as
    its session ends). ``until`` is when the device key's session ends (``None``: a seat's
    own token, which never ends). ``seat``, when given, must be the token's seat.
    ``missing_token`` without a token (when ``required``, or with a ``seat``), ``wrong_token``
    for a token that opens no seat, or another seat."""
    if not _given(token, seat, required):
        return None
    assert token is not None
    digest = hash_token(token)
    found = live.seat_for_hash(digest)
    if found is not None:
        return KeyedSeat(_checked(live, seat, found), None)
    keyed = await keys(live.id, digest)
    return KeyedSeat(_checked(live, seat, None if keyed is None else keyed.seat),
                     None if keyed is None else keyed.until)


def _given(token: str | None, seat: int | None, required: bool) -> bool:
    """Whether a token was given (``missing_token`` if one is needed and missing)."""
    if token:
        return True
    if required:
        raise ServerError("missing_token", "this needs a seat token (header "
                          "X-Seat-Token, or 'token' in the websocket hello)")
    if seat is not None:
        raise ServerError("missing_token", f"seat {seat} needs its token")
    return False


def _checked(live: LiveMatch, seat: int | None, found: int | None) -> int:
    """``found``, the seat a token opens, if it opens one and it is ``seat`` (when given);
    ``wrong_token`` otherwise."""
    if found is None:
        raise ServerError("wrong_token", f"this token opens no seat of match {live.id!r}")
    if seat is not None and seat != found:
        raise ServerError("wrong_token", f"this token is not seat {seat}'s")
    return found


def device_key(session_token: str, match_id: str, seat: int) -> str:
    """The device key of ``seat`` of ``match_id`` for the session whose cookie is
    ``session_token``: an HMAC-SHA256 keyed by the cookie, so that listing the account's games
    twice gives the same link, and no secret is stored (the server keeps only the key's
    sha256, and never the cookie). Another session gets another key.

    >>> key = device_key("cookie", "abc", 1)
    >>> len(key), key == device_key("cookie", "abc", 1), key == device_key("other", "abc", 1)
    (43, True, False)
    """
    digest = hmac.new(session_token.encode(), f"seat-key:{match_id}:{seat}".encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def check_seats(
    title: str, min_players: int, max_players: int, seats: Sequence[SeatRequest], mode: str,
) -> list[CheckedSeat]:
    """The seats of a new match of the game ``title``, checked, with their names filled in
    (``bad_request`` for an unknown mode, ``bad_seats`` for anything wrong with a seat)."""
    if mode not in MODES:
        raise ServerError("bad_request", f"mode is one of {', '.join(MODES)}, not {clip(mode)}")
    if not min_players <= len(seats) <= max_players:
        raise ServerError("bad_seats", f"{title} is for {min_players} to "
                          f"{max_players} players, not {len(seats)}")
    out = [_check_seat(i, seat) for i, seat in enumerate(seats)]
    humans = sum(1 for kind, _, _ in out if kind == "human")
    if mode == "computer" and (humans > 1 or humans == len(out)):
        raise ServerError("bad_seats", "a game against the computer has at most one human "
                          "seat and at least one computer seat")
    if mode in ("hotseat", "online", "open") and humans < 2:
        why = ("the creator's and at least one free seat for the lobby" if mode == "open"
               else "use mode 'computer' for one")
        article = "an" if mode[0] in "aeiou" else "a"
        raise ServerError("bad_seats", f"{article} {mode} game needs at least two human seats "
                          f"({why})")
    return out


def _check_seat(i: int, seat: SeatRequest) -> CheckedSeat:
    kinds = ("human", *LEVELS)
    if seat.kind not in kinds:
        raise ServerError("bad_seats", f"seats[{i}].kind is {clip(seat.kind)}; it is one "
                          f"of {', '.join(kinds)}")
    name = (seat.name or "").strip()
    if len(name) > MAX_NAME:
        raise ServerError("bad_seats", f"seats[{i}].name is longer than {MAX_NAME} "
                          "characters")
    if not name:
        name = f"Player {i + 1}" if seat.kind == "human" else (
            f"{seat.kind.capitalize()} {i + 1}")
    return seat.kind, name, check_think(i, seat)


def check_think(i: int, seat: SeatRequest) -> float | None:
    """The seat's thinking time, checked: only for a level that searches, within
    :data:`THINK_RANGE`."""
    think = seat.think
    if think is None:
        return None
    if isinstance(think, bool) or not isinstance(think, int | float):
        raise ServerError("bad_seats", f"seats[{i}].think is a number of seconds, not "
                          f"{think!r}")
    if seat.kind == "human":
        raise ServerError("bad_seats", f"seats[{i}].think is for a computer seat: a "
                          "human thinks as long as they like")
    if seat.kind not in THINKING_LEVELS:
        raise ServerError("bad_seats", f"seats[{i}].think: the {seat.kind} level does "
                          "not search, so it takes no thinking time (only "
                          f"{', '.join(THINKING_LEVELS)} does)")
    low, high = THINK_RANGE
    if not low <= think <= high:  # NaN fails too
        raise ServerError("bad_seats", f"seats[{i}].think is {think} seconds; it is from "
                          f"{low:g} to {high:g}")
    return float(think)


def my_game_json(held: HeldSeat, token: str, title: str) -> dict[str, Any]:
    """A seat that ``token`` opens, as "my games" lists it (``title``: its game's)."""
    seat, match = held.seat, held.match
    finished = match.status == "finished"
    return {
        "match_id": match.id,
        "game": match.game,
        "title": title,
        "mode": match.mode,
        "seat": seat.seat,
        "name": seat.name,
        "link": seat_link(match.id, seat.seat, token),
        "players": [{"seat": s.seat, "name": s.name, "kind": s.kind, "think": s.think}
                    for s in held.everyone],
        "move": match.move_count,
        "to_move": match.to_move,
        "your_turn": match.status == "active" and match.to_move == seat.seat,
        "paused": match.paused,
        "finished": finished,
        "result": match.result,
        "deadline": (None if finished or match.deadline is None
                     else iso_utc(match.deadline)),
        "created_at": aware(match.created_at).isoformat(timespec="seconds"),
        "updated_at": aware(match.updated_at).isoformat(timespec="seconds"),
    }
