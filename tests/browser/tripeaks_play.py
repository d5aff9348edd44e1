"""Playing TriPeaks through the page as a person does, for the browser tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from playwright.sync_api import expect

from parlour.tripeaks import Game
from parlour.tripeaks.game import PLAYING
from parlour.tripeaks.solver.players import greedy_move


def play_moves(page: Any, moves: Iterable[str]) -> None:
    """Click each move (a card's text, or ``draw`` for the stock), waiting after each until the page's
    move counter has changed: the server has taken the move. It starts once the page shows a game in
    play: a tap before its socket is open does nothing (as for a person), and a counter that goes from
    "–" to 0 would look like a move taken."""
    expect(page.locator(".tripeaks")).to_have_attribute("data-state", "playing")
    for move in moves:
        before = page.locator("#moves").text_content()
        if move == "draw":
            page.locator("#stock").click()
        else:
            page.locator(f'.card-slot[data-card="{move}"]').click()
        expect(page.locator("#moves")).not_to_have_text(before or "")


def greedy_to_the_end(code: str) -> list[str]:
    """Return greedy play's moves of a deal to its end (won or, more often, stuck)."""
    game, moves = Game.from_code(code), []
    while game.status == PLAYING:
        moves.append(game.apply(greedy_move(game)))
    return moves
