"""What the Trinity veteran reads from its opponent's placements: how near its deals of the
opponent's hand come to the real one.

    python benchmarks/tiles_inference.py --games 20 --deals 20

Plays ``--games`` Trinity games of the average player against itself. Seat 0 remembers the game
as the veteran does (:meth:`TileKnowledge.remember`); at each of its decisions with a choice at
which it remembers a placement of the opponent since the opponent's last draw, ``--deals``
opponent hands are dealt two ways:

- ``draws only``: respecting what the opponent's draws revealed and nothing else (``_deal``);
- ``veteran``: as the veteran deals them (:meth:`TileKnowledge.sample_world`: kept with a
  chance that falls with the *shortfall*, how far the average player's judgement is from
  explaining the opponent's placements with that hand).

For each way it reports the share of deals that explain every remembered placement (shortfall
0), the mean shortfall in points, and how many tiles of the opponent's real hand a dealt hand
holds, on average, against the hand's size; and how many deals the veteran made per world kept.
``docs/ai.md`` has the measured figures. Two players only.
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass, field
from typing import Any

from triverse.ai.knowledge import Memory
from triverse.ai.knowledge.tiles import TrinityKnowledge
from triverse.core.game import Game, Observation, State
from triverse.games import load_game
from triverse.games._tiles.engine import TileState


@dataclass(slots=True)
class Way:
    """One way of dealing: per deal, its shortfall and the real tiles it dealt."""

    shortfalls: list[float] = field(default_factory=list)
    real: list[int] = field(default_factory=list)

    def line(self, name: str, size: float) -> str:
        explained = sum(s <= 0.0 for s in self.shortfalls) / len(self.shortfalls)
        return (f"  {name:<11} explains every placement {100 * explained:5.1f}% | shortfall "
                f"{statistics.fmean(self.shortfalls):5.2f} points | real tiles "
                f"{statistics.fmean(self.real):.2f} of {size:.2f}")


@dataclass(slots=True)
class Summary:
    decisions: int = 0
    """Seat 0's decisions with a choice and a remembered placement of the opponent."""
    choices: int = 0
    """Decisions with a choice."""
    sizes: list[int] = field(default_factory=list)
    plain: Way = field(default_factory=Way)
    kept: Way = field(default_factory=Way)
    tries: list[int] = field(default_factory=list)
    """Deals the veteran made for each world it kept."""


class Counting(TrinityKnowledge):
    """The Trinity knowledge, counting the deals its :meth:`sample_world` makes."""

    deals = 0

    def _deal(self, game: Game[Any, Any], observation: Observation, rng: random.Random,
              memory: Memory | None) -> State[Any]:
        self.deals += 1
        return super()._deal(game, observation, rng, memory)


def measure(games: int, deals: int, seed: int) -> Summary:
    game = load_game("trinity", 2)
    knowledge = Counting()
    out = Summary()
    for index in range(games):
        state = game.new_initial_state(seed=seed + index)
        assert isinstance(state, TileState)
        memory: Memory = {}
        rng = random.Random(seed + index)
        while not state.is_terminal():
            seat = state.current
            assert seat is not None
            if seat == 0:
                observation = state.observation(0)
                knowledge.remember(memory, observation)
                if len(state.legal_action_list()) > 1:
                    out.choices += 1
                    choices = memory["choices"]
                    if choices:
                        out.decisions += 1
                        real = set(state.hands[1])
                        out.sizes.append(len(real))
                        deal_rng = random.Random(f"{seed}/{index}/{state.move_number}")
                        for _ in range(deals):
                            plain = knowledge._deal(game, observation, deal_rng, memory)
                            knowledge.deals = 0
                            kept = knowledge.sample_world(game, observation, deal_rng, memory)
                            out.tries.append(knowledge.deals)
                            for way, world in ((out.plain, plain), (out.kept, kept)):
                                assert isinstance(world, TileState)
                                way.shortfalls.append(knowledge.shortfall(game, world, choices))
                                way.real.append(len(real & set(world.hands[1])))
            state.apply(knowledge.average_move(state, seat, rng))
    return out


def report(summary: Summary, games: int) -> str:
    size = statistics.fmean(summary.sizes)
    return "\n".join([
        f"{summary.decisions} of seat 0's {summary.choices} decisions with a choice in {games} "
        f"games remember a placement of the opponent since its last draw; at those, the "
        f"opponent's hand as dealt:",
        summary.plain.line("draws only", size),
        summary.kept.line("veteran", size),
        f"  the veteran dealt {statistics.fmean(summary.tries):.2f} hands for each one it kept",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    print(report(measure(args.games, args.deals, args.seed), args.games))


if __name__ == "__main__":
    main()
