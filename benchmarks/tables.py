"""Friends' tables under load: N tables of four people each, spread over one or more server processes.

``--start K`` starts K server processes of its own on loopback (a new database on the machine's
PostgreSQL, dropped afterwards, and a Redis server of its own)::

    .venv/bin/python benchmarks/tables.py --start 2 --tables 200 --seconds 30

Or run it against servers already running (loopback only), for example two processes sharing PostgreSQL
and Redis, started with loose rate limits (a load test makes every player from one address), with their
process ids for the CPU figure (``--pids``)::

    export PARLOUR_RATE_LIMITS="new_player=100000/minute,new_table=100000/minute,find_table=100000/minute"
    parlour serve --port 8001 --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        --redis-url redis://127.0.0.1:6379/0 &
    parlour serve --port 8002 --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        --redis-url redis://127.0.0.1:6379/0 &
    .venv/bin/python benchmarks/tables.py --servers http://127.0.0.1:8001,http://127.0.0.1:8002 \\
        --pids 1234,1235 --tables 200 --seconds 30

``--balancer K`` builds the deployment of ``hosts.py`` instead (network namespaces, needs root): a data
host with a PostgreSQL, a Redis and HAProxy with the shipped ``deploy/haproxy.cfg``, and K Parlour hosts;
every request and socket goes through the load balancer, which sends all the sockets of one table to
one process::

    .venv/bin/python benchmarks/tables.py --balancer 2 --tables 200 --seconds 30

Otherwise each table is made on one server and its four people connect round-robin to all the servers,
so with several servers half the pages are relayed to the table's owner (the worst case: every table
split between processes, as without the balancer's routing or while processes come and go).

On their turn, people play a random legal move (or pass) after a think time (``--think`` seconds on
average) and press "Next round" after a round. They choose from their own view, worked out with
Parlour's engine on the client's side, as a person at the page does: the Thirteen page never asks the
server for the legal moves, so neither do they (a ``legal`` question per move would be a relayed round
trip a real table does not make).

Measured for each acknowledged move: the time from sending it until all four seats have received its
event. ``lost`` counts acknowledged moves whose event did not reach all four seats within 10 seconds;
``errors`` counts refused actions and broken connections. ``server CPU`` is the servers' processor time
(user and system, from ``/proc``) while the people played, divided by the actions acknowledged. The last
line is::

    tables N servers K: X actions/s, p50 A ms, p99 B ms, errors E, lost L, server CPU C ms/action
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
from figures import percentile
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from parlour.cards import Card
from parlour.thirteen.combos import shape_of
from parlour.thirteen.moves import plays_now
from parlour.thirteen.order import mask_of, text_of
from parlour.thirteen.rules import Rules

DELIVERY_TIMEOUT = 10.0


def http(url: str, cookie: str | None, body: dict[str, Any] | None = None) -> tuple[Any, str | None]:
    """Make one request; return the JSON body (None for a page) and the token cookie set, if any."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if cookie:
        request.add_header("Cookie", cookie)
    with urllib.request.urlopen(request, timeout=60) as response:
        set_cookie = response.headers.get("set-cookie")
        text = response.read().decode()
        answer = (
            json.loads(text)
            if response.headers.get("content-type", "").startswith("application/json")
            else None
        )
        return answer, set_cookie.split(";")[0] if set_cookie else None


@dataclass
class Figures:
    seen: dict[tuple[str, int], int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    acked: int = 0
    errors: int = 0
    pending: dict[tuple[str, int], float] = field(default_factory=dict)

    def delivered(self, table: str, version: int) -> None:
        key = (table, version)
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.seen[key] == 4 and key in self.pending:
            self.latencies.append(time.monotonic() - self.pending.pop(key))


class Person:
    def __init__(self, table: str, cookie: str, token: str | None, base: str, figures: Figures) -> None:
        self.table, self.cookie, self.token, self.base, self.figures = table, cookie, token, base, figures
        self.view: dict[str, Any] = {}
        self.ref = 0
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.socket: ClientConnection | None = None
        self.turn = asyncio.Event()
        self.ready = asyncio.Event()
        self.stopping = False
        self.reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        await self.connect()
        self.reader = asyncio.get_running_loop().create_task(self.read())

    async def connect(self) -> None:
        parts = urlsplit(self.base)
        self.socket = await connect(
            f"ws://{parts.netloc}/ws/table/{self.table}", additional_headers={"Cookie": self.cookie},
            open_timeout=30, max_size=2**20,
        )  # fmt: skip
        await self.socket.send(json.dumps({"type": "hello", "v": None, "seat_token": self.token}))

    async def read(self) -> None:
        """Read the socket; a closed connection counts as an error and is opened again, as a page does."""
        while not self.stopping:
            assert self.socket is not None
            with contextlib.suppress(ConnectionClosed, OSError):
                async for text in self.socket:
                    self.receive(orjson.loads(text))  # the client must not be what limits the figures
            if self.stopping:
                return
            self.figures.errors += 1
            for waiting in self.replies.values():
                if not waiting.done():
                    waiting.set_exception(ConnectionError("the connection closed"))
            self.replies.clear()
            while not self.stopping:
                await asyncio.sleep(0.5)
                try:
                    await self.connect()
                    break
                except (OSError, ConnectionClosed, TimeoutError, InvalidHandshake):
                    continue

    def receive(self, message: dict[str, Any]) -> None:
        if message.get("view"):
            self.view = message["view"]
            self.ready.set()
            if self.my_move():
                self.turn.set()
        if message["type"] == "event":
            self.figures.delivered(self.table, message["v"])
        elif message["type"] in ("ack", "error", "legal") and message.get("ref") in self.replies:
            waiting = self.replies.pop(message["ref"])
            if not waiting.done():  # a request that timed out is answered late: nobody waits
                waiting.set_result(message)

    def my_move(self) -> bool:
        view = self.view
        if "hand" not in view or view["tables"]["phase"] != "playing":
            return False
        me = view["tables"]["you"]
        return (view.get("between_rounds") and not view["tables"]["seats"][me]["ready"]) or (
            not view.get("between_rounds") and view.get("turn") == me
        )

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self.socket is not None
        self.ref += 1
        message["ref"] = self.ref
        waiting: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[self.ref] = waiting
        await self.socket.send(json.dumps(message))
        return await asyncio.wait_for(waiting, 30)

    async def act(self, action: dict[str, Any]) -> dict[str, Any]:
        started = time.monotonic()
        reply = await self.request({"type": "action", "action": action})
        if reply["type"] == "ack":
            self.figures.acked += 1
            key = (self.table, reply["v"])
            if self.figures.seen.get(key, 0) >= 4:
                self.figures.latencies.append(time.monotonic() - started)
            else:
                self.figures.pending[key] = started
        else:
            self.figures.errors += 1
        return reply

    async def play(self, think: float, until: float) -> None:
        while time.monotonic() < until:
            self.turn.clear()
            if not self.my_move():
                try:
                    await asyncio.wait_for(self.turn.wait(), max(0.1, until - time.monotonic()))
                except TimeoutError:
                    return
                continue
            await asyncio.sleep(random.uniform(0, 2 * think))
            if not self.my_move():
                continue
            try:
                await self.move()
            except (ConnectionError, ConnectionClosed, TimeoutError):
                await asyncio.sleep(0.5)  # counted by the reader, which opens the connection again

    async def move(self) -> None:
        if self.view.get("between_rounds"):
            await self.act({"type": "continue"})
            return
        legal = legal_moves(self.view)
        if legal:
            move = random.choice(legal)
            await self.act({"type": "pass"} if move == "pass" else {"type": "play", "cards": move.split()})


def legal_moves(view: dict[str, Any]) -> list[str]:
    """Return the moves a seat may make now, from its own view alone: its plays as card texts, then
    ``pass`` when it may pass."""
    me = view["seat"]
    if view.get("turn") != me:
        return []
    hand = mask_of(Card.parse(text) for text in view["hand"])
    on_table = mask_of(Card.parse(text) for text in view["table"]["cards"])
    include = 1 if view.get("must_include_three_of_spades") else 0
    rules = Rules.from_json(view["rules"])
    plays = plays_now(hand, shape_of(on_table) if on_table else None, rules, include, view["passed"][me])
    return [text_of(mask) for mask in plays] + (["pass"] if view.get("can_pass") else [])


async def make_table(
    servers: list[str], index: int, figures: Figures, person: type[Person] | None = None
) -> list[Person]:
    """Make table ``index`` on one of the servers, its host and three friends seated (pages spread over
    the servers), and start its match; return its four people (of class ``person``)."""
    kind = person or Person
    base = servers[index % len(servers)]
    _, host_cookie = await asyncio.to_thread(http, f"{base}/api/player", None, {})
    made, _ = await asyncio.to_thread(
        http, f"{base}/api/tables", host_cookie, {"name": f"Host {index}", "settings": {"speed": "instant"}}
    )
    host = kind(made["table"], host_cookie or "", made["seat_token"], base, figures)
    people = [host]
    for seat in (1, 2, 3):
        friend_base = servers[(index + seat) % len(servers)]
        _, cookie = await asyncio.to_thread(http, f"{friend_base}/api/player", None, {})
        people.append(kind(made["table"], cookie or "", None, friend_base, figures))
    for page in people:
        await page.open()
        await page.ready.wait()  # its state has come: the table is live somewhere
    for seat, friend in enumerate(people[1:], start=1):
        reply = await friend.request(
            {"type": "action", "action": {"type": "sit", "seat": seat, "name": f"P{seat}"}}
        )
        friend.token = reply.get("seat_token")
    await host.request({"type": "action", "action": {"type": "start"}})
    return people


def cpu_seconds(pids: list[int]) -> float:
    """Processor time (user and system) the processes have used so far, from ``/proc``."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime (fields 14 and 15)
    return total


async def run(
    servers: list[str], tables: int, seconds: float, think: float, pids: list[int], processes: int = 0
) -> str:
    figures = Figures()
    made: list[list[Person]] = []
    for start in range(0, tables, 20):  # make the tables in batches (bounded at once)
        batch = await asyncio.gather(
            *(make_table(servers, i, figures) for i in range(start, min(tables, start + 20)))
        )
        made.extend(batch)
    print(f"{tables} tables made, playing for {seconds:g} s", file=sys.stderr, flush=True)
    figures.latencies.clear()
    acked_before, errors_before = figures.acked, figures.errors
    cpu_before = cpu_seconds(pids)
    began = time.monotonic()
    until = began + seconds
    await asyncio.gather(*(person.play(think, until) for people in made for person in people))
    elapsed = time.monotonic() - began
    actions = figures.acked - acked_before
    cpu = cpu_seconds(pids) - cpu_before
    await asyncio.sleep(DELIVERY_TIMEOUT if figures.pending else 0)
    lost = len(figures.pending)
    for people in made:
        for person in people:
            person.stopping = True
            if person.socket is not None:
                await person.socket.close()
    p50 = percentile(figures.latencies, 0.5) * 1000
    p99 = percentile(figures.latencies, 0.99) * 1000
    per_action = f"{cpu * 1000 / actions:.2f}" if pids and actions else "n/a"
    return (
        f"tables {tables} servers {processes or len(servers)}: {actions / elapsed:.1f} actions/s, "
        f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, errors {figures.errors - errors_before}, lost {lost}, "
        f"server CPU {per_action} ms/action"
    )


LOOSE_LIMITS = (
    "new_player=100000/minute,new_table=100000/minute,find_table=100000/minute,play_now=100000/minute"
)


@contextlib.contextmanager
def own_servers(count: int) -> Iterator[tuple[list[str], list[int], str]]:
    """Start ``count`` servers on loopback sharing a new database on the machine's PostgreSQL and a
    Redis server of their own; yield their URLs, process ids and the database's URL; stop everything
    afterwards."""
    import re
    import secrets
    import shutil
    import socket
    import subprocess
    import tempfile

    from sqlalchemy import create_engine, text

    admin_url = os.environ.get(
        "PARLOUR_BENCH_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
    )
    name = f"parlour_tables_{secrets.token_hex(4)}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    database = admin_url.rsplit("/", 1)[0] + f"/{name}"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        redis_port = probe.getsockname()[1]
    redis = subprocess.Popen(
        [shutil.which("redis-server") or "redis-server", "--port", str(redis_port), "--bind", "127.0.0.1",
         "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    parlour = str(Path(sys.executable).with_name("parlour"))
    processes: list[subprocess.Popen[str]] = []
    logs = tempfile.TemporaryDirectory()
    try:
        time.sleep(0.3)
        urls = []
        for index in range(count):
            log = open(Path(logs.name) / f"{index}.log", "w+")  # noqa: SIM115 (closed with the process)
            process = subprocess.Popen(
                [parlour, "serve", "--port", "0", "--database-url", database,
                 "--redis-url", f"redis://127.0.0.1:{redis_port}/0", "--log-level", "warning"],
                stdout=log, stderr=subprocess.STDOUT, text=True,
                env={**os.environ, "PARLOUR_RATE_LIMITS": LOOSE_LIMITS},
            )  # fmt: skip
            processes.append(process)
            deadline = time.monotonic() + 60
            while not (found := re.search(r"running on (http://\S+)", Path(log.name).read_text())):
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(Path(log.name).read_text())
                time.sleep(0.1)
            urls.append(found.group(1))
        yield urls, [process.pid for process in processes], database
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        redis.terminate()
        redis.wait(timeout=10)
        logs.cleanup()
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", help="comma-separated http://127.0.0.1:PORT URLs")
    parser.add_argument("--pids", default="", help="the servers' process ids, for the CPU figure")
    parser.add_argument("--start", type=int, default=0, help="start this many servers of its own")
    parser.add_argument(
        "--balancer", type=int, default=0,
        help="build this many Parlour hosts behind the shipped HAProxy (namespaces, root); play through it",
    )  # fmt: skip
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds a person thinks")
    args = parser.parse_args()
    if not 1 <= args.tables <= 2000 or not 1 <= args.seconds <= 600:
        parser.error("--tables 1-2000 and --seconds 1-600")
    if args.balancer:
        if not 1 <= args.balancer <= 4:
            parser.error("--balancer 1-4")
        from hosts import Deployment, missing

        problem = missing()
        if problem:
            parser.error(problem)
        with Deployment(args.balancer) as deployment:
            pids = [pid for host in deployment.apps for pid in host.pids()]
            figures = run([deployment.url], args.tables, args.seconds, args.think, pids, args.balancer)
            line = asyncio.run(figures)
            for n in range(args.balancer):
                owned = deployment.tables_owned(n)
                relayed = deployment.metric(n, "parlour_relay_lag_seconds_count")
                print(f"process {n + 1}: {owned} tables, {relayed:.0f} relayed messages", file=sys.stderr)
            print(line)
        return
    if args.start:
        if not 1 <= args.start <= 8:
            parser.error("--start 1-8")
        with own_servers(args.start) as (servers, pids, _):
            print(asyncio.run(run(servers, args.tables, args.seconds, args.think, pids)))
        return
    if not args.servers:
        parser.error("--servers or --start")
    servers = [url.rstrip("/") for url in args.servers.split(",") if url.strip()]
    for url in servers:
        host = urlsplit(url).hostname
        if host not in ("127.0.0.1", "localhost", "::1"):
            parser.error(f"load tests talk to loopback only, not {url}")
    pids = [int(pid) for pid in args.pids.split(",") if pid.strip()]
    print(asyncio.run(run(servers, args.tables, args.seconds, args.think, pids)))


if __name__ == "__main__":
    main()
