"""The computer players' ladder: arena runs per game and match-up, written to ``docs/ai.md``.

    python benchmarks/ai_ladder.py run --games 400 --matchups average,novice --jobs 2
    python benchmarks/ai_ladder.py run --games 40 --matchups veteran,average --only trident
    python benchmarks/ai_ladder.py write docs/ai.md

``run`` plays ``triverse arena GAME --players A,B`` for every game (or ``--only`` some) and each
match-up, and keeps each result as JSON in ``benchmarks/results/ai/`` (one file per game and
match-up; a new run replaces the old one). ``write`` turns every kept result into the table
between ``<!-- ladder:start -->`` and ``<!-- ladder:end -->`` of the file, each row with the
``triverse arena`` command that produced it, so any figure can be measured again.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path
from typing import Any

from docblock import markers, write_block
from triverse.arena import ArenaConfig, run_arena
from triverse.games import available_games

RESULTS = Path(__file__).parent / "results" / "ai"
START, END = markers("ladder")


def result_path(game: str, players: tuple[str, ...]) -> Path:
    return RESULTS / f"{game}--{'-vs-'.join(p.replace('@', '_at_') for p in players)}.json"


def run(args: argparse.Namespace) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    games = args.only or available_games()
    for matchup in args.matchups:
        players = tuple(p.strip() for p in matchup.split(","))
        for game in games:
            config = ArenaConfig(game, players, games=args.games, seed=args.seed,
                                 jobs=args.jobs, time_budget=args.time_budget,
                                 clock=args.clock, options=tuple(args.option))
            result = run_arena(config, sys.stderr)
            data = result.to_json()
            data["python"] = platform.python_version()
            result_path(game, players).write_text(json.dumps(data, indent=1) + "\n",
                                                  encoding="utf-8")
            print(result.text(), flush=True)


def _ms(value: float | None) -> str:
    if value is None:
        return "-"
    ms = value * 1000
    return f"{ms:.2f}" if ms < 10 else f"{ms:,.0f}"


def _row(data: dict[str, Any]) -> str:
    first, second = data["entries"][0], data["entries"][1]
    low, high = first["wilson95"]
    specials = " / ".join(f"{e['special_plays_per_game']:.2f}" for e in data["entries"])
    times = []
    for entry in data["entries"]:
        choice = entry["move_time"]["choices"]
        cpu = entry["move_time"].get("choices_cpu", {})
        times.append(f"{_ms(choice['median'])} / {_ms(choice['p95'])} "
                     f"({_ms(cpu.get('median'))} / {_ms(cpu.get('p95'))})")
    return (f"| {data['game']} | {first['label']} vs {second['label']} | {data['games']} "
            f"| **{first['win_rate']:.1%}** ({low:.1%}-{high:.1%}) "
            f"| {first['average_score']:.1f} / {second['average_score']:.1f} "
            f"| {specials} | {' ; '.join(times)} | `{data['command']}` |")


def table() -> str:
    rows = []
    for path in sorted(RESULTS.glob("*.json")):
        rows.append(json.loads(path.read_text(encoding="utf-8")))
    rows.sort(key=lambda d: (available_games().index(d["game"])
                             if d["game"] in available_games() else 99, d["command"]))
    lines = [
        "| game | match-up | games | first's win rate (95% Wilson) | average scores "
        "| special plays a game | move time median / p95 in ms, wall (CPU), moves with a choice "
        "| command |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines.extend(_row(d) for d in rows)
    return "\n".join(lines)


def write(args: argparse.Namespace) -> None:
    write_block(Path(args.file), START, END, "## Measurements", table())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    runner = sub.add_parser("run", help="play the match-ups and keep the results")
    runner.add_argument("--games", type=int, default=400)
    runner.add_argument("--matchups", nargs="+", default=["average,novice", "veteran,average"],
                        help="comma-separated arena entries, e.g. veteran,average")
    runner.add_argument("--only", nargs="*", help="these games only")
    runner.add_argument("--seed", type=int, default=101)
    runner.add_argument("--jobs", type=int, default=2)
    runner.add_argument("--time-budget", type=float)
    runner.add_argument("--clock", choices=("wall", "cpu"), default="cpu")
    runner.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    writer = sub.add_parser("write", help="write the table into a file's ladder block")
    writer.add_argument("file")
    args = parser.parse_args()
    if args.command == "run":
        run(args)
    else:
        write(args)


if __name__ == "__main__":
    main()
