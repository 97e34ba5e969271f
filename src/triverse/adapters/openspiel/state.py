"""A position of a Triverse game as an OpenSpiel state, and OpenSpiel's Python observer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import pyspiel

from triverse.adapters.openspiel.spec import NO_INFORMATION_STATES, TensorF32
from triverse.adapters.openspiel.state_core import StateCore
from triverse.core.game import Result, State

if TYPE_CHECKING:
    from triverse.adapters.openspiel.game import TriverseGame

_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)


class TriverseState(pyspiel.State):  # type: ignore[misc]
    """One position of a Triverse game, as an OpenSpiel state.

    Besides the OpenSpiel API: :meth:`scores`, :meth:`result`, :meth:`triverse_action`,
    :attr:`triverse_state` and :attr:`triverse_seed`.
    """

    _core: StateCore

    def __init__(self, game: TriverseGame, core: StateCore) -> None:
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
        raise ValueError(NO_INFORMATION_STATES)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Not provided: raises :class:`ValueError` (see the module docs)."""
        raise ValueError(NO_INFORMATION_STATES)

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


__all__ = ["TriverseObserver", "TriverseState"]
