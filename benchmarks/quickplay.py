"""Play now under load: N people arrive at random over S seconds, each presses Play now and then plays.

``--balancer K`` builds the shipped deployment of ``hosts.py`` (network namespaces, needs root: a data
host with PostgreSQL, Redis and HAProxy with ``deploy/haproxy.cfg``, and K Parlour hosts) and every
request and socket goes through the load balancer; ``--start K`` starts K processes of its own on
loopback instead (no balancer: half the sockets are relayed to their table's owner)::

    .venv/bin/python benchmarks/quickplay.py --balancer 2 --people 400 --seconds 60

Each person makes a player (``POST /api/player``), presses Play now (``POST /api/play-now``: *seated*
is the time this takes), opens the table's socket and plays their own seat once the table hands it
over (a random legal move after a think time, "Next round" after a round) for ``--play`` seconds after
the last person arrived. Then, from the database, while everyone is still there:

- *double-seated*: people holding a seat at two tables, or two seats at one, or a claim that names a
  seat the table gives someone else;
- *over-full*: tables with more people, or claims, than seats;
- *lost*: people whose Play now failed, whose claim is gone although they did not leave, or whose
  page never received its table.

The last line is::

    quickplay: people N, seated p50 A ms, p99 B ms, double-seated D, over-full F, lost L
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import time
import urllib.error
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from figures import percentile
from sqlalchemy import create_engine, text
from tables import Figures, Person, http, own_servers


class Stranger(Person):
    """A person at a public table: watches until their claimed seat is handed over, then plays it."""

    def __init__(self, *args: Any, seat: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat = seat
        self.seated_at: float | None = None

    def receive(self, message: dict[str, Any]) -> None:
        data = message.get("data") or {}
        super().receive(message)
        if self.seat in (data.get("handed_over") or []) and self.socket is not None:
            # The page joins again, from its seat now (as the Thirteen page's script does).
            asyncio.get_running_loop().create_task(self._hello())

    async def _hello(self) -> None:
        assert self.socket is not None
        with contextlib.suppress(Exception):
            await self.socket.send(json.dumps({"type": "hello", "v": None}))


@dataclass
class Arrival:
    """One person's Play now: when it took how long, the claim it got, and what went wrong."""

    cookie: str = ""
    claim: dict[str, Any] = field(default_factory=dict)
    seconds: float | None = None
    failed: str | None = None
    page: Stranger | None = None


async def arrive(base: str, delay: float, figures: Figures, arrival: Arrival) -> None:
    """Wait ``delay`` seconds, make a player, press Play now, and open the table's page."""
    await asyncio.sleep(delay)
    try:
        _, cookie = await asyncio.to_thread(http, f"{base}/api/player", None, {})
        arrival.cookie = cookie or ""
        options = {"game": "thirteen", "rated": random.random() < 0.5, "strength": "greedy"}
        started = time.monotonic()
        claim, _ = await asyncio.to_thread(http, f"{base}/api/play-now", arrival.cookie, options)
        arrival.seconds = time.monotonic() - started
        arrival.claim = claim
        page = Stranger(claim["table"], arrival.cookie, None, base, figures, seat=claim["seat"])
        arrival.page = page
        await page.open()
        await asyncio.wait_for(page.ready.wait(), 30)
    except (OSError, urllib.error.URLError, TimeoutError, KeyError, ValueError) as error:
        arrival.failed = f"{type(error).__name__}: {error}"[:200]


def count(database: str, arrivals: list[Arrival]) -> tuple[int, int, int]:
    """Return (double-seated, over-full, lost) from the database (see the module's description)."""
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            claims = connection.execute(
                text("SELECT player_id, table_id, seat, seated FROM seat_claims")
            ).all()
            tables = connection.execute(
                text("SELECT id, seats FROM tables WHERE quick_key IS NOT NULL")
            ).all()
    finally:
        engine.dispose()
    seats_of: dict[str, list[Any]] = {
        table_id: json.loads(seats) if isinstance(seats, str) else seats for table_id, seats in tables
    }
    sitting: Counter[int] = Counter()
    over_full = 0
    for seats in seats_of.values():
        people = [
            seat.get("player") for seat in seats if isinstance(seat, dict) and seat.get("kind") == "person"
        ]
        sitting.update(person for person in people if isinstance(person, int))
        if len(seats) > 4 or len(people) > 4:
            over_full += 1
    per_table = Counter(table_id for _, table_id, _, _ in claims)
    over_full += sum(1 for number in per_table.values() if number > 4)
    double = sum(1 for number in sitting.values() if number > 1)
    for player, table_id, seat, seated in claims:
        seats = seats_of.get(table_id, [])
        holder = seats[seat].get("player") if seat < len(seats) and isinstance(seats[seat], dict) else None
        if seated and holder != player:
            double += 1  # the claim says one person sits there, the table another
        if not seated and isinstance(holder, int) and holder != player:
            double += 1  # a seat claimed while a person holds it
    lost = sum(
        1
        for arrival in arrivals
        if arrival.failed is not None or arrival.page is None or not arrival.page.ready.is_set()
    )
    return double, over_full, lost


async def run(bases: list[str], database: str, people: int, seconds: float, play: float, think: float) -> str:
    figures = Figures()
    arrivals = [Arrival() for _ in range(people)]
    delays = sorted(random.uniform(0, seconds) for _ in range(people))
    began = time.monotonic()
    await asyncio.gather(
        *(
            arrive(bases[index % len(bases)], delay, figures, arrival)
            for index, (delay, arrival) in enumerate(zip(delays, arrivals, strict=True))
        )
    )
    seated = [arrival.seconds for arrival in arrivals if arrival.seconds is not None]
    print(f"{len(seated)} of {people} seated in {time.monotonic() - began:.0f} s; playing {play:g} s more",
          file=sys.stderr, flush=True)  # fmt: skip
    pages = [arrival.page for arrival in arrivals if arrival.page is not None]
    until = time.monotonic() + play
    await asyncio.gather(*(page.play(think, until) for page in pages))
    # Every claim whose person is still here must still be in the database: count before they leave.
    double, over_full, lost = await asyncio.to_thread(count, database, arrivals)
    missing = await asyncio.to_thread(unclaimed, database, arrivals)
    for page in pages:
        page.stopping = True
        if page.socket is not None:
            with contextlib.suppress(Exception):
                await page.socket.close()
    p50 = percentile(seated, 0.5) * 1000 if seated else float("nan")
    p99 = percentile(seated, 0.99) * 1000 if seated else float("nan")
    return (
        f"quickplay: people {people}, seated p50 {p50:.0f} ms, p99 {p99:.0f} ms, "
        f"double-seated {double}, over-full {over_full}, lost {lost + missing}"
    )


def unclaimed(database: str, arrivals: list[Arrival]) -> int:
    """Count people still at their page whose claim is gone from the database (none of them left)."""
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            held = {(table_id, seat) for table_id, seat in connection.execute(
                text("SELECT table_id, seat FROM seat_claims")
            )}  # fmt: skip
    finally:
        engine.dispose()
    return sum(
        1
        for arrival in arrivals
        if arrival.failed is None
        and arrival.claim
        and (arrival.claim["table"], arrival.claim["seat"]) not in held
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--balancer", type=int, default=0, help="Parlour hosts behind the shipped HAProxy (root)"
    )
    parser.add_argument("--start", type=int, default=0, help="start this many processes on loopback instead")
    parser.add_argument("--people", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0, help="the people arrive over this long")
    parser.add_argument("--play", type=float, default=20.0, help="seconds of play after the last arrives")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a person thinks")
    args = parser.parse_args()
    if not 1 <= args.people <= 2000 or not 1 <= args.seconds <= 600 or not 0 <= args.play <= 600:
        parser.error("--people 1-2000, --seconds 1-600, --play 0-600")
    if args.balancer:
        if not 1 <= args.balancer <= 4:
            parser.error("--balancer 1-4")
        import hosts

        problem = hosts.missing()
        if problem:
            parser.error(problem)
        with hosts.Deployment(args.balancer) as deployment:
            line = asyncio.run(
                run([deployment.url], deployment.database, args.people, args.seconds, args.play, args.think)
            )
            for n in range(args.balancer):
                print(f"process {n + 1}: {deployment.tables_owned(n)} tables", file=sys.stderr)
        print(line)
        return
    if not 1 <= args.start <= 8:
        parser.error("--balancer 1-4 or --start 1-8")
    with own_servers(args.start) as (servers, _, database):
        print(asyncio.run(run(servers, database, args.people, args.seconds, args.play, args.think)))


if __name__ == "__main__":
    main()
