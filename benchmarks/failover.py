"""Failover: friends' tables played through the load balancer while Parlour processes die or restart.

Builds its own deployment (``hosts.py``: a data host with PostgreSQL, Redis and HAProxy with the shipped
configuration; two or more Parlour hosts), makes N tables of four people (every page through the load
balancer, reconnecting as the page script does: 0.25 s doubling to 8 s, with jitter, from one state to
the next), lets them play, then:

- ``--signal kill``: SIGKILL for every process of the Parlour host that owns the most tables (the host is
  gone; its tables wait for their leases to run out and move);
- ``--signal term``: a rolling restart, each Parlour process in turn sent SIGTERM (it drains: tables
  handed over at once), started again and waited for, then the next.

The people play on for ``--after`` seconds. For each page disconnected, *back* is the time from its
connection closing to its next state (its table live again somewhere). ``lost`` counts acknowledged moves
missing from their table's record; ``stranded`` counts pages not back by the end. The last line is::

    failover: tables N, signal S: back p50 A s, max B s, lost L, stranded P

Needs root (network namespaces). Run: ``.venv/bin/python benchmarks/failover.py --tables 50 --signal kill``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import signal
import sys
import time
from dataclasses import dataclass
from typing import Any

import orjson
from figures import percentile
from hosts import Deployment, missing
from tables import Figures, Person, make_table
from websockets.exceptions import ConnectionClosed, InvalidHandshake

RISE_SECONDS = 2.5
"""How long HAProxy takes to send to a process that came back (rise 2, checks every second)."""
ONE_TABLE_SECONDS = 0.5
"""Pause between making tables in a batch (the load balancer spreads them over the processes)."""


class Page(Person):
    """A person's page that reconnects as ``live.js`` does and notes how long each outage lasted."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.retry = 0
        self.down_since: float | None = None
        self.outages: list[float] = []
        self.moves: list[str] = []

    def receive(self, message: dict[str, Any]) -> None:
        if message.get("type") == "state":
            self.retry = 0
            if self.down_since is not None:
                self.outages.append(time.monotonic() - self.down_since)
                self.down_since = None
        super().receive(message)

    async def read(self) -> None:
        while not self.stopping:
            assert self.socket is not None
            with contextlib.suppress(ConnectionClosed, OSError):
                async for text in self.socket:
                    self.receive(orjson.loads(text))
            if self.stopping:
                return
            if self.down_since is None:
                self.down_since = time.monotonic()
            for waiting in self.replies.values():
                if not waiting.done():
                    waiting.set_exception(ConnectionError("the connection closed"))
                    waiting.add_done_callback(lambda done: done.exception())  # seen, if nobody awaits
            self.replies.clear()
            while not self.stopping:
                backoff = min(8.0, 0.25 * 2**self.retry) * random.uniform(0.8, 1.2)
                self.retry += 1
                await asyncio.sleep(backoff)
                try:
                    await self.connect()
                    break
                except (OSError, ConnectionClosed, TimeoutError, InvalidHandshake):
                    continue  # refused, or the load balancer has no process ready (503)

    async def act(self, action: dict[str, Any]) -> dict[str, Any]:
        reply = await super().act(action)
        if reply["type"] == "ack" and action["type"] in ("play", "pass"):
            self.moves.append("pass" if action["type"] == "pass" else " ".join(action["cards"]))
        return reply


def recorded(deployment: Deployment, table_id: str) -> list[str]:
    """The moves in the record of a table's current match."""
    from parlour.store import Store

    store = Store(deployment.database)
    try:
        table = store.table(table_id)
        if table.game_id is None:
            return []
        return list(store.game_record(table.game_id, table.host).moves)
    finally:
        store.close()


def missing_moves(made: list[str], record: list[str]) -> int:
    """How many of a page's acknowledged moves (in order) its table's record lacks."""
    lost, position = 0, 0
    for move in made:
        try:
            position = record.index(move, position) + 1
        except ValueError:
            lost += 1
    return lost


async def upset(deployment: Deployment, how: str, owned_before: list[int]) -> None:
    """Kill the Parlour host that took most of the tables being measured (``owned_before``: the tables
    each process owned before they were made; tables of earlier runs stay owned while idle), or restart
    every Parlour process one after another."""
    processes = len(deployment.apps)
    if how == "kill":
        owned = [deployment.tables_owned(n) for n in range(processes)]
        taken = [now - before for now, before in zip(owned, owned_before, strict=True)]
        busiest = taken.index(max(taken))
        print(
            f"tables owned {owned}, {taken} of them new: killing host {busiest + 1}",
            file=sys.stderr,
            flush=True,
        )
        deployment.apps[busiest].kill_all(signal.SIGKILL)
        return
    for n in range(processes):
        process = deployment.parlours[n]
        assert process is not None
        print(f"restarting process {n + 1} (owns {deployment.tables_owned(n)})", file=sys.stderr, flush=True)
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(process.wait, 30)
        print(f"  it stopped in {time.monotonic() - started:.2f} s", file=sys.stderr, flush=True)
        deployment.start_parlour(n)
        await asyncio.to_thread(deployment.wait_ready, n)
        # A rolling restart goes on once the load balancer sends to the restarted process again (two
        # good checks a second apart with the shipped configuration), not merely once it is ready.
        await asyncio.sleep(RISE_SECONDS)


@dataclass(frozen=True)
class Result:
    """What one run measured: pages disconnected and back (``outages``, seconds), acknowledged moves
    missing from the records, pages never back."""

    tables: int
    how: str
    outages: list[float]
    lost: int
    stranded: int
    acknowledged: int

    def line(self) -> str:
        p50 = percentile(self.outages, 0.5) if self.outages else 0.0
        longest = max(self.outages) if self.outages else 0.0
        return (
            f"failover: tables {self.tables}, signal {self.how}: back p50 {p50:.2f} s, max {longest:.2f} s, "
            f"lost {self.lost}, stranded {self.stranded}"
        )


async def measure(deployment: Deployment, tables: int, how: str, before: float, after: float) -> Result:
    figures = Figures()
    servers = [deployment.url]
    people: list[list[Page]] = []
    owned_before = [deployment.tables_owned(n) for n in range(len(deployment.apps))]
    for start in range(0, tables, 10):
        batch = await asyncio.gather(
            *(make_table(servers, i, figures, person=Page) for i in range(start, min(tables, start + 10)))
        )
        people.extend(batch)  # type: ignore[arg-type]
        await asyncio.sleep(ONE_TABLE_SECONDS)
    pages = [page for table in people for page in table]
    print(f"{tables} tables made; playing", file=sys.stderr, flush=True)
    until = time.monotonic() + before + after + 60
    playing = [asyncio.get_running_loop().create_task(page.play(0.5, until)) for page in pages]
    await asyncio.sleep(before)
    await upset(deployment, how, owned_before)
    await asyncio.sleep(after)
    stranded = sum(1 for page in pages if page.down_since is not None)
    for page in pages:
        page.stopping = True
    for task in playing:
        task.cancel()
    await asyncio.gather(*playing, return_exceptions=True)
    for page in pages:
        if page.socket is not None:
            with contextlib.suppress(Exception):
                await page.socket.close()
    lost = 0
    for table in people:
        record = await asyncio.to_thread(recorded, deployment, table[0].table)
        lost += sum(missing_moves(page.moves, record) for page in table)
    outages = [seconds for page in pages for seconds in page.outages]
    acknowledged = sum(len(page.moves) for page in pages)
    print(
        f"{len(outages)} disconnections of {len(pages)} pages; {acknowledged} moves acknowledged",
        file=sys.stderr,
        flush=True,
    )
    return Result(tables, how, outages, lost, stranded, acknowledged)


def run(tables: int, how: str, processes: int = 2, before: float = 5.0, after: float = 20.0) -> Result:
    """Build the deployment, measure, tear it down; return what was measured."""
    with Deployment(processes) as deployment:
        return asyncio.run(measure(deployment, tables, how, before, after))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--signal", choices=["kill", "term"], default="kill")
    parser.add_argument("--processes", type=int, default=2, help="Parlour processes (2-4)")
    parser.add_argument("--before", type=float, default=5.0, help="seconds of play before")
    parser.add_argument("--after", type=float, default=20.0, help="seconds of play after")
    args = parser.parse_args()
    problem = missing()
    if problem:
        parser.error(problem)
    if not 1 <= args.tables <= 500 or not 2 <= args.processes <= 4:
        parser.error("--tables 1-500, --processes 2-4")
    print(run(args.tables, args.signal, args.processes, args.before, args.after).line())


if __name__ == "__main__":
    main()
