"""Store figures: one acknowledged move (append + commit) and a finish, on SQLite and PostgreSQL.

Run: ``.venv/bin/python benchmarks/store.py [--postgres URL]``. Prints, per database, the time of one
``append_moves`` call of one move (what the server does before acknowledging a move), of a whole
``finish_game`` (replay + record update), and the engine-only replay of the same game as the baseline
the store's overhead is compared with. Then, for a Thirteen match of 300 moves stored one move at a
time, the cost of appending move 300 against move 1 (median over the first and the last 20 appends of
several matches): the store keeps the replayed state of open games, so the ratio stays near 1. The last
line is ``append ratio (move 300 / move 1): sqlite X, postgresql Y``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine, text

from parlour.store import Store
from parlour.thirteen import Match
from parlour.thirteen.bots import make_bot
from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.game import Game
from parlour.tripeaks.rules import EASY

NUMBER = 6
GAMES = 5
MATCH_MOVES = 300
MATCHES = 3
WINDOW = 20


def line_of(code: str) -> list[str]:
    """A long legal line: draw through the stock, taking a fitting card whenever there is one."""
    game = Game.from_code(code)
    moves: list[str] = []
    while game.status == "playing":
        fitting = game.fitting_positions()
        move = str(game.card_at(fitting[0])) if fitting else "draw"
        game.apply(move)
        moves.append(move)
    return moves


def replay_seconds(code: str, moves: list[str]) -> float:
    start = time.perf_counter()
    game = Game.from_code(code)
    for move in moves:
        game.apply(move)
    return time.perf_counter() - start


def measure(store: Store, code: str, moves: list[str]) -> tuple[float, float]:
    appends: list[float] = []
    finishes: list[float] = []
    player = store.create_player("bench")
    for _ in range(GAMES):
        game_id = store.start_game(player.player_id, "tripeaks", None, code, ["human"], numbered=NUMBER)
        for index, move in enumerate(moves):
            start = time.perf_counter()
            store.append_moves(game_id, player.player_id, index, [move])
            appends.append(time.perf_counter() - start)
        start = time.perf_counter()
        store.finish_game(game_id, player.player_id)
        finishes.append(time.perf_counter() - start)
    return statistics.median(appends), statistics.median(finishes)


def thirteen_line(moves: int) -> tuple[str, list[str]]:
    """A Thirteen match code and its first ``moves`` moves, played by greedy computer players (a
    match that ends sooner is replaced by the next code)."""
    for number in range(1, 1000):
        match = Match(number)
        bots = [make_bot("greedy", seed=number * 4 + seat) for seat in range(4)]
        line: list[str] = []
        while not match.over and len(line) < moves:
            seat = match.turn
            assert seat is not None
            move = bots[seat].choose(match.view(seat))
            match.apply(seat, move)
            line.append(str(match.moves[-1]))
        if len(line) == moves:
            return match.code, line
    raise RuntimeError(f"no match of {moves} moves found")


def append_ratio(store: Store, code: str, line: list[str]) -> float:
    """Median time of the last ``WINDOW`` appends divided by that of the first ``WINDOW``."""
    player = store.create_player("bench")
    seats = [{"kind": "human"}] + [{"kind": "bot", "strength": "greedy", "seed": s} for s in (1, 2, 3)]
    first: list[float] = []
    last: list[float] = []
    for _ in range(MATCHES):
        game_id = store.start_game(player.player_id, "thirteen", None, code, seats)
        for index, move in enumerate(line):
            start = time.perf_counter()
            store.append_moves(game_id, player.player_id, index, [move])
            took = time.perf_counter() - start
            if index < WINDOW:
                first.append(took)
            elif index >= len(line) - WINDOW:
                last.append(took)
        store.finish_game(game_id, player.player_id)
    return statistics.median(last) / statistics.median(first)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--postgres", default="postgresql+psycopg://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()
    code = str(DealCode(NUMBER, EASY))
    moves = line_of(code)
    replay = statistics.median(replay_seconds(code, moves) for _ in range(50))
    print(f"game {code}: {len(moves)} moves; engine replay of the whole game {replay * 1e3:.2f} ms")
    match_code, match_line = thirteen_line(MATCH_MOVES)
    ratios: dict[str, str] = {"sqlite": "skipped", "postgresql": "skipped"}
    with tempfile.TemporaryDirectory() as folder:
        targets = [("SQLite (WAL, synchronous=FULL)", f"sqlite:///{Path(folder) / 'bench.sqlite3'}", None)]
        schema = "bench_store"
        targets.append(("PostgreSQL", f"{args.postgres}?options=-csearch_path%3D{schema}", schema))
        for name, url, schema_name in targets:
            admin = None
            try:
                if schema_name:
                    admin = create_engine(args.postgres)
                    with admin.begin() as connection:
                        connection.execute(text(f"DROP SCHEMA IF EXISTS {schema_name} CASCADE"))
                        connection.execute(text(f"CREATE SCHEMA {schema_name}"))
                store = Store(url)
                store.upgrade()
                append, finish = measure(store, code, moves)
                ratio = append_ratio(store, match_code, match_line)
                ratios[store.backend] = f"{ratio:.2f}"
                store.close()
            except Exception as error:  # PostgreSQL absent: say so and go on
                print(f"{name}: skipped ({type(error).__name__})")
                continue
            finally:
                if admin is not None:
                    with admin.begin() as connection:
                        connection.execute(text(f"DROP SCHEMA IF EXISTS {schema_name} CASCADE"))
                    admin.dispose()
            print(
                f"{name}: one acknowledged move {append * 1e3:.2f} ms (median, replay included), "
                f"{append / replay:.1f}× the engine replay; finish_game {finish * 1e3:.2f} ms"
            )
    print(f"Thirteen match {match_code}: {MATCH_MOVES} moves appended one at a time, {MATCHES} matches")
    sqlite, postgresql = ratios["sqlite"], ratios["postgresql"]
    print(f"append ratio (move {MATCH_MOVES} / move 1): sqlite {sqlite}, postgresql {postgresql}")


if __name__ == "__main__":
    main()
