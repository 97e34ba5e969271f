"""The audit's floods against a server with its default limits: how much gets through.

Against a fresh server (a subprocess, ``ws_load.Server``, default settings) from one address:
``--count`` anonymous match creations as fast as one client sends them, then ``--count``
wrong-token guesses at one match's view, then the match's own token. It prints how many were
answered with each status and how long each flood took. The figures go to ``docs/server.md``
("Security", "Limits").

    python benchmarks/rate_limits.py --count 300
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import httpx

from ws_load import Server


def statuses(counts: Counter[int]) -> str:
    return ", ".join(f"{n} x {status}" for status, n in sorted(counts.items()))


async def scenario(server: Server, count: int) -> str:
    body = {"game": "triominoes", "mode": "hotseat",
            "seats": [{"kind": "human"}, {"kind": "human"}]}
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        t0 = time.perf_counter()
        created = [await http.post("/api/matches", json=body) for _ in range(count)]
        create_s = time.perf_counter() - t0
        first = created[0].json()
        retry = next((a.headers.get("Retry-After") for a in created if a.status_code == 429),
                     None)
        path = f"/api/matches/{first['match_id']}/view"
        t0 = time.perf_counter()
        guesses = [await http.get(path, headers={"X-Seat-Token": secrets.token_urlsafe(24)})
                   for _ in range(count)]
        guess_s = time.perf_counter() - t0
        right = await http.get(path, headers={"X-Seat-Token": first["seats"][0]["token"]})
    return (f"{count} match creations in {create_s:.1f} s: "
            f"{statuses(Counter(a.status_code for a in created))} (Retry-After {retry} s); "
            f"{count} wrong tokens in {guess_s:.1f} s: "
            f"{statuses(Counter(a.status_code for a in guesses))}; then the right token: "
            f"{right.status_code} {right.json().get('error', {}).get('code', '')}")


async def run(count: int) -> str:
    with tempfile.TemporaryDirectory(prefix="triverse-limits-") as tmp:
        server = Server(f"sqlite:///{tmp}/limits.sqlite3", Path(tmp) / "server.log", limits={})
        try:
            server.wait_ready(60)
            return await scenario(server, count)
        finally:
            server.stop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    args = parser.parse_args(argv)
    print(asyncio.run(run(args.count)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
