"""A TriPeaks position in the solver's low-level form, built from a game or a deal."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.cards import Card
from parlour.tripeaks.deal import Deal
from parlour.tripeaks.game import DRAW, Game
from parlour.tripeaks.layout import TABLEAU_SIZE
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver.twin import WILD


def rank_code(card: Card | None) -> int:
    """0 = ace … 12 = king; 13 for the joker and for an empty discard pile (both take any card)."""
    if card is None or card.is_joker:
        return WILD
    return card.rank - 1


@dataclass(frozen=True, slots=True)
class Position:
    """Every card known: the tableau, the stock still to draw, the discard top and what is removed.

    ``moves_made`` is the game's move counter, so that totals count from the start of the deal.
    """

    tableau: tuple[Card, ...]
    removed: int
    stock: tuple[Card, ...]
    top: Card | None
    rules: Rules
    moves_made: int = 0

    @classmethod
    def of_game(cls, game: Game) -> Position:
        """The position of a game in play (the engine's own knowledge: every card)."""
        deal = game.deal
        drawn = len(deal.stock) - game.stock_count
        removed = sum(1 << p for p in range(TABLEAU_SIZE) if game.removed(p))
        return cls(deal.tableau, removed, deal.stock[drawn:], game.discard_top, game.rules, game.moves)

    @classmethod
    def of_deal(cls, deal: Deal, rules: Rules) -> Position:
        """The starting position of a deal."""
        return cls(deal.tableau, 0, deal.stock, deal.discard, rules, 0)

    def codes(self) -> tuple[bytes, int, bytes, int]:
        """``(ranks, removed, stock, top)`` as the cores take them."""
        ranks = bytes(rank_code(card) for card in self.tableau)
        stock = bytes(rank_code(card) for card in self.stock)
        return ranks, self.removed, stock, rank_code(self.top)

    def move_text(self, move: int) -> str:
        """The engine's text for a core move: the card at a position (``KC``) or ``draw``."""
        return DRAW if move < 0 else str(self.tableau[move])
