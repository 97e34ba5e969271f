"""The Triverse side of an OpenSpiel state: the Triverse state, dealt when first used, and
caches of what it shows (legal action ids, observations, tensors).

:class:`StateCore` holds what :class:`~triverse.adapters.openspiel.state.TriverseState` shows
OpenSpiel; OpenSpiel copies and pickles it with the state.
"""

from __future__ import annotations

import contextlib
import pickle
from typing import TYPE_CHECKING, Any

import numpy as np

from triverse.adapters import canonical_json, rank_returns
from triverse.adapters.openspiel.spec import AnyGame, TensorF32
from triverse.core.errors import IllegalActionError
from triverse.core.game import Observation, State

if TYPE_CHECKING:
    from triverse.adapters.openspiel.game import TriverseGame


class StateCore:
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

    def _adopt(self, other: StateCore) -> None:
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
    def __deepcopy__(self, memo: dict[int, Any]) -> StateCore:
        other = StateCore(None, state=self.state.clone(), native=self.native, tv_game=self.tv_game,
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
) -> StateCore:
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
    return StateCore(None, state=state, native=native, tv_game=game, utility=utility,
                 prev_scores=tuple(prev_scores))



__all__ = ["StateCore"]
