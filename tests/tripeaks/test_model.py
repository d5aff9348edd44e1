"""The engine against a second, deliberately naive model of the rules, written from the specification.

The model recomputes everything from the set of removed positions (covering from the spec's formulas,
peaks as sets, undo as whole snapshots), so it shares no code and no shortcut with ``Game``'s counters
and records. Random sequences of moves, legal and not, must give the same reason codes and player views.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.cards import Card
from parlour.deal import DEAL_NUMBER_LIMIT
from parlour.errors import IllegalMove
from parlour.tripeaks import Deal, DealCode, Game, Rules
from parlour.tripeaks.rules import VARIANTS

PEAK_SETS = (
    {0, 3, 4, 9, 10, 11, 18, 19, 20},
    {1, 5, 6, 12, 13, 14, 21, 22, 23},
    {2, 7, 8, 15, 16, 17, 24, 25, 26, 27},
)


def covering(p: int) -> tuple[int, ...]:
    """The spec's covering formulas, position by position."""
    if p < 3:
        return (3 + 2 * p, 4 + 2 * p)
    if p < 9:
        a = (p - 3) + (p - 3) // 2
        return (9 + a, 10 + a)
    if p < 18:
        return (18 + p - 9, 19 + p - 9)
    return ()


class Model:
    def __init__(self, deal: Deal, rules: Rules) -> None:
        self.rules = rules
        self.cards = list(deal.tableau)
        self.removed: set[int] = set()
        self.up = {p for p in range(28) if rules.open_peaks or not covering(p)}
        self.discard = [] if deal.discard is None else [deal.discard]
        self.stock = list(deal.stock)  # top first
        self.score = 0 if rules.traditional_scoring else 500
        self.run = 0
        self.moves = 0
        self.snapshots: list[Any] = []

    def fits(self, card: Card) -> bool:
        if not self.discard or card.is_joker or self.discard[-1].is_joker:
            return True
        difference = abs(card.rank - self.discard[-1].rank)
        return difference == 1 or (self.rules.king_ace_linked and difference == 12)

    def free(self, p: int) -> bool:
        return p not in self.removed and p in self.up and all(q in self.removed for q in covering(p))

    def any_fit(self) -> bool:
        return any(self.free(p) and self.fits(self.cards[p]) for p in range(28))

    def status(self) -> str:
        if len(self.removed) == 28:
            return "won"
        return "stuck" if not self.stock and not self.any_fit() else "playing"

    def snapshot(self) -> Any:
        return copy.deepcopy((self.removed, self.up, self.discard, self.stock, self.score, self.run))

    def act(self, move: str) -> str | None:
        """Apply a move; return the reason code of a refusal, or None."""
        if len(self.removed) == 28:
            return "game_over"
        if move == "undo":
            if not self.snapshots:
                return "nothing_to_undo"
            self.removed, self.up, self.discard, self.stock, self.score, self.run = self.snapshots.pop()
            return None
        if move == "draw":
            if not self.stock:
                return "stock_empty"
            if self.rules.draw_only_when_stuck and self.any_fit():
                return "must_play"
            self.snapshots.append(self.snapshot())
            self.discard.append(self.stock.pop(0))
            self.moves += 1
            self.run = 0
            self.score = self.score - 5 if self.rules.traditional_scoring else max(0, self.score - 1)
            return None
        card = Card.parse(move)
        seen = [p for p in range(28) if self.cards[p] is card and p in self.up and p not in self.removed]
        if not seen or not self.free(seen[0]):
            return "blocked"
        if not self.fits(card):
            return "not_adjacent"
        self.snapshots.append(self.snapshot())
        self.removed.add(seen[0])
        self.discard.append(card)
        self.moves += 1
        self.up |= {q for q in range(28) if covering(q) and all(c in self.removed for c in covering(q))}
        emptied = any(seen[0] in peak and peak <= self.removed for peak in PEAK_SETS)
        if self.rules.traditional_scoring:
            self.run += 1
            self.score += self.run
            if emptied:
                self.score += (15, 15, 30)[sum(peak <= self.removed for peak in PEAK_SETS) - 1]
        else:
            self.score = max(0, self.score - 1 + (100 if emptied else 0))
        return None

    def view(self) -> dict[str, Any]:
        return {
            "tableau": [
                {
                    "card": str(c) if p in self.up else None,
                    "face_up": p in self.up,
                    "removed": p in self.removed,
                }
                for p, c in enumerate(self.cards)
            ],
            "discard": [str(card) for card in self.discard],
            "stock": len(self.stock),
            "score": self.score,
            "moves": self.moves,
            "status": self.status(),
            "peaks_cleared": [peak <= self.removed for peak in PEAK_SETS],
        }


rules_strategy = st.builds(
    lambda linked, variants: Rules(king_ace_linked=linked).with_variants(*variants),
    st.booleans(),
    st.sets(st.sampled_from(VARIANTS)),
)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, DEAL_NUMBER_LIMIT - 1), rules_strategy, st.randoms(use_true_random=False))
def test_the_engine_agrees_with_the_naive_model(number: int, rules: Rules, rng: Any) -> None:
    game = Game.from_code(DealCode(number, rules))
    model = Model(game.deal, rules)
    every_card = [str(card) for card in (*game.deal.tableau, *game.deal.stock)]
    for _ in range(rng.randrange(20, 160)):
        legal = game.legal_actions()
        if rng.random() < 0.15:
            move = "undo"
        elif legal and rng.random() < 0.6:
            move = rng.choice(legal)
        else:
            move = rng.choice([*every_card, "draw", "undo"])
        expected = model.act(move)
        try:
            game.apply(move)
            refused = None
        except IllegalMove as error:
            refused = error.code
        assert refused == expected, move
        view = game.to_json()
        assert {key: view[key] for key in model.view()} == model.view()
        assert (game.status == "playing") == bool(game.legal_actions())
