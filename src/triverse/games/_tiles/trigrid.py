"""The triangular grid shared by the tile games (Tri-ominoes, Trinity): geometry and a board.

Geometry
--------
A **cell** ``(x, y)`` is one triangle. ``y`` is the row, counted downwards; ``x`` steps half an
edge to the right, so neighbouring cells of a row alternate between pointing up and pointing
down. A cell points **up** when ``x + y`` is even.

A **vertex** ``(X, Y)`` is a lattice point: ``Y`` is the horizontal line (line ``y`` is the top of
row ``y``), ``X`` counts half edges; ``X + Y`` is always odd.

Each cell has three **corners**, numbered clockwise (as seen on the screen, ``y`` going down):

- an up cell ``(x, y)``: corner 0 its apex ``(x+1, y)``, corner 1 bottom right ``(x+2, y+1)``,
  corner 2 bottom left ``(x, y+1)``;
- a down cell ``(x, y)``: corner 0 top left ``(x, y)``, corner 1 top right ``(x+2, y)``,
  corner 2 its bottom apex ``(x+1, y+1)``.

Edge ``i`` joins corner ``i`` and corner ``i + 1`` (mod 3); corner ``i + 2`` is opposite it.

A tile carries three numbers clockwise. Placed on a cell with **rotation** ``r`` (0, 1 or 2),
corner ``i`` receives the tile's number at position ``(i + r) mod 3`` (:func:`rotate`). An up or
a down cell and three rotations: those are a tile's six orientations (:data:`ORIENTATIONS`).
Tiles turn but are never turned over, so mirror-image tiles (Trinity's) stay different tiles.

>>> is_up((0, 0)), is_up((1, 0))
(True, False)
>>> cell_vertices((0, 0))
((1, 0), (2, 1), (0, 1))
>>> edge_neighbours((0, 0))
((1, 0), (0, 1), (-1, 0))
>>> rotate((0, 1, 2), 1)
(1, 2, 0)

The board
---------
:class:`Board` keeps, for speed, the values at each cell's corners, one value per touched vertex
(so a corner check is one dictionary look-up) and the **frontier**: every empty cell that shares
an edge with a placed tile, with the corner values a tile placed there must show. All three are
updated incrementally by :meth:`Board.place`.

The tile games' bonuses are all read from one detector, :meth:`Board.specials`: how many edges a
placement shares, whether it spans a gap (one shared edge, and the corner opposite it touches
another tile: Tri-ominoes' bridge, Trinity's Span), and which rings of six it closes (hexagons).
Each game turns those facts into its own points.

:class:`PlacementIndex` lists, once per tile set, every distinct way each tile fits each corner
pattern; :meth:`Board.placements` then lists the legal placements of a hand with one look-up per
frontier cell. :func:`draw` is the text picture of a board.

>>> board = Board()
>>> board.place((0, 0), (5, 5, 5))
>>> board.misfit((1, 0), (4, 5, 5))
'corner 4 vs 5 at vertex 1,0'
>>> board.misfit((1, 0), (5, 4, 5)) is None
True
>>> board.misfit((3, 0), (5, 5, 5))
'no shared edge with a tile on the board'
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from triverse.core.messages import Reason

Cell = tuple[int, int]
"""A triangle: ``(x, y)``; it points up when ``x + y`` is even."""
Vertex = tuple[int, int]
"""A lattice point ``(X, Y)`` with ``X + Y`` odd."""
Values = tuple[int, int, int]
"""Three numbers, at corners 0, 1 and 2 of a cell (or clockwise around a tile)."""
Pattern = tuple[int, int, int]
"""The values a cell's corners must show, :data:`UNKNOWN` where no tile touches the corner."""

UNKNOWN = -1
"""A corner no placed tile touches yet (any value fits)."""

ORIGIN: Cell = (0, 0)
"""The cell of a round's first tile (an up cell)."""

ORIENTATIONS: tuple[tuple[bool, int], ...] = tuple(
    (up, r) for up in (True, False) for r in range(3))
"""The six orientations of a tile: (on an up cell?, rotation)."""

T = TypeVar("T")


# --- geometry ------------------------------------------------------------------------------------
def is_up(cell: Cell) -> bool:
    """Whether ``cell`` points up (its apex at the top)."""
    return (cell[0] + cell[1]) % 2 == 0


def cell_vertices(cell: Cell) -> tuple[Vertex, Vertex, Vertex]:
    """The cell's corners 0, 1, 2 (clockwise).

    >>> cell_vertices((1, 0))
    ((1, 0), (3, 0), (2, 1))
    """
    x, y = cell
    if (x + y) % 2 == 0:
        return ((x + 1, y), (x + 2, y + 1), (x, y + 1))
    return ((x, y), (x + 2, y), (x + 1, y + 1))


def edge_neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The cells across edges 0, 1, 2 (edge ``i`` joins corners ``i`` and ``i + 1``).

    >>> edge_neighbours((1, 0))
    ((1, -1), (2, 0), (0, 0))
    """
    x, y = cell
    if (x + y) % 2 == 0:
        return ((x + 1, y), (x, y + 1), (x - 1, y))
    return ((x, y - 1), (x + 1, y), (x - 1, y))


def edge_vertices(cell: Cell, edge: int) -> tuple[Vertex, Vertex]:
    """The two ends of ``edge`` (corners ``edge`` and ``edge + 1``)."""
    corners = cell_vertices(cell)
    return corners[edge], corners[(edge + 1) % 3]


def opposite_corner(edge: int) -> int:
    """The corner facing ``edge``.

    >>> opposite_corner(0)
    2
    """
    return (edge + 2) % 3


def vertex_cells(vertex: Vertex) -> tuple[Cell, Cell, Cell, Cell, Cell, Cell]:
    """The six cells around ``vertex``, in order around it (each shares an edge with the next).

    >>> vertex_cells((1, 0))
    ((0, -1), (1, -1), (1, 0), (0, 0), (-1, 0), (-1, -1))
    >>> all(cell_vertices(c)[k] == (1, 0) for c, k in zip(vertex_cells((1, 0)), RING_CORNERS))
    True
    """
    x, y = vertex
    return ((x - 1, y - 1), (x, y - 1), (x, y), (x - 1, y), (x - 2, y), (x - 2, y - 1))


RING_CORNERS: tuple[int, int, int, int, int, int] = (2, 2, 0, 0, 1, 1)
"""Which corner of each cell of :func:`vertex_cells` the vertex is (in the same order)."""


def touching_cells(cell: Cell) -> tuple[Cell, ...]:
    """The twelve cells that share at least one vertex with ``cell`` (edge neighbours first).

    >>> len(touching_cells((0, 0))), touching_cells((0, 0))[:3] == edge_neighbours((0, 0))
    (12, True)
    """
    out: list[Cell] = list(edge_neighbours(cell))
    for vertex in cell_vertices(cell):
        for other in vertex_cells(vertex):
            if other != cell and other not in out:
                out.append(other)
    return tuple(out)


def rotate(values: Values, rotation: int) -> Values:
    """The corner values of a tile ``values`` (clockwise) placed with ``rotation``."""
    r = rotation % 3
    return (values[r], values[(r + 1) % 3], values[(r + 2) % 3])


def distinct_rotations(values: Values) -> tuple[int, ...]:
    """The rotations that give different corner values: ``(0,)`` for a triple.

    >>> distinct_rotations((2, 2, 2)), distinct_rotations((0, 0, 1))
    ((0,), (0, 1, 2))
    """
    out: list[int] = []
    seen: set[Values] = set()
    for r in range(3):
        placed = rotate(values, r)
        if placed not in seen:
            seen.add(placed)
            out.append(r)
    return tuple(out)


def format_cell(cell: Cell) -> str:
    """``"x,y"``, the way cells and vertices are written in notation and messages."""
    return f"{cell[0]},{cell[1]}"


# --- bonuses -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Specials:
    """What a placement forms, in grid terms; each game prices these facts itself.

    ``contacts``: the edges it shares with tiles already placed. ``span``: it shares exactly one
    edge and the corner opposite that edge touches another tile (Tri-ominoes' bridge, Trinity's
    Span). ``hexagons``: the vertices around which it completes a ring of six tiles.
    """

    contacts: int
    span: bool
    hexagons: tuple[Vertex, ...]

    @property
    def double_contact(self) -> bool:
        """Two shared edges and no hexagon closed (the shape of Trinity's Slide)."""
        return self.contacts == 2 and not self.hexagons


# --- placements by the corner values they need ---------------------------------------------------
class PlacementIndex(Generic[T]):
    """Every distinct way each tile can sit on a cell, keyed by the corner pattern it fits.

    Built once per tile set; the legal-move generator then does one look-up per frontier cell.
    A tile whose rotations coincide (a triple) is listed once, with rotation 0.

    >>> index = PlacementIndex([(0, 0, 1), (1, 1, 1)], lambda t: t)
    >>> index.fitting((1, 1, UNKNOWN))
    (((1, 1, 1), 0),)
    >>> index.fitting((0, 1, UNKNOWN))
    (((0, 0, 1), 1),)
    """

    __slots__ = ("candidates", "values_of")

    def __init__(self, tiles: Iterable[T], values_of: Callable[[T], Values]) -> None:
        self.values_of = values_of
        found: dict[Pattern, list[tuple[T, int]]] = {}
        for tile in tiles:
            values = values_of(tile)
            for r in distinct_rotations(values):
                placed = rotate(values, r)
                for mask in range(8):
                    pattern: Pattern = (
                        placed[0] if mask & 1 else UNKNOWN,
                        placed[1] if mask & 2 else UNKNOWN,
                        placed[2] if mask & 4 else UNKNOWN,
                    )
                    found.setdefault(pattern, []).append((tile, r))
        self.candidates: Mapping[Pattern, tuple[tuple[T, int], ...]] = {
            pattern: tuple(options) for pattern, options in found.items()}

    def fitting(self, pattern: Pattern) -> tuple[tuple[T, int], ...]:
        """The (tile, rotation) pairs whose corners fit ``pattern``."""
        return self.candidates.get(pattern, ())


# --- the board -----------------------------------------------------------------------------------
class Board:
    """Placed tiles on the grid, with O(1) corner look-ups and an incremental frontier.

    ``cells`` maps a cell to its corner values; ``corners`` a touched vertex to its value;
    ``frontier`` each empty cell sharing an edge with a tile to the pattern a tile there must
    fit (in the order the cells joined it); ``order`` the cells in placement order.
    """

    __slots__ = ("cells", "corners", "frontier", "order", "position")

    def __init__(self) -> None:
        self.cells: dict[Cell, Values] = {}
        self.corners: dict[Vertex, int] = {}
        self.frontier: dict[Cell, Pattern] = {}
        self.order: list[Cell] = []
        self.position: dict[Cell, int] = {}

    def copy(self) -> Board:
        """An independent copy (shallow copies of the maps: values are immutable)."""
        other = Board.__new__(Board)
        other.cells = self.cells.copy()
        other.corners = self.corners.copy()
        other.frontier = self.frontier.copy()
        other.order = self.order.copy()
        other.position = self.position.copy()
        return other

    def __len__(self) -> int:
        return len(self.order)

    def __contains__(self, cell: object) -> bool:
        return cell in self.cells

    def pattern(self, cell: Cell) -> Pattern:
        """The values ``cell``'s corners must show (:data:`UNKNOWN` where untouched)."""
        get = self.corners.get
        a, b, c = cell_vertices(cell)
        return (get(a, UNKNOWN), get(b, UNKNOWN), get(c, UNKNOWN))

    def place(self, cell: Cell, values: Values) -> None:
        """Put corner ``values`` on ``cell``, unchecked (see :meth:`misfit`): a vertex already
        touched keeps its value."""
        cells = self.cells
        cells[cell] = values
        self.position[cell] = len(self.order)
        self.order.append(cell)
        frontier = self.frontier
        frontier.pop(cell, None)
        corners = self.corners
        fresh: list[Vertex] = []
        for vertex, value in zip(cell_vertices(cell), values, strict=True):
            if vertex not in corners:
                corners[vertex] = value
                fresh.append(vertex)
        get = corners.get
        # Only the cells around a newly touched vertex see their pattern change ...
        for vertex in fresh:
            for other in vertex_cells(vertex):
                if other in frontier:
                    a, b, c = cell_vertices(other)
                    frontier[other] = (get(a, UNKNOWN), get(b, UNKNOWN), get(c, UNKNOWN))
        # ... and the empty edge neighbours join the frontier.
        for neighbour in edge_neighbours(cell):
            if neighbour not in cells and neighbour not in frontier:
                a, b, c = cell_vertices(neighbour)
                frontier[neighbour] = (get(a, UNKNOWN), get(b, UNKNOWN), get(c, UNKNOWN))

    def fits(self, cell: Cell, values: Values) -> bool:
        """Whether ``values`` may go on ``cell`` (a frontier cell whose corners all match)."""
        pattern = self.frontier.get(cell)
        if pattern is None:
            return False
        return all(p in (UNKNOWN, v) for p, v in zip(pattern, values, strict=True))

    def misfit(self, cell: Cell, values: Values) -> str | None:
        """Why ``values`` cannot go on ``cell``, or ``None`` if they fit.

        Any cell fits on an empty board. Otherwise the cell must be empty, share an edge with a
        tile, and every corner that touches a placed tile must carry that tile's value.
        """
        if cell in self.cells:
            return Reason(f"cell {format_cell(cell)} is occupied", "refused.occupied",
                          cell=format_cell(cell))
        if not self.cells:
            return None
        if cell not in self.frontier:
            return Reason("no shared edge with a tile on the board", "refused.no_shared_edge")
        for vertex, value in zip(cell_vertices(cell), values, strict=True):
            there = self.corners.get(vertex)
            if there is not None and there != value:
                return Reason(f"corner {value} vs {there} at vertex {format_cell(vertex)}",
                              "refused.corner_mismatch", value=value, there=there,
                              vertex=format_cell(vertex))
        return None

    def contacts(self, cell: Cell) -> tuple[int, ...]:
        """The edges of ``cell`` shared with placed tiles."""
        return tuple(edge for edge, other in enumerate(edge_neighbours(cell))
                     if other in self.cells)

    def hexagons(self, cell: Cell) -> tuple[Vertex, ...]:
        """The vertices of ``cell`` whose ring of six a tile on ``cell`` would complete."""
        cells = self.cells
        return tuple(
            vertex for vertex in cell_vertices(cell)
            if all(other == cell or other in cells for other in vertex_cells(vertex)))

    def specials(self, cell: Cell) -> Specials:
        """What a tile placed on the empty ``cell`` would form (call it before :meth:`place`).

        >>> board = Board()
        >>> board.place((0, 0), (1, 1, 1))
        >>> board.specials((0, 1))
        Specials(contacts=1, span=False, hexagons=())
        >>> board.place((0, 2), (1, 1, 1))   # its apex is (0, 1)'s bottom corner
        >>> board.specials((0, 1))           # the edge on (0, 0), the far corner on (0, 2)
        Specials(contacts=1, span=True, hexagons=())
        """
        edges = self.contacts(cell)
        span = False
        if len(edges) == 1:
            far = cell_vertices(cell)[opposite_corner(edges[0])]
            span = far in self.corners
        return Specials(len(edges), span, self.hexagons(cell))

    def placements(self, index: PlacementIndex[T], hand: Container[T]
                   ) -> Iterator[tuple[T, Cell, int]]:
        """Every ``(tile, cell, rotation)`` fitting the board with a tile from ``hand``.

        Frontier cells in the order they joined it, then the index's order; no duplicates.
        """
        candidates = index.candidates
        for cell, pattern in self.frontier.items():
            for tile, rotation in candidates.get(pattern, ()):
                if tile in hand:
                    yield tile, cell, rotation

    # --- anchors: a cell named by a placed tile and one of its edges ----------------------------
    def anchor(self, cell: Cell) -> tuple[int, int] | None:
        """``(k, edge)``: the earliest placed tile ``k`` sharing an edge with ``cell``, and which
        of its edges that is; ``None`` if no tile does."""
        best: tuple[int, int] | None = None
        for neighbour in edge_neighbours(cell):
            k = self.position.get(neighbour)
            if k is not None and (best is None or k < best[0]):
                best = (k, edge_neighbours(neighbour).index(cell))
        return best

    def from_anchor(self, k: int, edge: int) -> Cell | None:
        """The cell across ``edge`` of the ``k``-th placed tile (``None`` if there is no such
        tile)."""
        if not 0 <= k < len(self.order) or not 0 <= edge < 3:
            return None
        return edge_neighbours(self.order[k])[edge]

    def bounds(self, margin: bool = True) -> tuple[int, int, int, int] | None:
        """``(min_x, min_y, max_x, max_y)`` of the placed cells (and the frontier, with
        ``margin``); ``None`` on an empty board."""
        cells: Iterable[Cell] = list(self.cells) + (list(self.frontier) if margin else [])
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        if not xs:
            return None
        return min(xs), min(ys), max(xs), max(ys)


# --- drawing -------------------------------------------------------------------------------------
def draw(board: Board, marks: Mapping[Cell, str] | None = None, frontier_mark: str = "")\
        -> list[str]:
    """The board as text: corner numbers at the vertices, ``/ \\ -`` along the edges.

    Each cell's interior shows up to three characters from ``marks`` (placed cells) or
    ``frontier_mark`` (empty cells where a tile could go). The first line labels the columns
    ``x`` of the cells (at each cell's centre), the others start with the row ``y``.

    >>> board = Board()
    >>> board.place((0, 0), (5, 5, 5))
    >>> print("\\n".join(draw(board)))
    x       0
            5
    y 0   /   \\
        5-------5
    """
    marks = marks or {}
    box = board.bounds(margin=bool(frontier_mark))
    if box is None:
        return ["(empty board)"]
    canvas = _Canvas(*box)
    for cell in board.cells:
        canvas.triangle(cell, marks.get(cell, "")[:3])
    if frontier_mark:
        for cell in board.frontier:
            line, col = canvas.centre(cell)
            canvas.put(line, col, frontier_mark[:1])
    for vertex, value in board.corners.items():
        canvas.put(*canvas.vertex(vertex), str(value))
    return canvas.lines()


class _Canvas:
    """The character grid :func:`draw` fills: vertex ``(X, Y)`` sits at column
    ``4 * (X - min_x)`` of line ``2 * (Y - min_y)``."""

    def __init__(self, min_x: int, min_y: int, max_x: int, max_y: int) -> None:
        self.min_x, self.min_y, self.max_x, self.max_y = min_x, min_y, max_x, max_y
        self.width = 4 * (max_x + 2 - min_x) + 1
        height = 2 * (max_y + 1 - min_y) + 1
        self.grid = [[" "] * self.width for _ in range(height)]

    def put(self, line: int, col: int, text: str) -> None:
        """Write ``text`` from column ``col`` of ``line`` (what falls outside is dropped)."""
        for i, ch in enumerate(text):
            if 0 <= col + i < self.width:
                self.grid[line][col + i] = ch

    def centre(self, cell: Cell) -> tuple[int, int]:
        """The line and column of a cell's centre."""
        return 2 * (cell[1] - self.min_y) + 1, 4 * (cell[0] - self.min_x) + 4

    def vertex(self, vertex: Cell) -> tuple[int, int]:
        """The line and column of a vertex."""
        return 2 * (vertex[1] - self.min_y), 4 * (vertex[0] - self.min_x)

    def triangle(self, cell: Cell, text: str) -> None:
        """The edges of a placed cell, and ``text`` centred inside it."""
        line, col = self.centre(cell)
        if is_up(cell):
            self.put(line, col - 2, "/")
            self.put(line, col + 2, "\\")
            self.put(line + 1, col - 3, "-------")
        else:
            self.put(line, col - 2, "\\")
            self.put(line, col + 2, "/")
            self.put(line - 1, col - 3, "-------")
        if text:
            self.put(line, col - (len(text) - 1) // 2, text)

    def lines(self) -> list[str]:
        """The grid's lines under the column labels ``x``, each after its row label ``y``."""
        min_x, min_y, max_y = self.min_x, self.min_y, self.max_y
        label_width = 2 + max(len(str(min_y)), len(str(max_y)))
        axis = [" "] * (self.width + 2)
        for x in range(min_x, self.max_x + 1):
            text = str(x)
            col = 4 * (x - min_x) + 4 - (len(text) - 1) // 2
            if all(ch == " " for ch in axis[max(col - 1, 0): col + len(text) + 1]):
                axis[col: col + len(text)] = list(text)
        out = [("x".ljust(label_width) + " " + "".join(axis)).rstrip()]
        for i, chars in enumerate(self.grid):
            label = f"y {min_y + i // 2}" if i % 2 == 1 else ""
            out.append((label.ljust(label_width) + " " + "".join(chars)).rstrip())
        return out
