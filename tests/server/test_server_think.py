"""A computer seat's thinking time (``SeatSpec.think``): checked, stored, carried to the worker,
shown, and kept by the migration that added it."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from server_helpers import Json, auth, tokens_of, view, wait_view
from sqlalchemy import create_engine, inspect, text

import triverse.server.bots as bots_module
from triverse import load_game
from triverse.ai.knowledge import Memory
from triverse.core.game import Observation
from triverse.server.app import create_app
from triverse.server.bots import GameSpec
from triverse.server.db import MIGRATIONS_DIR, hash_token

Job = tuple[str, float | None]


def _app(db_url: str, delay: float = 0) -> TestClient:
    return TestClient(create_app(db_url, bot_delay=delay, bot_workers=1, bot_executor="thread",
                                 allow_client_seed=True))


@pytest.fixture
def jobs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Job]]:
    """The (level, time budget) of every computer move asked of the worker; the move itself
    is the novice's, so that a veteran with seconds to think costs the test nothing."""
    seen: list[Job] = []
    real = bots_module.choose_notation

    def spy(level: str, spec: GameSpec, observation: Observation, rng: random.Random,
            time_budget: float | None = None, memory: Memory | None = None) -> str:
        assert isinstance(spec, GameSpec) and isinstance(observation, Observation)
        # A veteran of Tri-ominoes is handed what its seat remembers, the others nothing.
        assert (memory is not None) == (level == "veteran")
        seen.append((level, time_budget))
        return real("novice", spec, observation, rng)

    monkeypatch.setattr(bots_module, "choose_notation", spy)
    yield seen


def _create(client: TestClient, seats: list[Json], seed: int = 7) -> Any:
    return client.post("/api/matches", json={
        "game": "triominoes", "options": {"target": 60}, "seed": seed, "seats": seats})


def _match_rows(db_url: str) -> tuple[int, int]:
    engine = create_engine(db_url)
    with engine.connect() as connection:
        counts = (connection.execute(text("SELECT COUNT(*) FROM matches")).scalar_one(),
                  connection.execute(text("SELECT COUNT(*) FROM seats")).scalar_one())
    engine.dispose()
    return counts


def test_a_veterans_thinking_time_reaches_the_worker_and_survives_a_restart(
    db_url: str, jobs: list[Job]
) -> None:
    seats: list[Json] = [{"kind": "veteran", "think": 2}, {"kind": "average"},
                         {"kind": "veteran", "think": 0.3}]
    with _app(db_url, delay=30) as first:
        # Computers only (a match to watch); they wait 30 s before moving, so nothing moves
        # before the restart.
        answer = _create(first, seats)
        assert answer.status_code == 201, answer.text
        created = answer.json()
        match_id = created["match_id"]
        assert [(s["kind"], s["think"]) for s in created["seats"]] == [
            ("veteran", 2.0), ("average", None), ("veteran", 0.3)]
        shown = view(first, match_id)
        assert [(p["kind"], p["think"]) for p in shown["players"]] == [
            ("veteran", 2.0), ("average", None), ("veteran", 0.3)]
        assert view(first, match_id)["move"] == 0
    assert jobs == []
    with _app(db_url) as second:
        # Replayed from the database: each seat's job gets the seat's own budget.
        expected = {("veteran", 2.0), ("average", None), ("veteran", 0.3)}
        final = wait_view(second, match_id, None,
                          lambda v: v["finished"] or set(jobs) == expected)
        assert [p["think"] for p in final["players"]] == [2.0, None, 0.3]
    assert set(jobs) == expected


def test_a_seat_with_a_thinking_time_plays_against_a_human(
    db_url: str, jobs: list[Job]
) -> None:
    with _app(db_url) as client:
        _against_a_human(client, jobs)


def _against_a_human(client: TestClient, jobs: list[Job]) -> None:
    for seed in range(7, 40):
        answer = _create(client, [{"kind": "human", "name": "Ann"},
                                  {"kind": "veteran", "think": 5}], seed=seed)
        assert answer.status_code == 201, answer.text
        created = answer.json()
        token = tokens_of(created)[0]
        if view(client, created["match_id"], token)["to_move"] == 1:
            break
    match_id = created["match_id"]
    wait_view(client, match_id, token, lambda v: v["your_turn"])
    assert jobs and set(jobs) == {("veteran", 5.0)}
    # My games lists the seats with their thinking times.
    mine = client.post("/api/my-games", json={"tokens": [token]}).json()["matches"]
    assert [(p["kind"], p["think"]) for p in mine[0]["players"]] == [
        ("human", None), ("veteran", 5.0)]
    seen = client.get(f"/api/matches/{match_id}/view", headers=auth(token)).json()
    assert seen["players"][1] == {"seat": 1, "name": "Veteran 2", "kind": "veteran",
                                  "think": 5.0, "connected": True, "account": False,
                                  "free": False, "deleted": False}


@pytest.mark.parametrize(
    ("seats", "code", "words"),
    [
        ([{"kind": "human", "think": 1.0}, {"kind": "veteran"}], "bad_seats", "computer seat"),
        ([{"kind": "human"}, {"kind": "average", "think": 1.0}], "bad_seats", "not search"),
        ([{"kind": "human"}, {"kind": "novice", "think": 2}], "bad_seats", "not search"),
        ([{"kind": "human"}, {"kind": "veteran", "think": 0.1}], "bad_seats", "0.2 to 5"),
        ([{"kind": "human"}, {"kind": "veteran", "think": 5.5}], "bad_seats", "0.2 to 5"),
        ([{"kind": "human"}, {"kind": "veteran", "think": 0}], "bad_seats", "0.2 to 5"),
        ([{"kind": "human"}, {"kind": "veteran", "think": -1}], "bad_seats", "0.2 to 5"),
        ([{"kind": "human"}, {"kind": "veteran", "think": "2"}], "bad_request", "think"),
        ([{"kind": "human"}, {"kind": "veteran", "think": True}], "bad_request", "think"),
    ],
)
def test_bad_thinking_times_are_refused_and_create_nothing(
    client: TestClient, db_url: str, seats: list[Json], code: str, words: str
) -> None:
    answer = _create(client, seats)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and words in error["message"], error
    assert _match_rows(db_url) == (0, 0)


def test_a_nan_thinking_time_is_refused(client: TestClient, db_url: str) -> None:
    body = ('{"game": "triominoes", "seats": [{"kind": "human"}, '
            '{"kind": "veteran", "think": NaN}]}')
    answer = client.post("/api/matches", content=body,
                         headers={"Content-Type": "application/json"})
    assert 400 <= answer.status_code < 500, answer.text
    assert _match_rows(db_url) == (0, 0)


def test_the_lobby_names_the_levels_that_take_a_thinking_time(client: TestClient) -> None:
    answer = client.get("/api/games").json()
    assert answer["think"] == {"levels": ["veteran"], "minimum": 0.2, "maximum": 5.0}
    assert {g["name"]: g["think_default"] for g in answer["games"]}["triominoes"] == 0.8


def _at_0002(db_url: str) -> None:
    """A database as revision 0002 made it."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = create_engine(db_url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
    engine.dispose()


def test_a_database_at_0002_upgrades_and_keeps_its_seats(db_url: str, jobs: list[Job]) -> None:
    _at_0002(db_url)
    game = load_game("triominoes", players=2, target=60)
    seed = next(s for s in range(100) if game.new_initial_state(seed=s).current_player == 1)
    engine = create_engine(db_url)
    with engine.begin() as connection:
        assert "think" not in {c["name"] for c in inspect(connection).get_columns("seats")}
        when = "2026-11-01 10:00:00.000000"
        connection.execute(text(
            "INSERT INTO matches (id, game, num_players, options, seed, mode, status, paused, "
            "move_count, to_move, result, created_at, updated_at, finished_at, deadline) "
            "VALUES ('oldmatch0001', 'triominoes', 2, :options, :seed, 'computer', 'active', "
            "0, 0, 1, NULL, :when, :when, NULL, NULL)"),
            {"options": json.dumps(dict(game.options)), "seed": seed, "when": when})
        connection.execute(text(
            "INSERT INTO seats (match_id, seat, kind, name, token_hash) VALUES "
            "('oldmatch0001', 0, 'human', 'Ann', :hash), "
            "('oldmatch0001', 1, 'veteran', 'Veteran 2', NULL)"),
            {"hash": hash_token("old-token")})
    engine.dispose()
    with _app(db_url) as client:
        # Migrated at start-up; the old veteran plays with the game's default budget.
        current = wait_view(client, "oldmatch0001", "old-token", lambda v: v["your_turn"])
        assert [(p["name"], p["kind"], p["think"]) for p in current["players"]] == [
            ("Ann", "human", None), ("Veteran 2", "veteran", None)]
    assert jobs and set(jobs) == {("veteran", None)}
    engine = create_engine(db_url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == (
            "0008")
        rows = connection.execute(text(
            "SELECT seat, kind, name, token_hash, think FROM seats ORDER BY seat")).all()
    engine.dispose()
    assert [tuple(r) for r in rows] == [(0, "human", "Ann", hash_token("old-token"), None),
                                         (1, "veteran", "Veteran 2", None, None)]


def test_the_worker_builds_the_player_with_the_seats_budget(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[tuple[Any, ...]] = []
    real = bots_module.make_player

    def recording(*args: Any) -> Any:
        made.append(args)
        return real("novice", *args[1:])

    monkeypatch.setattr(bots_module, "make_player", recording)
    game = load_game("triominoes", players=2)
    spec = GameSpec.of("triverse.games.triominoes.engine:TriominoesGame", game)
    state = game.new_initial_state(seed=3)
    seat = state.current_player
    for budget in (1.5, None):
        notation = bots_module.choose_notation("veteran", spec, state.observation(seat),
                                               random.Random(1), budget)
        assert state.is_legal(state.parse_action(notation))
    assert made == [("veteran", 1.5), ("veteran", None)]
