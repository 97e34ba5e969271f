"""Ratings: OpenSkill (Plackett-Luce) per game and player count, anchored by the computers.

A match is *rated* when it was created rated (``matches.rated``) and, when it ends, every human
seat belongs to an account, each to a different one. Each seat is a team of one, ranked by the
result's places (:class:`~triverse.core.game.Result`; tied seats share a place). Accounts start
at the model's prior (``mu`` 25, ``sigma`` 25/3). A computer seat plays at the fixed *anchor*
rating of its level in that game (:func:`anchors`), which no result ever changes: a rating means
something from the first game against a computer.

The anchors come from the arena (``docs/ai.md``, *Measurements*): the win rates of the average
against the novice and of the veteran (at its default thinking time, as the server plays it)
against the average, over the games measured, give maximum-likelihood Elo ratings averaging
1500 (:func:`triverse.ai.stats.elo_ratings`, as ``triverse arena`` reports them). An Elo gap is
turned into a gap of ``mu`` by matching the two models' win probabilities for two players:
Plackett-Luce gives ``1 / (1 + exp(-(mu_a - mu_b) / c))`` with ``c = sqrt(sigma_a**2 + sigma_b**2
+ 2 * beta**2)``, about ``sqrt(2) * beta`` for settled ratings; Elo gives ``1 / (1 + 10 ** (-d /
400))``. So ``d = ELO_PER_MU * (mu_a - mu_b)`` with ``ELO_PER_MU = 400 / (ln 10 * sqrt(2) *
beta)``, about 29.5 Elo points per point of ``mu``; an anchor's ``mu`` is ``25 + (elo - 1500) /
ELO_PER_MU`` (1500, the arena's mean, is a new account's ``mu``), its ``sigma``
:data:`ANCHOR_SIGMA`.

The number shown is the conservative estimate ``mu - 3 sigma`` on the arena's Elo scale,
shifted so that an anchor shows its arena Elo: ``round(DISPLAY_BASE + ELO_PER_MU * (mu - 3 *
sigma))`` with ``DISPLAY_BASE = 1500 - ELO_PER_MU * (25 - 3 * ANCHOR_SIGMA)``, about 851, which
is what a new account shows (its ``mu - 3 sigma`` is 0); it rises as games make the rating
surer. The arena measured two-player games only: the same anchors serve 3 and 4 players.

>>> display(MU, SIGMA)
851
>>> [display(a.mu, a.sigma) for a in anchors("trident").values()]
[916, 1729, 1855]

A match is rated once, by the process that stored its last move (a listener of the referee,
:meth:`Ratings.match_ended`), in one transaction: the rows of ``rating_changes`` (primary key:
match and seat) refuse a second writer, and the account's ratings are locked while they are read
and written (``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite the transaction's first
statement is a write, which takes the database's write lock), so that two matches ending at once
for one account both count.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Table, distinct, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from triverse.ai import LEVELS
from triverse.ai.stats import ELO_MEAN, elo_ratings
from triverse.core.game import Result
from triverse.core.plugins import plugins
from triverse.server.accounts import name_key
from triverse.server.catalog import GameCatalog
from triverse.server.clock import Clock
from triverse.server.db import AccountRow, MatchRow, RatingChangeRow, RatingRow, SeatRow
from triverse.server.errors import ServerError, clip
from triverse.server.live import LiveMatch
from triverse.server.repository import aware

__all__ = [
    "ANCHOR_SIGMA",
    "ELO_PER_MU",
    "MODEL",
    "Ratings",
    "Skill",
    "anchors",
    "arena",
    "display",
    "rate",
]

MODEL = PlackettLuce(limit_sigma=True)
"""The rating model: OpenSkill's Plackett-Luce with its default prior (``mu`` 25, ``sigma`` 25/3,
``beta`` 25/6, ``tau`` 25/300); ``limit_sigma``: a result never makes a rating less sure."""
MU: float = MODEL.mu
SIGMA: float = MODEL.sigma
BETA: float = MODEL.beta
ELO_PER_MU = 400.0 / (math.log(10.0) * math.sqrt(2.0) * BETA)
"""Elo points per point of ``mu`` (about 29.5; see the module)."""
ANCHOR_SIGMA = 1.0
"""The uncertainty of a computer level's anchor rating: small, it is measured over hundreds of
games, and never updated."""
DISPLAY_BASE = ELO_MEAN - ELO_PER_MU * (MU - 3.0 * ANCHOR_SIGMA)
"""What a rating of ``mu - 3 sigma = 0`` (a new account's) shows (about 851)."""
BOARD_SIZE = 100
"""The most entries a leaderboard shows."""
RECENT = 10
"""The finished games a profile lists."""
MISSED = 100
"""The most finished rated matches left unrated that a start-up rates."""

Pair = tuple[float, int]
"""A match-up measured in the arena: the first entry's win rate, over so many games."""


@functools.cache
def arena() -> dict[str, tuple[Pair, Pair]]:
    """Per game, what its plugin says the arena measured (:attr:`GamePlugin.ladder
    <triverse.core.plugins.GamePlugin.ladder>`, from ``docs/ai.md``'s ladder): the average
    against the novice, and the veteran at its default thinking time against the average."""
    return {name: plugin.ladder for name, plugin in plugins().items()
            if plugin.ladder is not None}


def _pooled() -> tuple[Pair, Pair]:
    """Every game's results added up: the figures of a game the arena has not measured."""
    out = []
    for k in range(2):
        games = sum(pairs[k][1] for pairs in arena().values())
        wins = sum(pairs[k][0] * pairs[k][1] for pairs in arena().values())
        out.append((wins / games, games))
    return out[0], out[1]


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating: the model's mean and uncertainty."""

    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The number players see (:func:`display`)."""
        return display(self.mu, self.sigma)

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: what leaderboards sort by."""
        return self.mu - 3.0 * self.sigma


def display(mu: float, sigma: float) -> int:
    """The rating players see: ``round(DISPLAY_BASE + ELO_PER_MU * (mu - 3 sigma))``.

    >>> display(MU + 10, 1.0) - display(MU, 1.0)   # 10 points of mu: about 295 Elo
    295
    """
    return round(DISPLAY_BASE + ELO_PER_MU * (mu - 3.0 * sigma))


@functools.cache
def anchor_elo(game: str) -> dict[str, float]:
    """The arena's Elo of each computer level in ``game`` (the pooled figures for a game the
    arena has not measured), averaging 1500.

    >>> {level: round(elo) for level, elo in anchor_elo("trinity").items()}
    {'novice': 1364, 'average': 1527, 'veteran': 1609}
    """
    (low, low_games), (high, high_games) = arena().get(game) or _pooled()
    novice, average, veteran = LEVELS
    pairs = {(average, novice): (low * low_games, (1 - low) * low_games),
             (veteran, average): (high * high_games, (1 - high) * high_games)}
    return elo_ratings(list(LEVELS), pairs)


def anchors(game: str) -> dict[str, Skill]:
    """Each computer level's fixed rating in ``game``: ``mu = 25 + (elo - 1500) /
    ELO_PER_MU``, ``sigma = ANCHOR_SIGMA``.

    >>> [round(skill.mu, 1) for skill in anchors("trident").values()]
    [5.2, 32.8, 37.0]
    """
    return {level: Skill(MU + (elo - ELO_MEAN) / ELO_PER_MU, ANCHOR_SIGMA)
            for level, elo in anchor_elo(game).items()}


def rate(ranks: Sequence[int], before: Sequence[Skill], fixed: Sequence[bool]) -> list[Skill]:
    """The ratings after a match: each seat a team of one, placed by ``ranks`` (1 first; equal
    ranks tie); a ``fixed`` seat (a computer's anchor) keeps its rating.

    >>> winner, loser = rate([1, 2], [Skill(MU, SIGMA), Skill(MU, SIGMA)], [False, False])
    >>> winner.mu > MU > loser.mu and winner.shown > display(MU, SIGMA) > loser.shown
    True
    >>> rate([2, 1], [Skill(MU, SIGMA), Skill(20.0, 1.0)], [False, True])[1]
    Skill(mu=20.0, sigma=1.0)
    """
    if not len(ranks) == len(before) == len(fixed) >= 2:
        raise ValueError("a rated match has two seats or more, each with a rank and a rating")
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [old if keep else Skill(team[0].mu, team[0].sigma)
            for old, keep, team in zip(before, fixed, after, strict=True)]


@dataclass(frozen=True, slots=True)
class SeatSkill:
    """A seat of a match being rated: who holds it, and its rating before."""

    seat: int
    kind: str
    name: str
    account_id: str | None
    before: Skill


RATINGS = cast(Table, RatingRow.__table__)
CHANGES = cast(Table, RatingChangeRow.__table__)


def countable(seats: Sequence[tuple[str, str | None]]) -> bool:
    """Whether seats ``(kind, account id)`` make a rated match count: at least one human seat,
    every one an account's, no account twice.

    >>> countable([("human", "a"), ("novice", None)]), countable([("human", "a"), ("human", "a")])
    (True, False)
    >>> countable([("human", "a"), ("human", None)])
    False
    """
    accounts = [account for kind, account in seats if kind == "human"]
    return (bool(accounts) and None not in accounts
            and len(set(accounts)) == len(accounts))


class Ratings:
    """Rating matches as they end, and the leaderboards, match changes and profiles read from
    them (see the module). ``run`` runs a blocking function off the event loop (the
    repository's threads)."""

    def __init__(self, engine: Engine, clock: Clock, catalog: GameCatalog,
                 run: Callable[..., Awaitable[Any]]) -> None:
        self.engine = engine
        self.clock = clock
        self.catalog = catalog
        self._run = run

    def _title(self, game: str) -> str:
        entry = self.catalog.get(game)
        return entry.title if entry is not None else game

    # --- rating ---------------------------------------------------------------------------------
    async def match_ended(self, live: LiveMatch, number: int) -> None:
        """The referee's ``after_move`` listener: rate ``live`` if move ``number`` ended it."""
        if live.rated and live.finished:
            await self.rate(live.id)

    async def rate(self, match_id: str) -> list[SeatSkill] | None:
        """Rate a finished rated match, once; the seats with their ratings before (``None``
        if it does not count, is not finished, or was rated already)."""
        result: list[SeatSkill] | None = await self._run(self._rate, match_id,
                                                         self.clock.now())
        return result

    async def rate_missed(self) -> int:
        """Rate the finished rated matches that were not (a process stopped between storing
        a match's last move and rating it): the :data:`MISSED` most recently finished, at
        start-up; how many were rated."""
        rated = 0
        for match_id in await self._run(self._missed):
            if await self.rate(match_id) is not None:
                rated += 1
        return rated

    def _missed(self) -> list[str]:
        human_guest = (select(SeatRow.seat)
                       .where(SeatRow.match_id == MatchRow.id, SeatRow.kind == "human",
                              SeatRow.account_id.is_(None)).exists())
        changed = select(RatingChangeRow.seat).where(
            RatingChangeRow.match_id == MatchRow.id).exists()
        with self.engine.connect() as c:
            return list(c.execute(
                select(MatchRow.id)
                .where(MatchRow.rated.is_(True), MatchRow.status == "finished", ~changed,
                       ~human_guest)
                .order_by(MatchRow.finished_at.desc()).limit(MISSED)).scalars())

    def _rate(self, match_id: str, now: datetime) -> list[SeatSkill] | None:
        try:
            with self.engine.begin() as connection:
                return self._rate_in(connection, match_id, now)
        except IntegrityError:  # another writer rated it first (rating_changes' key)
            return None

    def _rate_in(self, c: Connection, match_id: str, now: datetime) -> list[SeatSkill] | None:
        match = c.execute(select(MatchRow.game, MatchRow.num_players, MatchRow.rated,
                                 MatchRow.status, MatchRow.result)
                          .where(MatchRow.id == match_id)).first()
        if (match is None or not match.rated or match.status != "finished"
                or match.result is None):
            return None
        seats = c.execute(select(SeatRow.seat, SeatRow.kind, SeatRow.name, SeatRow.account_id)
                          .where(SeatRow.match_id == match_id).order_by(SeatRow.seat)).all()
        if not countable([(s.kind, s.account_id) for s in seats]):
            return None
        game, players = match.game, match.num_players
        accounts = sorted(s.account_id for s in seats if s.account_id is not None)
        # The first write: a new account's prior (on SQLite this takes the write lock, so that
        # nothing read below changes before the commit).
        new = [{"account_id": a, "game": game, "players": players, "mu": MU, "sigma": SIGMA,
                "games": 0, "updated_at": now} for a in accounts]
        upsert = pg_insert if c.dialect.name == "postgresql" else sqlite_insert
        c.execute(upsert(RATINGS).values(new).on_conflict_do_nothing())
        rows = c.execute(
            select(RatingRow.account_id, RatingRow.mu, RatingRow.sigma)
            .where(RatingRow.account_id.in_(accounts), RatingRow.game == game,
                   RatingRow.players == players)
            .order_by(RatingRow.account_id).with_for_update()).all()
        if c.execute(select(RatingChangeRow.seat).where(RatingChangeRow.match_id == match_id)
                     .limit(1)).first() is not None:
            return None  # rated already (the lock above waited for its writer)
        held = {row.account_id: Skill(row.mu, row.sigma) for row in rows}
        fixed = anchors(game)
        rated = [SeatSkill(s.seat, s.kind, s.name, s.account_id,
                           held[s.account_id] if s.kind == "human" else fixed[s.kind])
                 for s in seats]
        ranks = Result.from_json(match.result).ranks
        after = rate(ranks, [s.before for s in rated], [s.kind != "human" for s in rated])
        for seat, skill in zip(rated, after, strict=True):
            if seat.account_id is not None:
                c.execute(update(RatingRow)
                          .where(RatingRow.account_id == seat.account_id,
                                 RatingRow.game == game, RatingRow.players == players)
                          .values(mu=skill.mu, sigma=skill.sigma, games=RatingRow.games + 1,
                                  updated_at=now))
        c.execute(CHANGES.insert(), [
            {"match_id": match_id, "seat": seat.seat, "account_id": seat.account_id,
             "mu_before": seat.before.mu, "sigma_before": seat.before.sigma,
             "mu_after": skill.mu, "sigma_after": skill.sigma, "created_at": now}
            for seat, skill in zip(rated, after, strict=True)])
        return rated

    # --- reading --------------------------------------------------------------------------------
    async def changes(self, match_id: str) -> dict[str, Any]:
        """``{rated, changes: [{seat, name, before, after, delta, computer}]}`` of a match
        (``unknown_match`` if there is none); ``changes`` is empty until it is rated."""
        found: dict[str, Any] | None = await self._run(self._changes, match_id)
        if found is None:
            raise ServerError("unknown_match", f"there is no match {clip(match_id)}")
        return found

    def _changes(self, match_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            rated = c.execute(select(MatchRow.rated).where(MatchRow.id == match_id)).first()
            if rated is None:
                return None
            seats = c.execute(select(SeatRow.seat, SeatRow.kind, SeatRow.name,
                                     SeatRow.account_id)
                              .where(SeatRow.match_id == match_id)).all()
            rows = c.execute(select(RatingChangeRow).where(RatingChangeRow.match_id == match_id)
                             .order_by(RatingChangeRow.seat)).all()
        by_seat = {s.seat: s for s in seats}
        changes = []
        for row in rows:
            before = display(row.mu_before, row.sigma_before)
            after = display(row.mu_after, row.sigma_after)
            seat = by_seat.get(row.seat)
            changes.append({"seat": row.seat, "name": seat.name if seat is not None else "",
                            "before": before, "after": after, "delta": after - before,
                            "computer": seat is not None and seat.kind != "human"})
        counts = bool(rated.rated) and countable([(s.kind, s.account_id) for s in seats])
        return {"rated": bool(changes) or counts, "changes": changes}

    def players_for(self, game: str, players: int | None) -> tuple[str, int]:
        """The game's title and a checked player count (``unknown_game``, ``bad_request``;
        ``None``: the game's default count)."""
        entry = self.catalog.entry(game)
        cls = entry.cls()
        count = cls.default_players if players is None else players
        if not cls.min_players <= count <= cls.max_players:
            raise ServerError("bad_request", f"{entry.title} is for {cls.min_players} to "
                              f"{cls.max_players} players, not {count}")
        return entry.title, count

    async def leaderboard(self, game: str, players: int | None = None) -> dict[str, Any]:
        """The best :data:`BOARD_SIZE` ratings of ``game`` at ``players`` seats, the computer
        levels' anchors among them: ``{game, title, players, entries: [{rank, name, rating,
        games, computer, level}]}``, best first; equal ratings share a rank."""
        title, count = self.players_for(game, players)
        accounts, against = await self._run(self._leaderboard, game, count)
        entries: list[tuple[float, str, dict[str, Any]]] = [
            (Skill(mu, sigma).ordinal, name, {"name": name, "rating": display(mu, sigma),
                                              "games": games, "computer": False,
                                              "level": None})
            for name, mu, sigma, games in accounts]
        for level, skill in anchors(game).items():
            entries.append((skill.ordinal, level, {
                "name": level.capitalize(), "rating": skill.shown,
                "games": against.get(level, 0), "computer": True, "level": level}))
        entries.sort(key=lambda e: (-e[2]["rating"], -e[0], e[1].casefold()))
        out: list[dict[str, Any]] = []
        for i, (_, _, entry) in enumerate(entries[:BOARD_SIZE]):
            same = i > 0 and out[-1]["rating"] == entry["rating"]
            out.append({"rank": out[-1]["rank"] if same else i + 1, **entry})
        return {"game": game, "title": title, "players": count, "entries": out}

    def _leaderboard(
        self, game: str, players: int
    ) -> tuple[list[tuple[str, float, float, int]], dict[str, int]]:
        with self.engine.connect() as c:
            rows = c.execute(
                select(AccountRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.games)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game, RatingRow.players == players)
                .order_by((RatingRow.mu - 3.0 * RatingRow.sigma).desc(), AccountRow.name_key)
                .limit(BOARD_SIZE)).all()
            against = c.execute(
                select(SeatRow.kind, func.count(distinct(RatingChangeRow.match_id)))
                .select_from(RatingChangeRow)
                .join(SeatRow, (SeatRow.match_id == RatingChangeRow.match_id)
                      & (SeatRow.seat == RatingChangeRow.seat))
                .join(MatchRow, MatchRow.id == RatingChangeRow.match_id)
                .where(MatchRow.game == game, MatchRow.num_players == players,
                       SeatRow.kind != "human")
                .group_by(SeatRow.kind)).all()
        return ([(r.name, r.mu, r.sigma, r.games) for r in rows],
                {kind: int(n) for kind, n in against})

    async def profile(self, name: str) -> dict[str, Any]:
        """A player's public profile (``unknown_player`` for a name no account has): ``{name,
        created, games: [{game, title, played}], ratings: [{game, title, players, rating,
        games}], recent: [{match_id, game, title, finished_at, players, seats, result, rated,
        record, replay}]}``, the :data:`RECENT` last finished games first."""
        found: dict[str, Any] | None = await self._run(self._profile, name)
        if found is None:
            raise ServerError("unknown_player", f"no player is called {clip(name, 30)}")
        return found

    def _profile(self, name: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            account = c.execute(select(AccountRow.id, AccountRow.name, AccountRow.created_at)
                                .where(AccountRow.name_key == name_key(name))).first()
            if account is None:
                return None
            mine = select(SeatRow.match_id).where(SeatRow.account_id == account.id)
            played = {game: int(n) for game, n in c.execute(
                select(MatchRow.game, func.count(distinct(MatchRow.id)))
                .where(MatchRow.id.in_(mine), MatchRow.status == "finished")
                .group_by(MatchRow.game))}
            ratings = c.execute(select(RatingRow).where(RatingRow.account_id == account.id)
                                .order_by(RatingRow.game, RatingRow.players)).all()
            recent = c.execute(
                select(MatchRow.id, MatchRow.game, MatchRow.finished_at, MatchRow.result,
                       MatchRow.rated)
                .where(MatchRow.id.in_(mine), MatchRow.status == "finished")
                .order_by(MatchRow.finished_at.desc(), MatchRow.id).limit(RECENT)).all()
            seats: dict[str, list[Any]] = {}
            if recent:
                for s in c.execute(select(SeatRow.match_id, SeatRow.seat, SeatRow.name,
                                          SeatRow.account_id)
                                   .where(SeatRow.match_id.in_([m.id for m in recent]))
                                   .order_by(SeatRow.match_id, SeatRow.seat)):
                    seats.setdefault(s.match_id, []).append(s)
        order = {game: i for i, game in enumerate(self.catalog.games)}
        return {
            "name": account.name,
            "created": aware(account.created_at).isoformat(),
            "games": [{"game": game, "title": self._title(game), "played": int(n)}
                      for game, n in sorted(played.items(),
                                            key=lambda p: (order.get(p[0], len(order)), p[0]))],
            "ratings": [{"game": r.game, "title": self._title(r.game), "players": r.players,
                         "rating": display(r.mu, r.sigma), "games": r.games}
                        for r in sorted(ratings, key=lambda r: (order.get(r.game, len(order)),
                                                                r.game, r.players))],
            "recent": [_recent(m, seats.get(m.id, []), account.id, self._title(m.game))
                       for m in recent],
        }


def _recent(match: Any, seats: Sequence[Any], account_id: str, title: str) -> dict[str, Any]:
    """A finished game as a profile lists it."""
    return {
        "match_id": match.id, "game": match.game, "title": title,
        "finished_at": (None if match.finished_at is None
                        else aware(match.finished_at).isoformat(timespec="seconds")),
        "players": [s.name for s in seats],
        "seats": [s.seat for s in seats if s.account_id == account_id],
        "result": match.result, "rated": bool(match.rated),
        "record": f"/api/matches/{match.id}/record",
        "replay": f"/watch/{match.id}?replay=0",
    }

