"""The catalogue of the five games: what the lobby, the CLI and each engine say about a game.

Each game's title, summary and seed file are written here once; a :class:`Game` subclass whose
``name`` is in the catalogue takes them from its entry.

>>> catalogue_entry("trident").title
'Trident'
"""

from __future__ import annotations

from dataclasses import dataclass

from triverse.core.errors import OptionError


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """A game of Triverse, built or still to come."""

    name: str
    title: str
    summary: str
    seed_file: str
    module: str | None
    """``"package.module:ClassName"`` of the :class:`Game` subclass; ``None``: coming soon."""

    @property
    def available(self) -> bool:
        return self.module is not None


CATALOGUE: tuple[CatalogueEntry, ...] = (
    CatalogueEntry(
        "trinity", "Trinity",
        "Triangle tiles numbered 0-5, 76 of them: match corners, score Hexagons, Spans and "
        "Slides over up to three rounds.",
        "000_ac294f1c52767fae.txt", "triverse.games.trinity.engine:TrinityGame"),
    CatalogueEntry(
        "triangles", "Triangles",
        "Two players draw non-crossing lines between the stars of a random cloud; closing an "
        "empty triangle scores.",
        "001_b7657b4fe759119d.txt", "triverse.games.triangles.engine:TrianglesGame"),
    CatalogueEntry(
        "trivinity", "Trivinity",
        "A deck-building game of gods: gather Power, Mana and Tribute and buy from a 3x3 grid of "
        "stacks.",
        "002_c825b3f57a62bffb.txt", "triverse.games.trivinity.engine:TrivinityGame"),
    CatalogueEntry(
        "trident", "Trident",
        "Number tiles 0-15 laid crossword style: every line of three must total exactly 15.",
        "003_b3db9e286a3c0d3a.txt", "triverse.games.trident.engine:TridentGame"),
    CatalogueEntry(
        "triominoes", "Tri-ominoes",
        "The 1965 triangular dominoes for 2-6 players: match corners, build hexagons and "
        "bridges, play to 400.",
        "004_24418ddd36cf3878.txt", "triverse.games.triominoes.engine:TriominoesGame"),
)

BY_NAME = {entry.name: entry for entry in CATALOGUE}


def catalogue_entry(name: str) -> CatalogueEntry:
    """The entry of a game, built or not; :class:`OptionError` for an unknown name."""
    try:
        return BY_NAME[name]
    except KeyError:
        known = ", ".join(entry.name for entry in CATALOGUE)
        raise OptionError(f"unknown game {name!r}; the games are: {known}") from None
