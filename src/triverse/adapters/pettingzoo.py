"""Every Triverse game as a PettingZoo AEC environment, built generically from the core model.

>>> from triverse.adapters.pettingzoo import env
>>> e = env("triominoes", players=3, render_mode="ansi")
>>> e.reset(seed=42)
>>> for agent in e.agent_iter():
...     observation, reward, termination, truncation, info = e.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = e.action_space(agent).sample(observation["action_mask"])
...     e.step(action)
>>> e.close()

Agents are ``player_0`` ... ``player_<n-1>``, the seats. An observation is a dict: ``observation``,
the seat's :meth:`~triverse.core.game.Observation.to_tensor` (``float32``, length
``game.tensor_size``), and ``action_mask``, ``int8`` of length ``game.num_distinct_actions`` with
a 1 at each legal action id (all zeros when it is not that seat's turn). An action is an integer
id of :meth:`~triverse.core.game.State.encode_action`. When one seat plays several actions in a
row (a multi-action turn), it is selected several times in a row.

Rewards come at the end: the zero-sum returns of :func:`triverse.adapters.rank_returns` (+1 for a
win, -1 for a loss, 0 for a draw with two players). ``utility="score"`` gives instead every
change of score as it happens. ``infos`` hold the final ``scores`` and ``ranks`` when the game
ends; :meth:`TriverseAECEnv.scores` gives the raw scores at any time.

``reset(seed=n)`` seeds the environment's generator, which deals the games: the same seed gives
the same game and the same sequence of games after it; ``reset(options={"triverse_seed": s})``
deals exactly the game of Triverse seed ``s``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from triverse.adapters import UTILITY_MODES, rank_returns
from triverse.core.errors import IllegalActionError, OptionError
from triverse.core.game import Game, Result, State
from triverse.core.rng import SEED_MAX
from triverse.games import load_game

ObsDict = dict[str, npt.NDArray[Any]]
AnyGame = Game[Any, Any]

DEFAULT_ILLEGAL_REWARD: Final = -1.0
RENDER_MODES: Final = ("ansi",)


def env(
    game: str | AnyGame,
    players: int | None = None,
    *,
    render_mode: str | None = None,
    utility: str = "rank",
    illegal_reward: float | None = DEFAULT_ILLEGAL_REWARD,
    render_player: int | None = None,
    **options: object,
) -> AECEnv:
    """A Triverse game as a wrapped PettingZoo AEC environment.

    ``game`` is a game's name (configured with ``players`` and ``options``) or a configured
    :class:`~triverse.core.game.Game`. An illegal action ends the game with ``illegal_reward``
    for the seat that tried it and 0 for the others (PettingZoo's ``TerminateIllegalWrapper``);
    with ``illegal_reward=None`` it raises :class:`~triverse.core.errors.IllegalActionError`.
    """
    raw = raw_env(game, players, render_mode=render_mode, utility=utility,
                  render_player=render_player, **options)
    wrapped: AECEnv = wrappers.AssertOutOfBoundsWrapper(raw)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    return wrappers.OrderEnforcingWrapper(wrapped)


def raw_env(
    game: str | AnyGame,
    players: int | None = None,
    *,
    render_mode: str | None = None,
    utility: str = "rank",
    render_player: int | None = None,
    **options: object,
) -> TriverseAECEnv:
    """The unwrapped environment (see :func:`env`)."""
    if isinstance(game, str):
        configured = load_game(game, players, **options)
    else:
        if players is not None or options:
            raise OptionError("give players and options to the Game, not to raw_env, when "
                              "passing a configured Game")
        configured = game
    return TriverseAECEnv(configured, render_mode=render_mode, utility=utility,
                         render_player=render_player)


class TriverseAECEnv(AECEnv):  # type: ignore[misc]
    """A configured Triverse game as a PettingZoo AEC environment (see the module docs)."""

    def __init__(
        self,
        game: AnyGame,
        *,
        render_mode: str | None = None,
        utility: str = "rank",
        render_player: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {', '.join(RENDER_MODES)} or None, "
                             f"not {render_mode!r}")
        if utility not in UTILITY_MODES:
            raise OptionError(f"utility is one of {', '.join(UTILITY_MODES)}, not {utility!r}")
        n = game.num_players
        if render_player is not None and not 0 <= render_player < n:
            raise ValueError(f"render_player is a seat (0 to {n - 1}) or None, "
                             f"not {render_player!r}")
        self.game = game
        self.utility = utility
        self.render_mode = render_mode
        self.render_player = render_player
        self.metadata: dict[str, Any] = {
            "render_modes": list(RENDER_MODES),
            "name": f"triverse_{game.name}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents: list[str] = [f"player_{seat}" for seat in range(n)]
        self.agent_name_mapping: dict[str, int] = {a: i for i, a in enumerate(self.possible_agents)}
        self._num_actions = game.num_distinct_actions
        self.observation_spaces: dict[str, spaces.Dict] = {
            agent: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, (game.tensor_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self._state: State[Any] | None = None
        self._legal: dict[int, Any] | None = None
        self._legal_ids: npt.NDArray[np.int64] | None = None
        self._tensors: dict[int, npt.NDArray[np.float32]] = {}

    # --- spaces ----------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # --- the game --------------------------------------------------------------------------------
    @property
    def triverse_state(self) -> State[Any]:
        """The current Triverse state (do not change it: :meth:`step` is the way to play)."""
        if self._state is None:
            raise RuntimeError("reset() the environment first")
        return self._state

    @property
    def triverse_seed(self) -> int:
        """The seed that dealt the current game."""
        return self.triverse_state.seed

    def scores(self) -> list[int]:
        """The raw Triverse scores of the current game."""
        return list(self.triverse_state.scores)

    def result(self) -> Result | None:
        """The final standings, or ``None`` before the end."""
        state = self.triverse_state
        return state.result() if state.is_terminal() else None

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new game: from the generator ``seed`` (re)starts, or exactly the one of
        ``options["triverse_seed"]``. Other options are ignored."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        tv_seed = (options or {}).get("triverse_seed")
        if tv_seed is None:
            tv_seed = int(self._rng.integers(0, SEED_MAX))
        self._state = self.game.new_initial_state(seed=int(tv_seed))
        self._changed()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()
        if self._state.is_terminal():  # a game over before it starts: nothing to play
            self._finish()

    def _changed(self) -> None:
        self._legal = None
        self._legal_ids = None
        self._tensors = {}

    def _select(self) -> None:
        player = self.triverse_state.current_player
        if player is not None:
            self.agent_selection = self.possible_agents[player]
        elif not hasattr(self, "agent_selection") or self.agent_selection is None:
            self.agent_selection = self.possible_agents[0]

    def _legal_actions(self) -> tuple[dict[int, Any], npt.NDArray[np.int64]]:
        if self._legal is None or self._legal_ids is None:
            state = self.triverse_state
            legal = {state.encode_action(action): action for action in state.legal_actions()}
            self._legal = legal
            self._legal_ids = np.fromiter(legal, dtype=np.int64, count=len(legal))
        return self._legal, self._legal_ids

    def observe(self, agent: str) -> ObsDict:
        seat = self.agent_name_mapping[agent]
        state = self.triverse_state
        tensor = self._tensors.get(seat)
        if tensor is None:
            tensor = np.asarray(state.observation(seat).to_tensor(), dtype=np.float32)
            self._tensors[seat] = tensor
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if state.current_player == seat:
            mask[self._legal_actions()[1]] = 1
        return {"observation": tensor.copy(), "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is only for finished agents")
        state = self.triverse_state
        legal, _ = self._legal_actions()
        chosen = legal.get(int(action))
        if chosen is None:
            raise IllegalActionError(f"action id {int(action)} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        before = list(state.scores)
        state.apply_unchecked(chosen)
        self._changed()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.utility == "score":
            for seat, (now, then) in enumerate(zip(state.scores, before, strict=True)):
                self.rewards[self.possible_agents[seat]] = float(now - then)
        if state.is_terminal():
            self._finish()
        else:
            self._select()
            self._accumulate_rewards()

    def _finish(self) -> None:
        state = self.triverse_state
        result = state.result()
        if self.utility == "rank":
            for seat, value in enumerate(rank_returns(result.ranks)):
                self.rewards[self.possible_agents[seat]] = value
        info = {"scores": list(result.scores), "ranks": list(result.ranks)}
        for agent in self.agents:
            self.terminations[agent] = True
            self.infos[agent] = dict(info)
        self._accumulate_rewards()

    # --- rendering -------------------------------------------------------------------------------
    def render(self) -> str | None:
        """``ansi``: :meth:`~triverse.core.game.Game.render_text` of the spectator's view (or of
        ``render_player``'s view)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        return self.game.render_text(self.triverse_state.observation(self.render_player))

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return str(self.metadata["name"])


__all__ = ["DEFAULT_ILLEGAL_REWARD", "RENDER_MODES", "TriverseAECEnv", "env", "raw_env"]
