"""Triangles: each rule of the seed on a small explicit board, the options, notation and ids."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from triverse.core.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
)
from triverse.core.events import Event, score_totals
from triverse.core.records import Record, replay
from triverse.games.triangles import Line, TrianglesGame, TrianglesObservation, TrianglesState
from triverse.games.triangles.cloud import BOARDS

from . import reference as ref

SQUARE = [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]
"""A, B, C, D = 0, 1, 2, 3: the seed's square."""
BIG = [[0, 0], [4000, 0], [2000, 3000], [2000, 1000]]
"""A, B, C = 0, 1, 2 and D = 3 inside ABC: the seed's "big triangle" figure."""


def new(stars: list[list[int]], tolerance: int | None = None, **options: Any) -> TrianglesState:
    setup: dict[str, Any] = {"stars": stars}
    if tolerance is not None:
        setup["tolerance"] = tolerance
    return TrianglesGame(options=options).new_initial_state(seed=1, setup=setup)


def play(state: TrianglesState, *lines: str) -> list[Event]:
    events: list[Event] = []
    for text in lines:
        events += state.apply_notation(text)
    return events


def labels(events: list[Event]) -> list[str]:
    return [e.label for e in events]


# --- drawing a line ------------------------------------------------------------------------------
def test_seed_figure_b_d_is_refused_for_crossing_a_c() -> None:
    state = new(SQUARE)
    play(state, "0-2")
    assert state.illegal_reason(Line(1, 3)) == "crosses a line: 1-3 would cross 0-2"
    with pytest.raises(IllegalActionError, match="crosses a line"):
        state.apply(Line(1, 3))
    with pytest.raises(IllegalActionError, match=r"^3-1: crosses a line"):
        state.parse_action("3-1")


def test_seed_figure_a_c_is_refused_for_passing_through_b() -> None:
    state = new([[0, 0], [1000, 0], [2000, 0], [1000, 1000]])
    assert state.illegal_reason(Line(0, 2)) == "passes through a star: 0-2 passes star 1"
    assert state.illegal_reason(Line(0, 1)) is None


@pytest.mark.parametrize(("offset", "refused"), [(0, True), (99, True), (100, True),
                                                 (101, False), (-100, True), (-101, False)])
def test_passing_near_a_star_within_the_tolerance_is_passing_through_it(
    offset: int, refused: bool
) -> None:
    # B is `offset` units off the segment A-C; the phone tolerance is 100 units (<= refuses).
    state = new([[0, 500], [1000, 500 + offset], [2000, 500], [1000, 2000]])
    reason = state.illegal_reason(Line(0, 2))
    assert (reason == "passes through a star: 0-2 passes star 1") == refused
    assert (reason is None) == (not refused)


def test_a_star_near_the_end_of_a_line_blocks_it() -> None:
    # Star 3 is 60 units beyond C: closer to the segment A-C (its end) than the tolerance.
    state = new([[0, 0], [1000, 1000], [2000, 0], [2060, 0]])
    assert state.illegal_reason(Line(0, 2)) == "passes through a star: 0-2 passes star 3"
    assert new([[0, 0], [1000, 1000], [2000, 0], [2101, 0]]).illegal_reason(Line(0, 2)) is None


def test_the_tolerance_of_a_setup_can_be_exact() -> None:
    stars = [[0, 0], [1000, 1], [2000, 0], [1000, 1000]]
    assert new(stars).illegal_reason(Line(0, 2)) is not None
    assert new(stars, tolerance=0).illegal_reason(Line(0, 2)) is None


def test_already_drawn_and_lines_sharing_a_star() -> None:
    state = new(SQUARE)
    play(state, "0-1")
    assert state.illegal_reason(Line(0, 1)) == "already drawn: 0-1 is Player 1's line"
    assert state.illegal_reason(Line(1, 0)) == "already drawn: 0-1 is Player 1's line"
    # Two (and three) lines may leave the same star.
    assert state.illegal_reason(Line(0, 2)) is None
    play(state, "0-2", "0-3")
    assert [str(line) for line, _ in state.lines()] == ["0-1", "0-2", "0-3"]


def test_collinear_lines_from_one_star_end_to_end() -> None:
    # 0, 1, 2 on one line: 0-1 and 1-2 share star 1 and do not cross; 0-2 passes through 1.
    state = new([[0, 0], [1000, 0], [2000, 0], [1000, 1000]])
    play(state, "0-1")
    assert state.illegal_reason(Line(1, 2)) is None
    play(state, "1-2")
    assert state.illegal_reason(Line(0, 2)) == "passes through a star: 0-2 passes star 1"


def test_no_such_star_and_a_star_to_itself() -> None:
    state = new(SQUARE)
    assert state.illegal_reason(Line(2, 4)) == "no such star: 4 (the stars are 0 to 3)"
    assert state.illegal_reason(Line(2, 2)) == (
        "a line joins two different stars: 2-2 joins star 2 to itself")
    with pytest.raises(IllegalActionError, match="no such star"):
        state.apply_notation("0-17")


# --- scoring -------------------------------------------------------------------------------------
def test_seed_figure_big_triangle_with_a_star_inside_scores_nothing() -> None:
    state = new(BIG)
    events = play(state, "0-1", "1-2", "0-2")  # ABC closed by Player 1, D inside: nothing
    assert labels(events) == ["Line 0-1", "Line 1-2", "Line 0-2"]
    assert state.scores == [0, 0] and not state.is_terminal()
    # The small triangles around D count.
    assert labels(play(state, "0-3")) == ["Line 0-3"]
    events = play(state, "1-3")
    assert labels(events) == ["Line 1-3", "Triangle +1"]
    assert events[1].player == 0 and events[1].data == {"stars": [0, 1, 3]}
    events = play(state, "2-3")  # Player 2 closes ACD and BCD at once
    assert labels(events) == ["Line 2-3", "Triangle +1", "Triangle +1",
                              "Game over: Player 2 wins 2-1"]
    assert sorted(e.data["stars"] for e in events if e.kind == "triangle") == [
        [0, 2, 3], [1, 2, 3]]
    assert state.scores == [1, 2] and state.is_terminal() and state.current_player is None
    assert state.result().winners == (1,)
    assert [t for t, _ in state.closed_triangles()] == [(0, 1, 3), (0, 2, 3), (1, 2, 3)]


def test_a_triangle_with_a_star_exactly_on_a_side_cannot_be_closed() -> None:
    # Star 3 sits on the side 0-1: that side passes through it, so 0-1-2 is never closed.
    state = new([[0, 0], [2000, 0], [1000, 2000], [1000, 0]])
    assert state.illegal_reason(Line(0, 1)) == "passes through a star: 0-1 passes star 3"
    assert sorted(state.scorable_triangles()) == [(0, 2, 3), (1, 2, 3)]


def test_seed_square_diagonal_closes_two_triangles() -> None:
    state = new(SQUARE)
    play(state, "0-1", "1-2", "2-3", "0-3")
    assert state.scores == [0, 0]
    events = play(state, "0-2")
    assert labels(events) == ["Line 0-2", "Triangle +1", "Triangle +1",
                              "Game over: Player 1 wins 2-0"]
    assert [e.data["stars"] for e in events if e.kind == "triangle"] == [[0, 1, 2], [0, 2, 3]]
    assert state.scores == [2, 0]


def test_the_triangle_belongs_to_whoever_draws_the_closing_line() -> None:
    state = new(SQUARE)
    play(state, "0-1", "1-2")  # Player 1 drew 0-1, Player 2 drew 1-2
    events = play(state, "0-2")  # Player 1 closes with the opponent's side
    assert [(e.kind, e.player) for e in events] == [("line", 0), ("triangle", 0)]
    assert state.current_player == 1  # without the option the turn passes


# --- play again after a triangle, draws -----------------------------------------------------------
def test_play_again_after_a_triangle_and_a_draw() -> None:
    # The seed's example: Player 1 closes a triangle with move 3 and plays move 4 as well.
    state = new(SQUARE, again=True)
    play(state, "0-1", "1-2")
    events = play(state, "0-2")
    assert labels(events) == ["Line 0-2", "Triangle +1", "Plays again after a triangle"]
    assert state.current_player == 0
    play(state, "2-3")
    assert state.current_player == 1
    events = play(state, "0-3")
    assert labels(events) == ["Line 0-3", "Triangle +1", "Game over: a draw 1-1"]
    assert events[-1].data == {"scores": [1, 1], "winners": [0, 1]}
    result = state.result()
    assert result.is_draw and result.ranks == (1, 1)


def test_without_the_option_the_same_lines_alternate() -> None:
    state = new(SQUARE)
    play(state, "0-1", "1-2", "0-2", "2-3", "0-3")
    assert [p for _, p in state.lines()] == [0, 1, 0, 1, 0]
    assert state.scores == [2, 0]


# --- the end of the game -------------------------------------------------------------------------
SHADOW = [[0, 0], [2000, 0], [1000, 1500], [1000, 1650]]
"""Star 3 hides behind star 2: the lines 0-3 and 1-3 pass within 78 units of star 2."""


def test_the_game_ends_when_no_triangle_can_score_though_lines_remain() -> None:
    state = new(SHADOW)
    assert state.illegal_reason(Line(0, 3)) == "passes through a star: 0-3 passes star 2"
    assert state.illegal_reason(Line(1, 3)) == "passes through a star: 1-3 passes star 2"
    assert state.scorable_triangles() == [(0, 1, 2)]
    play(state, "0-1", "1-2")
    assert not state.is_terminal()
    events = play(state, "0-2")
    assert labels(events)[-1] == "Game over: Player 1 wins 1-0"
    assert state.is_terminal() and state.current_player is None
    # 2-3 could still be drawn, but would bring nothing.
    assert state.illegal_reason(Line(2, 3)) is None
    assert state.legal_action_list() == []
    with pytest.raises(GameOverError):
        state.apply(Line(2, 3))
    stars = [(x, y) for x, y in SHADOW]
    assert not ref.scorable_triangle_exists(stars, 100, [(0, 1), (1, 2), (0, 2)])
    assert ref.legal_pairs(stars, 100, [(0, 1), (1, 2), (0, 2)]) == {(2, 3)}


def test_a_board_without_any_empty_triangle_is_over_at_once() -> None:
    state = new([[0, 0], [2000, 0], [1000, 60]])  # 0-1 passes within 60 of star 2
    assert state.is_terminal() and state.result().is_draw
    assert state.illegal_reason(Line(0, 2)) is None


def _down_to_one_remote_triangle() -> TrianglesState:
    """A random game on a seeded board, stopped when a single empty triangle can still be
    closed and the last line drawn is away from it (the first random game that does that)."""
    for r in range(50):
        state = TrianglesGame().new_initial_state(seed=2)
        rng = random.Random(r)
        while len(state.scorable_triangles()) > 1:
            state.apply(rng.choice(state.legal_action_list()))
        left = state.scorable_triangles()
        if left and not {state.history[-1].a, state.history[-1].b} & set(left[0]):
            return state
    raise AssertionError("no such game")  # pragma: no cover


def test_one_remote_triangle_still_possible_keeps_the_game_going() -> None:
    state = _down_to_one_remote_triangle()
    (last,) = state.scorable_triangles()
    stars = list(state.board.stars)
    drawn = [(line.a, line.b) for line, _ in state.lines()]
    assert not state.is_terminal() and state.current_player is not None
    assert ref.scorable_triangle_exists(stars, 100, drawn)
    sides = {(last[0], last[1]), (last[0], last[2]), (last[1], last[2])}
    missing = sides - set(drawn)
    assert missing and {(line.a, line.b) for line in state.legal_actions()} >= missing
    while not state.is_terminal():
        state.apply(next(line for line in state.legal_actions() if (line.a, line.b) in missing))
    assert state.closed_triangles()[-1][0] == last
    drawn = [(line.a, line.b) for line, _ in state.lines()]
    assert not ref.scorable_triangle_exists(stars, 100, drawn)


# --- options --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "board"), [
    ({}, "phone-24"),
    ({"stars": "24"}, "phone-24"),
    ({"stars": 60}, "phone-60"),
    ({"stars": 120}, "phone-120"),
    ({"stars": 80}, "tablet-80"),
    ({"stars": 120, "device": "tablet"}, "tablet-120"),
    ({"stars": 180}, "tablet-180"),
    ({"stars": 180, "device": "tablet"}, "tablet-180"),
])
def test_board_options(options: dict[str, object], board: str) -> None:
    game = TrianglesGame(options=options)
    assert game.board_name == board
    assert game.options["device"] in ("phone", "tablet")
    assert TrianglesGame(options=dict(game.options)) == game


@pytest.mark.parametrize(("options", "message"), [
    ({"stars": 80, "device": "phone"}, "a phone board has 24, 60 or 120 stars, not 80"),
    ({"stars": 24, "device": "tablet"}, "a tablet board has 80, 120 or 180 stars, not 24"),
    ({"stars": 100}, "option 'stars' is one of 24, 60, 80, 120, 180; not 100"),
    ({"device": "watch"}, "option 'device' is one of auto, phone, tablet; not 'watch'"),
    ({"board": "phone-24"}, "unknown option 'board'"),
])
def test_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        TrianglesGame(options=options)


def test_two_players_only() -> None:
    with pytest.raises(OptionError, match="for 2 to 2 players, not 3"):
        TrianglesGame(players=3)


def test_the_six_boards() -> None:
    for name, spec in BOARDS.items():
        game = TrianglesGame(options={"stars": spec.stars, "device": spec.device})
        state = game.new_initial_state(seed=3)
        assert game.board_name == name
        assert len(state.board.stars) == spec.stars
        assert game.num_distinct_actions == spec.stars * (spec.stars - 1) // 2
        assert game.max_game_length == 3 * spec.stars - 6


# --- setups ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("setup", "message"), [
    ({"stars": [[0, 0], [1, 1]]}, "setup: 2 stars; a phone-24 board takes 3 to 24"),
    ({"stars": [[0, 0]] * 25}, "setup: 25 stars; a phone-24 board takes 3 to 24"),
    ({"stars": [[0, 0], [1, 1], [2, 2.5]]}, r"setup: star 2 is \[2, 2.5\], not an \[x, y\]"),
    ({"stars": [[0, 0], [1, 1], [0, 0]]}, r"setup: star 2 at \[0, 0\] is star 0 again"),
    ({"stars": [[0, 0], [1, 1], [10001, 0]]}, "off the phone-24 board"),
    ({"stars": [[0, 0], [1, 1], [-1, 0]]}, "off the phone-24 board"),
    ({"stars": "0,0"}, "setup: 'stars' must be a list"),
    ({"stars": [[0, 0], [1, 1], [2, 0]], "tolerance": -1}, "'tolerance' is a whole number"),
    ({"stars": [[0, 0], [1, 1], [2, 0]], "colours": 2}, "setup: unknown field 'colours'"),
])
def test_bad_setups(setup: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        TrianglesGame().new_initial_state(seed=1, setup=setup)


def test_setup_round_trip() -> None:
    state = new(SQUARE)
    assert state.setup() == {"stars": SQUARE, "tolerance": 100}
    assert TrianglesGame().new_initial_state(seed=1).setup() is None
    again = TrianglesGame().new_initial_state(seed=9, setup=state.setup())
    assert again.board is state.board  # boards are cached and shared


# --- notation, ids, tensors, text -----------------------------------------------------------------
def test_notation() -> None:
    game = TrianglesGame()
    assert game.parse_action("3-17") == Line(3, 17)
    assert game.parse_action("17-3") == Line(3, 17)
    assert str(game.parse_action(" 17 -3 ")) == "3-17"
    assert game.parse_action("4-4") == Line(4, 4)
    assert game.parse_action("17\u20133") == Line(3, 17)  # the seed's en dash: B–D
    for bad in ["", "3", "3-", "a-b", "3-17-2", "-3-4", "3,17", "3.0-4", "\u0663-4"]:
        with pytest.raises(NotationError, match="a line is written a-b"):
            game.parse_action(bad)
    assert game.describe_action(Line(3, 17)) == "line 3-17"
    with pytest.raises(ValueError):
        Line(-1, 2)


def test_action_ids() -> None:
    game = TrianglesGame()
    state = game.new_initial_state(seed=4)
    assert game.num_distinct_actions == 276
    ids = [state.encode_action(line) for line in state.legal_actions()]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert all(0 <= i < 276 for i in ids)
    for line in state.legal_actions():
        assert state.decode_action(state.encode_action(line)) == line
    assert state.encode_action(Line(0, 1)) == 0
    assert state.encode_action(Line(22, 23)) == 275
    for bad in (-1, 276):
        with pytest.raises(IllegalActionError):
            state.decode_action(bad)
    small = new(SQUARE)
    assert small.decode_action(small.encode_action(Line(2, 3))) == Line(2, 3)
    with pytest.raises(IllegalActionError, match="this board has 4 stars"):
        small.decode_action(small.encode_action(Line(2, 4)))


def test_max_game_length_and_score_bounds_hold() -> None:
    game = TrianglesGame(options={"stars": 60})
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_unchecked(rng.choice(state.legal_action_list()))
        assert len(state.history) <= game.max_game_length
        assert sum(state.scores) <= game.max_score


def test_tensor() -> None:
    game = TrianglesGame()
    state = new(SQUARE)
    play(state, "0-1", "1-2")
    tensor = state.observation(0).to_tensor()
    assert len(tensor) == game.tensor_size == 2 * 24 + 24 * 23 + 4
    assert tensor[:4] == [0.0, 0.0, 0.1, 0.0]  # star 0 (0, 0), star 1 (1000, 0) / 10000
    pairs = 276
    assert tensor[48 + 0] == 1.0  # 0-1 by Player 1 (pair id 0)
    assert tensor[48 + pairs + 23] == 1.0  # 1-2 by Player 2 (pair id 23)
    assert sum(tensor[48:48 + 2 * pairs]) == 2
    assert tensor[-4:] == [1.0, 0.0, 0.0, 0.0]


def test_render_text() -> None:
    game = TrianglesGame()
    state = new(BIG)
    play(state, "0-1", "1-3", "0-3")
    text = game.render_text(state.observation(1))
    for piece in ["0", "1", "2", "3", "Player 1 (.): 1 triangle", "Player 2 (+): 0 triangles",
                  "Lines (3): 0-1 P1, 1-3 P2, 0-3 P1", "Triangles (1): 0-1-3 P1",
                  "Player 2 to move"]:
        assert piece in text
    seeded = TrianglesGame(options={"stars": 180}).new_initial_state(seed=2)
    text = TrianglesGame(options={"stars": 180}).render_text(seeded.observation(None))
    assert "tablet-180 board: 180 stars (random cloud)" in text and "seed" not in text
    assert all(str(i) in text for i in range(180))


# --- observations, determinization, records -------------------------------------------------------
def test_observation_is_everything_and_json() -> None:
    game = TrianglesGame(options={"again": True})
    state = game.new_initial_state(seed=6)
    rng = random.Random(6)
    for _ in range(20):
        state.apply(rng.choice(state.legal_action_list()))
    obs = state.observation(None)
    data = obs.to_json()
    json.dumps(data)
    assert data["stars"] == [list(p) for p in state.board.stars]
    assert [(d["a"], d["b"], d["player"]) for d in data["lines"]] == [
        (line.a, line.b, p) for line, p in state.lines()]
    assert data["scores"] == state.scores and data["to_move"] == state.current_player
    assert data["again"] is True and data["custom"] is False
    assert TrianglesObservation.from_json(data) == obs


def test_determinize_from_json_replays_and_checks() -> None:
    game = TrianglesGame()
    state = new(BIG)
    play(state, "0-1", "1-3", "0-3")
    data = state.observation(0).to_json()
    copy = game.determinize(TrianglesObservation.from_json(data), random.Random(0))
    assert copy.observation(0) == state.observation(0)
    assert copy.setup() == state.setup() and copy.history == state.history
    data["scores"] = [0, 0]
    with pytest.raises(ValueError, match="do not follow"):
        game.determinize(TrianglesObservation.from_json(data), random.Random(0))
    with pytest.raises(ValueError, match="another game"):
        TrianglesGame(options={"stars": 60}).determinize(state.observation(0), random.Random(0))


def test_scores_are_sums_of_events_on_a_full_game() -> None:
    state = TrianglesGame().new_initial_state(seed=8)
    rng = random.Random(8)
    events: list[Event] = []
    while not state.is_terminal():
        events += state.apply(rng.choice(state.legal_action_list()))
    assert score_totals(events, 2) == state.scores
    assert events[-1].kind == "game_end"
    assert sum(e.kind == "line" for e in events) == len(state.history)


def test_record_replay() -> None:
    import triverse.games as games

    for setup in (None, {"stars": SQUARE}):
        game = games.load_game("triangles", 2, stars="24", again="on")
        state = game.new_initial_state(seed=12, setup=setup)
        rng = random.Random(1)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_action_list()))
        record = Record.loads(Record.from_state(state, ["Ann", "Bob"]).dumps())
        assert record.options == {"stars": 24, "device": "phone", "again": True}
        assert record.setup == (None if setup is None else {"stars": SQUARE, "tolerance": 100})
        replayed = replay(record)
        assert replayed.scores == state.scores
        assert replayed.observation(0) == state.observation(0)
