"""What an operator's Prometheus scrapes: one registry of metrics per server (``parlour serve
--metrics-port``), served on a port of its own that is bound to loopback unless the operator says
otherwise, so the internet never reaches it through the load balancer.

Routes are counted by their template (``/{game}/t/{code}``), never by the path a client sent: a path
can carry a table's code, and a label per path would grow without bound.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Final

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    start_http_server,
)

LATENCY_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds: from a millisecond (an action without a write) to the database's own deadline and beyond."""


class Metrics:
    """The metrics of one server process, in a registry of their own (a test process makes many apps)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        # The standard series every Prometheus user looks for (process_cpu_seconds_total,
        # process_resident_memory_bytes, python_gc_collections_total, python_info), beside Parlour's own.
        for standard in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
            r.register(standard)
        self.requests = Counter(
            "parlour_http_requests", "HTTP requests answered", ["route", "method", "status"], registry=r
        )
        self.request_seconds = Histogram(
            "parlour_http_request_duration_seconds", "Time to answer an HTTP request", ["route"],
            buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.sockets = Counter(
            "parlour_websocket_sessions", "WebSocket sessions ended, by route and close code",
            ["route", "close"], registry=r,
        )  # fmt: skip
        self.sockets_open = Gauge("parlour_websockets_open", "WebSockets open now", ["route"], registry=r)
        self.action_seconds = Histogram(
            "parlour_action_duration_seconds",
            "From a page's action reaching its game's owner to its answer (recorded before it is sent)",
            ["game"], buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.write_seconds = Histogram(
            "parlour_database_write_duration_seconds", "One store call that writes, queueing included",
            buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.write_failures = Counter(
            "parlour_database_write_failures", "Store writes that failed (before any retry)", registry=r
        )
        self.leases = Counter(
            "parlour_table_lease_renewals",
            "Friends' table lease renewals: renewed, taken_back, lost (another process holds it), failed",
            ["result"], registry=r,
        )  # fmt: skip
        self.relay_lag = Histogram(
            "parlour_relay_lag_seconds", "From a relayed page's message leaving its process to the owner",
            buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.play_now = Counter(
            "parlour_play_now", "People seated by Play now: at a table in play (joined) or a new one (new)",
            ["game", "table"], registry=r,
        )  # fmt: skip
        self.live_games = Gauge("parlour_live_games", "Single-player games held in memory", registry=r)
        self.tables_owned = Gauge("parlour_tables_owned", "Friends' tables this process owns", registry=r)
        self.draining = Gauge("parlour_draining", "1 while the process is draining (SIGTERM)", registry=r)

    def watch(self, live_games: Callable[[], float], tables_owned: Callable[[], float]) -> None:
        """Read the sizes of the live games and owned tables at each scrape."""
        self.live_games.set_function(live_games)
        self.tables_owned.set_function(tables_owned)

    def seated(self, game: str, *, new_table: bool) -> None:
        """Count one person seated by Play now."""
        self.play_now.labels(game, "new" if new_table else "joined").inc()

    @contextlib.contextmanager
    def timed_action(self, game: str) -> Iterator[None]:
        """Time one action of a page (the ``with`` block) into :attr:`action_seconds`."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.action_seconds.labels(game).observe(time.perf_counter() - started)

    def serve(self, port: int, host: str = "127.0.0.1") -> Callable[[], None]:
        """Serve ``/metrics`` on ``host:port`` from a thread of its own; return what stops it.

        Raises:
            OSError: the port cannot be bound.
        """
        server, thread = start_http_server(port, host, registry=self.registry)

        def stop() -> None:
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)

        return stop
