"""Every Triverse game as an OpenSpiel game and as a PettingZoo AEC environment.

Both adapters are generic: they are built from the core model (:class:`triverse.core.game.Game`
and :class:`~triverse.core.game.State`) alone, so every game in
:func:`triverse.games.available_games` is covered, and so is a game added later.

- :mod:`triverse.adapters.openspiel`: importing it registers ``triverse_<game>`` with OpenSpiel
  (needs ``open_spiel``).
- :mod:`triverse.adapters.pettingzoo`: ``env(game, **options)`` (needs ``pettingzoo`` and
  ``gymnasium``).

This package imports neither library; it holds what the two adapters share: the returns
convention and the canonical form of an observation string. ``docs/adapters.md`` is the guide.

Returns. A game's final standings become zero-sum returns in ``[-1, 1]``: each seat gets, over
the ``n - 1`` other seats, the fraction it finished ahead of minus the fraction it finished behind.
In a two-player game that is +1 for a win, -1 for a loss and 0 for a draw; in a four-player game
the places 1st to 4th are worth +1, +1/3, -1/3, -1, and seats that tie share the value.

>>> rank_returns((1, 2))
(1.0, -1.0)
>>> rank_returns((1, 1))
(0.0, 0.0)
>>> [round(r, 3) for r in rank_returns((2, 1, 4, 2))]
[0.0, 1.0, -1.0, 0.0]
>>> canonical_json({"b": [1, 2], "a": None})
'{"a":null,"b":[1,2]}'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

UTILITY_MODES: Final = ("rank", "score")
"""``rank``: zero-sum returns from the final places (the default). ``score``: the raw scores."""


def rank_returns(ranks: Sequence[int]) -> tuple[float, ...]:
    """Zero-sum returns in ``[-1, 1]`` from competition ranks (1 is first; ties share a rank).

    Seat ``i`` gets ``(#seats it beat - #seats that beat it) / (n - 1)``; one seat alone gets 0.
    """
    n = len(ranks)
    if n < 2:
        return (0.0,) * n
    return tuple(
        (sum(1 for other in ranks if other > mine) - sum(1 for other in ranks if other < mine))
        / (n - 1)
        for mine in ranks
    )


def canonical_json(data: Any) -> str:
    """The one text form of a JSON value: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


__all__ = ["UTILITY_MODES", "canonical_json", "rank_returns"]
