"""Ratings and public profiles over REST (:mod:`triverse.server.ratings`, ``docs/protocol.md``).

- ``GET /api/ratings/{game}?players=N``: the leaderboard of a game at a player count (the
  game's default count without ``players``), the computer levels' anchors among the entries;
- ``GET /api/matches/{id}/ratings``: what a rated match changed, once it ended;
- ``GET /api/players/{name}``: a player's public profile (``404 unknown_player``).

Anyone may read them, without a token or a session. A leaderboard and a profile each cost a
few bounded queries; they count against ``Settings.rate_players`` per client address.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from triverse.server.rating_models import Leaderboard, MatchRatings, Profile
from triverse.server.routes.deps import ERRORS, Service, limited

router = APIRouter(tags=["ratings"])

NAME_MAX = 64
"""The longest name a profile is looked up by (account names are at most 24 characters)."""


@router.get("/api/ratings/{game}", responses=ERRORS, dependencies=[limited("players")])
async def leaderboard(
    game: str, service: Service,
    players: Annotated[int | None, Query(ge=1, le=16,
                                         description="the player count (default: the "
                                         "game's)")] = None,
) -> Leaderboard:
    """The best ratings of ``game`` at ``players`` seats, best first, the computer levels
    among them (``computer: true``)."""
    return Leaderboard.model_validate(await service.ratings.leaderboard(game, players))


@router.get("/api/matches/{match_id}/ratings", responses=ERRORS)
async def match_ratings(match_id: str, service: Service) -> MatchRatings:
    """``{rated, changes}``: each seat's rating before and after a rated match (empty until
    it is rated, when it ends)."""
    return MatchRatings.model_validate(await service.ratings.changes(match_id))


@router.get("/api/players/{name}", responses=ERRORS, dependencies=[limited("players")])
async def profile(
    name: Annotated[str, Path(max_length=NAME_MAX)], service: Service,
) -> Profile:
    """A player's public profile: games played per game, ratings, recent finished games."""
    return Profile.model_validate(await service.ratings.profile(name))
