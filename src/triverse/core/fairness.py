"""Commitments: a hash published before a game (or a contest's draw) that binds its randomness.

A server that keeps a secret (a game's seed, the order of its tiles) publishes, at the start,
the SHA-256 of that secret together with a random *salt*; it reveals the secret and the salt
only at the end. Anyone can then hash them again and compare: the secret cannot have been
changed in between, and the salt (128 random bits) keeps the secret from being guessed from
its hash meanwhile.

Everything hashed is first written as canonical JSON (:func:`canonical`): keys sorted, no
spaces, ASCII only, so that every language's JSON library gives the same bytes.

A game's commitment (:func:`game_commitment`, scheme :data:`SCHEME`) binds its game, options,
seed, setup and the digest of its deal (:meth:`State.deal <triverse.core.game.State.deal>`);
the server shows it from move 0 and a record carries it in a :class:`Commitment` block with
the salt and the deal, which :mod:`triverse.core.verify` checks (``docs/records.md``).

>>> salt = "00" * 16
>>> commitment(salt, {"seed": 42}) == commitment(salt, {"seed": 42})
True
>>> commitment(salt, {"seed": 42}) == commitment(salt, {"seed": 43})
False
>>> canonical({"b": [1, 2], "a": "é"})
b'{"a":"\\\\u00e9","b":[1,2]}'
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from triverse.core.errors import RecordError

if TYPE_CHECKING:
    from triverse.core.game import State

SALT_BYTES = 16
"""The salt's length in bytes (written as twice as many hex digits)."""


def canonical(value: Any) -> bytes:
    """``value`` as canonical JSON bytes: sorted keys, no spaces, ASCII escapes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True).encode("ascii")


def digest(value: Any) -> str:
    """The SHA-256 (hex) of ``value``'s canonical JSON."""
    return hashlib.sha256(canonical(value)).hexdigest()


def new_salt() -> str:
    """A fresh random salt, as hex."""
    return secrets.token_hex(SALT_BYTES)


def commitment(salt: str, payload: Mapping[str, Any]) -> str:
    """The commitment to ``payload`` under ``salt``: the SHA-256 (hex) of the canonical JSON of
    ``payload`` with ``"salt"`` added (``payload`` must not have a key ``salt``)."""
    if "salt" in payload:
        raise ValueError("a commitment's payload has no key 'salt': the salt is added to it")
    return digest({**payload, "salt": salt})


# --- a game's commitment -------------------------------------------------------------------------
SCHEME = "triverse-1"
"""The name of the scheme below, written in every commitment (``docs/records.md``)."""


def commitment_payload(game: str, players: int, options: Mapping[str, Any], seed: int,
                       setup: Mapping[str, Any] | None, deal: Any) -> dict[str, Any]:
    """What a game's commitment hashes (with the salt): the scheme, the game, its player count
    and options, the seed, the explicit setup (``None``: the seed dealt it) and the SHA-256 of
    the deal's canonical JSON (:meth:`State.deal <triverse.core.game.State.deal>`).

    >>> commitment_payload("toy", 2, {}, 7, None, {"deck": [1]})["deal"] == digest({"deck": [1]})
    True
    """
    return {"scheme": SCHEME, "game": game, "players": players, "options": dict(options),
            "seed": seed, "setup": None if setup is None else dict(setup),
            "deal": digest(deal)}


def game_commitment(state: State[Any], salt: str) -> str:
    """The commitment (hex) to the randomness of ``state``'s game under ``salt``: the one a
    server shows from the first move and a record carries (the same function for both)."""
    return Commitment.of(state, salt).digest


_HEX = frozenset("0123456789abcdef")


def _hex_field(data: Mapping[str, Any], name: str, length: int) -> str:
    value = data.get(name)
    if not isinstance(value, str) or len(value) != length or not set(value) <= _HEX:
        raise RecordError(f"commitment.{name} must be {length} lowercase hex digits, "
                          f"not {value!r}")
    return value


@dataclass(frozen=True)
class Commitment:
    """A record's ``commitment`` block: the digest shown before the game, and, revealed at its
    end, the salt and the deal it was computed from (``docs/records.md``).

    >>> block = {"scheme": SCHEME, "digest": "ab" * 32, "salt": "00" * 16, "deal": {"a": [1]}}
    >>> Commitment.from_json(block).to_json() == block
    True
    >>> Commitment.from_json({**block, "salt": "xyz"})
    Traceback (most recent call last):
    ...
    triverse.core.errors.RecordError: commitment.salt must be 32 lowercase hex digits, not 'xyz'
    """

    digest: str
    salt: str
    deal: Mapping[str, Any]
    scheme: str = SCHEME

    @classmethod
    def of(cls, state: State[Any], salt: str) -> Commitment:
        """The commitment of ``state``'s game under ``salt`` (:data:`SALT_BYTES` bytes as
        lowercase hex, else :class:`RecordError`)."""
        _hex_field({"salt": salt}, "salt", 2 * SALT_BYTES)
        game, deal = state.game, state.deal()
        payload = commitment_payload(game.name, game.num_players, game.options, state.seed,
                                     state.setup(), deal)
        return cls(commitment(salt, payload), salt, deal)

    def to_json(self) -> dict[str, Any]:
        return {"scheme": self.scheme, "digest": self.digest, "salt": self.salt,
                "deal": dict(self.deal)}

    @classmethod
    def from_json(cls, data: object) -> Commitment:
        """Check and read a block; :class:`RecordError` names the field that is wrong."""
        if not isinstance(data, dict):
            raise RecordError("'commitment' must be an object or null")
        if data.get("scheme") != SCHEME:
            raise RecordError(f"commitment.scheme is {data.get('scheme')!r}; this Triverse "
                              f"knows {SCHEME!r}")
        unknown = sorted(set(data) - {"scheme", "digest", "salt", "deal"})
        if unknown:
            raise RecordError(f"commitment.{unknown[0]}: not a field of a commitment")
        digest_hex = _hex_field(data, "digest", 64)
        salt = _hex_field(data, "salt", 2 * SALT_BYTES)
        deal = data.get("deal")
        if not isinstance(deal, dict):
            raise RecordError(f"commitment.deal must be an object, not {deal!r}")
        return cls(digest_hex, salt, deal)
