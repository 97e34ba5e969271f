"""Every Triverse game as a Python OpenSpiel game, built generically from the core model.

Importing this module registers each game of :func:`triverse.games.available_games` with
OpenSpiel as ``triverse_<game>``:

>>> import pyspiel
>>> import triverse.adapters.openspiel as tos
>>> game = pyspiel.load_game("triverse_triominoes", {"players": 3, "seed": 7})
>>> game.num_players()
3
>>> state = game.new_initial_state()
>>> while not state.is_terminal():
...     state.apply_action(state.legal_actions()[0])
>>> sum(state.returns())
0.0
>>> len(state.scores())
3

Parameters: ``players`` (the game's default if omitted), each option the game declares (its
:class:`~triverse.core.options.OptionSpec` name, type and default), ``seed`` (-1: a fresh seed
for every game; ``n >= 0``: the game object's generator is seeded with ``n``, so the sequence of
games reproduces) and ``utility`` (``"rank"``, the default: zero-sum returns in ``[-1, 1]`` from
the final places, see :func:`triverse.adapters.rank_returns`; ``"score"``: the raw scores, with
the score changes as rewards after every action).

Chance: Triverse states draw every shuffle and draw from their own integer seed, so the games are
registered as ``SAMPLED_STOCHASTIC``: there are no chance nodes, and a state's future is fixed by
its (hidden) seed. ``new_initial_state(seed=n)`` builds the game that seed deals.

Observations: ``observation_string(p)`` is ``state.observation(p).to_json()`` in canonical JSON and
``observation_tensor(p)`` is its ``to_tensor()``; nothing else of the state is used. Information
states (perfect recall) are not provided. ``docs/adapters.md`` explains the choices.

Games not in the catalogue (a test game, say) are registered with :func:`register`.
"""

from __future__ import annotations

import contextlib
import pickle
import random
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from triverse.adapters import UTILITY_MODES, canonical_json, rank_returns
from triverse.core.errors import IllegalActionError, OptionError
from triverse.core.game import Game, Observation, Result, State
from triverse.core.options import OptionSpec
from triverse.core.rng import SEED_MAX, fresh_seed
from triverse.games import available_games, game_class

PREFIX: Final = "triverse_"
"""OpenSpiel names are ``PREFIX + game.name``."""

RESERVED_PARAMETERS: Final = ("players", "seed", "utility")
"""Parameters the adapter adds to a game's own options."""

TensorF32 = npt.NDArray[np.float32]
AnyGame = Game[Any, Any]

_REGISTERED: dict[str, type[AnyGame]] = {}
_FACTORIES: dict[str, type[TriverseGame]] = {}
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_NO_INFORMATION_STATES: Final = (
    "Triverse games provide no information states (perfect recall): use observation_string / "
    "observation_tensor"
)


# --- registration --------------------------------------------------------------------------------
def short_name(game: type[AnyGame] | AnyGame | str) -> str:
    """The OpenSpiel name of a game (class, instance or Triverse name).

    >>> short_name("triominoes")
    'triverse_triominoes'
    """
    name = game if isinstance(game, str) else game.name
    return PREFIX + name


def registered_games() -> dict[str, type[AnyGame]]:
    """The games this module has registered: OpenSpiel name to Triverse class."""
    return dict(_REGISTERED)


def _parameter_specification(cls: type[AnyGame]) -> dict[str, int | bool | str]:
    spec: dict[str, int | bool | str] = {
        "players": cls.default_players,
        "seed": -1,
        "utility": UTILITY_MODES[0],
    }
    for option in cls.option_specs:
        if option.name in RESERVED_PARAMETERS:
            raise ValueError(
                f"{cls.__name__} declares an option {option.name!r}, a name the OpenSpiel "
                f"adapter reserves ({', '.join(RESERVED_PARAMETERS)})"
            )
        spec[option.name] = option.default
    return spec


def _game_type(cls: type[AnyGame], utility: str = UTILITY_MODES[0]) -> pyspiel.GameType:
    perfect = cls.perfect_information
    by_rank = utility == "rank"
    return pyspiel.GameType(
        short_name=short_name(cls),
        long_name=f"Triverse {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if perfect
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if by_rank else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=(
            pyspiel.GameType.RewardModel.TERMINAL
            if by_rank
            else pyspiel.GameType.RewardModel.REWARDS
        ),
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(cls),
        default_loadable=True,
    )


def register(cls: type[AnyGame]) -> str:
    """Register a :class:`~triverse.core.game.Game` subclass with OpenSpiel; return its name.

    Registering the same class again does nothing.
    """
    name = short_name(cls)
    known = _REGISTERED.get(name)
    if known is cls:
        return name
    if known is not None:
        raise ValueError(f"{name} is already registered, for {known.__qualname__}")
    # OpenSpiel keeps the factory until the process exits: a class (as OpenSpiel's own Python
    # games register), since a plain function freed after Python's finalization aborts the exit.
    factory = type(f"{cls.__name__}OpenSpiel", (TriverseGame,), {
        "__module__": __name__,
        "__doc__": f"{cls.title} as an OpenSpiel game ({name}).",
        "triverse_class": cls,
    })
    pyspiel.register_game(_game_type(cls), factory)
    _REGISTERED[name] = cls
    _FACTORIES[name] = factory
    return name


def register_all() -> list[str]:
    """Register every available Triverse game; return their OpenSpiel names.

    A game whose engine cannot be imported is skipped with a warning, so one broken engine does
    not hide the others.
    """
    names = []
    for game in available_games():
        try:
            cls = game_class(game)
        except Exception as exc:  # an engine that does not import must not hide the others
            warnings.warn(
                f"Triverse game {game!r} is not registered with OpenSpiel: its engine does not "
                f"import ({type(exc).__name__}: {exc})",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        names.append(register(cls))
    return names


# --- the game ------------------------------------------------------------------------------------
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
        spec = _parameter_specification(cls)
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
        super().__init__(_game_type(cls, self.utility), info, full)
        self._rng = random.Random(fresh_seed() if seed == -1 else seed)
        self._queued_seed: int | None = None
        self._peek: _Core | None = None
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
        return TriverseState(self, _Core(self, seed=seed))

    # The next deal, built ahead when an observer looks at a state nobody has used yet (as
    # OpenSpiel does on every call of ObservationTensorSize): lent to that state, and taken by
    # the first state that is used; returned when the looking state is dropped unused.
    def _take_next(self) -> _Core:
        """The next deal, for a state being used: the peeked one unless it is on loan."""
        peek = self._peek
        if peek is not None and not self._peek_lent:
            self._peek = None
            return peek
        return _Core(None, state=self.triverse_game.new_initial_state(seed=self.draw_seed()),
                     tv_game=self.triverse_game, utility=self.utility)

    def _lend_next(self) -> _Core | None:
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
        return TriverseState(self, _Core(self, state=state.clone(), native=False))

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
                raise ValueError(_NO_INFORMATION_STATES)
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


# --- the state -----------------------------------------------------------------------------------
class _Core:
    """The Triverse side of an OpenSpiel state: the Triverse state and caches of what it shows.

    OpenSpiel clones a Python state by building a new initial state and deep-copying the old
    one's attributes over it, and serializes it by pickling them: this object is that attribute,
    and its ``__deepcopy__`` and ``__reduce__`` do both cheaply.
    """

    __slots__ = ("_history_text", "_legal", "_lent", "_observations", "_owner", "_seed",
                 "_state", "_strings", "_tensors", "_text", "native", "prev_scores", "tv_game",
                 "utility")

    def __init__(
        self,
        owner: TriverseGame | None,
        *,
        seed: int | None = None,
        state: State[Any] | None = None,
        native: bool = True,
        tv_game: AnyGame | None = None,
        utility: str | None = None,
        prev_scores: tuple[int, ...] | None = None,
        history_text: str | None = None,
    ) -> None:
        if owner is not None:
            tv_game, utility = owner.triverse_game, owner.utility
        assert tv_game is not None and utility is not None
        self.tv_game: AnyGame = tv_game
        self.utility: str = utility
        self._owner = owner
        self._seed = seed
        self._state = state
        self._lent = False
        self.native = native
        """Built from a seed by this adapter, so that its seed and actions replay it."""
        self.prev_scores = (0,) * tv_game.num_players if prev_scores is None else prev_scores
        if history_text is None:
            history_text = "" if state is None else " ".join(str(a) for a in state.history)
        self._history_text = history_text
        self._clear()

    def _clear(self) -> None:
        self._legal: tuple[tuple[int, ...], dict[int, Any]] | None = None
        self._observations: dict[int | None, Observation] = {}
        self._strings: dict[int | None, str] = {}
        self._tensors: dict[int | None, TensorF32] = {}
        self._text: str | None = None

    def _adopt(self, other: _Core) -> None:
        """Take over ``other``'s (untouched, initial) state and what was computed of it."""
        self._state = other._state
        self._observations = other._observations
        self._strings = other._strings
        self._tensors = other._tensors
        self._legal = other._legal
        self._text = other._text

    @property
    def state(self) -> State[Any]:
        """The Triverse state, for a use: dealt now if it was not (or only looked at)."""
        if self._lent:
            assert self._owner is not None
            self._lent = False
            self._owner._settle_loan(keep=True)
            self._owner = None
        elif self._state is None:
            owner = self._owner
            if self._seed is not None:
                self._state = self.tv_game.new_initial_state(seed=self._seed)
            else:
                assert owner is not None
                self._adopt(owner._take_next())
            self._owner = None
        assert self._state is not None
        return self._state

    def _view(self) -> State[Any]:
        """The Triverse state for an observer, which does not use it up: a state nobody has
        used yet borrows the game's next deal."""
        if self._lent:
            assert self._state is not None
            return self._state
        if self._state is None and self._seed is None and self._owner is not None:
            lent = self._owner._lend_next()
            if lent is not None:
                self._adopt(lent)
                self._lent = True
                return lent.state
        return self.state

    def __del__(self) -> None:
        if getattr(self, "_lent", False) and self._owner is not None:
            with contextlib.suppress(Exception):  # the interpreter may be shutting down
                self._owner._settle_loan(keep=False)

    # --- actions ---------------------------------------------------------------------------------
    def legal(self) -> tuple[tuple[int, ...], dict[int, Any]]:
        """The current player's legal action ids, ascending, and the action of each id."""
        state = self.state
        if self._legal is None:
            by_id: dict[int, Any] = {}
            count = 0
            for action in state.legal_actions():
                by_id[state.encode_action(action)] = action
                count += 1
            if len(by_id) != count:
                raise ValueError(
                    f"{self.tv_game.name}: {count} legal actions have only {len(by_id)} distinct "
                    "ids: encode_action must give different actions different ids"
                )
            self._legal = (tuple(sorted(by_id)), by_id)
        return self._legal

    def action(self, action_id: int) -> Any:
        """The Triverse action of a legal id; :class:`IllegalActionError` otherwise."""
        action = self.legal()[1].get(action_id)
        if action is None:
            raise IllegalActionError(
                f"action id {action_id} is not legal here "
                f"({self.tv_game.name}, move {self.state.move_number})"
            )
        return action

    def action_string(self, action_id: int) -> str:
        action = self.legal()[1].get(action_id)
        if action is None:
            try:
                action = self.state.decode_action(action_id)
            except ValueError:
                return f"<action {action_id}>"
        return str(action)

    def apply(self, action_id: int) -> None:
        action = self.action(action_id)
        state = self.state
        self.prev_scores = tuple(state.scores)
        state.apply_unchecked(action)
        text = str(action)
        self._history_text = f"{self._history_text} {text}" if self._history_text else text
        self._clear()

    # --- what a seat sees ------------------------------------------------------------------------
    def player(self, player: int | None) -> int:
        """Check a seat number given by a caller (OpenSpiel's current player if ``None``)."""
        state = self.state
        n = self.tv_game.num_players
        if player is None:
            player = state.current_player
            if player is None:
                raise ValueError("the game is over: name the seat to observe")
        if not isinstance(player, (int, np.integer)) or not 0 <= player < n:
            raise ValueError(f"no seat {player!r} in a {n}-player game")
        return int(player)

    def observation(self, player: int | None) -> Observation:
        state = self._view()  # first: a borrowed deal brings its caches
        obs = self._observations.get(player)
        if obs is None:
            obs = self._observations[player] = state.observation(player)
        return obs

    def string(self, player: int | None) -> str:
        """``player``'s observation (``None``: the public one) in canonical JSON."""
        self._view()
        text = self._strings.get(player)
        if text is None:
            text = self._strings[player] = canonical_json(self.observation(player).to_json())
        return text

    def tensor(self, player: int | None) -> TensorF32:
        """``player``'s observation tensor (read-only)."""
        self._view()
        tensor = self._tensors.get(player)
        if tensor is None:
            tensor = np.asarray(self.observation(player).to_tensor(), dtype=np.float32)
            size = self.tv_game.tensor_size
            if tensor.shape != (size,):
                raise ValueError(f"{self.tv_game.name}: to_tensor() gave shape {tensor.shape}, "
                                 f"but tensor_size is {size}")
            tensor.flags.writeable = False
            self._tensors[player] = tensor
        return tensor

    def text(self) -> str:
        """The state for debugging: its seed and moves, which replay it (a state wrapped by
        :meth:`TriverseGame.from_triverse` shows every seat's view instead)."""
        state = self.state
        if self._text is None:
            head = (f"{self.tv_game!r} move={state.move_number} to_move={state.current_player} "
                    f"scores={list(state.scores)}")
            if self.native:
                self._text = f"{head}\nseed={state.seed}\nmoves: {self._history_text}"
            else:
                views = "\n".join(f"seat {p}: {self.string(p)}"
                                  for p in range(self.tv_game.num_players))
                self._text = f"{head}\nfrom a Triverse state\n{views}"
        return self._text

    # --- results ---------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        state = self.state
        if self.utility == "score":
            return [float(s) for s in state.scores]
        if not state.is_terminal():
            return [0.0] * self.tv_game.num_players
        return list(rank_returns(state.result().ranks))

    def rewards(self) -> list[float]:
        state = self.state
        if self.utility == "score":
            return [float(s - p) for s, p in zip(state.scores, self.prev_scores, strict=True)]
        return self.returns()

    # --- copying ---------------------------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        other = _Core(None, state=self.state.clone(), native=self.native, tv_game=self.tv_game,
                      utility=self.utility, prev_scores=self.prev_scores,
                      history_text=self._history_text)
        # What was already computed is the same for the copy (and immutable).
        other._legal = self._legal
        other._observations = self._observations.copy()
        other._strings = self._strings.copy()
        other._tensors = self._tensors.copy()
        other._text = self._text
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        state = self.state
        game = self.tv_game
        payload: tuple[Any, ...]
        if self.native:
            payload = ("replay", state.seed, state.setup(), tuple(str(a) for a in state.history))
        else:
            payload = ("pickle", pickle.dumps(state))
        return (
            _restore_core,
            (type(game), game.num_players, dict(game.options), self.utility, self.prev_scores,
             payload),
        )


def _restore_core(
    cls: type[AnyGame],
    players: int,
    options: dict[str, Any],
    utility: str,
    prev_scores: tuple[int, ...],
    payload: tuple[Any, ...],
) -> _Core:
    game = cls(players, options)
    if payload[0] == "replay":
        _, seed, setup, actions = payload
        state = game.new_initial_state(seed=seed, setup=setup)
        for text in actions:
            state.apply_notation(text)
        native = True
    else:
        state = pickle.loads(payload[1])
        native = False
    return _Core(None, state=state, native=native, tv_game=game, utility=utility,
                 prev_scores=tuple(prev_scores))


class TriverseState(pyspiel.State):  # type: ignore[misc]
    """One position of a Triverse game, as an OpenSpiel state.

    Besides the OpenSpiel API: :meth:`scores`, :meth:`result`, :meth:`triverse_action`,
    :attr:`triverse_state` and :attr:`triverse_seed`.
    """

    _core: _Core

    def __init__(self, game: TriverseGame, core: _Core) -> None:
        super().__init__(game)
        self._core = core

    # --- the OpenSpiel API -----------------------------------------------------------------------
    def current_player(self) -> int:
        player = self._core.state.current_player
        return _TERMINAL if player is None else player

    def _legal_actions(self, player: int) -> Sequence[int]:
        return self._core.legal()[0]

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._core.action_string(int(action))

    def is_terminal(self) -> bool:
        return self._core.state.is_terminal()

    def returns(self) -> list[float]:
        return self._core.returns()

    def rewards(self) -> list[float]:
        return self._core.rewards()

    def __str__(self) -> str:
        return self._core.text()

    # Python callers get these directly (OpenSpiel's C++ versions first measure the tensor on a
    # new initial state, every call).
    def observation_string(self, player: int | None = None) -> str:
        """``player``'s :meth:`~triverse.core.game.State.observation` in canonical JSON
        (default: the player to move)."""
        core = self._core
        return core.string(core.player(player))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation ``to_tensor()`` (default: the player to move)."""
        core = self._core
        tensor: list[float] = core.tensor(core.player(player)).tolist()
        return tensor

    def information_state_string(self, player: int | None = None) -> str:
        """Not provided: raises :class:`ValueError` (see the module docs)."""
        raise ValueError(_NO_INFORMATION_STATES)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Not provided: raises :class:`ValueError` (see the module docs)."""
        raise ValueError(_NO_INFORMATION_STATES)

    # --- Triverse extras -------------------------------------------------------------------------
    def render(self, player: int | None = None) -> str:
        """A picture of what ``player`` sees (``None``: the public view): ``render_text``."""
        core = self._core
        seat = None if player is None else core.player(player)
        return core.tv_game.render_text(core.observation(seat))

    def scores(self) -> list[int]:
        """The raw Triverse scores, whatever the ``utility`` parameter."""
        return list(self._core.state.scores)

    def result(self) -> Result | None:
        """The final standings (scores and places), or ``None`` before the end."""
        state = self._core.state
        return state.result() if state.is_terminal() else None

    def triverse_action(self, action: int) -> Any:
        """The Triverse action of a legal action id."""
        return self._core.action(int(action))

    @property
    def triverse_state(self) -> State[Any]:
        """A copy of the underlying Triverse state."""
        return self._core.state.clone()

    @property
    def triverse_seed(self) -> int:
        """The seed that deals this game (``new_initial_state(seed=...)`` rebuilds it)."""
        return self._core.state.seed

    # --- copying and pickling --------------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> TriverseState:
        copied: TriverseState = self.clone()
        return copied

    def __copy__(self) -> TriverseState:
        copied: TriverseState = self.clone()
        return copied

    def __reduce__(self) -> tuple[Any, ...]:
        """OpenSpiel pickles a state with its game, which it cannot do for a sampled-stochastic
        Python game: pickle the game and the state's own serialization instead."""
        return (_restore_state, (self.get_game(), self.serialize()))


def _restore_state(game: TriverseGame, data: str) -> TriverseState:
    state: TriverseState = game.deserialize_state(data)
    return state


class TriverseObserver:
    """OpenSpiel's Python observer protocol over :meth:`State.observation`.

    ``private`` (the default): a seat's own view; otherwise the public view
    (``observation(None)``, what a spectator sees).
    """

    def __init__(self, tensor_size: int, private: bool = True) -> None:
        self.tensor: TensorF32 = np.zeros(tensor_size, np.float32)
        self.dict: dict[str, TensorF32] = {"observation": self.tensor}
        self.private = private

    def set_from(self, state: TriverseState, player: int) -> None:
        self.tensor[:] = state._core.tensor(player if self.private else None)

    def string_from(self, state: TriverseState, player: int) -> str:
        return state._core.string(player if self.private else None)


REGISTERED: Final[list[str]] = register_all()
"""The OpenSpiel names registered on import."""

__all__ = [
    "PREFIX",
    "REGISTERED",
    "RESERVED_PARAMETERS",
    "TriverseGame",
    "TriverseObserver",
    "TriverseState",
    "register",
    "register_all",
    "registered_games",
    "short_name",
]
