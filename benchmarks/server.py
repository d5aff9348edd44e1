"""Server load: many simulated players on loopback playing TriPeaks, then Thirteen, over WebSockets.

Run: ``.venv/bin/python benchmarks/server.py [--players 500] [--seconds 20] [--think 1.0]``.

The server runs as its own process (``parlour serve`` on a free port, a fresh SQLite file), so the
figures include everything a real page meets: HTTP to create the player and the game, the socket, the
store's durable write before each acknowledgement. Each simulated player plays its deal like a person
would (a fitting free card, else a draw, with ``--think`` seconds between moves on average, randomised)
and deals again when a game ends. Printed: moves per second and the 50th/99th-percentile move latency
(from sending an action to its ack), for the paced players and, as the baseline, for a few players
playing flat out (no thinking), which shows what one server process can take.

Thirteen (``--thirteen-players``, default 16): each simulated person deals a match against three instant
computer players and plays it (continue after a round, pass on a table, lead the lowest card, pressing
Play when the selection rule waits). Printed: everyone's moves per second (each made durable and sent
as an event), the 50th/99th-percentile time from a person's action to its ack, and as the baseline the
engine alone playing the same kind of matches in this process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import websockets
from figures import percentile

ROOT = Path(__file__).resolve().parents[1]
RANKS = "A23456789TJQK"


def fits(card: str, top: str | None) -> bool:
    """Easy rules: one rank apart, K and A linked (the player's own reasoning from what it sees)."""
    if top is None or card == "JK" or top == "JK":
        return True
    difference = abs(RANKS.index(card[0]) - RANKS.index(top[0]))
    return difference in (1, 12)


def choose(view: dict) -> dict | None:
    """Return the next action a player takes from its view, or None when the game is over."""
    if view["status"] != "playing":
        return None
    top = view["discard"][-1] if view["discard"] else None
    for position in view["free"]:
        card = view["tableau"][position]["card"]
        if card and fits(card, top):
            return {"position": position}
    return {"move": "draw"}


def http(url: str, cookie: str | None, body: dict | None = None) -> tuple[str, str | None]:
    """Make one request; return the body and the token cookie the server set (if any)."""
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if cookie:
        request.add_header("Cookie", cookie)
    with urllib.request.urlopen(request, timeout=60) as response:
        set_cookie = response.headers.get("set-cookie")
        return response.read().decode(), set_cookie.split(";")[0] if set_cookie else None


class Player:
    """One simulated person: a token, a game, a socket."""

    def __init__(self, base: str, think: float, seed: int) -> None:
        self.base = base
        self.think = think
        self.rng = random.Random(seed)
        self.cookie: str | None = None
        self.latencies: list[float] = []
        self.games = 0

    async def new_game(self) -> str:
        number = self.rng.randrange(26**7)
        letters = "".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(number // 26**i) % 26] for i in reversed(range(7)))
        body, _ = await asyncio.to_thread(
            http, f"{self.base}/api/games/tripeaks", self.cookie, {"code": f"TP1-E-{letters}"}
        )
        self.games += 1
        return json.loads(body)["game"]

    async def run(self, clock: Clock) -> None:
        """Sit down (player, game, socket), wait until everybody is seated, then play until the end."""
        _, self.cookie = await asyncio.to_thread(http, f"{self.base}/api/player", None, {})
        ws_base = self.base.replace("http://", "ws://")
        seated = False
        while not clock.over():
            game_id = await self.new_game()
            async with websockets.connect(
                f"{ws_base}/ws/{game_id}", additional_headers={"Cookie": self.cookie or ""}, max_size=2**20
            ) as socket:
                await socket.send(json.dumps({"type": "hello", "v": None}))
                view = json.loads(await socket.recv())["view"]
                if not seated:
                    seated = True
                    await clock.seated()
                while not clock.over():
                    action = choose(view)
                    if action is None:
                        break
                    if self.think:
                        await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
                    sent = time.monotonic()
                    await socket.send(json.dumps({"type": "action", "action": action, "ref": 1}))
                    while True:
                        message = json.loads(await socket.recv())
                        if message["type"] == "event":
                            view = message["view"]
                        elif message["type"] in ("ack", "error"):
                            break
                    if clock.counting(sent):
                        self.latencies.append(time.monotonic() - sent)


class Clock:
    """Starts the measured period once every player is seated; it lasts ``seconds``."""

    def __init__(self, players: int, seconds: float) -> None:
        self.waiting = players
        self.seconds = seconds
        self.go = asyncio.Event()
        self.start = self.stop = float("inf")

    async def seated(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.start = time.monotonic()
            self.stop = self.start + self.seconds
            self.go.set()
        await self.go.wait()

    def counting(self, moment: float) -> bool:
        return self.start <= moment < self.stop

    def over(self) -> bool:
        return time.monotonic() >= self.stop


async def load(base: str, players: int, seconds: float, think: float, ramp: float) -> dict[str, float]:
    """Seat ``players`` players (spread over ``ramp`` seconds), then measure ``seconds`` of play."""
    clock = Clock(players, seconds)
    crowd = [Player(base, think, seed) for seed in range(players)]

    async def staggered(index: int, player: Player) -> None:
        await asyncio.sleep(ramp * index / players)
        await player.run(clock)

    began = time.monotonic()
    await asyncio.gather(*(staggered(i, p) for i, p in enumerate(crowd)))
    latencies = sorted(value for player in crowd for value in player.latencies)
    if not latencies:
        return {"moves": 0, "moves_per_second": 0.0, "p50_ms": float("nan"), "p99_ms": float("nan")}
    return {
        "moves": len(latencies),
        "moves_per_second": len(latencies) / seconds,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "games": sum(player.games for player in crowd),
        "seating_seconds": clock.start - began,
    }


def start_server(database_url: str) -> tuple[subprocess.Popen[str], str]:
    """Start ``parlour serve`` on a free port; return the process and its address."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), PARLOUR_DATABASE_URL=database_url)
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour", "serve", "--port", "0"], stderr=subprocess.PIPE, text=True, env=env
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    if "running on" not in line:
        process.kill()
        raise RuntimeError(f"the server did not start: {line}")
    address = re.search(r"running on (http://\S+)", line).group(1)
    # The server logs a line a request: read them all, or the full pipe would stop the server.
    threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
    for _ in range(100):  # the store's migrations run at start: wait for the first answer
        try:
            http(f"{address}/", None)
            break
        except OSError:
            time.sleep(0.1)
    return process, address


# --- Thirteen: each simulated person at a table with three instant computer players ------------------


def thirteen_action(view: dict) -> dict | None:
    """The simulated person: continue after a round, pass on a table, lead the lowest card."""
    if view["between_rounds"]:
        return {"type": "continue"}
    if view["turn"] != 0 or view["winners"]:
        return None
    if view["can_pass"]:
        return {"type": "pass"}
    return {"type": "select", "cards": [view["hand"][0]]}


class ThirteenPlayer:
    """One simulated person playing Thirteen matches as fast as the server answers."""

    def __init__(self, base: str, seed: int) -> None:
        self.base = base
        self.rng = random.Random(seed)
        self.cookie: str | None = None
        self.latencies: list[float] = []
        self.moves = 0  # everyone's moves at this table (the person's and the computer players')
        self.matches = 0

    async def run(self, stop_at: float, measure_from: float) -> None:
        _, self.cookie = await asyncio.to_thread(http, f"{self.base}/api/player", None, {})
        await asyncio.to_thread(http, f"{self.base}/api/thirteen/settings", self.cookie, {"speed": "instant"})
        while time.monotonic() < stop_at:
            number = self.rng.randrange(26**7)
            code = "TH1-" + "".join(chr(65 + (number // 26**i) % 26) for i in reversed(range(7)))
            options = {"code": code, "strength": "greedy", "speed": "instant"}
            body, _ = await asyncio.to_thread(http, f"{self.base}/api/games/thirteen", self.cookie, options)
            await self.play(json.loads(body)["game"], stop_at, measure_from)

    async def play(self, game_id: str, stop_at: float, measure_from: float) -> None:
        url = f"{self.base.replace('http://', 'ws://')}/ws/{game_id}"
        async with websockets.connect(url, additional_headers={"Cookie": self.cookie or ""}) as socket:
            await socket.send(json.dumps({"type": "hello", "v": None}))
            sent: float | None = None
            view: dict = {}
            while time.monotonic() < stop_at:
                message = json.loads(await socket.recv())
                if message["type"] in ("state", "event"):
                    view = message["view"]
                    if message.get("name") in ("play", "pass") and time.monotonic() >= measure_from:
                        self.moves += 1
                    if view["winners"]:
                        self.matches += 1
                        return
                if message["type"] in ("ack", "error"):
                    if sent is not None and sent >= measure_from:
                        self.latencies.append(time.monotonic() - sent)
                    waited, sent = sent is not None and message["type"] == "ack", None
                else:
                    waited = False
                if sent is None and view:
                    action = thirteen_action(view)
                    if action is not None and waited and action["type"] == "select":
                        action = {"type": "play", "cards": action["cards"]}  # the selection waits: Play
                    if action is not None:
                        sent = time.monotonic()
                        await socket.send(json.dumps({"type": "action", "action": action, "ref": 1}))


async def thirteen_load(base: str, players: int, seconds: float, ramp: float) -> dict[str, float]:
    """Run ``players`` Thirteen players for ``seconds`` after a ramp-up; return the figures."""
    measure_from = time.monotonic() + ramp
    stop_at = measure_from + seconds
    crowd = [ThirteenPlayer(base, seed) for seed in range(players)]
    await asyncio.gather(*(player.run(stop_at, measure_from) for player in crowd))
    latencies = sorted(value for player in crowd for value in player.latencies)
    moves = sum(player.moves for player in crowd)
    return {
        "moves_per_second": moves / seconds,
        "actions": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "matches": sum(player.matches for player in crowd),
    }


def thirteen_engine_baseline(seconds: float) -> float:
    """Moves per second of the Thirteen engine alone (greedy players at all four seats, no server)."""
    sys.path.insert(0, str(ROOT / "src"))
    from parlour.thirteen import Match
    from parlour.thirteen.bots import make_bot

    moves, number, start = 0, 1, time.perf_counter()
    while time.perf_counter() - start < seconds:
        match = Match(number)
        bots = [make_bot("greedy", seed=number * 4 + seat) for seat in range(4)]
        while not match.over:
            seat = match.turn
            assert seat is not None
            match.apply(seat, bots[seat].choose(match.view(seat)))
            moves += 1
        number += 1
    return moves / (time.perf_counter() - start)


def report_thirteen(address: str, players: int, seconds: float) -> None:
    """Print the Thirteen figures: moves made durable and sent per second, action latency, the baseline."""
    figures = asyncio.run(thirteen_load(address, players, seconds, 2.0))
    baseline = thirteen_engine_baseline(min(seconds, 5.0))
    print(
        f"Thirteen, {players} people each against 3 instant computer players: "
        f"{figures['moves_per_second']:.0f} moves/s (everyone's, made durable and sent); "
        f"a person's action to its ack p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms "
        f"({figures['actions']} actions, {figures['matches']} matches finished); "
        f"engine alone {baseline:.0f} moves/s, server/engine {figures['moves_per_second'] / baseline:.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between a player's moves")
    parser.add_argument(
        "--ramp",
        type=float,
        default=15.0,
        help="seconds over which players arrive (measured once all are seated)",
    )
    parser.add_argument("--flat-out-players", type=int, default=8)
    parser.add_argument("--thirteen-players", type=int, default=16, help="Thirteen tables (0: none)")
    parser.add_argument("--database-url", help="default: a fresh SQLite file (a PostgreSQL URL works too)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = options.database_url or f"sqlite:///{Path(folder) / 'bench.db'}"
        process, address = start_server(url)
        try:
            backend = url.split(":")[0]
            print(
                f"server {address} (one process, {backend}); the players in another process; "
                f"{os.cpu_count()} cores"
            )
            for label, players, think in (
                (
                    f"{options.flat_out_players} players, no thinking (baseline)",
                    options.flat_out_players,
                    0.0,
                ),
                (
                    f"{options.players} players, ~{options.think:g} s between moves",
                    options.players,
                    options.think,
                ),
            ):
                ramp = options.ramp if players > 50 else 2.0
                figures = asyncio.run(load(address, players, options.seconds, think, ramp))
                print(
                    f"{label}: {figures['moves']} moves in {options.seconds:g} s = "
                    f"{figures['moves_per_second']:.0f} moves/s; latency p50 {figures['p50_ms']:.1f} ms, "
                    f"p99 {figures['p99_ms']:.1f} ms ({figures.get('games', 0)} games dealt; "
                    f"all seated after {figures.get('seating_seconds', 0):.0f} s)"
                )
            if options.thirteen_players:
                report_thirteen(address, options.thirteen_players, options.seconds)
        finally:
            process.terminate()
            process.wait(timeout=10)
            if process.stderr is not None:
                process.stderr.close()


if __name__ == "__main__":
    main()
