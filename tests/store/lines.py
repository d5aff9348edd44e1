"""Move lines for store tests: a winning line found by a small depth-first search, and losing ones."""

from __future__ import annotations

from functools import cache

from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.game import Game
from parlour.tripeaks.rules import Rules


def code_of(number: int, rules: str = "easy") -> str:
    """Return the deal code of numbered game ``number``."""
    return str(DealCode(number, Rules.named(rules)))


@cache
def winning_line(code: str, limit: int = 200_000) -> tuple[str, ...] | None:
    """Return a line of moves that wins the deal (removals first, draws last), None if none was found."""
    game = Game.from_code(code)
    seen: set[tuple[int, int, str]] = set()
    line: list[str] = []
    budget = [limit]

    def search() -> bool:
        if game.cards_left == 0:
            return True
        key = (sum(1 << p for p in range(28) if game.removed(p)), game.stock_count, str(game.discard_top))
        if key in seen or budget[0] <= 0:
            return False
        seen.add(key)
        budget[0] -= 1
        for position in game.fitting_positions():
            line.append(str(game.card_at(position)))
            game.push_remove(position)
            if search():
                return True
            game.pop()
            line.pop()
        if game.can_draw():
            line.append("draw")
            game.push_draw()
            if search():
                return True
            game.pop()
            line.pop()
        return False

    return tuple(line) if search() else None


def stuck_line(code: str) -> tuple[str, ...]:
    """Return a line that only draws (taking no card) until the game is stuck or the stock is empty."""
    game = Game.from_code(code)
    return tuple("draw" for _ in range(game.stock_count))


def cards_left_after(code: str, moves: tuple[str, ...] | list[str]) -> int:
    """Return how many peak cards are left after ``moves`` (replayed with the engine)."""
    game = Game.from_code(code)
    for move in moves:
        game.apply(move)
    return game.cards_left
