"""The triangular grid shared by Tri-ominoes and Trinity: geometry, the board and its bonuses."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from triverse.games._tiles.trigrid import (
    ORIENTATIONS,
    RING_CORNERS,
    UNKNOWN,
    Board,
    PlacementIndex,
    Specials,
    cell_vertices,
    distinct_rotations,
    draw,
    edge_neighbours,
    edge_vertices,
    is_up,
    opposite_corner,
    rotate,
    touching_cells,
    vertex_cells,
)

cells = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


# --- geometry ------------------------------------------------------------------------------------
@given(cells)
def test_vertices_are_lattice_points_and_clockwise(cell: tuple[int, int]) -> None:
    corners = cell_vertices(cell)
    assert len(set(corners)) == 3
    assert all((x + y) % 2 == 1 for x, y in corners)
    # Clockwise on the screen (y downwards) is a positive signed area in (x, y) coordinates.
    (ax, ay), (bx, by), (cx, cy) = corners
    assert (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0


@given(cells)
def test_edge_neighbours_share_exactly_that_edge(cell: tuple[int, int]) -> None:
    for edge, other in enumerate(edge_neighbours(cell)):
        assert is_up(other) != is_up(cell)
        shared = set(cell_vertices(cell)) & set(cell_vertices(other))
        assert shared == set(edge_vertices(cell, edge))
        assert cell in edge_neighbours(other)
        far = cell_vertices(cell)[opposite_corner(edge)]
        assert far not in shared


@given(cells)
def test_the_six_cells_around_a_vertex_form_a_ring(cell: tuple[int, int]) -> None:
    for vertex in cell_vertices(cell):
        ring = vertex_cells(vertex)
        assert len(set(ring)) == 6 and cell in ring
        for i, here in enumerate(ring):
            assert cell_vertices(here)[RING_CORNERS[i]] == vertex
            assert ring[(i + 1) % 6] in edge_neighbours(here)
    touching = touching_cells(cell)
    assert len(touching) == 12 and cell not in touching
    assert all(set(cell_vertices(cell)) & set(cell_vertices(o)) for o in touching)


def test_orientations_and_rotations() -> None:
    assert len(ORIENTATIONS) == 6 and len(set(ORIENTATIONS)) == 6
    assert rotate((0, 1, 2), 0) == (0, 1, 2)
    assert rotate((0, 1, 2), 2) == (2, 0, 1)
    assert distinct_rotations((3, 3, 3)) == (0,)
    assert distinct_rotations((1, 1, 2)) == (0, 1, 2)


# --- the board -----------------------------------------------------------------------------------
def test_fit_reasons_name_the_problem() -> None:
    board = Board()
    assert board.misfit((7, 3), (1, 2, 3)) is None  # anything goes on an empty board
    board.place((0, 0), (5, 5, 5))
    assert board.misfit((0, 0), (5, 5, 5)) == "cell 0,0 is occupied"
    assert board.misfit((4, 0), (5, 5, 5)) == "no shared edge with a tile on the board"
    # Touching a corner only is not enough.
    assert board.misfit((1, 1), (5, 5, 5)) == "no shared edge with a tile on the board"
    assert board.misfit((0, 1), (5, 2, 5)) == "corner 2 vs 5 at vertex 2,1"
    assert board.misfit((0, 1), (5, 5, 2)) is None
    assert board.fits((0, 1), (5, 5, 2)) and not board.fits((0, 1), (5, 2, 5))


def _random_board(seed: int, tiles: int) -> Board:
    """Grow a board of random matching placements (values 0-2, so that corners meet often)."""
    rng = random.Random(seed)
    board = Board()
    board.place((0, 0), (rng.randrange(3), rng.randrange(3), rng.randrange(3)))
    for _ in range(tiles):
        cell = rng.choice(sorted(board.frontier))
        pattern = board.pattern(cell)
        a, b, c = (v if v != UNKNOWN else rng.randrange(3) for v in pattern)
        board.place(cell, (a, b, c))
    return board


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60))
def test_incremental_frontier_matches_a_recount(seed: int, tiles: int) -> None:
    board = _random_board(seed, tiles)
    expected = {n for c in board.cells for n in edge_neighbours(c) if n not in board.cells}
    assert set(board.frontier) == expected
    for cell, pattern in board.frontier.items():
        assert pattern == board.pattern(cell)
        assert sum(v != UNKNOWN for v in pattern) >= 2
    for cell, values in board.cells.items():
        for vertex, value in zip(cell_vertices(cell), values, strict=True):
            assert board.corners[vertex] == value
    copy = board.copy()
    copy.place(next(iter(copy.frontier)), (0, 0, 0))
    assert len(copy) == len(board) + 1 and set(board.frontier) == expected


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40))
def test_placements_agree_with_brute_force(seed: int, tiles: int) -> None:
    board = _random_board(seed, tiles)
    pieces = [(a, b, c) for a in range(3) for b in range(3) for c in range(3)]
    index = PlacementIndex(pieces, lambda t: t)
    hand = set(random.Random(seed).sample(pieces, 9))
    fast = list(board.placements(index, hand))
    assert len(fast) == len(set(fast))
    brute = set()
    for piece in hand:
        for cell in board.frontier:
            for r in distinct_rotations(piece):
                if board.misfit(cell, rotate(piece, r)) is None:
                    brute.add((piece, cell, r))
    assert set(fast) == brute


def _ring_board(missing: int) -> tuple[Board, tuple[int, int], tuple[int, int]]:
    vertex = (1, 0)
    ring = vertex_cells(vertex)
    board = Board()
    for i, cell in enumerate(ring):
        if i != missing:
            board.place(cell, (1, 1, 1))
    return board, ring[missing], vertex


def test_hexagon_detection_around_a_vertex() -> None:
    for missing in range(6):
        board, cell, vertex = _ring_board(missing)
        specials = board.specials(cell)
        assert specials.hexagons == (vertex,)
        assert specials.contacts == 2 and not specials.span and not specials.double_contact
    board, cell, _ = _ring_board(0)
    board.cells.pop(vertex_cells((1, 0))[3])  # a ring with two holes closes nothing
    assert board.hexagons(cell) == ()


def test_span_is_one_edge_and_the_opposite_corner() -> None:
    board = Board()
    board.place((0, 0), (1, 1, 1))
    assert board.specials((0, 1)) == Specials(1, False, ())
    board.place((0, 2), (1, 1, 1))  # touches (0, 1)'s corner 2, opposite the edge on (0, 0)
    assert board.specials((0, 1)) == Specials(1, True, ())
    board.place((-1, 1), (1, 1, 1))  # now (0, 1) would have two edges: no longer a span
    assert board.specials((0, 1)).span is False
    assert board.specials((0, 1)).double_contact is True


def test_anchors_name_each_frontier_cell_once() -> None:
    board = _random_board(3, 25)
    for cell in board.frontier:
        anchor = board.anchor(cell)
        assert anchor is not None
        assert board.from_anchor(*anchor) == cell
    assert board.anchor((100, 100)) is None
    assert board.from_anchor(len(board), 0) is None


def test_drawing_shows_corner_numbers_and_axes() -> None:
    board = Board()
    board.place((0, 0), (5, 4, 3))
    board.place((1, 0), (5, 2, 4))
    lines = draw(board, {(1, 0): "*"}, frontier_mark=".")
    text = "\n".join(lines)
    assert lines[0].startswith("x") and "-1" in lines[0]
    assert "y 0" in text and "*" in text and "." in text
    assert "5-------2" in text and "3-------4" in text
    assert draw(Board()) == ["(empty board)"]


@pytest.mark.parametrize("values", [(0, 1, 2), (4, 4, 5), (3, 3, 3)])
def test_placement_index_lists_each_assignment_once(values: tuple[int, int, int]) -> None:
    index = PlacementIndex([values], lambda t: t)
    full = [index.fitting(rotate(values, r)) for r in range(3)]
    assert all(len(found) == 1 for found in full)
    assert sum(len(index.fitting((UNKNOWN, UNKNOWN, UNKNOWN))) for _ in [0]) == len(
        distinct_rotations(values))
