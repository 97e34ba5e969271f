"""Pydantic models of the ratings' answers (:mod:`triverse.server.ratings`): a leaderboard, a
match's rating changes, a player's public profile. Like the view's models they forbid unknown
keys and coercion: the routes validate what they send through them.

>>> MatchRatings.model_validate({"rated": False, "changes": []}).rated
False
"""

from __future__ import annotations

from pydantic import Field

from triverse.server.schemas import Exact, ResultInfo


class BoardEntry(Exact):
    """A place on a leaderboard: an account's, or a computer level's fixed anchor."""

    rank: int = Field(description="1 is first; equal ratings share a rank")
    name: str = Field(description="the account's name, or the level's (Novice, Average, "
                      "Veteran)")
    rating: int = Field(description="the number shown (docs/server.md, Ratings)")
    games: int = Field(description="rated games played (against a computer level: against it)")
    computer: bool
    level: str | None = Field(description="a computer's level; null for an account")


class Leaderboard(Exact):
    """The best ratings of a game at a player count, best first."""

    game: str
    title: str
    players: int
    entries: list[BoardEntry] = Field(max_length=100)


class RatingChange(Exact):
    """What a rated match changed of one seat's rating (the numbers shown)."""

    seat: int
    name: str
    before: int
    after: int
    delta: int = Field(description="after - before; 0 for a computer")
    computer: bool


class MatchRatings(Exact):
    """A match's rating changes."""

    rated: bool = Field(description="the match counts (or counted) for ratings")
    changes: list[RatingChange] = Field(description="one per seat once the match ended and "
                                        "was rated; empty before")


class GamePlayed(Exact):
    """Finished games of one game on a profile."""

    game: str
    title: str
    played: int


class PlayerRating(Exact):
    """A profile's rating in one game at one player count."""

    game: str
    title: str
    players: int
    rating: int
    games: int


class RecentGame(Exact):
    """A finished game on a profile."""

    match_id: str
    game: str
    title: str
    finished_at: str | None
    players: list[str] = Field(description="the seats' names, in seat order")
    seats: list[int] = Field(description="the seats the player held")
    result: ResultInfo | None
    rated: bool
    record: str = Field(description="the record's path: /api/matches/{id}/record")
    replay: str = Field(description="the replay page's path: /watch/{id}?replay=0")


class Profile(Exact):
    """A player's public profile."""

    name: str
    created: str
    games: list[GamePlayed]
    ratings: list[PlayerRating]
    recent: list[RecentGame] = Field(description="the last finished games, newest first")
