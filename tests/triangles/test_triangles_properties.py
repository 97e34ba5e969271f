"""Triangles: properties of random boards and random games, against the slow reference model."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triverse.core.events import Event, score_totals
from triverse.games.triangles import Line, TrianglesGame, TrianglesObservation, TrianglesState
from triverse.games.triangles.board import Board
from triverse.games.triangles.cloud import BOARDS, generate_stars, min_spacing2
from triverse.games.triangles.geometry import near_segment, segments_cross

from . import reference as ref

GAME = TrianglesGame()
GAME_AGAIN = TrianglesGame(options={"again": True})
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def small_boards(draw: st.DrawFn) -> tuple[list[tuple[int, int]], int]:
    """3 to 8 distinct stars on a coarse grid (many collinear triples and stars exactly on
    would-be sides), with a tolerance from exact (0) to wide."""
    step = draw(st.sampled_from([1, 100, 250]))
    points = draw(st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), min_size=3,
                           max_size=8, unique=True))
    tolerance = draw(st.sampled_from([0, 0, 30, 100, 180]))
    return [(x * step, y * step) for x, y in points], tolerance


def start(stars: list[tuple[int, int]], tolerance: int, again: bool = False) -> TrianglesState:
    game = GAME_AGAIN if again else GAME
    return game.new_initial_state(
        seed=0, setup={"stars": [list(p) for p in stars], "tolerance": tolerance})


def drawn_pairs(state: TrianglesState) -> list[tuple[int, int]]:
    return [(line.a, line.b) for line, _ in state.lines()]


@SETTINGS
@given(small_boards(), st.booleans(), st.randoms(use_true_random=False))
def test_random_games_agree_with_the_reference(
    board: tuple[list[tuple[int, int]], int], again: bool, rng: random.Random
) -> None:
    """After every line: the incrementally kept legal set is the brute-force one, the end test
    is a brute-force search for a still-scorable triangle, and the scores are brute-force counts
    of closed empty triangles; the scores are also the sums of the score events."""
    stars, tol = board
    state = start(stars, tol, again)
    events: list[Event] = []
    while True:
        drawn = drawn_pairs(state)
        expected = ref.legal_pairs(stars, tol, drawn)
        assert state.is_terminal() == (not ref.scorable_triangle_exists(stars, tol, drawn))
        n = len(stars)
        reasons = {(a, b): state.illegal_reason(Line(a, b))
                   for a in range(n) for b in range(a + 1, n)}
        assert {pair for pair, why in reasons.items() if why is None} == expected
        if state.is_terminal():
            assert state.legal_action_list() == []
            break
        assert {(line.a, line.b) for line in state.legal_actions()} == expected
        events += state.apply(rng.choice(state.legal_action_list()))
    lines = [(line.a, line.b, p) for line, p in state.lines()]
    assert state.scores == ref.scores(stars, lines)
    assert score_totals(events, 2) == state.scores


@settings(SETTINGS, max_examples=40)
@given(small_boards())
def test_board_precomputation_matches_the_reference(
    board: tuple[list[tuple[int, int]], int]
) -> None:
    stars, tol = board
    b = Board(stars, tol)
    n = len(stars)
    clear = [(a, c) for a in range(n) for c in range(a + 1, n)
             if not ref.blocked(stars, a, c, tol)]
    assert [b.pair(i) for i in range(b.num_candidates)] == clear
    assert list(b.triangles) == [
        (x, y, z) for x in range(n) for y in range(x + 1, n) for z in range(y + 1, n)
        if {(x, y), (x, z), (y, z)} <= set(clear) and ref.empty(stars, x, y, z)]
    for i in range(b.num_candidates):
        p, q = b.pair(i)
        assert b.crossing(i) == sum(
            1 << j for j in range(b.num_candidates)
            if j != i and ref.meet(stars[p], stars[q], stars[b.pair(j)[0]], stars[b.pair(j)[1]]))


@settings(SETTINGS, max_examples=40)
@given(st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 3000)), min_size=8, max_size=14,
                unique=True),
       st.sampled_from([0, 40, 100]))
def test_spread_boards_use_the_angular_window_exactly(
    stars: list[tuple[int, int]], tol: int
) -> None:
    """Boards of 8 or more stars farther apart than the tolerance take the fast path of
    ``Board._candidates`` (only the stars in an angular window are tested)."""
    b = Board(stars, tol)
    n = len(stars)
    clear = [(a, c) for a in range(n) for c in range(a + 1, n)
             if not ref.blocked(stars, a, c, tol)]
    assert [b.pair(i) for i in range(b.num_candidates)] == clear
    assert list(b.triangles) == [
        (x, y, z) for x in range(n) for y in range(x + 1, n) for z in range(y + 1, n)
        if {(x, y), (x, z), (y, z)} <= set(clear) and ref.empty(stars, x, y, z)]


def test_generated_boards_match_the_reference() -> None:
    for name in ("phone-24", "tablet-80"):
        spec = BOARDS[name]
        stars = list(generate_stars(5, spec))
        b = Board(stars, spec.tolerance)
        n = len(stars)
        clear = [(a, c) for a in range(n) for c in range(a + 1, n)
                 if not any(near_segment(stars[d], stars[a], stars[c], spec.tolerance)
                            for d in range(n) if d not in (a, c))]
        assert [b.pair(i) for i in range(b.num_candidates)] == clear
        if n <= 24:
            assert list(b.triangles) == [
                (x, y, z) for x in range(n) for y in range(x + 1, n) for z in range(y + 1, n)
                if {(x, y), (x, z), (y, z)} <= set(clear) and ref.empty(stars, x, y, z)]


@settings(max_examples=40, deadline=None)
@given(st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
       st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
       st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
       st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
       st.integers(0, 30))
def test_geometry_matches_rational_arithmetic(
    p: tuple[int, int], q: tuple[int, int], r: tuple[int, int], s: tuple[int, int], tol: int
) -> None:
    if p != q:
        assert near_segment(r, p, q, tol) == (ref.seg_dist2(r, p, q) <= tol * tol)
    if p != q and r != s:
        assert segments_cross(p, q, r, s) == ref.meet(p, q, r, s)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**63 - 1), st.sampled_from(sorted(BOARDS)))
def test_clouds_are_deterministic_and_well_spaced(seed: int, name: str) -> None:
    spec = BOARDS[name]
    stars = generate_stars(seed, spec)
    assert stars == generate_stars(seed, spec)
    assert len(stars) == spec.stars and len(set(stars)) == spec.stars
    assert all(spec.margin <= x <= spec.width - spec.margin
               and spec.margin <= y <= spec.height - spec.margin for x, y in stars)
    assert min_spacing2(stars) >= spec.spacing ** 2 > 4 * spec.tolerance ** 2


def random_game(seed: int, choices: int, again: bool = False) -> tuple[TrianglesState, list[str]]:
    game = GAME_AGAIN if again else GAME
    state = game.new_initial_state(seed=seed)
    rng = random.Random(choices)
    moves: list[str] = []
    while not state.is_terminal():
        line = rng.choice(state.legal_action_list())
        moves.append(str(line))
        state.apply(line)
    return state, moves


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.booleans())
def test_replay_from_seed_is_deterministic(seed: int, choices: int, again: bool) -> None:
    state, moves = random_game(seed, choices, again)
    other = (GAME_AGAIN if again else GAME).new_initial_state(seed=seed)
    for text in moves:
        other.apply_notation(text)
    assert other.observation(None) == state.observation(None)
    assert other.is_terminal() and other.result() == state.result()


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 60))
def test_determinize_and_observation_round_trip(seed: int, choices: int, cut: int) -> None:
    _, moves = random_game(seed, choices)
    state = GAME.new_initial_state(seed=seed)
    for text in moves[:cut]:
        state.apply_notation(text)
    for seat in (0, 1, None):
        obs = state.observation(seat)
        for source in (obs, TrianglesObservation.from_json(obs.to_json())):
            copy = GAME.determinize(source, random.Random(0))
            assert copy.observation(seat) == obs
            assert copy.history == state.history and copy.scores == state.scores
            assert copy.legal_action_list() == state.legal_action_list()
            assert copy.setup() == state.setup()
            # The JSON has the stars, never the seed: only the private snapshot keeps it.
            assert copy.seed == (state.seed if source is obs else 0)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 40))
def test_clones_are_independent(seed: int, choices: int, cut: int) -> None:
    _, moves = random_game(seed, choices)
    state = GAME.new_initial_state(seed=seed)
    for text in moves[:cut]:
        state.apply_notation(text)
    before = state.observation(None)
    legal = state.legal_action_list()
    copy = state.clone()
    assert copy.board is state.board  # the precomputed board is shared, not copied
    while not copy.is_terminal():
        copy.apply(copy.legal_action_list()[0])
    assert state.observation(None) == before and state.legal_action_list() == legal
    if not state.is_terminal():
        state.apply(legal[-1])
        assert copy.is_terminal()


def test_the_legal_set_of_a_generated_board_matches_brute_force() -> None:
    """On a generated 24-star board, every few lines of a random game (the reference is slow)."""
    game = TrianglesGame(options={"stars": 24})
    state = game.new_initial_state(seed=21)
    stars = list(state.board.stars)
    tol = state.board.tolerance
    rng = random.Random(21)
    n = len(stars)
    blocked = {(a, b) for a in range(n) for b in range(a + 1, n)
               if ref.blocked(stars, a, b, tol)}
    step = 0
    while not state.is_terminal():
        if step % 6 == 0:
            drawn = drawn_pairs(state)
            expected = {
                (a, b) for a in range(n) for b in range(a + 1, n)
                if (a, b) not in blocked and (a, b) not in drawn
                and not any(ref.meet(stars[a], stars[b], stars[c], stars[d]) for c, d in drawn)
            }
            assert {(line.a, line.b) for line in state.legal_actions()} == expected
        state.apply(rng.choice(state.legal_action_list()))
        step += 1


def test_every_board_plays_to_the_end() -> None:
    """One random game on each board: the end comes, within the move bound, and then no
    empty triangle is left that could be scored."""
    for name, spec in BOARDS.items():
        game = TrianglesGame(options={"stars": spec.stars, "device": spec.device})
        state = game.new_initial_state(seed=1)
        rng = random.Random(1)
        events: list[Event] = []
        while not state.is_terminal():
            events += state.apply_unchecked(rng.choice(state.legal_action_list()))
        assert len(state.history) <= game.max_game_length, name
        assert sum(e.kind == "triangle" for e in events) == sum(state.scores)
        assert state.scorable_triangles() == []
