"""The server's Prometheus metrics, served at ``/metrics``.

Each application has a :class:`ServerMetrics` of its own, with a registry of its own (never
``prometheus_client``'s global one), so that several applications in one process (tests) keep
their counts apart. What it counts:

- ``triverse_moves_total{game, player}``: moves stored by this process (``player``: ``human``,
  ``computer`` or ``timeout``; see :func:`triverse.server.logs.log_move`);
- ``triverse_move_seconds{game}``: a histogram of the server's handling time of a person's
  action, from the moment the service takes it (before the match's lock) until it is stored,
  applied and announced;
- ``triverse_errors_total{code, via}``: error answers by their protocol code, over ``http``
  or the ``websocket``;
- at each scrape, from the service's own state (:class:`ServiceGauges`):
  ``triverse_websockets_open``, ``triverse_live_matches`` (matches replayed in memory),
  ``triverse_computer_queue`` (matches with a computer to move, what ``computer_queue``
  caps) and ``triverse_worker_jobs{state}`` (jobs ``running`` in the worker pool and
  ``waiting`` for a worker);
- the process's CPU, memory and open files (``process_*``) and Python's version
  (``python_info``).

Recording a move is one call, :meth:`ServerMetrics.moved`, which also logs the move's event.

>>> metrics = ServerMetrics()
>>> metrics.error("stale_move", "websocket")
>>> b'triverse_errors_total{code="stale_move",via="websocket"} 1.0' in metrics.scrape()[0]
True
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.responses import Response
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from triverse.server.live import LiveMatch
from triverse.server.logs import log_move

if TYPE_CHECKING:
    from triverse.server.service import MatchService

LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
"""The move latency histogram's buckets, in seconds: the targets are a millisecond of server
time a move and 50 ms for its acknowledgement (issue 22)."""

METRICS_PATH = "/metrics"


class ServerMetrics:
    """The counters of one application (see the module), in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.moves = Counter("triverse_moves", "Moves stored by this process.",
                             ("game", "player"), registry=self.registry)
        self.latency = Histogram(
            "triverse_move_seconds",
            "The server's handling time of a person's action, from its arrival at the "
            "service until it is stored, applied and announced.",
            ("game",), buckets=LATENCY_BUCKETS, registry=self.registry)
        self.errors = Counter("triverse_errors", "Error answers, by protocol code.",
                              ("code", "via"), registry=self.registry)
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)

    @staticmethod
    def start() -> float:
        """The moment a move's handling starts (pass it to :meth:`moved`)."""
        return time.perf_counter()

    def moved(self, live: LiveMatch, number: int, seat: int, player: str,
              started: float) -> None:
        """Count move ``number`` of ``live``, made by ``seat`` (``player``: ``human``,
        ``computer`` or ``timeout``), handled since ``started`` (:meth:`start`); a person's
        action goes into the latency histogram. Logs the move's event too."""
        seconds = time.perf_counter() - started
        self.moves.labels(live.game_name, player).inc()
        if player == "human":
            self.latency.labels(live.game_name).observe(seconds)
        log_move(live.id, live.game_name, number, seat, player, seconds)

    def error(self, code: str, via: str) -> None:
        """Count an error answer with the protocol's ``code``, sent over ``via`` (``http`` or
        ``websocket``)."""
        self.errors.labels(code, via).inc()

    def watch(self, service: MatchService) -> None:
        """Report the service's sockets, matches in memory and queues at each scrape."""
        self.registry.register(ServiceGauges(service))

    def scrape(self, accept: str | None = None) -> tuple[bytes, str]:
        """The metrics in the format the ``Accept`` header asks for (Prometheus' text format,
        or OpenMetrics), and its content type."""
        encoder, content_type = choose_encoder(accept or "")
        return encoder(self.registry), content_type


class ServiceGauges(Collector):
    """Gauges read from the service at each scrape: nothing to keep up to date."""

    def __init__(self, service: MatchService) -> None:
        self.service = service

    def collect(self) -> Iterable[Metric]:
        service = self.service
        yield GaugeMetricFamily("triverse_websockets_open", "Match websockets open.",
                                value=sum(service.quotas.sockets.matches.values()))
        yield GaugeMetricFamily("triverse_live_matches", "Matches replayed in memory.",
                                value=len(service.matches.cache))
        yield GaugeMetricFamily("triverse_computer_queue",
                                "Matches with a computer player to move (waiting or thinking).",
                                value=service.computers.count())
        jobs = GaugeMetricFamily("triverse_worker_jobs",
                                 "Jobs (computer moves, hints, reviews) in the worker pool.",
                                 labels=("state",))
        queue = service.bots.queue
        jobs.add_metric(("running",), len(queue.running))
        jobs.add_metric(("waiting",), len(queue.waiting))
        yield jobs


def install_metrics(app: FastAPI, metrics: ServerMetrics) -> None:
    """Serve ``metrics`` at ``GET /metrics`` (not in the API's schema: it is for Prometheus,
    not for the web client)."""

    @app.get(METRICS_PATH, include_in_schema=False)
    async def metrics_page(request: Request) -> Response:
        body, content_type = metrics.scrape(request.headers.get("accept"))
        return Response(body, media_type=content_type, headers={"Cache-Control": "no-store"})
