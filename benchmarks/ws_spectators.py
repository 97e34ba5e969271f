"""Spectators of one match: the mover's acknowledgement and what is sent, with many watchers.

A hot-seat match is played over REST until its public view is large (``--warm`` moves), then
``--spectators`` sockets watch it (without a log limit, so each view carries the whole log)
while the seats play ``--moves`` more moves over their own websockets. For each move it
measures *accepted* (from sending the ``action`` to its ``accepted``) and *all spectators*
(from sending it to the last spectator receiving the move), and counts the bytes the
spectators received. ``--changes`` makes the spectators ask for ``changes`` after their
first view (as the browser does). The server runs in a subprocess (``ws_load.Server``); the
figures go to ``docs/server.md`` ("Security", "Limits").

    python benchmarks/ws_spectators.py --spectators 300 --moves 20
    python benchmarks/ws_spectators.py --spectators 300 --moves 20 --changes
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from ws_load import Server, percentile

Json = dict[str, Any]


class Watcher:
    """A spectator's socket: the move it has seen last and the bytes it received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.move = -1
        self.bytes = 0
        self.messages = 0
        self.first_bytes = 0

    async def read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            self.bytes += len(raw)
            self.messages += 1
            if message["type"] == "view":
                self.move = message["view"]["move"]
                self.first_bytes = self.first_bytes or len(raw)
            elif message["type"] == "changes":
                self.move = message["move"]


async def open_watcher(url: str, changes: bool) -> Watcher:
    ws = await connect(url, max_size=2**24, ping_interval=None, compression="deflate")
    await ws.send(json.dumps({"type": "hello", "changes": changes}))
    watcher = Watcher(ws)
    asyncio.get_running_loop().create_task(watcher.read())
    return watcher


async def seat_view(ws: ClientConnection) -> Json:
    """The next ``view`` message's view on a seat's socket."""
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "view":
            view: Json = message["view"]
            return view


async def run(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory(prefix="triverse-spectators-") as tmp:
        server = Server(f"sqlite:///{tmp}/spectators.sqlite3", Path(tmp) / "server.log")
        try:
            server.wait_ready(60)
            return await scenario(server, args)
        finally:
            server.stop()


async def scenario(server: Server, args: argparse.Namespace) -> str:
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        created = (await http.post("/api/matches", json={
            "game": args.game, "options": json.loads(args.options), "mode": "hotseat",
            "seed": args.seed,
            "seats": [{"kind": "human"}, {"kind": "human"}]})).json()
        match_id = created["match_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        for _ in range(args.warm):
            public = (await http.get(f"/api/matches/{match_id}/view")).json()
            seat = public["to_move"]
            if public["finished"] or public["move"] >= args.warm:
                raise SystemExit(f"the game ended at move {public['move']}: ask fewer --warm")
            mine = (await http.get(f"/api/matches/{match_id}/view",
                                   headers={"X-Seat-Token": tokens[seat]})).json()
            answer = await http.post(f"/api/matches/{match_id}/actions",
                                     headers={"X-Seat-Token": tokens[seat]},
                                     json={"action": mine["legal_actions"][0]["notation"],
                                           "move": mine["move"]})
            answer.raise_for_status()
    url = f"{server.ws_base}/ws/matches/{match_id}"
    watchers: list[Watcher] = []
    for start in range(0, args.spectators, 32):
        watchers += await asyncio.gather(*(open_watcher(url, args.changes)
                                           for _ in range(start, min(args.spectators,
                                                                      start + 32))))
    seats = {}
    for seat, token in tokens.items():
        ws = await connect(url, max_size=2**24, ping_interval=None, compression="deflate")
        await ws.send(json.dumps({"type": "hello", "token": token, "log": 40}))
        seats[seat] = (ws, await seat_view(ws))
    while min(w.move for w in watchers) < args.warm:
        await asyncio.sleep(0.01)
    await asyncio.sleep(1.0)
    first = sorted(w.first_bytes for w in watchers)[len(watchers) // 2]
    received0 = sum(w.bytes for w in watchers)
    accepted: list[float] = []
    everyone: list[float] = []
    for _ in range(args.moves):
        mover = next(s for s, (_, v) in seats.items() if v["your_turn"])
        ws, current = seats[mover]
        t0 = time.perf_counter()
        await ws.send(json.dumps({"type": "action", "move": current["move"],
                                  "action": current["legal_actions"][0]["notation"]}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "accepted":
                accepted.append(time.perf_counter() - t0)
                break
            if message["type"] == "error":
                raise RuntimeError(message)
        target = current["move"] + 1
        while min(w.move for w in watchers) < target:
            await asyncio.sleep(0.002)
        everyone.append(time.perf_counter() - t0)
        for seat, (sws, view) in list(seats.items()):
            while view["move"] < target:
                view = await seat_view(sws)
            seats[seat] = (sws, view)
    received = sum(w.bytes for w in watchers) - received0
    for w in watchers:
        await w.ws.close()
    for ws, _ in seats.values():
        await ws.close()

    def ms(values: Sequence[float]) -> str:
        return " / ".join(f"{percentile(values, p) * 1000:.0f}" for p in (50, 95))

    return (f"{args.spectators} spectators ({'changes' if args.changes else 'whole views'}), "
            f"{args.game} at move {args.warm}, first view {first / 1000:.1f} kB: accepted "
            f"{ms(accepted)} ms, all spectators {ms(everyone)} ms (median / p95 over "
            f"{args.moves} moves), {received / args.moves / 1000:.0f} kB to the spectators a "
            f"move; load average {os.getloadavg()[0]:.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--spectators", type=int, default=300)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--warm", type=int, default=200, help="moves played before watching")
    parser.add_argument("--game", default="triominoes")
    parser.add_argument("--options", default='{"target": 400}', help="the game's options (JSON)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--changes", action="store_true",
                        help="the spectators ask for changes after their first view")
    args = parser.parse_args(argv)
    print(asyncio.run(run(args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
