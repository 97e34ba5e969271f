"""Trivinity: a deck-building game of gods (seed ``002_c825b3f57a62bffb.txt``).

- :mod:`.cards`: the card data (TOML, one file a module), the effect vocabulary, the cost curve.
- :mod:`.engine`: :class:`TrivinityGame`, and the rest of the engine in modules named for what
  they hold: :mod:`.rules`, :mod:`.actions`, :mod:`.state`, :mod:`.legal`, :mod:`.turns`,
  :mod:`.effects` (one handler per effect step), :mod:`.observation`, :mod:`.determinize`,
  :mod:`.setup`.
- :mod:`.text` and :mod:`.render`: cards and positions in English.
- The computer players are in the ai layer: :mod:`triverse.ai.knowledge.trivinity` and
  :mod:`triverse.ai.knowledge.trivinity_mind`.
- :mod:`.carddoc`: ``python -m triverse.games.trivinity.carddoc`` writes the card list.

>>> from triverse.games.trivinity import TrivinityGame
>>> TrivinityGame().title
'Trivinity'
"""

from triverse.games.trivinity.engine import TrivinityAction, TrivinityGame, TrivinityState

__all__ = ["TrivinityAction", "TrivinityGame", "TrivinityState"]
