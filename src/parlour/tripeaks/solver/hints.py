"""Fair hints: the move with the best chance of winning, judged only from what the player can see.

The cards the player has not seen (face-down peak cards and the stock) are dealt at random into their
places, consistently with everything seen so far, and each such sample is solved exactly after each
legal move. The hint is the move that wins in the most samples, with that share as its estimated
chance. The same game, seed and sample count always give the same hint.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from parlour.cards import DECK, JOKER, Card
from parlour.errors import GameOver
from parlour.tripeaks.game import DRAW, Game
from parlour.tripeaks.layout import COVERED_BY, COVERS, TABLEAU_SIZE
from parlour.tripeaks.solver.position import Position
from parlour.tripeaks.solver.solve import solve_position

DEFAULT_SAMPLES: Final = 48
HINT_NODE_LIMIT: Final = 400_000
"""Node limit per sampled solve; a sample that hits it counts as a loss (and is reported)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A fair hint: ``move`` (``KC`` or ``draw``), its estimated ``chance`` of winning, the chance of
    every legal move (``chances``), the number of ``samples`` and how many solves were ``unproved``."""

    move: str
    chance: float
    chances: dict[str, float]
    samples: int
    unproved: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        """The JSON answer of ``parlour tripeaks hint --json``."""
        return {
            "move": self.move,
            "chance": self.chance,
            "chances": dict(self.chances),
            "samples": self.samples,
            "unproved": self.unproved,
            "seed": self.seed,
        }


def turns_up(game: Game, position: int) -> int:
    """How many face-down cards removing the card at ``position`` would turn up (visible information)."""
    count = 0
    for q in COVERS[position]:
        if not game.face_up(q) and all(c == position or game.removed(c) for c in COVERED_BY[q]):
            count += 1
    return count


def preference_order(game: Game) -> list[str]:
    """The legal moves, most natural first: cards that turn the most face-down cards up (then the
    rightmost lowest), then ``draw``. Ties between estimated chances go to the earlier move."""
    fitting = sorted(game.fitting_positions(), key=lambda p: (-turns_up(game, p), -p))
    order = [str(game.card_at(p)) for p in fitting]
    return [*order, *[move for move in game.legal_actions() if move not in order]]


def unseen_cards(game: Game) -> list[Card]:
    """The cards the player has not seen, in deck order: every card that is neither face up in the peaks
    nor on the discard pile."""
    seen = set(game.discard)
    for p in range(TABLEAU_SIZE):
        if game.face_up(p) and not game.removed(p):
            seen.add(game.card_at(p))
    deck = (*DECK, JOKER) if game.rules.joker else DECK
    return [card for card in deck if card not in seen]


def sample_position(game: Game, rng: random.Random) -> Position:
    """A position with the unseen cards dealt at random into the face-down places and the stock."""
    hidden = [p for p in range(TABLEAU_SIZE) if not game.face_up(p) and not game.removed(p)]
    cards = unseen_cards(game)
    rng.shuffle(cards)
    dealt = dict(zip(hidden, cards, strict=False))
    # Removed cards count as face up: every position is either seen or dealt from the sample.
    tableau = tuple(dealt[p] if p in dealt else game.card_at(p) for p in range(TABLEAU_SIZE))
    stock = tuple(cards[len(hidden) :])
    removed = sum(1 << p for p in range(TABLEAU_SIZE) if game.removed(p))
    return Position(tableau, removed, stock, game.discard_top, game.rules, game.moves)


def _after(position: Position, move: str) -> Position:
    if move == DRAW:
        return Position(
            position.tableau,
            position.removed,
            position.stock[1:],
            position.stock[0],
            position.rules,
            position.moves_made + 1,
        )
    for p, card in enumerate(position.tableau):
        if str(card) == move and not position.removed >> p & 1:
            return Position(
                position.tableau,
                position.removed | 1 << p,
                position.stock,
                card,
                position.rules,
                position.moves_made + 1,
            )
    raise ValueError(f"{move!r} is not in the position")


def fair_hint(
    game: Game,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    node_limit: int = HINT_NODE_LIMIT,
    core_name: str | None = None,
) -> Hint:
    """The fair hint for a game in play (see the module docstring).

    Ties go to the earlier move of ``preference_order`` (cards before ``draw``).

    Raises:
        GameOver: the game is won or stuck: there is nothing to hint.
    """
    moves = preference_order(game)
    if not moves:
        raise GameOver("the game is over: there is no move to hint", code="game_over")
    wins = dict.fromkeys(moves, 0)
    unproved = 0
    rng = random.Random(seed)
    for _ in range(samples):
        position = sample_position(game, rng)
        # Only winnability counts here, so any win will do: a depth-first search finds one fast.
        whole = solve_position(position, node_limit=node_limit, any_win=True, core_name=core_name)
        if not whole.proved:
            unproved += 1
        if not whole.winnable:
            continue
        first = whole.line[0]
        wins[first] += 1
        for move in moves:
            if move == first or len(moves) == 1:
                continue
            child = solve_position(
                _after(position, move), node_limit=node_limit, any_win=True, core_name=core_name
            )
            unproved += 0 if child.proved else 1
            wins[move] += 1 if child.winnable else 0
    chances = {move: wins[move] / samples for move in moves}
    best = max(moves, key=lambda move: (wins[move], -moves.index(move)))
    return Hint(best, chances[best], chances, samples, unproved, seed)
