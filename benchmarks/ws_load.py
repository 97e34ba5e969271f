"""Websocket load: the server's own round trip for human moves, one game or many at once, on
one server process or several.

    python benchmarks/ws_load.py                                  # SQLite, 1 and 100 games
    python benchmarks/ws_load.py --games 1,100 --moves 30 \\
        --db sqlite --db postgresql://postgres@127.0.0.1:5432/test --write docs/performance.md
    python benchmarks/ws_load.py --servers 1,2 --redis redis://127.0.0.1:6379/0 \\
        --games 1,100,500 --moves 20 --db postgresql://postgres@127.0.0.1:5432/test

For each database and each count of ``--servers`` (a *group* of scenarios) it starts that many
real servers (``triverse.server.serve``, i.e. uvicorn, each in a subprocess of its own on a free
127.0.0.1 port), all on one database made for the group: ``sqlite`` is a fresh temporary file
(one server only: SQLite serves one process), a PostgreSQL URL gets a fresh schema of its own,
dropped at the end. With ``--redis`` the group's servers share that Redis
(``TRIVERSE_REDIS_URL``), which carries the live updates between them; several servers need it,
and one server can be given it too, to compare one process with Redis against several. The
servers are separate processes on separate ports, not ``triverse serve --workers N`` (whose
workers share one port, so the kernel, not the benchmark, would pick each connection's process).
Each group plays unrecorded warm-up games (one created through each server), then for each count
G of ``--games``: creates G Tri-ominoes matches (``hotseat``, two human seats, no computer
player, seeds chosen by the benchmark so that every run plays the same moves), opens one
websocket per seat (``hello`` with ``log: 40``, as the web UI does), and in every game at once
has the seat to move send the first legal action of its view, ``--moves`` times. Each move
waits for its ``accepted`` and for both seats' updated views before the next one.

**Several servers: the load is spread as a load balancer would.** Match *i* is created through
server *i* mod N; its seat 0's websocket connects to that server and its seat 1's to the next
one (*i* + 1 mod N). So with two or more servers every move crosses processes: the mover's
``accepted`` comes from the mover's own server, and the other seat's view push comes from the
other server, which hears of the move through Redis.

Measured per move, from sending the ``action``:

- **accepted**: until its ``accepted`` arrives (the move is stored in the database by then);
- **view push**: until the *other* seat receives the view that shows the move.

Plus moves per second over all games (from the first action to the last move's views), the CPU
time the server processes (each with its children, summed over the group's servers; their event
loop threads apart) used meanwhile and how long their threads waited for a core, from
``/proc/*/schedstat``, on PostgreSQL the CPU of the servers' backends, and with Redis the CPU
and the commands of the whole Redis server (``INFO``: it runs on this machine, and other work
may use it too). ``--no-compression`` makes the client not offer permessage-deflate.
``--changes`` makes each socket ask for ``changes`` in its ``hello``, as the web UI does (after
the first view, a move's message holds what changed, not the whole view). ``--rate R`` paces the
moves: all games together start at most R moves a second, on a fixed schedule (a move whose
time has passed is sent at once, so a server that falls behind is not given more time), rather
than each game moving as soon as its last move is done.

The benchmark's own servers are told to let one address do far more than a client may
(``docs/server.md``, "Limits": all the load comes from 127.0.0.1); the rate limits count in
each process's memory, as by default. The open files limit of the benchmark (and so of the
servers it starts, which inherit it) is raised to its hard limit: G games are 2 G websockets.
At most 16 matches are created and 32 websockets opened at a time.

Redis: each group's servers name their keys and channels in the Redis that ``--redis`` names
with a prefix of the group's own (``TRIVERSE_REDIS_PREFIX=triverse-bench-<random>:``), so
that they share nothing with anyone else's, and the group's keys are deleted at its end. The
URL reaches the servers as given, query included (``?max_connections=N`` sets the size of each
of a server's Redis connection pools, 32 by default, where a command waits for a free
connection: ``triverse.server.redis_pool``).

Everything runs on loopback; each group is bounded (``--timeout``; ``--step-timeout`` per
wait), and the servers, their temporary files, the PostgreSQL schema and the Redis keys are
cleaned up at the end of each group, also on error, Ctrl-C or SIGTERM (killed outright, the
benchmark leaves the servers to end themselves on the SIGTERM its death sends them, and leaves
its schema and Redis keys behind, named ``triverse_bench_*`` and ``triverse-bench-*``). With
``--write FILE`` the table replaces the block between ``<!-- ws:start -->`` and
``<!-- ws:end -->`` of FILE (appended with a heading if missing). No figure is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import gc
import importlib.util
import itertools
import json
import math
import os
import platform
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
from websockets.asyncio.client import ClientConnection, connect

from docblock import markers, write_block
from triverse.server import GC_THRESHOLDS

Json = dict[str, Any]
T = TypeVar("T")

HOST = "127.0.0.1"
START, END = markers("ws")
HEADING = "## Server: websocket round trip under load"
UI_LOG = 40
"""The ``log`` the web UI sends in its ``hello`` (``connection.js``)."""
MAX_GAMES = 500
MAX_MOVES = 1000
MAX_SERVERS = 8

SERVER_CODE = """
import ctypes, os, signal, sys
ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: end with the benchmark
if os.getppid() != int(sys.argv[5]):
    sys.exit("the benchmark is gone")
from triverse.server import serve
host, port, db_url, level = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
serve(host, port, db_url, log_level=level, allow_client_seed=True)
"""
"""The server process: ``triverse serve`` with client seeds allowed (reproducible deals). It
receives SIGTERM (a clean shutdown) if the benchmark dies without stopping it."""


UNLIMITED = {
    **{f"TRIVERSE_RATE_{kind}": "1000000/minute"
       for kind in ("CREATE", "ACTION", "PREVIEW", "HINT", "REVIEW", "TOKEN_FAILURE")},
    "TRIVERSE_SOCKETS_PER_CLIENT": "1000000", "TRIVERSE_SOCKETS_PER_MATCH": "1000000",
    "TRIVERSE_COMPUTER_MATCHES_PER_CLIENT": "1000000", "TRIVERSE_COMPUTER_QUEUE": "1000000",
}
"""The load comes from one address, far past what one client may do (``docs/server.md``,
"Limits"): the servers under test are told to let it."""

SERVER_ENV_DROPPED = ("TRIVERSE_DB_URL", "TRIVERSE_REDIS_URL", "TRIVERSE_REDIS_PREFIX",
                      "TRIVERSE_WORKERS", "TRIVERSE_PORT", "TRIVERSE_HOST")
"""Settings the benchmark gives its servers itself (or leaves at their defaults): never taken
from the benchmark's own environment."""


# --- the server process ------------------------------------------------------------------------
def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True)
class Sched:
    """Scheduler figures of some threads: seconds on a CPU, seconds waiting for one (runnable
    but not running: the machine's other work had the cores)."""

    cpu: float = 0.0
    wait: float = 0.0

    def __add__(self, other: Sched) -> Sched:
        return Sched(self.cpu + other.cpu, self.wait + other.wait)

    def __sub__(self, other: Sched) -> Sched:
        return Sched(self.cpu - other.cpu, self.wait - other.wait)


def schedstat(path: Path) -> Sched:
    """One thread's ``/proc/.../schedstat`` (nanoseconds on a CPU, waiting on a run queue)."""
    try:
        run, wait, _ = path.read_text().split()
    except (OSError, ValueError):
        return Sched()
    return Sched(int(run) / 1e9, int(wait) / 1e9)


def process_sched(pid: int) -> Sched:
    """Every live thread of one process."""
    total = Sched()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        total += schedstat(task / "schedstat")
    return total


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (the server and its computer players' pool)."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            with contextlib.suppress(OSError):
                todo.extend(int(c) for c in (task / "children").read_text().split())
    return out


class BackendMonitor:
    """Polls the CPU of the PostgreSQL backends that serve the server (by application name),
    in a thread, every ``interval`` seconds, since backends come and go with the pool."""

    def __init__(self, admin_url: str, app_name: str, interval: float = 0.2) -> None:
        self.admin_url, self.app_name, self.interval = admin_url, app_name, interval
        self.start: dict[int, Sched] = {}
        self.last: dict[int, Sched] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pg-monitor", daemon=True)
        self._ready = threading.Event()
        self.error: BaseException | None = None

    def __enter__(self) -> BackendMonitor:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        import psycopg

        try:
            with psycopg.connect(self.admin_url, connect_timeout=5, autocommit=True) as admin:
                first = True
                while True:
                    pids = [row[0] for row in admin.execute(
                        "SELECT pid FROM pg_stat_activity WHERE application_name = %s",
                        (self.app_name,))]
                    for pid in pids:
                        now = schedstat(Path(f"/proc/{pid}/schedstat"))
                        if first:
                            self.start[pid] = now
                        self.last[pid] = now
                    if first:
                        first = False
                        self._ready.set()
                    if self._stop.wait(self.interval):
                        return
        except Exception as exc:  # reported with the figures, not fatal
            self.error = exc
            self._ready.set()

    @property
    def used(self) -> Sched:
        """What the backends used while watched (a backend's last ``interval`` before it
        exited is missed)."""
        total = Sched()
        for pid, last in self.last.items():
            total += last - self.start.get(pid, Sched())
        return total

    @property
    def opened(self) -> int:
        """Backends seen that did not exist at the start: connections the server opened."""
        return len(set(self.last) - set(self.start))


@dataclass
class Database:
    """Where the server stores: a temporary SQLite file, or a PostgreSQL schema of its own."""

    label: str
    url: str
    admin_url: str | None = None
    schema: str | None = None
    app_name: str | None = None

    @classmethod
    def make(cls, spec: str, tmp: Path) -> Database:
        if spec == "sqlite":
            return cls("SQLite (file, WAL)", f"sqlite:///{tmp / 'bench.sqlite3'}")
        if spec.startswith(("postgresql://", "postgres://")):
            import psycopg

            tag = uuid.uuid4().hex[:12]
            schema, app_name = f"triverse_bench_{tag}", f"triverse-bench-{tag}"
            try:
                with psycopg.connect(spec, connect_timeout=5, autocommit=True) as admin:
                    admin.execute(f'CREATE SCHEMA "{schema}"')
            except psycopg.OperationalError as exc:
                raise SystemExit(f"PostgreSQL is not reachable at {spec}: {exc}") from None
            sep = "&" if "?" in spec else "?"
            url = f"{spec}{sep}options=-csearch_path%3D{schema}&application_name={app_name}"
            return cls("PostgreSQL " + _pg_version(spec), url, spec, schema, app_name)
        raise SystemExit(f"--db is 'sqlite' or a postgresql:// URL, not {spec!r}")

    def monitor(self) -> contextlib.AbstractContextManager[BackendMonitor | None]:
        """Watch the PostgreSQL backends' CPU (PostgreSQL runs on this machine too)."""
        if self.admin_url is None or self.app_name is None:
            return contextlib.nullcontext()
        return BackendMonitor(self.admin_url, self.app_name)

    def drop(self) -> None:
        if self.admin_url is None or self.schema is None:
            return
        import psycopg

        with psycopg.connect(self.admin_url, connect_timeout=5, autocommit=True) as admin:
            admin.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')


OWN_COMMANDS = 2
"""Commands of the benchmark's own between two :meth:`RedisScope.figures` (a command counts
once it is done: the first call's ``INFO stats``, the second's ``INFO cpu``)."""


@dataclass(frozen=True)
class RedisFigures:
    """The whole Redis server's counters (``INFO``): CPU seconds, commands processed."""

    cpu: float = 0.0
    commands: int = 0

    def __sub__(self, other: RedisFigures) -> RedisFigures:
        """What others used from ``other`` to this (the benchmark's own commands apart)."""
        return RedisFigures(self.cpu - other.cpu, self.commands - other.commands - OWN_COMMANDS)


@dataclass(frozen=True)
class RedisScope:
    """The part of the Redis that ``--redis`` names that one group of scenarios uses: the keys
    and channels under a prefix of its own (``TRIVERSE_REDIS_PREFIX``), so that they mix with
    nobody's, and that its keys can be removed at the end without touching anyone else's."""

    url: str
    prefix: str
    label: str
    """``Redis`` and the server's version."""

    @classmethod
    def make(cls, url: str) -> RedisScope:
        """A fresh prefix on the Redis at ``url`` (checked to answer)."""
        import redis

        try:
            with redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5) as client:
                version = client.info("server").get("redis_version", "?")
        except redis.RedisError as exc:
            raise SystemExit(f"Redis is not reachable at {url}: {exc}") from None
        return cls(url, f"triverse-bench-{uuid.uuid4().hex[:12]}:", f"Redis {version}")

    def _client(self) -> Any:
        import redis

        return redis.Redis.from_url(self.url, socket_timeout=5, socket_connect_timeout=5)

    def figures(self) -> RedisFigures:
        """The Redis server's CPU so far (user and system) and commands processed."""
        with self._client() as client:
            cpu, stats = client.info("cpu"), client.info("stats")
        return RedisFigures(float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
                            int(stats["total_commands_processed"]))

    def keys(self) -> int:
        """How many keys under the prefix there are now."""
        with self._client() as client:
            return sum(1 for _ in client.scan_iter(match=self.prefix + "*", count=1000))

    def remove(self) -> int:
        """Delete the keys under the prefix; how many there were."""
        with self._client() as client:
            keys = list(client.scan_iter(match=self.prefix + "*", count=1000))
            return sum(int(client.delete(*keys[i:i + 500])) for i in range(0, len(keys), 500))


def _pg_version(url: str) -> str:
    import psycopg

    with psycopg.connect(url, connect_timeout=5) as conn:
        row = conn.execute("SHOW server_version").fetchone()
    return str(row[0]).split()[0] if row else "?"


class Server:
    """``triverse.server.serve`` in a subprocess (its own session), on a free loopback port;
    with ``redis``, one of the servers that share that Redis (under its prefix)."""

    def __init__(self, db_url: str, log_path: Path, log_level: str = "warning",
                 limits: dict[str, str] | None = None, redis: RedisScope | None = None) -> None:
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.ws_base = f"ws://{HOST}:{self.port}"
        self.log_path = log_path
        self._log = log_path.open("wb")
        self._interrupted = False
        env = {name: value for name, value in os.environ.items()
               if name not in SERVER_ENV_DROPPED}
        env.update(PYTHONUNBUFFERED="1", **(UNLIMITED if limits is None else limits))
        if redis is not None:
            env.update(TRIVERSE_REDIS_URL=redis.url, TRIVERSE_REDIS_PREFIX=redis.prefix)
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER_CODE, HOST, str(self.port), db_url, log_level,
             str(os.getpid())],
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT, env=env,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n"
                                   + self.log_text()[-3000:])
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {timeout:g} s:\n"
                           + self.log_text()[-3000:])

    def sched(self) -> tuple[Sched, Sched]:
        """CPU and run-queue wait so far: of the server with its children, and of its main
        thread alone (the event loop, where every request and websocket is handled)."""
        total = Sched()
        for pid in process_tree(self.process.pid):
            total += process_sched(pid)
        pid = self.process.pid
        return total, schedstat(Path(f"/proc/{pid}/task/{pid}/schedstat"))

    def log_text(self) -> str:
        self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def interrupt(self) -> None:
        """Ctrl-C (a clean shutdown), once: a second one would make uvicorn skip its clean
        shutdown. Several servers are interrupted first, then waited for one by one."""
        if not self._interrupted and self.process.poll() is None:
            self._interrupted = True
            self.process.send_signal(signal.SIGINT)

    def stop(self) -> None:
        """Ctrl-C (a clean shutdown), then SIGKILL to the whole process group if needed."""
        if self.process.poll() is None:
            self.interrupt()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)
        with contextlib.suppress(ProcessLookupError):  # stray pool workers, if any
            os.killpg(self.process.pid, signal.SIGKILL)
        self._log.close()


# --- one websocket per seat --------------------------------------------------------------------
class ServerRefused(Exception):
    """The server answered with an ``error`` message."""


@dataclass
class SeatSocket:
    """A seat's websocket: remembers when each move's view first arrived."""

    match_id: str
    seat: int
    token: str
    ws: ClientConnection | None = None
    view: Json | None = None
    first_seen: dict[int, float] = field(default_factory=dict)
    pending: dict[int, asyncio.Future[float]] = field(default_factory=dict)
    errors: list[Json] = field(default_factory=list)
    view_bytes: list[int] = field(default_factory=list)
    hello_s: float = math.nan
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _reader: asyncio.Task[None] | None = None

    async def open(self, ws_base: str, timeout: float, compression: bool = True,
                   changes: bool = False) -> None:
        t0 = time.perf_counter()
        self.ws = await connect(f"{ws_base}/ws/matches/{self.match_id}", open_timeout=timeout,
                                ping_interval=None, max_size=2**22,
                                compression="deflate" if compression else None)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token,
                                       "seat": self.seat, "log": UI_LOG, "changes": changes}))
        self._reader = asyncio.get_running_loop().create_task(self._read())
        await self.wait_view(0, timeout)
        self.hello_s = time.perf_counter() - t0

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                message = json.loads(raw)
                kind = message.get("type")
                if kind in ("view", "changes"):
                    view = message["view"] if kind == "view" else changed(self.view, message)
                    self.view_bytes.append(len(raw))
                    if self.view is None or view["move"] >= self.view["move"]:
                        self.view = view
                    self.first_seen.setdefault(view["move"], now)
                    self._changed.set()
                elif kind == "accepted":
                    future = self.pending.pop(message.get("id"), None)
                    if future is not None and not future.done():
                        future.set_result(now)
                elif kind == "error":
                    self.errors.append(message)
                    future = self.pending.pop(message.get("id"), None)
                    if future is not None and not future.done():
                        future.set_exception(ServerRefused(json.dumps(message)))
        finally:
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("the websocket closed"))
            self._changed.set()

    def seen(self, move: int) -> float | None:
        """When the first view at ``move`` or later arrived."""
        times = [t for m, t in self.first_seen.items() if m >= move]
        return min(times) if times else None

    async def wait_view(self, move: int, timeout: float) -> float:
        """Wait until a view at ``move`` or later has arrived; when it arrived."""
        try:
            async with asyncio.timeout(timeout):
                while (when := self.seen(move)) is None:
                    if self._reader is not None and self._reader.done():
                        raise ConnectionError(f"seat {self.seat}'s websocket closed")
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            known = None if self.view is None else self.view["move"]
            raise TimeoutError(f"match {self.match_id}, seat {self.seat}: no view of move "
                               f"{move} within {timeout:g} s (its last view: move {known})"
                               ) from None
        return when

    async def act(self, action: str, move: int, request_id: int,
                  timeout: float) -> tuple[float, float]:
        """Send an action; when it was sent and when its ``accepted`` arrived."""
        assert self.ws is not None
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.pending[request_id] = future
        payload = json.dumps({"type": "action", "action": action, "move": move,
                              "id": request_id})
        sent = time.perf_counter()
        await self.ws.send(payload)
        try:
            async with asyncio.timeout(timeout):
                return sent, await future
        except TimeoutError:
            raise TimeoutError(f"match {self.match_id}, seat {self.seat}: no answer to the "
                               f"action of move {move} within {timeout:g} s") from None

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 10)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader


@dataclass
class Sample:
    """One move: seconds from sending the action to its ``accepted``, to the other seat's
    view, and to the mover's own next view."""

    accepted: float
    other_view: float
    own_view: float


_ids = itertools.count(1)


def changed(view: Json | None, message: Json) -> Json:
    """The view a ``changes`` message makes of ``view``, as the web UI applies it."""
    assert view is not None, "a changes message came before any view"
    log = [*view["log"], *message["log"]][-UI_LOG:]
    return {**view, **message["changes"], "log": log}


class Pacer:
    """Moves at ``rate`` a second over all games, on a fixed schedule (see the module)."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self.start: float | None = None
        self.count = 0

    async def slot(self) -> None:
        """Wait for the next move's time on the schedule (at once if it has passed)."""
        loop = asyncio.get_running_loop()
        if self.start is None:
            self.start = loop.time()
        when = self.start + self.count * self.interval
        self.count += 1
        delay = when - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)


async def play(seats: Sequence[SeatSocket], moves: int, step_timeout: float,
               out: list[Sample], pacer: Pacer | None = None) -> None:
    """Play up to ``moves`` moves: the seat to move sends its view's first legal action (at
    its time on ``pacer``'s schedule, if given)."""
    move = seats[0].view["move"] if seats[0].view else 0
    for _ in range(moves):
        await asyncio.gather(*(s.wait_view(move, step_timeout) for s in seats))
        view = seats[0].view
        assert view is not None
        if view["to_move"] is None:
            return  # the game is over
        mover = seats[view["to_move"]]
        mine = mover.view
        assert mine is not None and mine["move"] == move and mine["your_turn"], mine
        action = mine["legal_actions"][0]["notation"]
        if pacer is not None:
            await pacer.slot()
        sent, accepted = await mover.act(action, move, next(_ids), step_timeout)
        others = [s for s in seats if s is not mover]
        pushed = [await s.wait_view(move + 1, step_timeout) - sent for s in others]
        own = await mover.wait_view(move + 1, step_timeout) - sent
        out.append(Sample(accepted - sent, max(pushed), own))
        move += 1


# --- one scenario: N games at once -------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """What to run, the same for every database and count of servers."""

    counts: Sequence[int]
    moves: int
    seed: int
    step_timeout: float
    timeout: float
    """Seconds for each group of scenarios (one database, one count of servers)."""
    compression: bool
    """Whether the client offers permessage-deflate (browsers do)."""
    changes: bool = False
    """Whether the sockets ask for ``changes`` (the web UI does)."""
    rate: float | None = None
    """Moves a second over all games (``None``: each game as fast as it can)."""


@dataclass(frozen=True)
class Group:
    """The servers of one group of scenarios: on one database, sharing Redis or not."""

    servers: Sequence[Server]
    db: Database
    redis: RedisScope | None
    deadline: float
    """``time.monotonic()`` by which the group's scenarios stop."""

    def sched(self) -> tuple[list[Sched], Sched]:
        """Each server's CPU and run-queue wait so far (with its children), and their event
        loop threads' together."""
        each, loop = [], Sched()
        for server in self.servers:
            total, main = server.sched()
            each.append(total)
            loop += main
        return each, loop

    def server_for(self, match: int, seat: int) -> Server:
        """Where match number ``match`` is created (``seat`` -1) or a seat connects: as a load
        balancer spreads them, its seats on different servers when there are several."""
        return self.servers[(match + max(0, seat)) % len(self.servers)]


@dataclass
class Result:
    database: str
    servers: int
    redis: str | None
    """The Redis the servers shared (``None``: none)."""
    games: int
    moves_per_game: int
    samples: list[Sample]
    wall_s: float
    server: Sched
    """All the servers' together."""
    per_server: list[Sched]
    loop: Sched
    backends: Sched | None
    backends_opened: int
    redis_used: RedisFigures | None
    redis_keys: int | None
    """Keys the servers held in Redis (under the group's prefix) when the moves ended."""
    client_cpu_s: float
    load: float
    """The machine's 1-minute load average when the moves started."""
    create_s: list[float]
    hello_s: list[float]
    view_bytes: list[int]
    views: int
    failures: list[str]
    refusals: list[Json]


async def _bounded(limit: int, jobs: Sequence[Any]) -> list[Any]:
    gate = asyncio.Semaphore(limit)

    async def run(job: Any) -> Any:
        async with gate:
            return await job

    return list(await asyncio.gather(*(run(j) for j in jobs)))


async def create_match(http: httpx.AsyncClient, seed: int) -> tuple[float, Json]:
    body = {"game": "triominoes", "mode": "hotseat", "seed": seed,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]}
    t0 = time.perf_counter()
    answer = await http.post("/api/matches", json=body)
    elapsed = time.perf_counter() - t0
    if answer.status_code != 201:
        raise RuntimeError(f"POST /api/matches: {answer.status_code} {answer.text}")
    created: Json = answer.json()
    return elapsed, created


@contextlib.asynccontextmanager
async def opened_games(group: Group, games: int, seed: int,
                       plan: Plan) -> AsyncIterator[tuple[list[list[SeatSocket]], list[float]]]:
    """Create ``games`` matches and open every seat's websocket, spread over the group's
    servers (:meth:`Group.server_for`); close them at the end."""
    tables: list[list[SeatSocket]] = []
    try:
        async with contextlib.AsyncExitStack() as stack:
            clients = {server.base: await stack.enter_async_context(
                httpx.AsyncClient(base_url=server.base, timeout=plan.step_timeout))
                for server in group.servers}
            made = await _bounded(16, [
                create_match(clients[group.server_for(i, -1).base], seed + i)
                for i in range(games)])
        for _, created in made:
            tables.append([SeatSocket(created["match_id"], s["seat"], s["token"])
                           for s in created["seats"]])
        await _bounded(32, [s.open(group.server_for(i, s.seat).ws_base, plan.step_timeout,
                                   plan.compression, plan.changes)
                            for i, t in enumerate(tables) for s in t])
        yield tables, [elapsed for elapsed, _ in made]
    finally:
        await asyncio.gather(*(s.close() for t in tables for s in t))


async def scenario(group: Group, games: int, seed: int, plan: Plan) -> Result:
    """``games`` games at once, ``plan.moves`` moves each."""
    db, redis_scope = group.db, group.redis
    async with opened_games(group, games, seed, plan) as (tables, create_s):
        await asyncio.sleep(0.5)  # let the presence views of the last connections settle
        seats = [s for t in tables for s in t]
        views0 = sum(len(s.view_bytes) for s in seats)
        per_game: list[list[Sample]] = [[] for _ in tables]
        load = os.getloadavg()[0]
        with db.monitor() as backends:
            redis0 = None if redis_scope is None else redis_scope.figures()
            (each0, loop0), use0 = group.sched(), resource.getrusage(resource.RUSAGE_SELF)
            t0 = time.perf_counter()
            remaining = max(1.0, group.deadline - time.monotonic())
            try:
                async with asyncio.timeout(remaining):
                    pacer = None if plan.rate is None else Pacer(plan.rate)
                    outcomes = await asyncio.gather(
                        *(play(t, plan.moves, plan.step_timeout, out, pacer)
                          for t, out in zip(tables, per_game, strict=True)),
                        return_exceptions=True)
            except TimeoutError:
                outcomes = [TimeoutError(f"--timeout reached after {remaining:.0f} s")]
            wall = time.perf_counter() - t0
            (each1, loop1), use1 = group.sched(), resource.getrusage(resource.RUSAGE_SELF)
            redis1 = None if redis_scope is None else redis_scope.figures()
        failures = [f"{type(o).__name__}: {o}" for o in outcomes if isinstance(o, BaseException)]
        if backends is not None and backends.error is not None:
            failures.append(f"PostgreSQL CPU not measured: {backends.error}")
        per_server = [after - before for before, after in zip(each0, each1, strict=True)]
        return Result(
            database=db.label, servers=len(group.servers),
            redis=None if redis_scope is None else redis_scope.label, games=games,
            moves_per_game=plan.moves, samples=[s for out in per_game for s in out],
            wall_s=wall, server=sum(per_server, Sched()), per_server=per_server,
            loop=loop1 - loop0, backends=None if backends is None else backends.used,
            backends_opened=0 if backends is None else backends.opened,
            redis_used=None if redis0 is None or redis1 is None else redis1 - redis0,
            redis_keys=None if redis_scope is None else redis_scope.keys(),
            client_cpu_s=(use1.ru_utime + use1.ru_stime) - (use0.ru_utime + use0.ru_stime),
            load=load, create_s=create_s, hello_s=[s.hello_s for s in seats],
            view_bytes=[b for s in seats for b in s.view_bytes],
            views=sum(len(s.view_bytes) for s in seats) - views0, failures=failures,
            refusals=[e for s in seats for e in s.errors],
        )


def stop_all(servers: Sequence[Server]) -> None:
    """Stop every server: all interrupted at once, then each waited for."""
    for server in servers:
        with contextlib.suppress(OSError):
            server.interrupt()
    for server in servers:
        server.stop()


async def run_group(spec: str, count: int, redis_url: str | None, plan: Plan,
                    tmp: Path) -> tuple[list[Result], list[str]]:
    """Start ``count`` servers on a database of their own (sharing Redis if ``redis_url``),
    warm them up, run every scenario; the problems in their logs. Everything is cleaned up
    however this ends: the servers stopped, then the schema dropped and the Redis keys
    deleted."""
    deadline = time.monotonic() + plan.timeout
    servers: list[Server] = []
    with contextlib.ExitStack() as cleanup:
        db = Database.make(spec, tmp)
        cleanup.callback(db.drop)
        redis_scope = None
        if redis_url is not None:
            redis_scope = RedisScope.make(redis_url)
            cleanup.callback(redis_scope.remove)
        cleanup.callback(stop_all, servers)
        tag = uuid.uuid4().hex[:6]
        for k in range(count):
            servers.append(Server(db.url, tmp / f"server-{tag}-{k + 1}-of-{count}.log",
                                  redis=redis_scope))
        for server in servers:
            server.wait_ready(60)
        group = Group(servers, db, redis_scope, deadline)
        name = f"{db.label}, {count} server{'s' if count > 1 else ''}" + (
            "" if redis_scope is None else f", {redis_scope.label} (prefix {redis_scope.prefix})")
        async with opened_games(group, count, plan.seed + 10_000, plan) as (warm, _):
            await asyncio.gather(*(play(t, 10, plan.step_timeout, []) for t in warm))
        results = []
        for i, games in enumerate(plan.counts):
            if time.monotonic() >= deadline:
                break
            result = await scenario(group, games, plan.seed + 1000 * (i + 1), plan)
            results.append(result)
            print(f"  {name}: {summary(result)}", file=sys.stderr)
        problems = [f"[server {k + 1}] {line}" if count > 1 else line
                    for k, server in enumerate(servers)
                    for line in server.log_text().splitlines()
                    if any(w in line for w in ("ERROR", "Traceback", "WARNING", "Exception"))]
        return results, problems
    raise AssertionError("unreachable")  # mypy: the ExitStack might swallow an exception


# --- figures and the table ---------------------------------------------------------------------
def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank percentile (``p`` from 0 to 100).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([1.0, 2.0, 3.0, 4.0], 99)
    (2.0, 4.0)
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def ms(values: Sequence[float]) -> str:
    return " / ".join(f"{percentile(values, p) * 1000:.1f}" for p in (50, 95, 99))


def summary(r: Result) -> str:
    return (f"{plural(r.games, 'game')}, {len(r.samples)} moves in {r.wall_s:.1f} s; accepted "
            f"{ms([s.accepted for s in r.samples])} ms, view push "
            f"{ms([s.other_view for s in r.samples])} ms; server CPU "
            f"{share(r.server.cpu, r.wall_s)}, waited {r.server.wait:.2f} s; "
            f"{len(r.failures)} failures")


def share(seconds: float, wall: float) -> str:
    return f"{seconds:.2f} s ({100 * seconds / wall:.0f} %)" if wall > 0 else "n/a"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def table(results: Sequence[Result], command: str, load: tuple[float, float, float],
          plan: Plan) -> str:
    when = datetime.datetime.now().astimezone().strftime("%Y-%m-%d")
    deflate = ("offers permessage-deflate, as browsers do" if plan.compression
               else "does not offer permessage-deflate")
    asks = ("asks for `changes` after the first view, as the web UI does" if plan.changes
            else "asks for whole views")
    loops = [name for name in ("uvloop", "httptools") if importlib.util.find_spec(name)]
    installed = (f"{' and '.join(loops)} installed (uvicorn uses them)" if loops
                 else "no uvloop or httptools installed")
    pacing = ("the seat to move sends the first legal action of its view and waits for the "
              "move's `accepted` and both seats' new views before the next move" if plan.rate
              is None else
              f"the moves are paced: {plan.rate:g} a second over all games together, on a "
              "fixed schedule (a move whose time has passed goes at once), each after the "
              "previous move's `accepted` and both seats' new views")
    several = any(r.servers > 1 for r in results)
    with_redis = any(r.redis is not None for r in results)
    lines = [
        f"Measured by `{command}` on {when}: {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores; the "
        f"servers (each a uvicorn process of its own, `log_level=warning`, {installed}; "
        "*servers*: how many, on one database) and the load generator "
        f"(one asyncio process, `websockets`; it {deflate} and {asks}) on the same machine, over "
        "loopback. **The machine was shared**: other work was running (load average "
        f"{load[0]:.1f} on {os.cpu_count()} cores when the run started), so these figures are "
        "pessimistic and vary from run to run.",
        "",
        "Each game is Tri-ominoes between two human seats (hot-seat mode, no computer player); "
        f"{pacing}. *accepted*: from sending "
        "the `action` to receiving its `accepted` (stored in the database by then). *view "
        "push*: from sending the `action` to the other seat receiving the view that shows it. "
        "Milliseconds, median / p95 / p99. *server CPU*: CPU time of the server processes "
        "(all their threads, all the servers together) during the moves, and as a share of one "
        "core (200 % is both cores); *per move*: that time divided by the moves, less "
        "disturbed by the machine's other work than the times are (though not immune to it). "
        "*run-queue wait*: time the servers' threads (summed) were ready to run but had no "
        "core. *machine load*: the 1-minute load average as the moves started.",
    ]
    if several:
        lines += [
            "",
            "With several servers the load is spread as a load balancer would: match *i* is "
            "created through server *i* mod N, its seat 0 connects to that server and its "
            "seat 1 to the next, so every move crosses processes: the mover's `accepted` comes "
            "from its own server, the other seat's view push from the other server, which "
            "hears of the move through Redis.",
        ]
    if with_redis:
        lines += [
            "",
            "*redis*: the Redis the servers share (`TRIVERSE_REDIS_URL`, on the same machine; "
            "keys and channels under a prefix of the run's own); *no*: a server on its own, "
            "without Redis.",
        ]
    head = ["database", "servers", *(["redis"] if with_redis else []), "games at once",
            "moves", "accepted, ms", "view push, ms", "moves/s", "server CPU",
            "server CPU per move", "server run-queue wait", "load generator CPU",
            "machine load"]
    lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in results:
        per_move = 1000 * r.server.cpu / max(1, len(r.samples))
        cells = [r.database, str(r.servers), *([r.redis or "no"] if with_redis else []),
                 str(r.games), f"{len(r.samples):,}", ms([s.accepted for s in r.samples]),
                 ms([s.other_view for s in r.samples]),
                 f"{len(r.samples) / r.wall_s:,.0f}" if r.wall_s > 0 else "n/a",
                 share(r.server.cpu, r.wall_s), f"{per_move:.1f} ms", f"{r.server.wait:.2f} s",
                 share(r.client_cpu_s, r.wall_s), f"{r.load:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Also measured (median / p95 / p99):", ""]
    lines += [f"- {extra(r)}" for r in results]
    return "\n".join(lines)


def extra(r: Result) -> str:
    """The figures of one scenario that the table has no column for."""
    moves = max(1, len(r.samples))
    name = f"{r.database}, {plural(r.servers, 'server')}" + (
        f" with {r.redis}" if r.redis is not None else "") + f", {plural(r.games, 'game')}"
    split = ("" if r.servers == 1 else
             " (" + " + ".join(f"{s.cpu:.2f}" for s in r.per_server) + " s by server)")
    pg = ("" if r.backends is None else
          f" PostgreSQL backends: CPU {share(r.backends.cpu, r.wall_s)}, "
          f"{r.backends_opened} new connections seen during the moves.")
    redis = ("" if r.redis_used is None else
             f" Redis (the whole server): CPU {share(r.redis_used.cpu, r.wall_s)}, "
             f"{1000 * r.redis_used.cpu / moves:.2f} ms and "
             f"{r.redis_used.commands / moves:.1f} commands per move; "
             f"{r.redis_keys} keys under the run's prefix at the end of the moves.")
    return (
        f"{name}: the servers' event loop threads used {share(r.loop.cpu, r.wall_s)} of the "
        f"server CPU{split}; creating a match (`POST /api/matches`, 16 at a time) "
        f"{ms(r.create_s)} ms; connecting a seat's websocket to its first view "
        f"{ms(r.hello_s)} ms; a view is {percentile(r.view_bytes, 50) / 1000:.1f} kB of JSON "
        f"(median); {r.views / moves:.2f} views received per move; failures: "
        f"{len(r.failures)}; `error` messages: {len(r.refusals)}.{pg}{redis}")


# --- main --------------------------------------------------------------------------------------
def counts_arg(text: str) -> list[int]:
    counts = [int(part) for part in text.split(",") if part.strip()]
    if not counts or not all(1 <= c <= MAX_GAMES for c in counts):
        raise argparse.ArgumentTypeError(f"game counts are from 1 to {MAX_GAMES}")
    return counts


def servers_arg(text: str) -> list[int]:
    """``--servers``: one count of server processes or several, comma-separated.

    >>> servers_arg("1,2")
    [1, 2]
    """
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        counts = []
    if not counts or not all(1 <= c <= MAX_SERVERS for c in counts):
        raise argparse.ArgumentTypeError(f"server counts are from 1 to {MAX_SERVERS}, "
                                         f"comma-separated, not {text!r}")
    return counts


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=counts_arg, default=[1, 100],
                        help="how many games at once, comma-separated (default 1,100)")
    parser.add_argument("--moves", type=int, default=30, help="moves per game (default 30)")
    parser.add_argument("--db", action="append",
                        help="'sqlite' (a temporary file; the default) or a postgresql:// URL; "
                        "repeatable")
    parser.add_argument("--servers", type=servers_arg, default=[1],
                        help="how many server processes on one database, comma-separated to "
                        "compare (default 1); more than one needs PostgreSQL and --redis")
    parser.add_argument("--redis", metavar="URL",
                        help="a redis:// URL: the servers share this Redis (each group of "
                        "scenarios with a key prefix of its own, its keys deleted at the end); "
                        "needs PostgreSQL")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game's deal")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds for each database and count of servers (default 600)")
    parser.add_argument("--step-timeout", type=float, default=60,
                        help="seconds to wait for any one answer (default 60)")
    parser.add_argument("--no-compression", action="store_true",
                        help="do not offer permessage-deflate (browsers offer it)")
    parser.add_argument("--changes", action="store_true",
                        help="ask for changes instead of whole views, as the web UI does")
    parser.add_argument("--rate", type=float, metavar="R",
                        help="start at most R moves a second over all games, on a fixed "
                        "schedule (default: every game as fast as it can)")
    parser.add_argument("--write", metavar="FILE", type=Path,
                        help="replace the ws block of FILE (docs/performance.md)")
    args = parser.parse_args(argv)
    if args.rate is not None and not args.rate > 0:
        parser.error("--rate is a positive number of moves a second")
    if not 1 <= args.moves <= MAX_MOVES:
        parser.error(f"--moves is from 1 to {MAX_MOVES}")
    args.db = args.db or ["sqlite"]
    several = max(args.servers) > 1
    if several and args.redis is None:
        parser.error(f"--servers {max(args.servers)}: several server processes share live "
                     "updates through Redis; give --redis redis://host:6379/0")
    if args.redis is not None and not args.redis.startswith(("redis://", "rediss://",
                                                             "unix://")):
        parser.error(f"--redis is a redis://, rediss:// or unix:// URL, not {args.redis!r}")
    sqlite = [spec for spec in args.db if not spec.startswith(("postgresql://", "postgres://"))]
    if sqlite and (several or args.redis is not None):
        why = (f"--servers {max(args.servers)}" if several else "--redis")
        parser.error(f"{why} needs PostgreSQL: several server processes share a PostgreSQL "
                     f"database (SQLite serves one process, and the server refuses Redis "
                     f"without PostgreSQL); give --db postgresql://..., not --db {sqlite[0]}")
    return args


def command_line(argv: Sequence[str]) -> str:
    return " ".join(["python benchmarks/ws_load.py", *argv])


def raise_open_files(games: int, servers: int) -> None:
    """Raise the open files limit to its hard limit (the servers inherit it): ``games`` games
    are twice as many websockets, in the benchmark and over its servers. Refuse a run that
    cannot have them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    needed = 2 * games + 64 * servers + 256  # sockets, and the servers' and libraries' own
    if soft != resource.RLIM_INFINITY and soft < needed:
        raise SystemExit(f"{games} games need about {needed} open files and the limit is "
                         f"{soft} (hard limit {hard}): raise it (ulimit -n) or play fewer")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    # The load generator's own garbage collector, tuned as the servers' are: its full
    # collections (100 ms and more with 1,000 sockets' views) would count as server latency.
    gc.set_threshold(*GC_THRESHOLDS)
    raise_open_files(max(args.games), max(args.servers))
    load = os.getloadavg()
    plan = Plan(args.games, args.moves, args.seed, args.step_timeout, args.timeout,
                not args.no_compression, args.changes, args.rate)
    results: list[Result] = []
    problems: dict[str, list[str]] = {}
    broken: list[str] = []
    with tempfile.TemporaryDirectory(prefix="triverse-ws-load-") as tmp:
        for spec, count in itertools.product(args.db, args.servers):
            name = f"{spec}, {plural(count, 'server')}"
            try:
                found, issues = asyncio.run(_stoppable(
                    run_group(spec, count, args.redis, plan, Path(tmp))))
            except (KeyboardInterrupt, asyncio.CancelledError):
                print("interrupted: the servers are stopped, their files, the schema and the "
                      "Redis keys removed", file=sys.stderr)
                return 130
            except (RuntimeError, OSError, TimeoutError, ServerRefused) as exc:
                # a group that could not start or warm up: the others still run
                broken.append(f"{name}: {type(exc).__name__}: {exc}")
                print(f"  {broken[-1]}", file=sys.stderr)
                continue
            results += found
            if issues:
                problems[name] = issues
    text = table(results, command_line(sys.argv[1:] if argv is None else argv), load, plan)
    print(text)
    for name, issues in problems.items():
        print(f"\nThe servers' logs on {name} have {len(issues)} warning/error lines; the "
              "first:", file=sys.stderr)
        for line in issues[:20]:
            print("  " + line, file=sys.stderr)
    for r in results:
        for failure in r.failures[:5]:
            print(f"{r.database}, {plural(r.servers, 'server')}, {r.games} games: {failure}",
                  file=sys.stderr)
        for refusal in r.refusals[:5]:
            print(f"{r.database}, {plural(r.servers, 'server')}, {r.games} games: error "
                  f"message {refusal}", file=sys.stderr)
    for line in broken:
        print(f"not measured: {line}", file=sys.stderr)
    if args.write:
        write_block(args.write, START, END, HEADING, text)
    complete = (all(not r.failures for r in results) and not broken
                and len(results) == len(args.db) * len(args.servers) * len(args.games))
    return 0 if complete else 1


async def _stoppable(job: Coroutine[Any, Any, T]) -> T:
    """Run ``job``; SIGTERM cancels it like Ctrl-C does, so that its cleanup runs."""
    loop = asyncio.get_running_loop()
    task = loop.create_task(job)
    loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        return await task
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


if __name__ == "__main__":
    sys.exit(main())
