"""Tri-ominoes in the terminal: the tile games' picture (:mod:`triverse.games._tiles.text`) with
the variant, the target and the announced opening.

>>> from triverse import load_game
>>> state = load_game("triominoes", players=2).new_initial_state(seed=4)
>>> print(render(state.observation(0)).splitlines()[0])
Tri-ominoes, seed rules: round 1, target 400
>>> from triverse.games.triominoes.tiles import Place, tile
>>> describe(Place(tile("1-3-5"), (1, 0), 1))
'play 1-3-5 at 1,0, corners clockwise from top left: 3 5 1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from triverse.games._tiles import text
from triverse.games._tiles.text import describe

if TYPE_CHECKING:
    from triverse.games.triominoes.engine import TriominoesObservation

__all__ = ["describe", "render"]


def render(obs: TriominoesObservation) -> str:
    """The whole table as ``obs.player`` sees it."""
    status = None
    if obs.opening:
        names = " or ".join(str(t) for t in obs.opening)
        status = f"Seat {obs.current_player} opens the round with {names}."
    return text.render(obs, f"Tri-ominoes, {obs.variant} rules: round {obs.round}, target "
                            f"{obs.target}", status)
