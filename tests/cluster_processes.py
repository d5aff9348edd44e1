"""Real ``parlour serve`` processes sharing one PostgreSQL schema and one Redis, for the tests of
several processes (``tests/server/test_cluster.py``, ``tests/browser/test_tables_cluster.py``).

Load it by path (``load_helpers``): the test folders have conftest modules of the same name.
"""

from __future__ import annotations

import collections
import contextlib
import importlib.util
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

REDIS = os.environ.get("PARLOUR_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PARLOUR = str(Path(sys.executable).with_name("parlour"))
TESTS = Path(__file__).resolve().parent


def load_helpers(name: str, path: Path) -> Any:
    """Load a helper module of the tests by its path, under a name of its own."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_store = load_helpers("parlour_store_test_fixtures", TESTS / "store" / "conftest.py")
postgres_url = _store.postgres_url
require_postgres = _store.require_postgres


def require_redis() -> None:
    """Skip (fail on CI) when the machine's Redis does not answer."""
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        with Redis.from_url(REDIS, socket_connect_timeout=2) as client:
            client.ping()
    except RedisError as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"Redis at {REDIS} unreachable: {error}")
        pytest.skip(f"Redis at {REDIS} unreachable: {error}")


def forget_rate_limits(url: str) -> None:
    """Drop the rate limits' counters from the Redis at ``url``. They are kept by player id, and every
    fresh database starts its players at 1: without this, runs of the suite within an hour add up in the
    machine's Redis until a test's first table is refused (only counters go, so a test running beside
    this one meanwhile gets looser limits, never a refusal)."""
    from redis import Redis
    from redis.exceptions import RedisError

    with contextlib.suppress(RedisError), Redis.from_url(url, socket_connect_timeout=2) as client:
        keys = list(client.scan_iter(match="parlour:limits*", count=1000))
        if keys:
            client.delete(*keys)


class Server:
    """One ``parlour serve`` process on a free port."""

    def __init__(
        self,
        database: str,
        env: dict[str, str] | None = None,
        redis: str | None = REDIS,
        extra: Sequence[str] = (),
    ) -> None:
        command = [PARLOUR, "serve", "--port", "0", "--database-url", database, *extra]
        if redis is not None:
            command += ["--redis-url", redis]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **(env or {})},
        )  # fmt: skip
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        assert found, line
        self.url = f"http://127.0.0.1:{found.group(1)}"
        self.ws = self.url.replace("http://", "ws://")
        # The server's log is read as it comes: a pipe nobody reads fills up, and the server then blocks
        # on its next log line. The newest lines are kept (its start line first) for a test to read.
        self.log: collections.deque[str] = collections.deque([line.rstrip("\n")], maxlen=400)
        self._reader = threading.Thread(target=self._read_log, daemon=True)
        self._reader.start()

    def _read_log(self) -> None:
        assert self.process.stdout is not None
        with contextlib.suppress(ValueError, OSError):  # the pipe is closed when the server stops
            for line in self.process.stdout:
                self.log.append(line.rstrip("\n"))

    def log_tail(self, lines: int = 60) -> str:
        """The newest lines the server logged."""
        return "\n".join(list(self.log)[-lines:])

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._reader.join(timeout=5)
        if self.process.stdout is not None:
            self.process.stdout.close()


def player_cookie(server: Server) -> tuple[Any, str]:
    """Make a player on ``server``; return its HTTP client (an ``httpx.Client``, closed by the caller)
    and the cookie its pages send."""
    import httpx

    client = httpx.Client(base_url=server.url, timeout=10)
    client.post("/api/player")
    return client, f"parlour_token={client.cookies['parlour_token']}"


class TablePage:
    """One person's page at a friends' table, over a real socket to one server process: it says hello
    (with its seat token, if any) and waits for its state; it keeps every frame it was sent and its
    latest view; an action waits for its ack or error. Every wait has a deadline. Its sockets close
    with ``stack``."""

    def __init__(
        self,
        stack: contextlib.ExitStack,
        server: Server,
        table_id: str,
        cookie: str,
        token: str | None = None,
    ) -> None:
        self.stack, self.table_id, self.cookie, self.token = stack, table_id, cookie, token
        self.view: dict[str, Any] = {}
        self.frames: list[str] = []
        self.ref = 0
        self.open(server)

    def open(self, server: Server) -> None:
        """Connect (again) to ``server`` and wait for the table's state."""
        from websockets.sync.client import connect

        self.server = server
        link = f"{server.ws}/ws/table/{self.table_id}"
        self.socket = self.stack.enter_context(
            connect(link, additional_headers={"Cookie": self.cookie}, open_timeout=10)
        )
        self.socket.send(json.dumps({"type": "hello", "v": None, "seat_token": self.token}))
        self.wait(lambda m: m["type"] == "state")

    def receive(self, timeout: float = 15) -> dict[str, Any]:
        """Return the next message (within ``timeout`` seconds), keeping its frame and its view."""
        text = str(self.socket.recv(timeout=timeout))
        self.frames.append(text)
        message: dict[str, Any] = json.loads(text)
        if message.get("view"):
            self.view = message["view"]
        return message

    def wait(self, found: Callable[[dict[str, Any]], bool], timeout: float = 15) -> dict[str, Any]:
        """Return the first message ``found`` accepts, within ``timeout`` seconds in all."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.1, deadline - time.monotonic()))
            if found(message):
                return message

    def act(self, **action: Any) -> dict[str, Any]:
        """Send one action and return its ack or error."""
        self.ref += 1
        self.socket.send(json.dumps({"type": "action", "action": action, "ref": self.ref}))
        return self.wait(lambda m: m["type"] in ("ack", "error") and m.get("ref") == self.ref)


class PrivateRedis:
    """A Redis server of the test's own on a free port (keeping nothing on disk), which the test may
    stop and start again to cut the servers off from it: never the machine's own Redis."""

    def __init__(self) -> None:
        import shutil
        import socket

        self.binary = shutil.which("redis-server")
        if self.binary is None:
            pytest.fail("redis-server is not installed (scripts/system-deps.sh installs it)")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        """Start (or start again) the server on its port, and wait until it answers."""
        import time

        from redis import Redis
        from redis.exceptions import RedisError

        assert self.binary is not None
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with Redis.from_url(self.url, socket_connect_timeout=0.5) as client:
                    client.ping()
                return
            except RedisError:
                assert time.monotonic() < deadline, "the test's Redis did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server at once (SIGKILL: every key is lost, as when a Redis that keeps nothing
        on disk dies)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


@contextlib.contextmanager
def postgres_schema() -> Iterator[Any]:
    """A fresh schema of the machine's PostgreSQL for one test: yields the URL that uses it (an
    SQLAlchemy ``URL``), and drops the schema at the end."""
    require_postgres()
    schema = f"t_{secrets.token_hex(4)}"
    engine = create_engine(postgres_url())
    with engine.begin() as connection:
        connection.execute(text(f"create schema {schema}"))
    try:
        yield postgres_url().update_query_dict({"options": f"-csearch_path={schema}"})
    finally:
        with engine.begin() as connection:
            connection.execute(text(f"drop schema {schema} cascade"))
        engine.dispose()


@contextlib.contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    """A Redis server of the test's own, stopped at the end."""
    server = PrivateRedis()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def two_servers(
    env: dict[str, str] | None = None, redis: str | None = None
) -> Iterator[tuple[Server, Server]]:
    """Start two processes on a fresh PostgreSQL schema and a Redis (the machine's, or ``redis``);
    stop them and drop the schema at the end."""
    require_postgres()
    if redis is None:
        require_redis()
    schema = f"cluster_{secrets.token_hex(4)}"
    engine = create_engine(postgres_url())
    with engine.begin() as connection:
        connection.execute(text(f"create schema {schema}"))
    url = postgres_url().update_query_dict({"options": f"-csearch_path={schema}"})
    database = url.render_as_string(hide_password=False)
    started: list[Server] = []
    forget_rate_limits(redis or REDIS)
    try:
        started.append(Server(database, env, redis or REDIS))
        started.append(Server(database, env, redis or REDIS))
        yield started[0], started[1]
    finally:
        for server in started:
            server.stop()
        with engine.begin() as connection:
            connection.execute(text(f"drop schema {schema} cascade"))
        engine.dispose()
