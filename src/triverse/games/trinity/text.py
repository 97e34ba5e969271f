"""Trinity in the terminal: the tile games' picture (:mod:`triverse.games._tiles.text`) with the
round, the seats sitting out a tiebreaker, whether Slides score yet, and whether saving is
allowed.

>>> from triverse.games.trinity.engine import TrinityGame
>>> state = TrinityGame(3, {"rounds": 2}).new_initial_state(seed=4)
>>> print(render(state.observation(0)).splitlines()[0])
Trinity: round 1 of 2
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from triverse.games._tiles import text

if TYPE_CHECKING:
    from triverse.games.trinity.engine import TrinityObservation


def render(obs: TrinityObservation) -> str:
    """The whole table as ``obs.player`` sees it."""
    if obs.tiebreaker:
        playing = ", ".join(str(s) for s in obs.active)
        heading = (f"Trinity: tiebreaker round {obs.round - obs.rounds} (seats {playing}; no "
                   f"seat ends it below where it started)")
    else:
        heading = f"Trinity: round {obs.round} of {obs.rounds}"

    def note(seat: int) -> str:
        return "" if seat in obs.active else " (sits out the tiebreaker)"

    slides = ("A Span has been played: a Slide scores +60." if obs.span_played
              else "No Span yet: a two-side play is no Slide until one is played.")
    saving = "Saving is allowed." if obs.can_save else "Saving is not allowed now."
    return text.render(obs, heading, seat_note=note, footer=(slides + " " + saving,))
