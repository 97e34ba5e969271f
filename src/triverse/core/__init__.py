"""The game model every Triverse game is built on.

- :mod:`triverse.core.game`: :class:`Game` (a configured game definition) and :class:`State`.
- :mod:`triverse.core.events`: the events that :meth:`State.apply` returns.
- :mod:`triverse.core.options`: declared game options and named rule variants.
- :mod:`triverse.core.rng`: deterministic, cheaply cloned chance.
- :mod:`triverse.core.records`: JSON game records.
- :mod:`triverse.core.plugins`: the games, found as plugins through Python entry points.
"""
