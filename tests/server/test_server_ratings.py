"""Ratings (issue 23): rated matches between accounts move OpenSkill ratings once, computer
levels are fixed anchors, the leaderboard, a match's rating changes, public profiles."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from server_helpers import play_to_end, tokens_of, view
from sqlalchemy import create_engine, func, insert, select, text, update
from test_server_postgres import pg_url  # noqa: F401  (a fixture)

from triverse.games.trident.engine import TridentGame
from triverse.server.accounts import CSRF_HEADER
from triverse.server.app import create_app
from triverse.server.clock import ManualClock
from triverse.server.config import settings_with
from triverse.server.db import AccountRow, MatchRow, RatingChangeRow, RatingRow, SeatRow
from triverse.server.ratings import (
    ANCHOR_SIGMA,
    MU,
    SIGMA,
    Skill,
    anchors,
    arena,
    display,
    rate,
)
from triverse.server.service import MatchService

PASSWORD = "correct horse battery"
Json = dict[str, Any]


@dataclass
class Server:
    """A running server, and browsers of its own (each a client with its cookies)."""

    app: FastAPI
    main: TestClient
    db_url: str

    @property
    def service(self) -> MatchService:
        service: MatchService = self.app.state.service
        return service

    def browser(self) -> TestClient:
        """A client with cookies of its own whose requests run on the server's event loop
        (so that the computer players it starts keep running)."""
        client = TestClient(self.app)
        client.portal = self.main.portal
        return client


@contextmanager
def serve(url: str, clock: ManualClock | None = None) -> Iterator[Server]:
    app = create_app(settings=settings_with(db_url=url, bot_delay=0, bot_workers=1,
                                            allow_client_seed=True,
                                            bot_secret="the computers' chance, fixed"),
                     clock=clock)
    with TestClient(app) as main:
        yield Server(app, main, url)


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    with serve(db_url) as running:
        yield running


def sign_up(browser: TestClient, name: str) -> str:
    """Sign ``browser`` up as ``name``; its CSRF token."""
    answer = browser.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    csrf: str = answer.json()["csrf"]
    return csrf


def create(browser: TestClient, csrf: str | None, kinds: list[str], rated: bool,
           mode: str = "online", seed: int = 7) -> Json:
    """A Tri-ominoes match to 60 points created by ``browser`` (logged in with ``csrf``)."""
    body = {"game": "triominoes", "options": {"target": 60}, "mode": mode, "seed": seed,
            "rated": rated, "seats": [{"kind": kind} for kind in kinds]}
    answer = browser.post("/api/matches", json=body,
                          headers={} if csrf is None else {CSRF_HEADER: csrf})
    assert answer.status_code == 201, answer.text
    created: Json = answer.json()
    return created


def claim(browser: TestClient, csrf: str, token: str) -> None:
    """The logged-in ``browser`` claims the seat ``token`` opens (``POST /api/account/claim``)."""
    answer = browser.post("/api/account/claim", json={"tokens": [token]},
                          headers={CSRF_HEADER: csrf})
    assert answer.status_code == 200 and answer.json()["claimed"], answer.text


def give_seat(server: Server, match_id: str, seat: int, name: str) -> None:
    """The seat now belongs to the account called ``name``, written in the database (and the
    server re-reads the match's seats): for what the API refuses, such as one account in two
    seats of a rated match."""
    engine = create_engine(server.db_url)
    with engine.begin() as connection:
        account = connection.execute(select(AccountRow.id).where(AccountRow.name == name)
                                     ).scalar_one()
        connection.execute(update(SeatRow).where(SeatRow.match_id == match_id,
                                                 SeatRow.seat == seat)
                           .values(account_id=account, name=name))
    engine.dispose()
    server.main.portal.call(server.service.matches.refresh, match_id, None, True, True)


def ratings_of(server: Server, match_id: str) -> Json:
    answer = server.main.get(f"/api/matches/{match_id}/ratings")
    assert answer.status_code == 200, answer.text
    body: Json = answer.json()
    return body


def rated_changes(server: Server, match_id: str) -> list[Json]:
    """The match's rating changes, once written: a move the server made itself (a computer's,
    a time-out) is announced, and shows in the view, a moment before it is rated."""
    deadline = time.monotonic() + 30
    while not (changes := ratings_of(server, match_id)["changes"]):
        assert time.monotonic() < deadline, f"match {match_id} was not rated"
        time.sleep(0.02)
    return changes


def board(server: Server, game: str = "triominoes", players: int = 2) -> list[Json]:
    answer = server.main.get(f"/api/ratings/{game}?players={players}")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["game"] == game and body["players"] == players
    entries: list[Json] = body["entries"]
    return entries


def count_rows(url: str, table: Any) -> int:
    engine = create_engine(url)
    with engine.connect() as connection:
        n = connection.execute(select(func.count()).select_from(table)).scalar_one()
    engine.dispose()
    return int(n)


def rated_match_between_two_accounts(server: Server) -> tuple[str, Json]:
    """Ada creates a rated online match, Bob takes the other seat, both play it to the end."""
    ada, bob = server.browser(), server.browser()
    csrf = sign_up(ada, "Ada")
    bob_csrf = sign_up(bob, "Bob")
    created = create(ada, csrf, ["human", "human"], rated=True)
    match_id = created["match_id"]
    claim(bob, bob_csrf, tokens_of(created)[1])
    assert ratings_of(server, match_id) == {"rated": True, "changes": []}
    final = play_to_end(server.main, match_id, tokens_of(created))
    return match_id, final


# --- the rating function -------------------------------------------------------------------------
skills = st.builds(Skill, st.floats(-20.0, 70.0), st.floats(0.5, 9.0))


@given(st.lists(st.tuples(st.integers(1, 4), skills), min_size=2, max_size=4),
       st.randoms(use_true_random=False))
def test_the_order_of_the_seats_does_not_matter(seats: list[tuple[int, Skill]],
                                                shuffler: Any) -> None:
    ranks = [r for r, _ in seats]
    after = rate(ranks, [s for _, s in seats], [False] * len(seats))
    order = list(range(len(seats)))
    shuffler.shuffle(order)
    shuffled = rate([ranks[i] for i in order], [seats[i][1] for i in order],
                    [False] * len(seats))
    for position, i in enumerate(order):
        assert shuffled[position].mu == pytest.approx(after[i].mu, abs=1e-9)
        assert shuffled[position].sigma == pytest.approx(after[i].sigma, abs=1e-9)


@given(skills, skills, st.booleans())
def test_a_winner_never_loses_and_an_anchor_never_moves(winner: Skill, loser: Skill,
                                                        anchored: bool) -> None:
    after = rate([1, 2], [winner, loser], [False, anchored])
    assert after[0].mu >= winner.mu and after[0].sigma <= winner.sigma
    assert after[0].shown >= winner.shown  # the number shown never drops after a win
    if anchored:
        assert after[1] == loser
    else:
        assert after[1].mu <= loser.mu
    # A tie between equals changes neither mean.
    tied = rate([1, 1], [winner, winner], [False, False])
    assert tied[0].mu == pytest.approx(winner.mu) and tied[1].mu == pytest.approx(winner.mu)


def test_anchors_come_from_the_arena_and_show_their_elo() -> None:
    for game in ("trinity", "triangles", "trivinity", "trident", "triominoes"):
        levels = anchors(game)
        assert list(levels) == ["novice", "average", "veteran"]
        shown = [skill.shown for skill in levels.values()]
        assert shown == sorted(shown) and len(set(shown)) == 3
        assert all(skill.sigma == ANCHOR_SIGMA for skill in levels.values())
        assert sum(shown) / 3 == pytest.approx(1500, abs=1)  # the arena's Elo average 1500
    # Triangles' average beat the novice 99.4% of the time, Trinity's 72%: a wider gap.
    triangles, trinity = anchors("triangles"), anchors("trinity")
    assert (triangles["average"].mu - triangles["novice"].mu
            > 3 * (trinity["average"].mu - trinity["novice"].mu))
    assert display(MU, SIGMA) == 851  # a new account
    # Losing to the novice costs a new account more than losing to the veteran does.
    new = Skill(MU, SIGMA)
    to_novice = rate([2, 1], [new, anchors("trident")["novice"]], [False, True])[0]
    to_veteran = rate([2, 1], [new, anchors("trident")["veteran"]], [False, True])[0]
    assert to_novice.mu < to_veteran.mu < MU


def test_the_anchors_figures_are_the_ladders_in_docs_ai_md() -> None:
    """The games' plugins (``ratings.arena()``) hold docs/ai.md's ladder figures: the average
    against the novice, and the veteran at its default thinking time (no ``@``) against the
    average, over the most games measured."""
    text = (Path(__file__).parents[2] / "docs" / "ai.md").read_text()
    ladder = text.split("<!-- ladder:start -->")[1].split("<!-- ladder:end -->")[0]
    found: dict[tuple[str, str], tuple[float, int]] = {}
    for row in ladder.splitlines():
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) < 4 or cells[1] not in ("average vs novice", "veteran vs average"):
            continue
        rate_, games = float(cells[3].split("**")[1].rstrip("%")) / 100, int(cells[2])
        key = (cells[0], cells[1])
        if key not in found or games > found[key][1]:
            found[key] = (rate_, games)
    assert set(arena()) == {game for game, _ in found}
    for game, (low, high) in arena().items():
        assert low == pytest.approx(found[(game, "average vs novice")])
        assert high == pytest.approx(found[(game, "veteran vs average")])


# --- rated matches through the API ---------------------------------------------------------------
def test_two_accounts_play_a_rated_match_and_the_winner_goes_up(server: Server) -> None:
    match_id, final = rated_match_between_two_accounts(server)
    ranks = final["result"]["ranks"]
    assert final["finished"] and sorted(ranks) == [1, 2], "this deal ends without a draw"
    winner, loser = ranks.index(1), ranks.index(2)
    names = ["Ada", "Bob"]
    answer = ratings_of(server, match_id)
    assert answer["rated"] is True
    changes = {c["seat"]: c for c in answer["changes"]}
    assert sorted(changes) == [0, 1]
    assert changes[winner]["name"] == names[winner]
    new = display(MU, SIGMA)
    assert changes[winner]["before"] == new == changes[loser]["before"]
    assert changes[winner]["after"] > new > changes[loser]["after"]
    assert changes[winner]["delta"] == changes[winner]["after"] - new > 0
    assert changes[loser]["delta"] < 0 and not changes[winner]["computer"]
    # The leaderboard: the winner above the loser, the three computer levels among them.
    entries = board(server)
    accounts = [e["name"] for e in entries if not e["computer"]]
    assert accounts == [names[winner], names[loser]]
    assert [e["level"] for e in entries if e["computer"]] == ["veteran", "average", "novice"]
    ratings = [e["rating"] for e in entries]
    assert ratings == sorted(ratings, reverse=True)
    assert [e["rank"] for e in entries] == list(range(1, len(entries) + 1))
    mine = next(e for e in entries if e["name"] == names[winner])
    assert mine == {"rank": mine["rank"], "name": names[winner],
                    "rating": changes[winner]["after"], "games": 1, "computer": False,
                    "level": None}
    # The 3-player board of the same game has only the computers.
    assert all(e["computer"] for e in board(server, players=3))


def test_a_rating_is_written_once_even_if_the_listener_runs_again(server: Server) -> None:
    match_id, _ = rated_match_between_two_accounts(server)
    first = ratings_of(server, match_id)
    live = server.main.portal.call(server.service.live, match_id)
    for _ in range(2):  # as if the final move's listener ran twice
        server.main.portal.call(server.service.ratings.match_ended, live,
                                live.state.move_number - 1)
    assert server.main.portal.call(server.service.ratings.rate, match_id) is None
    assert ratings_of(server, match_id) == first
    assert count_rows(server.db_url, RatingChangeRow) == 2
    assert [e["games"] for e in board(server) if not e["computer"]] == [1, 1]


def test_against_a_computer_the_anchor_does_not_move(server: Server) -> None:
    ada = server.browser()
    csrf = sign_up(ada, "Ada")
    before = board(server)
    created = create(ada, csrf, ["human", "novice"], rated=True, mode="computer")
    final = play_to_end(server.main, created["match_id"], tokens_of(created))
    assert final["finished"]
    human, computer = rated_changes(server, created["match_id"])
    assert computer == {"seat": 1, "name": "Novice 2", "before": anchors("triominoes")[
        "novice"].shown, "after": anchors("triominoes")["novice"].shown, "delta": 0,
        "computer": True}
    # Always the first legal tile (and the computers' chance fixed): the novice wins this
    # deal, and Ada goes down.
    assert final["result"]["ranks"] == [2, 1]
    assert human["before"] == display(MU, SIGMA) > human["after"] and human["delta"] < 0
    after = board(server)
    anchors_before = [{k: v for k, v in e.items() if k not in ("rank", "games")}
                      for e in before if e["computer"]]
    anchors_after = [{k: v for k, v in e.items() if k not in ("rank", "games")}
                     for e in after if e["computer"]]
    assert anchors_after == anchors_before
    novice = next(e for e in after if e["level"] == "novice")
    assert novice["games"] == 1 and novice["name"] == "Novice"
    # The anchor has no rating row: only the account does.
    assert count_rows(server.db_url, RatingRow) == 1


def test_a_match_with_a_guest_seat_is_not_rated(server: Server) -> None:
    ada = server.browser()
    csrf = sign_up(ada, "Ada")
    created = create(ada, csrf, ["human", "human"], rated=True)  # seat 1: an invite link
    assert ratings_of(server, created["match_id"]) == {"rated": False, "changes": []}
    final = play_to_end(server.main, created["match_id"], tokens_of(created))
    assert final["finished"] and final["rated"]
    assert ratings_of(server, created["match_id"]) == {"rated": False, "changes": []}
    assert count_rows(server.db_url, RatingRow) == 0
    assert count_rows(server.db_url, RatingChangeRow) == 0


def test_a_match_not_rated_changes_nothing(server: Server) -> None:
    ada, bob = server.browser(), server.browser()
    csrf = sign_up(ada, "Ada")
    bob_csrf = sign_up(bob, "Bob")
    created = create(ada, csrf, ["human", "human"], rated=False)
    claim(bob, bob_csrf, tokens_of(created)[1])
    play_to_end(server.main, created["match_id"], tokens_of(created))
    assert ratings_of(server, created["match_id"]) == {"rated": False, "changes": []}
    assert count_rows(server.db_url, RatingRow) == 0
    assert [e["computer"] for e in board(server)] == [True, True, True]


def test_the_same_account_twice_is_not_rated(server: Server) -> None:
    ada = server.browser()
    csrf = sign_up(ada, "Ada")
    created = create(ada, csrf, ["human", "human"], rated=True)
    give_seat(server, created["match_id"], 1, "Ada")
    play_to_end(server.main, created["match_id"], tokens_of(created))
    assert ratings_of(server, created["match_id"]) == {"rated": False, "changes": []}
    assert count_rows(server.db_url, RatingChangeRow) == 0


def test_leaderboard_and_match_ratings_refuse_what_does_not_exist(server: Server) -> None:
    answer = server.main.get("/api/ratings/chess")
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "unknown_game"
    answer = server.main.get("/api/ratings/triominoes?players=9")
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_request"
    answer = server.main.get("/api/matches/nothere/ratings")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "unknown_match"
    default = server.main.get("/api/ratings/triominoes").json()
    assert default["players"] == 2 and default["title"] == "Tri-ominoes"


# --- profiles -------------------------------------------------------------------------------------
def test_a_profile_shows_games_ratings_and_recent_games(server: Server) -> None:
    match_id, final = rated_match_between_two_accounts(server)
    ada = server.browser()
    answer = ada.post("/api/session", json={"name": "Ada", "password": PASSWORD})
    csrf = answer.json()["csrf"]
    unfinished = create(ada, csrf, ["human", "novice"], rated=False, mode="computer")
    profile = server.main.get("/api/players/ada")  # any case
    assert profile.status_code == 200, profile.text
    body = profile.json()
    assert body["name"] == "Ada" and body["created"].startswith(str(datetime.now(UTC).year))
    assert body["games"] == [{"game": "triominoes", "title": "Tri-ominoes", "played": 1}]
    change = next(c for c in ratings_of(server, match_id)["changes"] if c["seat"] == 0)
    assert body["ratings"] == [{"game": "triominoes", "title": "Tri-ominoes", "players": 2,
                                "rating": change["after"], "games": 1}]
    [recent] = body["recent"]  # the unfinished match is not listed
    assert recent["match_id"] == match_id != unfinished["match_id"]
    assert recent["players"] == ["Ada", "Bob"] and recent["seats"] == [0]
    assert recent["result"] == final["result"] and recent["rated"] is True
    assert recent["replay"] == f"/watch/{match_id}?replay=0"
    record = server.main.get(recent["record"])
    assert record.status_code == 200 and record.json()["game"] == "triominoes"
    # No hand, token or password of anyone is in a profile.
    assert "token" not in profile.text and "hand" not in profile.text
    assert PASSWORD not in profile.text


def test_an_unknown_player_is_404(server: Server) -> None:
    answer = server.main.get("/api/players/nobody")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "unknown_player"
    assert server.main.get("/api/players/" + "x" * 65).json()["error"]["code"] == "bad_request"


def test_profiles_and_leaderboards_are_rate_limited(db_url: str) -> None:
    app = create_app(settings=settings_with(db_url=db_url, rate_players="3/minute"))
    with TestClient(app) as client:
        codes = [client.get("/api/players/nobody").status_code for _ in range(3)]
        assert codes == [404, 404, 404]
        answer = client.get("/api/ratings/triominoes")
        assert answer.status_code == 429 and "Retry-After" in answer.headers
        assert answer.json()["error"]["code"] == "rate_limited"


# --- PostgreSQL -----------------------------------------------------------------------------------
def finished_match(url: str, match_id: str, accounts: list[str], ranks: list[int]) -> None:
    """A finished rated Tri-ominoes match stored as the server leaves one (a test's shortcut:
    the API plays one in the tests above)."""
    engine = create_engine(url)
    now = datetime.now(UTC)
    with engine.begin() as connection:
        connection.execute(insert(MatchRow).values(
            id=match_id, game="triominoes", num_players=len(accounts), options={}, seed=1,
            mode="online", status="finished", rated=True, pace="live", paused=False,
            move_count=30, to_move=None, created_at=now, updated_at=now, finished_at=now,
            result={"scores": [100 - r for r in ranks], "ranks": ranks}, deadline=None))
        for seat, account in enumerate(accounts):
            connection.execute(insert(SeatRow).values(
                match_id=match_id, seat=seat, kind="human", name=account,
                token_hash=None, account_id=account))
    engine.dispose()


def add_accounts(url: str, names: list[str]) -> None:
    """Accounts whose id and name are ``names`` (no password opens them)."""
    engine = create_engine(url)
    with engine.begin() as connection:
        for name in names:
            connection.execute(insert(AccountRow).values(
                id=name, name=name, name_key=name, password_hash="-",
                created_at=datetime.now(UTC)))
    engine.dispose()


def two_matches_ending_at_once(url: str) -> None:
    """Ada ends two rated matches at once, each rated by two writers at once: each match is
    rated once, and the second starts from the first's result."""
    with serve(url) as server:
        add_accounts(url, ["ada", "bob", "cyd"])
        finished_match(url, "m1", ["ada", "bob"], [1, 2])
        finished_match(url, "m2", ["cyd", "ada"], [1, 2])
        ratings = server.service.ratings
        results: list[Any] = []
        start = threading.Barrier(4)

        def rate_now(match_id: str) -> None:
            start.wait()
            results.append(ratings._rate(match_id, datetime.now(UTC)))

        # Each match rated by two writers at once (as two processes might), both at once.
        threads = [threading.Thread(target=rate_now, args=(m,)) for m in ("m1", "m2") * 2]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sum(r is not None for r in results) == 2  # once each
        engine = create_engine(url)
        with engine.connect() as connection:
            rows = {r.account_id: r for r in connection.execute(select(RatingRow))}
            changes = {(c.match_id, c.seat): c for c in connection.execute(
                select(RatingChangeRow))}
        engine.dispose()
        assert len(changes) == 4 and rows["ada"].games == 2
        # Ada's second match started where her first ended: no update was lost.
        first, second = changes[("m1", 0)], changes[("m2", 1)]
        if first.mu_before != MU:
            first, second = second, first
        assert first.mu_before == MU and second.mu_before == pytest.approx(first.mu_after)
        assert rows["ada"].mu == pytest.approx(second.mu_after)
        profile = server.main.get("/api/players/ada").json()
        assert profile["ratings"][0]["games"] == 2
        assert [g["played"] for g in profile["games"]] == [2]


def test_postgresql_two_matches_ending_at_once_both_count(pg_url: str) -> None:  # noqa: F811
    two_matches_ending_at_once(pg_url)


def test_sqlite_two_matches_ending_at_once_both_count(db_url: str) -> None:
    two_matches_ending_at_once(db_url)


def test_postgresql_rated_match_through_the_api(pg_url: str) -> None:  # noqa: F811
    with serve(pg_url) as server:
        match_id, final = rated_match_between_two_accounts(server)
        winner = final["result"]["ranks"].index(1)
        changes = ratings_of(server, match_id)["changes"]
        assert changes[winner]["delta"] > 0 > changes[1 - winner]["delta"]
        engine = create_engine(pg_url)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM ratings")).scalar() == 2
        engine.dispose()
        assert view(server.main, match_id)["rated"] is True


def test_a_match_left_unrated_is_rated_at_the_next_start(db_url: str) -> None:
    with serve(db_url):  # the tables
        pass
    add_accounts(db_url, ["ada", "bob", "cyd"])
    finished_match(db_url, "m1", ["ada", "bob"], [2, 1])  # as if the server stopped first
    finished_match(db_url, "m2", ["ada", "cyd"], [1, 1])
    engine = create_engine(db_url)
    with engine.begin() as connection:  # a guest's seat: never rated
        connection.execute(update(SeatRow).where(SeatRow.match_id == "m2", SeatRow.seat == 1)
                           .values(account_id=None))
    engine.dispose()
    with serve(db_url) as server:
        rated_changes(server, "m1")
        before, after = (ratings_of(server, "m1")["changes"][i]["delta"] for i in (0, 1))
        assert before < 0 < after  # Bob won
        assert ratings_of(server, "m2") == {"rated": False, "changes": []}
        assert server.main.portal.call(server.service.ratings.rate_missed) == 0
    assert count_rows(db_url, RatingChangeRow) == 2


def test_a_match_ended_by_time_outs_is_rated(db_url: str) -> None:
    """Trident, a minute a turn: Ada plays once, then nobody plays; the missed turns end the
    game (docs/rules/trident.md, D4) and the last of them, recorded by the server, rates it."""
    clock = ManualClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    game = TridentGame(2, {"time_limit": 60})
    seed = next(s for s in range(5000) if game.new_initial_state(seed=s).current_player == 0)
    with serve(db_url, clock) as server:
        ada, bob = server.browser(), server.browser()
        csrf = sign_up(ada, "Ada")
        bob_csrf = sign_up(bob, "Bob")
        answer = ada.post("/api/matches", headers={CSRF_HEADER: csrf}, json={
            "game": "trident", "options": {"time_limit": 60}, "mode": "online", "seed": seed,
            "rated": True, "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert answer.status_code == 201, answer.text
        match_id, tokens = answer.json()["match_id"], tokens_of(answer.json())
        claim(bob, bob_csrf, tokens[1])
        play_to_end(server.main, match_id, tokens, max_moves=1)
        current = view(server.main, match_id)
        while not current["finished"]:
            clock.advance(61)
            deadline = time.monotonic() + 30
            move = current["move"]
            while (current := view(server.main, match_id))["move"] == move:
                assert time.monotonic() < deadline, "the time-out was not recorded"
                time.sleep(0.01)
        assert current["log"][-1]["events"][0]["kind"] == "timeout"
        assert current["result"]["ranks"] == [1, 2]
        changes = rated_changes(server, match_id)
        assert [c["name"] for c in changes] == ["Ada", "Bob"]
        assert changes[0]["delta"] > 0 > changes[1]["delta"]


def test_a_deleted_account_leaves_the_board_and_its_changes_stay(server: Server) -> None:
    match_id, _ = rated_match_between_two_accounts(server)
    changes = ratings_of(server, match_id)
    bob = server.browser()
    csrf = bob.post("/api/session", json={"name": "Bob", "password": PASSWORD}).json()["csrf"]
    answer = bob.request("DELETE", "/api/account", json={"password": PASSWORD},
                         headers={CSRF_HEADER: csrf})
    assert answer.status_code == 204, answer.text
    assert server.main.get("/api/players/Bob").json()["error"]["code"] == "unknown_player"
    assert [e["name"] for e in board(server) if not e["computer"]] == ["Ada"]
    assert count_rows(server.db_url, RatingRow) == 1
    after = ratings_of(server, match_id)
    assert after["rated"] is True
    assert [(c["before"], c["after"]) for c in after["changes"]] == [
        (c["before"], c["after"]) for c in changes["changes"]]
