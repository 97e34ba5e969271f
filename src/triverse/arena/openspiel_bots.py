"""OpenSpiel's search bots as Triverse players: the arena's outside yardstick.

:class:`OpenSpielSearchPlayer` runs ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` on the game
as registered by :mod:`triverse.adapters.openspiel` (``triverse_<game>``, zero-sum rank
returns), with:

- a *resampler* built on :meth:`Game.determinize`: each simulation starts from a fresh
  determinization of the observation of the player to move (the bot never sees hidden state);
- random-rollout evaluation (``RandomRolloutEvaluator``, one rollout to the end of the game);
- UCT with ``c = 2``, the node key being the observation string (the adapter provides no
  information states), unlimited world samples, the most visited move at the root;
- the same time per move as the veteran (wall-clock or CPU time, as the veteran's ``clock``):
  the bot takes a number of simulations, so the player *calibrates* it. It keeps an
  exponential moving average of the seconds one simulation took in its earlier moves of the
  game and gives each move ``budget / that`` simulations (the first move of a game measures it
  on a short probe search first). The arena reports the move times actually achieved.

Triangles is a perfect-information game, which ``ISMCTSBot`` refuses (it asserts imperfect
information); there the same player runs OpenSpiel's ``MCTSBot`` (``mcts.py``), to which ISMCTS
reduces when nothing is hidden, with the same evaluator, constant and calibration.

>>> import random
>>> from triverse import load_game
>>> game = load_game("trident")
>>> state = game.new_initial_state(seed=1)
>>> bot = OpenSpielSearchPlayer(time_budget=0.05)
>>> seat = state.current_player
>>> state.is_legal(bot.choose(game, state.observation(seat), random.Random(1)))
True
"""

from __future__ import annotations

import random
from typing import Any

from triverse.ai.basic import Player
from triverse.ai.search import clock_function
from triverse.core.game import Game, Observation

UCT_C = 2.0
PROBE_SIMULATIONS = 4
MIN_SIMULATIONS = 2
"""ISMCTS needs two: the first only expands the root."""
SMOOTHING = 0.3
"""Weight of the newest measurement in the moving average of seconds per simulation."""
DEFAULT_BUDGET = 0.8


class OpenSpielSearchPlayer(Player):
    """OpenSpiel's ISMCTS (MCTS in Triangles), calibrated to ``time_budget`` seconds a move."""

    level = "ismcts"

    def __init__(self, time_budget: float = 0.0, clock: str = "wall") -> None:
        self.time_budget = time_budget
        self.clock = clock
        self.now = clock_function(clock)
        self.seconds_per_simulation: float | None = None
        self.simulations: list[int] = []
        """The simulations each searched move was given (for reports)."""
        self._games: dict[Any, Any] = {}

    def _spiel_game(self, game: Game[Any, Any]) -> Any:
        key = (game.name, game.num_players, tuple(sorted(game.options.items())))
        found = self._games.get(key)
        if found is None:
            import pyspiel

            import triverse.adapters.openspiel as adapter

            params: dict[str, Any] = {"players": game.num_players}
            params.update(dict(game.options))
            found = pyspiel.load_game(adapter.short_name(game), params)
            self._games[key] = found
        return found

    def _bot(self, spiel_game: Any, game: Game[Any, Any], simulations: int,
             rng: random.Random) -> Any:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        random_state = np.random.RandomState(rng.randrange(2**31))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        if game.perfect_information:
            return mcts.MCTSBot(spiel_game, UCT_C, simulations, evaluator,
                                random_state=random_state, solve=False)
        bot = ismcts.ISMCTSBot(spiel_game, evaluator, UCT_C, simulations,
                               random_state=random_state, use_observation_string=True,
                               allow_inconsistent_action_sets=False)
        tv_game = game

        def resample(state: Any, player: int) -> Any:
            observation = state.triverse_state.observation(player)
            return spiel_game.from_triverse(tv_game.determinize(observation, rng))

        bot.set_resampler(resample)
        return bot

    def choose(self, game: Game[Any, Any], observation: Observation, rng: random.Random) -> Any:
        now = self.now
        start = now()
        budget = self.time_budget or DEFAULT_BUDGET
        root = self._state_for(game, observation, rng)
        legal = root.legal_action_list()
        if len(legal) == 1:
            return legal[0]
        spiel_game = self._spiel_game(game)
        spiel_state = spiel_game.from_triverse(root)
        if self.seconds_per_simulation is None:
            t0 = now()
            self._bot(spiel_game, game, PROBE_SIMULATIONS, rng).step(spiel_state.clone())
            self.seconds_per_simulation = (now() - t0) / PROBE_SIMULATIONS
        left = budget - (now() - start)
        simulations = max(MIN_SIMULATIONS, round(left / self.seconds_per_simulation))
        t0 = now()
        action_id = self._bot(spiel_game, game, simulations, rng).step(spiel_state)
        measured = (now() - t0) / simulations
        self.seconds_per_simulation = ((1 - SMOOTHING) * self.seconds_per_simulation
                                       + SMOOTHING * measured)
        self.simulations.append(simulations)
        return spiel_state.triverse_action(int(action_id))


__all__ = ["OpenSpielSearchPlayer"]
