"""Triangles (seed 001): draw non-crossing lines between stars; closing an empty triangle scores.

- :mod:`.geometry`: exact integer predicates (orientation, the tolerance test, crossings);
- :mod:`.cloud`: the six boards and the seeded Poisson-disk star clouds;
- :mod:`.board`: per-cloud precomputation (candidate lines, empty triangles), cached and shared;
- :mod:`.engine`: :class:`TrianglesGame`, :class:`TrianglesState`, :class:`Line`;
- :mod:`.text`: the terminal picture.

>>> from triverse.games.triangles import TrianglesGame
>>> state = TrianglesGame(options={"stars": 24}).new_initial_state(seed=1)
>>> len(state.board.stars), state.current_player
(24, 0)
"""

from __future__ import annotations

from triverse.games.triangles.action import Line
from triverse.games.triangles.engine import TrianglesGame, TrianglesState
from triverse.games.triangles.observation import TrianglesObservation

__all__ = ["Line", "TrianglesGame", "TrianglesObservation", "TrianglesState"]
