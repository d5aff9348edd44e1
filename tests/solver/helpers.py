"""Shared helpers for the solver tests: positions part-way through real deals."""

from __future__ import annotations

from parlour.tripeaks import DealCode, Game, Rules
from parlour.tripeaks.solver.players import greedy_move


def game_after(number: int, rules: Rules, moves: int) -> Game:
    """The game of deal ``number`` after ``moves`` greedy moves (fewer if it ends first)."""
    game = Game.from_code(DealCode(number, rules))
    for _ in range(moves):
        if game.status != "playing":
            break
        game.apply(greedy_move(game))
    return game


def replay(game: Game, line: tuple[str, ...]) -> Game:
    """Apply a solver line with the engine's checked actions (raises if one is illegal)."""
    for move in line:
        game.apply(move)
    return game
