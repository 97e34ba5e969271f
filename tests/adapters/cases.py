"""The games the adapter conformance tests run on: every available game, plus the toy game.

An installed game plugin is covered with no new code. ``SIM_OPTIONS`` may give a game
options that shorten its games for the conformance runs; its default options are run too, over
fewer games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from triverse.core.game import Game
from triverse.games import available_games, game_class

from .toygame import ToyGame

AnyGame = Game[Any, Any]

SIM_OPTIONS: dict[str, dict[str, object]] = {
    # A game to 400 takes about 180 actions and 0.4 s of CPU through OpenSpiel's checks
    # (most of it in TriominoesObservation.to_tensor); to 100, about 65 actions and 0.15 s.
    # The defaults still run, over fewer games (DEFAULT_OPTION_CASES).
    "triominoes": {"target": 100},
    # Random Trivinity games run to the safety turn limit (about 0.75 s each through OpenSpiel,
    # mostly the 3,992-value observation tensor); 10 turns a player keep every zone in play.
    "trivinity": {"turn_limit": 10},
    # Three rounds and any tiebreakers take about 0.25 s a game through OpenSpiel; one round
    # keeps every rule of a round in play.
    "trinity": {"rounds": 1},
}
"""Per game: options that shorten its games for the conformance runs (200 OpenSpiel games)."""


@dataclass(frozen=True)
class Case:
    """One game configuration to test: a class (loaded lazily) and OpenSpiel parameters."""

    id: str
    load: Callable[[], type[AnyGame]]
    params: Mapping[str, object] = field(default_factory=dict)

    @property
    def cls(self) -> type[AnyGame]:
        return self.load()

    def triverse_game(self) -> AnyGame:
        """The configured Triverse game."""
        params = dict(resolve(self).params)
        players = params.pop("players", None)
        return self.cls(None if players is None else int(str(players)), params)


def _toy() -> type[AnyGame]:
    return ToyGame


def _loader(name: str) -> Callable[[], type[AnyGame]]:
    return lambda: game_class(name)


def default_cases() -> list[Case]:
    """Each game with its default players (and its ``SIM_OPTIONS``), and the toy game twice."""
    cases = [Case(name, _loader(name), dict(SIM_OPTIONS.get(name, {})))
             for name in available_games()]
    cases.append(Case("toy", _toy))
    cases.append(Case("toy-4p", _toy, {"players": 4, "direction": "descending",
                                       "lowest_wins": True, "bonus": False, "hand": 2}))
    return cases


def default_option_cases() -> list[Case]:
    """Each game exactly as it is by default (no ``SIM_OPTIONS``)."""
    return [Case(f"{name}-defaults", _loader(name)) for name in available_games()]


def player_count_cases() -> list[Case]:
    """Each game at its fewest and most players (with its ``SIM_OPTIONS``)."""
    cases = []
    for name in available_games():
        for end in ("min", "max"):
            cases.append(Case(f"{name}-{end}", _loader(name),
                              {**SIM_OPTIONS.get(name, {}), "end": end}))
    cases.append(Case("toy-min", _toy, {"end": "min"}))
    cases.append(Case("toy-max", _toy, {"end": "max"}))
    return cases


def resolve(case: Case) -> Case:
    """Turn an ``end`` (min/max players) placeholder into a player count."""
    params = dict(case.params)
    end = params.pop("end", None)
    if end is not None:
        cls = case.cls
        params["players"] = cls.min_players if end == "min" else cls.max_players
    return Case(case.id, case.load, params)


DEFAULT_CASES = default_cases()
DEFAULT_OPTION_CASES = default_option_cases()
PLAYER_COUNT_CASES = player_count_cases()


def case_id(case: Case) -> str:
    return case.id
