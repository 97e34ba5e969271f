"""Deterministic chance that costs nothing to clone.

A state keeps one integer seed. Each chance event (a shuffle at the start of a round, say) draws
from a :class:`random.Random` derived from the seed and a label naming the event, so the same seed
and the same actions always give the same game, and cloning a state copies one integer.

>>> derive(42, "deal", 1).random() == derive(42, "deal", 1).random()
True
>>> derive(42, "deal", 1).random() == derive(42, "deal", 2).random()
False
"""

from __future__ import annotations

import random

SEED_MAX = 2**63 - 1


def derive(seed: int, *labels: object) -> random.Random:
    """Return a generator determined by ``seed`` and ``labels`` alone (not by PYTHONHASHSEED)."""
    key = ":".join([str(seed), *(str(label) for label in labels)])
    return random.Random(key)


def fresh_seed(rng: random.Random | None = None) -> int:
    """A new seed, from ``rng`` if given (for determinisations), else from the system."""
    if rng is None:
        return random.SystemRandom().randrange(SEED_MAX)
    return rng.randrange(SEED_MAX)
