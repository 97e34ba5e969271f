"""Verifying a record: the shuffles came in the order the server committed to at the start.

A server publishes, from a game's first move, the commitment
(:func:`triverse.core.fairness.game_commitment`) to its seed, options, setup and deal under a
secret salt; the finished record reveals the seed, the salt and the deal. :func:`verify` checks,
in this order, naming the first check that fails (:class:`VerificationError`):

1. ``commitment``: the record carries a commitment (records of format versions 1 and 2 do not);
2. ``deal``: the deal the record reveals is, entry by entry, the one its seed (with its options
   and setup) gives;
3. ``digest``: hashing the record's game, players, options, seed, setup, deal and salt again
   gives the digest that was published;
4. ``replay``: every action replays legally from that seed: every tile or card drawn comes from
   the seed (a later shuffle included), so a draw the seed did not give makes an action illegal;
5. ``result``: the replay ends with the result the record states.

>>> from dataclasses import replace
>>> from triverse.core.plugins import available_games, load_game
>>> from triverse.core.records import Record
>>> state = load_game(available_games()[0]).new_initial_state(seed=3)
>>> for _ in range(4):
...     _ = state.apply(next(state.legal_actions()))
>>> report = verify(Record.from_state(state, ["Ann", "Bob"], salt="00" * 16))
>>> report.actions
4
>>> verify(replace(Record.from_state(state, ["Ann", "Bob"]), commitment=None))
Traceback (most recent call last):
...
triverse.core.verify.VerificationError: commitment: the record has no commitment (a record \
of format version 1 or 2, or one written without it), so there is nothing to verify it against
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from triverse.core.errors import RecordError
from triverse.core.fairness import commitment, commitment_payload
from triverse.core.game import Result

if TYPE_CHECKING:
    from triverse.core.records import Record

CHECKS = ("commitment", "deal", "digest", "replay", "result")
"""The checks :func:`verify` makes, in order."""


class VerificationError(RecordError):
    """A record whose commitment does not hold: ``check`` (one of :data:`CHECKS`) failed, for
    ``reason``."""

    def __init__(self, check: str, reason: str) -> None:
        self.check = check
        self.reason = reason
        super().__init__(f"{check}: {reason}")


@dataclass(frozen=True, slots=True)
class Draw:
    """A draw seen in the replay: the action that made it, the seat, and what it brought (the
    draw event's secret: the tiles or cards)."""

    action: int
    player: int | None
    drawn: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "player": self.player, "drawn": self.drawn}


@dataclass(frozen=True, slots=True)
class Report:
    """What a verification saw: the digest that holds, the actions replayed, the draws they
    made (from the seed) and the result (``None``: the record states none)."""

    game: str
    digest: str
    actions: int
    draws: tuple[Draw, ...]
    result: Result | None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "digest": self.digest, "actions": self.actions,
                "draws": [d.to_json() for d in self.draws],
                "result": None if self.result is None else self.result.to_json()}


def first_difference(given: Any, expected: Any, path: str = "deal") -> str | None:
    """Where ``given`` first differs from ``expected`` (JSON values), as a path with what each
    holds there; ``None`` if they are equal.

    >>> first_difference({"tiles": [1, 2, 3]}, {"tiles": [1, 5, 3]})
    'deal.tiles[1] is 2 in the record; the seed gives 5'
    >>> first_difference({"order": [0]}, {"order": [0], "aside": 0})
    'deal.aside is missing from the record; the seed gives 0'
    """
    if isinstance(given, dict) and isinstance(expected, dict):
        for key in sorted(set(given) | set(expected), key=str):
            if key not in given:
                return f"{path}.{key} is missing from the record; the seed gives " \
                       f"{expected[key]!r}"
            if key not in expected:
                return f"{path}.{key} is in the record; the seed gives no {key!r}"
            found = first_difference(given[key], expected[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(given, list) and isinstance(expected, list):
        for i, (a, b) in enumerate(zip(given, expected, strict=False)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        if len(given) != len(expected):
            return f"{path} has {len(given)} entries in the record; the seed gives " \
                   f"{len(expected)}"
        return None
    if given != expected or type(given) is not type(expected):
        return f"{path} is {given!r} in the record; the seed gives {expected!r}"
    return None


def verify(record: Record) -> Report:
    """Check ``record``'s commitment, deal, digest, every action and its result (the checks
    of the module's docstring); return what was seen, or raise :class:`VerificationError`
    naming the check that failed and why."""
    block = record.commitment
    if block is None:
        raise VerificationError("commitment", "the record has no commitment (a record of format "
                                "version 1 or 2, or one written without it), so there is "
                                "nothing to verify it against")
    try:
        state = record.initial_state()
    except RecordError as exc:
        raise VerificationError("deal", f"the record's game cannot be set up again: {exc}") \
            from None
    wrong = first_difference(dict(block.deal), state.deal())
    if wrong:
        raise VerificationError("deal", wrong)
    payload = commitment_payload(record.game, len(record.players), record.options, record.seed,
                                 record.setup, dict(block.deal))
    if commitment(block.salt, payload) != block.digest:
        raise VerificationError("digest", f"the published digest {block.digest} is not the "
                                "SHA-256 of the game, options, seed, setup, deal and salt the "
                                "record reveals (docs/records.md)")
    draws = _replay(record, state)
    if record.result is not None:
        if not state.is_terminal():
            raise VerificationError("result", "the record states a result but the game is "
                                    "not over")
        if state.result() != record.result:
            actual = state.result()
            raise VerificationError("result", f"the record says scores "
                                    f"{list(record.result.scores)}; the replay gives "
                                    f"{list(actual.scores)} (places {list(actual.ranks)})")
    return Report(record.game, block.digest, len(record.actions), tuple(draws), record.result)


def _replay(record: Record, state: Any) -> list[Draw]:
    """Replay every action on ``state``; the draws seen (``replay`` fails with the first
    action that does not replay)."""
    draws: list[Draw] = []
    try:
        for index, _text, _state, events in record.steps(state):
            draws += [Draw(index, e.player, dict(e.secret)) for e in events
                      if e.kind == "draw" and e.secret is not None]
    except RecordError as exc:
        raise VerificationError("replay", str(exc)) from None
    return draws
