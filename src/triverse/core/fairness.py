"""Commitments: a hash published before a game (or a contest's draw) that binds its randomness.

A server that keeps a secret (a game's seed, the order of its tiles) publishes, at the start,
the SHA-256 of that secret together with a random *salt*; it reveals the secret and the salt
only at the end. Anyone can then hash them again and compare: the secret cannot have been
changed in between, and the salt (128 random bits) keeps the secret from being guessed from
its hash meanwhile.

Everything hashed is first written as canonical JSON (:func:`canonical`): keys sorted, no
spaces, ASCII only, so that every language's JSON library gives the same bytes.

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
from typing import Any

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
