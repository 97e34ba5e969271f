"""Trivinity: a deck-building game of gods (seed ``002_c825b3f57a62bffb.txt``).

- :mod:`.cards`: the card data (TOML, one file a module), the effect vocabulary, the cost curve.
- :mod:`.engine`: :class:`TrivinityGame` and its state, actions and observations.
- :mod:`.text` and :mod:`.render`: cards and positions in English.
- :mod:`.bots`: the Trivinity ``average`` computer player.
- :mod:`.carddoc`: ``python -m triverse.games.trivinity.carddoc`` writes the card list.

>>> from triverse.games.trivinity import TrivinityGame
>>> TrivinityGame().title
'Trivinity'
"""

from triverse.games.trivinity.engine import TrivinityAction, TrivinityGame, TrivinityState

__all__ = ["TrivinityAction", "TrivinityGame", "TrivinityState"]
