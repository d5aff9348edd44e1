"""What a seat of Thirteen sees, as numbers: the learning environment's observation and the learned
player's inputs, built from a ``PlayerView`` alone (so they hold no other seat's card). Pure Python:
the engine's learned player (``parlour.thirteen.bots.learned``) and the environment
(``parlour.thirteen.learn.env``) share them. See decision 0052.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from parlour.thirteen.round import SEATS, Step
from parlour.thirteen.views import PlayerView

CARDS: Final = 52
RANKS: Final = 13
OBSERVATION_SIZE: Final = 3 * CARDS + SEATS + SEATS + SEATS + (SEATS + 1) + 1 + SEATS
"""178: hand, table, played, counts, passed, out, owner, 3♠, scores (the environment's layout)."""
TABLE_KINDS: Final = 7
"""Empty, single, pair, triple, four of a kind, sequence, double sequence."""
FEATURES: Final = OBSERVATION_SIZE + RANKS + RANKS + TABLE_KINDS + 1
"""212: the observation, the seat's cards by rank, the unseen cards by rank, the table's kind and length."""


def cards_played(steps: Iterable[Step]) -> int:
    """Return the cards (a mask) of a round's moves so far."""
    played = 0
    for step in steps:
        played |= step.mask
    return played


def observe(view: PlayerView, played: int | None = None) -> list[float]:
    """Return the environment's observation of a seat's view (see ``parlour.thirteen.learn.env``), as
    numbers; ``played``, the cards of the view's history, when the caller keeps it already."""
    me = view.seat
    order = [(me + offset) % SEATS for offset in range(SEATS)]  # the seats from this one's
    if played is None:
        played = cards_played(view.history)
    cards = view.hand_mask | view.table_mask << CARDS | played << (2 * CARDS)
    observation = [float(cards >> bit & 1) for bit in range(3 * CARDS)]
    owner = [0.0] * (SEATS + 1)
    owner[0 if view.table_owner is None else 1 + (view.table_owner - me) % SEATS] = 1.0
    observation += [float(view.hand_counts[seat]) for seat in order]
    observation += [float(view.passed[seat]) for seat in order]
    observation += [float(seat in view.finished) for seat in order]
    observation += owner
    observation.append(float(view.must_include_three_of_spades))
    observation += [float(view.scores[seat]) for seat in order]
    return observation


def table_kind(cards: int, ranks: int) -> int:
    """Return the kind of a table of ``cards`` cards over ``ranks`` ranks, as :data:`TABLE_KINDS` orders
    them (0 for an empty table)."""
    if cards == 0:
        return 0
    if ranks == 1:
        return cards  # a single, pair, triple or four of a kind
    return 5 if ranks == cards else 6


def features(observation: Sequence[float]) -> list[float]:
    """Return the network's inputs for an observation: the observation, then the seat's cards of each
    rank and the cards of each rank neither held nor played (each over 4), the table's kind (one-hot)
    and its number of cards over 12."""
    hand = observation[:CARDS]
    table = observation[CARDS : 2 * CARDS]
    played = observation[2 * CARDS : 3 * CARDS]
    held = [sum(hand[4 * rank : 4 * rank + 4]) for rank in range(RANKS)]
    unseen = [4.0 - held[rank] - sum(played[4 * rank : 4 * rank + 4]) for rank in range(RANKS)]
    on_table = int(sum(table))
    ranks = sum(1 for rank in range(RANKS) if any(table[4 * rank : 4 * rank + 4]))
    kind = [0.0] * TABLE_KINDS
    kind[table_kind(on_table, ranks)] = 1.0
    return [
        *observation,
        *(count / 4 for count in held),
        *(count / 4 for count in unseen),
        *kind,
        on_table / 12,
    ]
