"""A configured Triverse game as an OpenSpiel game: its parameters, the seeds of its games and
its observers."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import pyspiel

from triverse.adapters import UTILITY_MODES
from triverse.adapters.openspiel.spec import (
    NO_INFORMATION_STATES,
    AnyGame,
    game_type,
    parameter_specification,
    short_name,
)
from triverse.adapters.openspiel.state import TriverseObserver, TriverseState
from triverse.adapters.openspiel.state_core import StateCore
from triverse.core.errors import OptionError
from triverse.core.game import State
from triverse.core.options import OptionSpec
from triverse.core.rng import SEED_MAX, fresh_seed


def _option_value(spec: OptionSpec, value: Any) -> Any:
    """OpenSpiel parses ``name=3`` as an int even for a text option: give it back as text."""
    if spec.kind is str and not isinstance(value, str):
        return str(value)
    return value


class TriverseGame(pyspiel.Game):  # type: ignore[misc]
    """A configured Triverse game seen through OpenSpiel.

    Usually made by ``pyspiel.load_game("triverse_<game>", params)``; ``triverse_game`` is the
    underlying :class:`~triverse.core.game.Game`.
    """

    triverse_class: ClassVar[type[AnyGame]]
    """The Triverse game class (set on the per-game subclass that :func:`register` makes)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        cls = self.triverse_class
        params = params or {}
        spec = parameter_specification(cls)
        full = {**spec, **params}
        unknown = sorted(set(full) - set(spec))
        if unknown:
            raise OptionError(f"unknown parameter {unknown[0]!r}; {short_name(cls)} has: "
                              f"{', '.join(spec)}")
        by_name = {option.name: option for option in cls.option_specs}
        options = {name: _option_value(by_name[name], full[name]) for name in by_name}
        self.triverse_game: AnyGame = cls(full["players"], options)
        self.utility: str = str(full["utility"])
        if self.utility not in UTILITY_MODES:
            raise OptionError(f"utility is one of {', '.join(UTILITY_MODES)}, "
                              f"not {self.utility!r}")
        seed = int(full["seed"])
        if seed < -1:
            raise OptionError(f"seed is -1 (fresh games) or a whole number >= 0, not {seed}")
        self.seed_parameter = seed
        tv = self.triverse_game
        if self.utility == "rank":
            low, high, total = -1.0, 1.0, 0.0
        else:
            low, high, total = float(tv.min_score), float(tv.max_score), None
        info = pyspiel.GameInfo(
            num_distinct_actions=tv.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=tv.num_players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=tv.max_game_length,
        )
        super().__init__(game_type(cls, self.utility), info, full)
        self._rng = random.Random(fresh_seed() if seed == -1 else seed)
        self._queued_seed: int | None = None
        self._peek: StateCore | None = None
        self._peek_lent = False

    def draw_seed(self) -> int:
        """The seed of the next game (from the generator the ``seed`` parameter started)."""
        if self._queued_seed is not None:
            seed, self._queued_seed = self._queued_seed, None
            return seed
        return self._rng.randrange(SEED_MAX)

    def new_initial_state(self, seed: int | None = None) -> TriverseState:
        """A new game: dealt by ``seed`` if given, else by the game's next seed.

        The next seed is taken when the state is first used, so that a state OpenSpiel builds
        only to clone or deserialize into, or to measure the observation tensor with, takes
        none.
        """
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise TypeError(f"a Triverse seed is an int, not {seed!r}")
        return TriverseState(self, StateCore(self, seed=seed))

    # The next deal, built ahead when an observer looks at a state nobody has used yet (as
    # OpenSpiel does on every call of ObservationTensorSize): lent to that state, and taken by
    # the first state that is used; returned when the looking state is dropped unused.
    def _take_next(self) -> StateCore:
        """The next deal, for a state being used: the peeked one unless it is on loan."""
        peek = self._peek
        if peek is not None and not self._peek_lent:
            self._peek = None
            return peek
        return StateCore(None, state=self.triverse_game.new_initial_state(seed=self.draw_seed()),
                     tv_game=self.triverse_game, utility=self.utility)

    def _lend_next(self) -> StateCore | None:
        """The next deal, lent to a state that is only being looked at (``None``: on loan)."""
        if self._peek_lent:
            return None
        if self._peek is None:
            self._peek = self._take_next()
        self._peek_lent = True
        return self._peek

    def _settle_loan(self, keep: bool) -> None:
        """The borrower was used (``keep``: the deal is its own now) or dropped."""
        self._peek_lent = False
        if keep:
            self._peek = None

    def from_triverse(self, state: State[Any]) -> TriverseState:
        """Wrap a Triverse state (a copy of it) of this game, e.g. a determinization.

        Its OpenSpiel history starts empty, at this position.
        """
        if state.game != self.triverse_game:
            raise ValueError(f"that state is of {state.game!r}, not {self.triverse_game!r}")
        return TriverseState(self, StateCore(self, state=state.clone(), native=False))

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> TriverseObserver:
        """An observer: a seat's own view (the default) or the public view (no private info).

        Perfect recall (information states) and all players' private information are refused:
        neither can be built from the observations alone.
        """
        if isinstance(iig_obs_type, Mapping):  # OpenSpiel's make_observer(params) form
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        private = True
        if iig_obs_type is not None:
            if iig_obs_type.perfect_recall:
                raise ValueError(NO_INFORMATION_STATES)
            if not iig_obs_type.public_info:
                raise ValueError("an observation without the public information is not provided")
            kind = iig_obs_type.private_info
            if kind == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError("an observation of every player's private information is not "
                                 "provided")
            private = kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
        return TriverseObserver(self.triverse_game.tensor_size, private)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by name and parameters, keeping the generator's position."""
        params = dict(self.get_parameters())
        peek = self._peek
        queued = peek.state.seed if peek is not None else self._queued_seed
        return (_restore_game,
                (self.get_type().short_name, params, self._rng.getstate(), queued))

    def __deepcopy__(self, memo: dict[int, Any]) -> TriverseGame:
        return self  # configured games are immutable (but for the seed generator, shared)


def _restore_game(
    name: str, params: dict[str, Any], rng_state: Any, queued: int | None
) -> TriverseGame:
    game: TriverseGame = pyspiel.load_game(name, params)
    game._rng.setstate(rng_state)
    game._queued_seed = queued
    return game



__all__ = ["TriverseGame"]
