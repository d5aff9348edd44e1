"""Thirteen over WebSockets: many simulated people on loopback, each at a table with three computer players.

Run: ``PYTHONPATH=src python benchmarks/server_thirteen.py [--players N] [--seconds S]``. A Parlour server
(uvicorn, the real store on a fresh SQLite file) starts on 127.0.0.1; every simulated person gets a
player cookie, sets the computer players to ``instant``, deals a match and plays it through the socket
(continue after a round, pass on a table, lead the lowest card by selecting it and pressing Play when the
selection rule waits). It prints the moves per second the server made durable and sent (everyone's moves:
the people's and the computer players'), and the 50th and 99th percentile time from a person's action to
its acknowledgement. The baseline in the same run is the engine alone playing the same kind of matches
in this process (no server, no database), so the ratio says what serving costs. Figures are printed,
never asserted. Traffic goes to 127.0.0.1 only; the run is bounded by ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import connect

from parlour.cli.serve import bind
from parlour.server.app import create_app, open_store
from parlour.thirteen import Match, Move
from parlour.thirteen.bots import make_bot


@dataclass
class Tally:
    """What the simulated people saw: moves (events of plays and passes), action latencies, matches."""

    moves: int = 0
    matches: int = 0
    latencies: list[float] = field(default_factory=list)


def person_action(view: dict[str, Any]) -> dict[str, Any] | None:
    """The simulated person: continue after a round, pass on a table, lead the lowest card."""
    if view["between_rounds"]:
        return {"type": "continue"}
    if view["turn"] != 0 or view["winners"]:
        return None
    if view["can_pass"]:
        return {"type": "pass"}
    return {"type": "select", "cards": [view["hand"][0]]}


async def one_person(base: str, number: int, deadline: float, tally: Tally) -> None:
    """Play matches until the deadline as a browser would: HTTP for cookie and deal, then the socket."""
    async with httpx.AsyncClient(base_url=base) as http:
        await http.get("/")
        await http.post("/api/thirteen/settings", json={"speed": "instant"})
        cookie = f"parlour_token={http.cookies['parlour_token']}"
        while time.monotonic() < deadline:
            made = await http.post(
                "/api/games/thirteen", json={"code": _code(number), "strength": "greedy", "speed": "instant"}
            )
            game = made.json()["game"]
            number += 1000
            await play_match(base, game, cookie, deadline, tally)


async def play_match(base: str, game: str, cookie: str, deadline: float, tally: Tally) -> None:
    url = base.replace("http://", "ws://") + f"/ws/{game}"
    async with connect(url, additional_headers={"Cookie": cookie}, max_size=2**22) as socket:
        await socket.send(json.dumps({"type": "hello", "v": None}))
        sent_at: float | None = None
        ref = 0
        view: dict[str, Any] = {}
        while time.monotonic() < deadline:
            message = json.loads(await socket.recv())
            if message["type"] in ("state", "event"):
                view = message["view"]
                if message.get("name") in ("play", "pass"):
                    tally.moves += 1
                if view["winners"]:
                    tally.matches += 1
                    return
            if message["type"] in ("ack", "error"):
                if sent_at is not None:
                    tally.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if sent_at is None and view:
                action = person_action(view)
                if action is not None and message["type"] == "ack" and action["type"] == "select":
                    action = {"type": "play", "cards": action["cards"]}  # the selection waited: press Play
                if action is not None:
                    ref += 1
                    sent_at = time.perf_counter()
                    await socket.send(json.dumps({"type": "action", "action": action, "ref": ref}))


def _code(number: int) -> str:
    letters = []
    for _ in range(7):
        number, digit = divmod(number, 26)
        letters.append(chr(65 + digit))
    return "TH1-" + "".join(reversed(letters))


def engine_baseline(seconds: float) -> float:
    """Moves per second of the engine alone: greedy computer players at all four seats, in process."""
    moves, number, start = 0, 1, time.perf_counter()
    while time.perf_counter() - start < seconds:
        match = Match(number)
        bots = [make_bot("greedy", seed=number * 4 + seat) for seat in range(4)]
        while not match.over:
            seat = match.turn
            assert seat is not None
            move: Move = bots[seat].choose(match.view(seat))
            match.apply(seat, move)
            moves += 1
        number += 1
    return moves / (time.perf_counter() - start)


def serve(database: Path) -> tuple[str, uvicorn.Server, threading.Thread]:
    app = create_app(open_store(f"sqlite:///{database}"))
    listener = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", ws_max_size=2**22))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{listener.getsockname()[1]}", server, thread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=16, help="simulated people at once")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long they play")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base, server, thread = serve(Path(folder) / "parlour.db")
        tally = Tally()
        deadline = time.monotonic() + args.seconds
        start = time.perf_counter()

        async def everyone() -> None:
            await asyncio.gather(*(one_person(base, n + 1, deadline, tally) for n in range(args.players)))

        asyncio.run(everyone())
        elapsed = time.perf_counter() - start
        server.should_exit = True
        thread.join(timeout=10)
    rate = tally.moves / elapsed
    baseline = engine_baseline(min(args.seconds, 5.0))
    latencies = sorted(tally.latencies)
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000 if latencies else float("nan")
    print(f"Thirteen over WebSockets: {args.players} people on 127.0.0.1 for {elapsed:.1f} s")
    print(f"  moves made durable and sent: {tally.moves:,} ({rate:,.0f} moves/s)")
    print(f"  matches finished: {tally.matches}")
    print(f"  a person's action to its ack: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(latencies):,} actions)")
    print(f"  engine alone (baseline, one process, no server): {baseline:,.0f} moves/s")
    print(f"  server / engine: {rate / baseline:.4f}")


if __name__ == "__main__":
    main()
