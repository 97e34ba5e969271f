"""Several real server processes on one PostgreSQL schema and one Redis, as ``compose.yaml``
runs them: ``triverse serve --db ... --redis ...`` on two ports of this machine's loopback.

The Redis is a private ``redis-server`` on a free port, so that a test can stop and restart
it; the servers log JSON lines into files of the test's own, where every stored move is one
``"event": "move"`` line (:mod:`triverse.server.logs`).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

SRC = Path(__file__).resolve().parents[2] / "src"
Json = dict[str, Any]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``condition`` every 50 ms until it holds; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(0.05)


class PrivateRedis:
    """A ``redis-server`` of the test's own, keeping nothing on disk, that can be stopped and
    started again on the same port."""

    def __init__(self, directory: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed")
        self.binary = binary
        self.directory = directory
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(self._answers, 10, "the private Redis to answer")

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """Kill it (``kill -9``: what a crash does)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@dataclass
class Server:
    """A ``triverse serve`` process (JSON logs into ``log_path``)."""

    name: str
    db_url: str
    redis_url: str | None
    env: dict[str, str]
    log_path: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    flags: tuple[str, ...] = ()
    """More flags of ``triverse serve`` (``--workers 2``)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        redis = [] if self.redis_url is None else ["--redis", self.redis_url]
        return [sys.executable, "-m", "triverse.cli", "serve", "--port", str(self.port),
                "--db", self.db_url, *redis, "--log-json", *self.flags]

    def start(self, wait: bool = True) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(self.command(), env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT)
        if wait:
            wait_until(self.healthy, 60, f"server {self.name} to start")

    def healthy(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"server {self.name} exited: {self.log_text()[-3000:]}")
        try:
            return httpx.get(self.url + "/api/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def kill(self) -> None:
        """``kill -9``."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        """Stop it as Ctrl-C does, or kill it if it takes too long."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def events(self, event: str = "move") -> list[Json]:
        """The JSON log lines of this event (every run of the process, kills included)."""
        out = []
        for line in self.log_text().splitlines():
            if line.startswith("{"):
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if record.get("event") == event:
                    out.append(record)
        return out


def server_env(prefix: str, **settings: str) -> dict[str, str]:
    """The environment of a test server: instant computers in a thread, client seeds allowed,
    claims looked for every half second, limits out of the way of a test's own load."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("TRIVERSE_")}
    env.update(
        PYTHONPATH=str(SRC), PYTHONUNBUFFERED="1",
        TRIVERSE_BOT_DELAY="0.05", TRIVERSE_BOT_EXECUTOR="thread", TRIVERSE_BOT_WORKERS="1",
        TRIVERSE_ALLOW_CLIENT_SEED="true", TRIVERSE_JOB_POLL="0.5",
        TRIVERSE_REDIS_PREFIX=prefix, TRIVERSE_RATE_CREATE="1000/minute",
        TRIVERSE_RATE_ACTION="10000/minute", TRIVERSE_COMPUTER_MATCHES_PER_CLIENT="20",
    )
    env.update({f"TRIVERSE_{name.upper()}": value for name, value in settings.items()})
    return env


@dataclass
class Cluster:
    """Two servers (``a``, ``b``) on one PostgreSQL schema and one private Redis."""

    a: Server
    b: Server
    redis: PrivateRedis

    @property
    def servers(self) -> tuple[Server, Server]:
        return self.a, self.b

    def moves_logged(self, match_id: str) -> Counter[int]:
        """How many times each move of the match was logged as stored, over both servers and
        every run of each."""
        return Counter(event["move"] for server in self.servers for event in server.events()
                       if event.get("match") == match_id)


@contextmanager
def running_cluster(db_url: str, tmp_path: Path, **settings: str) -> Iterator[Cluster]:
    """Start the private Redis and two servers on ``db_url``; stop them all at the end."""
    redis = PrivateRedis(tmp_path)
    redis.start()
    env = server_env(f"triverse-test-{uuid.uuid4().hex[:8]}:", **settings)
    a = Server("a", db_url, redis.url, env, tmp_path / "a.log")
    b = Server("b", db_url, redis.url, env, tmp_path / "b.log")
    try:
        a.start(wait=False)
        b.start(wait=False)
        wait_until(lambda: a.healthy() and b.healthy(), 60, "both servers to start")
        yield Cluster(a, b, redis)
    finally:
        for server in (a, b):
            server.stop()
        redis.stop()


# --- talking to the servers --------------------------------------------------------------------
def create(server: Server, game: str, kinds: list[str], seed: int = 7,
           options: Json | None = None, mode: str = "hotseat") -> Json:
    """Create a match through ``server``; the answer (with the seats' tokens)."""
    body = {"game": game, "options": options or {}, "mode": mode, "seed": seed,
            "seats": [{"kind": kind} for kind in kinds]}
    answer = httpx.post(server.url + "/api/matches", json=body, timeout=30)
    assert answer.status_code == 201, answer.text
    created: Json = answer.json()
    return created


def tokens_of(created: Json) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"] is not None}


def view(server: Server, match_id: str, token: str | None = None) -> Json:
    headers = {} if token is None else {"X-Seat-Token": token}
    answer = httpx.get(f"{server.url}/api/matches/{match_id}/view", headers=headers,
                       timeout=30)
    assert answer.status_code == 200, answer.text
    result: Json = answer.json()
    return result


def act(server: Server, match_id: str, token: str, action: str, move: int) -> httpx.Response:
    return httpx.post(f"{server.url}/api/matches/{match_id}/actions",
                      headers={"X-Seat-Token": token},
                      json={"action": action, "move": move}, timeout=30)


def record(server: Server, match_id: str) -> Json:
    answer = httpx.get(f"{server.url}/api/matches/{match_id}/record", timeout=30)
    assert answer.status_code == 200, answer.text
    result: Json = answer.json()
    return result


class Socket:
    """A match websocket: ``hello`` sent, the first view read; whole views (no ``changes``)."""

    def __init__(self, server: Server, match_id: str, token: str | None = None) -> None:
        self.connection: ClientConnection = connect(f"{server.ws_url}/ws/matches/{match_id}",
                                                    open_timeout=30, legacy=True)
        hello: Json = {"type": "hello"}
        if token is not None:
            hello["token"] = token
        self.connection.send(json.dumps(hello))
        self.view: Json = self.until(lambda message: message["type"] == "view")["view"]

    def receive(self, timeout: float) -> Json:
        message: Json = json.loads(self.connection.recv(timeout=timeout))
        if message["type"] == "view":
            self.view = message["view"]
        return message

    def until(self, condition: Callable[[Json], bool], timeout: float = 30) -> Json:
        """Read messages until one satisfies ``condition`` (``TimeoutError`` after
        ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such message within {timeout:g} s; the view is at "
                                   f"move {self.view['move']}")
            message = self.receive(left)
            if condition(message):
                return message

    def view_at(self, move: int, timeout: float = 30) -> Json:
        """Read until a view at ``move`` or later arrives."""
        if self.view["move"] >= move:
            return self.view
        message = self.until(lambda m: m["type"] == "view" and m["view"]["move"] >= move,
                             timeout)
        result: Json = message["view"]
        return result

    def send(self, message: Json) -> None:
        self.connection.send(json.dumps(message))

    def close(self) -> None:
        self.connection.close()


@dataclass
class Stored:
    """A match as the database holds it: its seed, options and moves ``(seat, action)``."""

    seed: int
    options: Json
    moves: list[tuple[int, str]]


def stored_moves(db_url: str, match_id: str) -> Stored:
    """Read a match's moves straight from PostgreSQL (``db_url`` names its schema)."""
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(db_url) as connection:
        seed, options = connection.execute(
            "SELECT seed, options FROM matches WHERE id = %s", (match_id,)).fetchone()
        rows = connection.execute(
            "SELECT number, seat, action FROM moves WHERE match_id = %s ORDER BY number",
            (match_id,)).fetchall()
    assert [row[0] for row in rows] == list(range(len(rows))), "the move numbers have a gap"
    return Stored(seed, dict(options or {}), [(row[1], row[2]) for row in rows])


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        barrier.wait()
        results[index] = call()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results
