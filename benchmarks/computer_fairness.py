"""A novice's replies while other matches' veterans think: is computer work fair?

``--busy`` matches of ``--game`` between two veterans (each thinking ``--think`` seconds a
move; in Trinity the veteran uses its whole budget) are created first, with the per-address
cap on such matches raised for the measurement; then a human plays ``--moves`` moves of
Tri-ominoes against a novice over REST, and each time the novice is to move, the time until its
first move is stored is measured (it includes the server's ``bot_delay``, 0.6 s).
The server runs in a subprocess (``ws_load.Server``, default settings otherwise: a process pool
of one worker per core, at most 4). The figures go to ``docs/server.md`` ("Security", "Limits").

    python benchmarks/computer_fairness.py --busy 0
    python benchmarks/computer_fairness.py --busy 12 --think 5
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from ws_load import Server, percentile

Json = dict[str, Any]


async def scenario(server: Server, args: argparse.Namespace) -> str:
    async with httpx.AsyncClient(base_url=server.base, timeout=120) as http:
        for i in range(args.busy):
            answer = await http.post("/api/matches", json={
                "game": args.game, "mode": "computer",
                "seats": [{"kind": "veteran", "think": args.think},
                          {"kind": "veteran", "think": args.think}], "seed": i})
            answer.raise_for_status()
        await asyncio.sleep(args.think)  # every busy match is thinking by now
        created = (await http.post("/api/matches", json={
            "game": "triominoes", "mode": "computer", "options": {"target": 400}, "seed": 99,
            "seats": [{"kind": "human"}, {"kind": "novice"}]})).json()
        match_id = created["match_id"]
        token = next(s["token"] for s in created["seats"] if s["token"])
        headers = {"X-Seat-Token": token}
        path = f"/api/matches/{match_id}"
        replies: list[float] = []
        current = (await http.get(f"{path}/view", headers=headers)).json()
        while len(replies) < args.moves and not current["finished"]:
            if current["your_turn"]:
                answer = await http.post(f"{path}/actions", headers=headers, json={
                    "action": current["legal_actions"][0]["notation"],
                    "move": current["move"]})
                answer.raise_for_status()
                current = answer.json()["view"]
                if current["your_turn"] or current["finished"]:
                    continue
            t0 = time.perf_counter()
            waiting = current["move"]
            while current["move"] == waiting and not current["finished"]:
                await asyncio.sleep(0.01)
                current = (await http.get(f"{path}/view", headers=headers)).json()
            replies.append(time.perf_counter() - t0)
            while not (current["your_turn"] or current["finished"]):
                await asyncio.sleep(0.01)
                current = (await http.get(f"{path}/view", headers=headers)).json()

    def s(p: float) -> str:
        return f"{percentile(replies, p):.2f}"

    return (f"{args.busy} {args.game} matches of veterans thinking {args.think:g} s, "
            f"{args.workers} workers: the novice's reply "
            f"{s(50)} / {s(95)} / {s(100)} s (median / p95 / longest of {len(replies)}); "
            f"load average {os.getloadavg()[0]:.1f}")


async def run(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory(prefix="triverse-fairness-") as tmp:
        os.environ["TRIVERSE_COMPUTER_MATCHES_PER_CLIENT"] = str(args.busy + 1)
        os.environ["TRIVERSE_BOT_WORKERS"] = str(args.workers)
        server = Server(f"sqlite:///{tmp}/fairness.sqlite3", Path(tmp) / "server.log")
        try:
            server.wait_ready(60)
            return await scenario(server, args)
        finally:
            server.stop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--busy", type=int, default=12, help="matches of two veterans")
    parser.add_argument("--game", default="trinity", help="the veterans' game")
    parser.add_argument("--think", type=float, default=5.0, help="their thinking time, s")
    parser.add_argument("--moves", type=int, default=10, help="novice replies to time")
    parser.add_argument("--workers", type=int, default=2, help="the server's bot workers")
    args = parser.parse_args(argv)
    print(asyncio.run(run(args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
