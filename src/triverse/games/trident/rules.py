"""What Trident's rules set: the two rule variants and the game's limits.

``docs/rules/trident.md`` gives the seed sentence (or the Triolet rulebook's) behind each.

>>> RULES["triolet"].aside, RULES["seed"].exchange_min
(3, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

MAX_PLAYERS: Final = 4
STALL_ROUNDS: Final = 3
"""The game ends, as blocked, after this many rounds of turns in a row without a tile placed."""
ANNOUNCE_AT: Final = 10
"""The bag count is announced once this many tiles or fewer are left (seed)."""
MAX_TIME_LIMIT: Final = 24 * 60 * 60
MAX_RACK_POINTS: Final = 15 + 14 + 13
"""The most a rack of three can hold: the lowest a score can fall at the end."""


@dataclass(frozen=True, slots=True)
class Rules:
    """What a rule variant sets."""

    name: str
    triolet_multipliers: bool
    """A double or triple multiplies the whole Trio it completes (Triolet rulebook)."""
    exchange_min: int
    """Tiles the bag must hold for an exchange."""
    aside: int
    """Tiles set aside, unseen, at the start."""
    bonus_name: str
    """What the +50 for all three rack tiles is called."""


SEED_RULES: Final = Rules("seed", False, 6, 0, "Triton")
TRIOLET_RULES: Final = Rules("triolet", True, 5, 3, "Triolet")
RULES: Final = {"seed": SEED_RULES, "triolet": TRIOLET_RULES}
BONUS_NAMES: Final = (SEED_RULES.bonus_name, TRIOLET_RULES.bonus_name)
"""What the +50 is called in the seed's rules and in the Triolet rulebook (for scoring)."""


def seat_text(seat: int) -> str:
    """A seat as the events name it.

    >>> seat_text(0)
    'Seat 0'
    """
    return f"Seat {seat}"


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an ``s`` unless ``n`` is 1.

    >>> plural(1, "tile"), plural(3, "joker")
    ('1 tile', '3 jokers')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
