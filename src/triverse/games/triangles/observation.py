"""What a Triangles seat sees: the stars, the lines drawn and who drew them, the triangles
closed, the scores and whose turn it is. Nothing is hidden, so every seat sees the same; the
seed is never part of it (``TrianglesGame.determinize`` rebuilds a position on the stars)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from triverse.core.game import Observation
from triverse.games.triangles.action import pair_id
from triverse.games.triangles.geometry import Point

if TYPE_CHECKING:
    from triverse.games.triangles.engine import TrianglesState


@dataclass(frozen=True)
class TrianglesObservation(Observation):
    """Everything about a position (Triangles has no hidden information).

    ``lines`` are ``(a, b, player)`` in the order drawn; ``triangles`` are ``(a, b, c, player)``
    (stars in increasing order) in the order closed; ``to_move`` is ``None`` when the game is over.
    ``custom`` says the stars came from an explicit setup rather than from the seed. The seed
    itself is not here: the stars are the whole board, and a seat must not learn the seed, from
    which a match's other chance (a computer player's, say) could be worked out.
    """

    player: int | None
    board: str
    max_stars: int
    width: int
    height: int
    tolerance: int
    stars: tuple[Point, ...]
    lines: tuple[tuple[int, int, int], ...]
    triangles: tuple[tuple[int, int, int, int], ...]
    scores: tuple[int, ...]
    to_move: int | None
    again: bool
    custom: bool
    snapshot: TrianglesState | None = field(default=None, compare=False, repr=False)
    """A private copy of the state, so that :meth:`TrianglesGame.determinize` need not replay."""

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "board": self.board,
            "max_stars": self.max_stars,
            "width": self.width,
            "height": self.height,
            "tolerance": self.tolerance,
            "stars": [list(p) for p in self.stars],
            "lines": [{"a": a, "b": b, "player": p} for a, b, p in self.lines],
            "triangles": [{"stars": [a, b, c], "player": p} for a, b, c, p in self.triangles],
            "scores": list(self.scores),
            "to_move": self.to_move,
            "again": self.again,
            "custom": self.custom,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TrianglesObservation:
        """The observation back from :meth:`to_json`."""
        return cls(
            player=data["player"],
            board=data["board"],
            max_stars=data["max_stars"],
            width=data["width"],
            height=data["height"],
            tolerance=data["tolerance"],
            stars=tuple((int(x), int(y)) for x, y in data["stars"]),
            lines=tuple((d["a"], d["b"], d["player"]) for d in data["lines"]),
            triangles=tuple((*d["stars"], d["player"]) for d in data["triangles"]),
            scores=tuple(data["scores"]),
            to_move=data["to_move"],
            again=data["again"],
            custom=data["custom"],
        )

    def to_tensor(self) -> list[float]:
        """``2N`` star coordinates (x / width, y / height; zeros past the last star), then two
        planes of ``N(N-1)/2`` pairs (1.0 where Player 1, then Player 2, drew that line), then
        the player to move (one-hot, two values) and the two scores; ``N`` is the board's
        number of stars."""
        n = self.max_stars
        pairs = n * (n - 1) // 2
        out = [0.0] * (2 * n + 2 * pairs + 4)
        for i, (x, y) in enumerate(self.stars):
            out[2 * i] = x / self.width
            out[2 * i + 1] = y / self.height
        base = 2 * n
        for a, b, p in self.lines:
            out[base + p * pairs + pair_id(a, b, n)] = 1.0
        tail = base + 2 * pairs
        if self.to_move is not None:
            out[tail + self.to_move] = 1.0
        out[tail + 2] = float(self.scores[0])
        out[tail + 3] = float(self.scores[1])
        return out
