"""Triverse: five "tri" games with exact rules engines, computer players and adapters.

The engines live in :mod:`triverse.games`, built on the shared model of :mod:`triverse.core`.

>>> import triverse
>>> state = triverse.load_game("triominoes", players=2).new_initial_state(seed=7)
>>> state.current_player in (0, 1)
True

``__version__`` is the installed distribution's version (``pyproject.toml`` writes it once):

>>> triverse.__version__.count(".") >= 1
True
"""

from triverse.core.errors import (
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
    TriverseError,
)
from triverse.games import available_games, game_class, load_game


def _version() -> str:
    """The version in the installed metadata; in a source tree that is not installed, the
    version in its ``pyproject.toml``."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("triverse")
    except PackageNotFoundError:
        import tomllib
        from pathlib import Path

        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        try:
            found = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "0+unknown"
        return str(found)


__version__ = _version()

__all__ = [
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "RecordError",
    "TriverseError",
    "__version__",
    "available_games",
    "game_class",
    "load_game",
]
