"""``parlour serve``: run the web app with uvicorn and log the address it listens on."""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import ipaddress
import logging
import os
import resource
import signal
import socket
from typing import Final
from urllib.parse import urlsplit

import click

GC_THRESHOLD: Final = (50_000, 20, 100)
"""Allocations before a young collection, and how many of each generation before the next one
(Python's defaults are 700, 10, 10); measured with ``benchmarks/tables.py``."""

log = logging.getLogger("parlour.server")


def bind(host: str, port: int) -> socket.socket:
    """Return a listening socket on ``host:port`` (port 0 picks a free port).

    Binding before uvicorn starts lets the one log line give the real address.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        raise click.ClickException(f"cannot listen on {host}:{port}: {error.strerror}") from error
    listener.listen(2048)
    listener.set_inheritable(True)
    return listener


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port.")
@click.option(
    "--database-url",
    envvar="PARLOUR_DATABASE_URL",
    show_envvar=True,
    default=None,
    help="SQLAlchemy URL of the database [default: an SQLite file in your data directory].",
)
@click.option(
    "--redis-url",
    envvar="PARLOUR_REDIS_URL",
    show_envvar=True,
    default=None,
    help="redis://… URL: serve friends' tables together with every other process using the same Redis "
    "and database (see docs/tables.md).",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default="info",
    show_default=True,
    envvar="PARLOUR_LOG_LEVEL",
    show_envvar=True,
    help="Least important log lines shown (info: one line a request and a socket session).",
)
@click.option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    envvar="PARLOUR_LOG_FORMAT",
    show_envvar=True,
    help="Log lines as text, or as one JSON object a line (for a log collector).",
)
@click.option(
    "--metrics-port",
    type=click.IntRange(1, 65535),
    default=None,
    envvar="PARLOUR_METRICS_PORT",
    show_envvar=True,
    help="Serve Prometheus metrics at /metrics on this port [default: none].",
)
@click.option(
    "--metrics-host",
    default="127.0.0.1",
    show_default=True,
    envvar="PARLOUR_METRICS_HOST",
    show_envvar=True,
    help="Address the metrics port listens on: keep it off the internet.",
)
@click.option(
    "--forwarded-allow-ips",
    default="127.0.0.1",
    show_default=True,
    envvar="PARLOUR_FORWARDED_ALLOW_IPS",
    show_envvar=True,
    help="Load balancers whose X-Forwarded-For and X-Forwarded-Proto are believed (comma-separated "
    "addresses or networks; '*' for any): the client's address is what rate limits count.",
)
@click.option(
    "--api-docs/--no-api-docs",
    default=False,
    envvar="PARLOUR_API_DOCS",
    show_envvar=True,
    help="Serve the API's OpenAPI description at /openapi.json [default: not public].",
)
@click.option(
    "--public-url",
    envvar="PARLOUR_PUBLIC_URL",
    show_envvar=True,
    default=None,
    callback=lambda _ctx, _param, value: check_public_url(value),
    help="The site's address as players reach it, such as https://cards.example: passkeys are bound to "
    "its host (they need HTTPS, except on localhost) [default: passkeys only on http://localhost].",
)
def serve(
    host: str,
    port: int,
    database_url: str | None,
    redis_url: str | None,
    log_level: str,
    log_format: str,
    metrics_port: int | None,
    metrics_host: str,
    forwarded_allow_ips: str,
    api_docs: bool,
    public_url: str | None,
) -> None:
    """Start the Parlour web app; open the address it prints in a browser."""
    import uvicorn

    from parlour.server.app import create_app
    from parlour.server.drain import CLOSE_SECONDS, DrainingServer
    from parlour.server.edge.guarded_http import GuardedHttp
    from parlour.server.edge.limits import RateLimits, limits_from_text
    from parlour.server.edge.logs import configure
    from parlour.store import Store, StoreUnavailable

    def open_store(url: str | None) -> Store:
        """The store, migrated: a database that cannot be reached is one clear line and exit 1."""
        try:
            opened = Store(url)
            opened.upgrade()
        except StoreUnavailable as error:
            raise click.ClickException(f"the database is not available: {error}") from error
        except ValueError as error:  # a malformed URL (SQLAlchemy's ArgumentError)
            raise click.ClickException(f"the database is not available: {error}") from error
        return opened

    # A crash Python cannot catch (SIGBUS from a memory-mapped file, SIGSEGV) still leaves the stacks of
    # every thread in the log before the process dies.
    with contextlib.suppress(ValueError, OSError):  # a stderr that is no file (a test's) has no stacks
        faulthandler.enable()
    configure(log_level, log_format)
    store = open_store(database_url)  # before listening: a missing database is one line, no socket left
    if redis_url is not None:
        check_redis(redis_url)
    listener = bind(host, port)
    try:  # an operator may loosen or tighten the limits (a load test from one address needs more)
        limits = RateLimits(limits_from_text(os.environ.get("PARLOUR_RATE_LIMITS")), redis_url=redis_url)
    except ValueError as error:
        raise click.ClickException(f"PARLOUR_RATE_LIMITS: {error}") from error
    app = create_app(store, redis_url=redis_url, limits=limits, api_docs=api_docs, public_url=public_url)
    stop_metrics = None
    if metrics_port is not None:
        try:
            stop_metrics = app.state.parlour.metrics.serve(metrics_port, metrics_host)
        except OSError as error:
            listener.close()
            raise click.ClickException(
                f"cannot serve metrics on {metrics_host}:{metrics_port}: {error.strerror}"
            ) from error
    address, bound_port = listener.getsockname()[:2]
    shown = f"[{address}]" if ":" in address else address
    # No per-message compression: a game's messages are a few kilobytes of JSON, and deflating each one
    # for every page cost about a tenth of the server's time under load (and a compressor's memory
    # per connection) to save little on the wire.
    config = uvicorn.Config(
        app,
        http=GuardedHttp,  # bounded heads, a deadline for them, connections per address capped
        log_config=None,  # the logging set up above is kept
        access_log=False,  # parlour.access logs each request and socket session instead
        ws_max_size=65536,
        ws_ping_interval=20,
        ws_per_message_deflate=False,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
        timeout_graceful_shutdown=CLOSE_SECONDS,
        server_header=False,  # no "Server: uvicorn": what runs behind the pages is nobody else's business
    )
    tune_collector()
    raise_open_files()
    # uvicorn stops on Ctrl+C and then raises it again for whoever called it: a stop asked for, from the
    # moment the address is shown, is a clean exit (status 0), not click's "Aborted!".
    with contextlib.suppress(KeyboardInterrupt):
        # SIGTERM drains first: tables handed over, writes finished (parlour.server.drain). A SIGTERM
        # that comes before uvicorn listens for it (it takes the signal over when it starts) is a stop
        # asked for all the same.
        server = DrainingServer(config, app.state.parlour)
        signal.signal(signal.SIGTERM, lambda *_: setattr(server, "should_exit", True))
        started = logging.getLogger("parlour.server.start")
        started.info("Parlour is running on http://%s:%d (press Ctrl+C to stop)", shown, bound_port)
        if metrics_port is not None:
            started.info("Metrics at http://%s:%d/metrics", metrics_host, metrics_port)
        try:
            server.run(sockets=[listener])
        finally:
            if stop_metrics is not None:
                stop_metrics()


def check_public_url(value: str | None) -> str | None:
    """Return ``--public-url`` without its trailing slash.

    Raises:
        click.BadParameter: not an http(s) address of a named host (an IP address cannot hold
            passkeys), or one with a path, query or fragment.
    """
    if value is None or not value.strip():
        return None
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise click.BadParameter(f"{value!r} is not an http:// or https:// address")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise click.BadParameter(f"{value!r}: give the site's address alone, without a path")
    try:
        ipaddress.ip_address(parts.hostname)
    except ValueError:
        pass
    else:
        raise click.BadParameter(f"{value!r}: passkeys need a host name, not an IP address")
    if parts.scheme == "http" and parts.hostname != "localhost" and not parts.hostname.endswith(".localhost"):
        raise click.BadParameter(f"{value!r}: browsers allow passkeys only over https:// (or on localhost)")
    return f"{parts.scheme}://{parts.netloc}"


def tune_collector() -> None:
    """Set the garbage collector up for a long-running server: young objects are collected less often.

    A server makes many short-lived messages; with Python's defaults a loaded server made hundreds of
    young collections a minute, and the full ones that followed paused it for more than 100 ms at a
    time. (What start-up loaded is frozen out of the collector's sight by the app itself.)
    """
    gc.set_threshold(*GC_THRESHOLD)


def raise_open_files() -> None:
    """Raise this process's open-files limit to its hard limit: every page's socket is a file, and the
    usual soft limit of 1,024 is a few hundred players (the image and docs/deploy.md raise the hard one)."""
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or hard > soft:
            wanted = 1_048_576 if hard == resource.RLIM_INFINITY else hard
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def check_redis(url: str) -> None:
    """Make sure Redis answers at ``url`` before the server starts.

    Raises:
        click.ClickException: it does not (one line, exit status 1).
    """
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        client = Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except (RedisError, ValueError) as error:
        raise click.ClickException(f"Redis is not available at {url}: {error}") from error
