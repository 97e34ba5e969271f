"""The computer players' speed: simulations (playouts) per second of the veteran's search, and
the engine operations the search leans on, per game.

    python benchmarks/ai_playouts.py                    # every game, a markdown table
    python benchmarks/ai_playouts.py --profile trident  # where a veteran's search spends its time

Positions are taken from games between average players (a fixed seed); each is searched for
``--budget`` CPU seconds. A *playout* is one candidate move tried in one sampled world and
played on to the knowledge's horizon (for Triangles, the alpha-beta nodes instead). The table
also gives the worlds a search dealt (least and median) and how many searches the budget stopped
short, before the 16 worlds at which a search first asks whether it is settled (such a search
keeps its knowledge's first choice unless its leader beats it with confidence).
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import random
import statistics
import time
from typing import Any

from triverse.ai.knowledge import knowledge_for
from triverse.ai.knowledge.triangles import AlphaBeta, Position
from triverse.ai.levels import AveragePlayer
from triverse.ai.search import SETTLE_FROM, SearchLimits
from triverse.core.game import State
from triverse.games import available_games, load_game


def positions(name: str, count: int, seed: int) -> list[State[Any]]:
    """Positions the veteran searches (a choice, and :meth:`Knowledge.search_here`), from
    average-player games."""
    game = load_game(name)
    knowledge = knowledge_for(game)
    rng = random.Random(seed)
    average = AveragePlayer()
    out: list[State[Any]] = []
    game_index = 0
    while len(out) < count:
        state = game.new_initial_state(seed=seed + game_index)
        game_index += 1
        while not state.is_terminal() and len(out) < count:
            seat = state.current_player
            assert seat is not None
            if (len(state.legal_action_list()) > 1 and knowledge.search_here(state, seat)
                    and rng.random() < 0.15):
                out.append(state.clone())
            state.apply(average.choose(game, state.observation(seat), rng))
    return out


def engine_rates(states: list[State[Any]]) -> dict[str, float]:
    """Per second: clones, legal-move listings, clone+apply of a legal move, determinizations."""
    rng = random.Random(1)
    game = states[0].game
    out: dict[str, float] = {}
    t0 = time.process_time()
    n = 0
    for state in states:
        for _ in range(50):
            state.clone()
            n += 1
    out["clone"] = n / (time.process_time() - t0)
    t0 = time.process_time()
    n = 0
    for state in states:
        for _ in range(5):
            state.legal_action_list()
            n += 1
    out["legal"] = n / (time.process_time() - t0)
    t0 = time.process_time()
    n = 0
    for state in states:
        for action in state.legal_action_list()[:10]:
            state.clone().apply_unchecked(action)
            n += 1
    out["apply"] = n / (time.process_time() - t0)
    t0 = time.process_time()
    n = 0
    for state in states:
        seat = state.current_player
        assert seat is not None
        observation = state.observation(seat)
        for _ in range(5):
            game.determinize(observation, rng)
            n += 1
    out["determinize"] = n / (time.process_time() - t0)
    return out


def search_rate(states: list[State[Any]], budget: float) -> tuple[float, str, list[int]]:
    """Playouts (or alpha-beta nodes) per CPU second of the veteran's search, and the worlds
    each search dealt (none for Triangles' alpha-beta)."""
    game = states[0].game
    knowledge = knowledge_for(game)
    rng = random.Random(2)
    if game.name == "triangles":
        nodes = 0
        spent = 0.0
        for state in states:
            t0 = time.process_time()
            searcher = AlphaBeta(game.again, t0 + budget, rng, time.process_time)
            searcher.root(Position.of(state))
            spent += time.process_time() - t0
            nodes += searcher.nodes
        return nodes / spent, "alpha-beta nodes", []
    playouts = 0
    spent = 0.0
    worlds: list[int] = []
    for state in states:
        seat = state.current_player
        assert seat is not None
        t0 = time.process_time()
        result = knowledge.search(game, state.observation(seat), rng,
                                  SearchLimits(budget, clock="cpu"))
        spent += time.process_time() - t0
        playouts += sum(e.count for e in result.estimates)
        worlds.append(result.worlds)
    return playouts / spent, "playouts", worlds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=available_games())
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", metavar="GAME", help="profile the veteran's search here")
    args = parser.parse_args()
    if args.profile:
        states = positions(args.profile, args.positions, args.seed)
        profiler = cProfile.Profile()
        profiler.enable()
        search_rate(states, args.budget)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    print(f"Measured by `python benchmarks/ai_playouts.py --positions {args.positions} "
          f"--budget {args.budget}` on CPython {platform.python_version()}, "
          f"{platform.machine()}, one process, CPU time.\n")
    print("| game | veteran search | per CPU second | worlds a search (least / median) "
          f"| stopped short (< {SETTLE_FROM} worlds) | clone/s | legal listing/s "
          "| clone+apply/s | determinize/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.games:
        states = positions(name, args.positions, args.seed)
        rate, unit, worlds = search_rate(states, args.budget)
        engine = engine_rates(states)
        if worlds:
            dealt = f"{min(worlds)} / {statistics.median(worlds):g}"
            short = f"{sum(1 for w in worlds if w < SETTLE_FROM)} of {len(worlds)}"
        else:
            dealt = short = "-"
        print(f"| {name} | {unit} | {rate:,.0f} | {dealt} | {short} | {engine['clone']:,.0f} | "
              f"{engine['legal']:,.0f} | {engine['apply']:,.0f} | "
              f"{engine['determinize']:,.0f} |")


if __name__ == "__main__":
    main()
