"""The heuristic player: keeps sequences and pairs together, saves 2s and bombs, plays to go out.

It values a hand by the cheapest way to split it into combinations (``hand_cost``): every combination
costs one turn, less when it is hard to beat (2s, bombs, aces, long sequences) because such a
combination usually wins the table back. A move is chosen to leave the cheapest hand; a pass is chosen
when every play would break the hand's structure, unless an opponent is about to go out.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Final

from parlour.thirteen.bots.base import Bot
from parlour.thirteen.combos import DOUBLE_SEQUENCE, QUAD, SEQUENCE, SINGLE, shape_of
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.moves import can_beat
from parlour.thirteen.observation import cards_played
from parlour.thirteen.order import FULL_MASK, TWO
from parlour.thirteen.views import PlayerView

ACE: Final = TWO - 1
KING: Final = TWO - 2
_SEQUENCE_TOP: Final = ACE


def combo_cost(mask: int) -> float:
    """Return the turns a combination is worth spending: 1 for an ordinary one, less for one that is
    hard to beat and so usually wins the lead back."""
    shape = shape_of(mask)
    assert shape is not None
    kind, length, top = shape
    rank = top >> 2
    if kind in (QUAD, DOUBLE_SEQUENCE):
        return 0.3
    if rank == TWO:
        return 0.25
    if kind == SEQUENCE:
        return 0.85 if length >= 5 or rank >= KING else 1.0
    if rank == ACE:
        return 0.6
    if rank == KING:
        return 0.85
    return 1.0


def _lowest(nibble: int, count: int) -> int:
    """The ``count`` lowest bits of a rank's nibble."""
    chosen = 0
    for _ in range(count):
        low = nibble & -nibble
        chosen |= low
        nibble ^= low
    return chosen


def _combos_with_lowest_card(mask: int) -> list[int]:
    """Return the combinations that hold the hand's lowest card, with the lowest suits of each rank."""
    low = mask & -mask
    rank = (low.bit_length() - 1) >> 2
    nibbles = [(mask >> (4 * r)) & 15 for r in range(13)]
    own = nibbles[rank]
    found = []
    for size in range(1, own.bit_count() + 1):
        found.append(_lowest(own, size) << (4 * rank))
    for per_rank in (1, 2):
        if own.bit_count() < per_rank:
            continue
        run = _lowest(own, per_rank) << (4 * rank)
        for next_rank in range(rank + 1, _SEQUENCE_TOP + 1):
            if nibbles[next_rank].bit_count() < per_rank:
                break
            run |= _lowest(nibbles[next_rank], per_rank) << (4 * next_rank)
            if next_rank - rank >= 2:
                found.append(run)
    return found


@lru_cache(maxsize=1 << 18)
def hand_cost(mask: int) -> float:
    """Return the cheapest total ``combo_cost`` of a split of the hand into combinations (0 when empty)."""
    if not mask:
        return 0.0
    return min(combo_cost(combo) + hand_cost(mask & ~combo) for combo in _combos_with_lowest_card(mask))


@lru_cache(maxsize=1 << 16)
def best_split(mask: int) -> tuple[int, ...]:
    """Return a cheapest split of the hand into combinations (see ``hand_cost``), lowest first."""
    if not mask:
        return ()
    combo = min(_combos_with_lowest_card(mask), key=lambda c: combo_cost(c) + hand_cost(mask & ~c))
    return (combo, *best_split(mask & ~combo))


def fewest_cards_of_others(view: PlayerView) -> int:
    """Return the fewest cards another seat still in the round holds (13 when none is)."""
    others = (count for seat, count in enumerate(view.hand_counts) if seat != view.seat and count)
    return min(others, default=13)


def unanswerable_in(view: PlayerView) -> Callable[[int], bool]:
    """Return a test of whether a combination is unanswerable in the view's round: no combination of
    the cards the seat has not seen (neither in its hand nor played) beats it, bombs included."""
    unseen = FULL_MASK & ~view.hand_mask & ~cards_played(view.history)
    rules = view.rules

    def unanswerable(combo: int) -> bool:
        shape = shape_of(combo)
        return shape is not None and not can_beat(unseen, shape, rules)

    return unanswerable


def finishing_chain(hand: int, plays: tuple[int, ...], unanswerable: Callable[[int], bool]) -> int | None:
    """Return the play that goes out in a chain of leads whatever the others hold, or None: an
    unanswerable play after which all but one unit of the hand's split are unanswerable too (the one
    with the most cards, then the lowest)."""
    chains = [
        play
        for play in plays
        if unanswerable(play) and sum(not unanswerable(unit) for unit in best_split(hand & ~play)) <= 1
    ]
    return max(chains, key=lambda play: (play.bit_count(), -play)) if chains else None


class HeuristicBot(Bot):
    """Chooses the move that leaves the cheapest hand (see the module docstring)."""

    name = "heuristic"

    #: A pass is preferred to a play that saves less than this many turns.
    PASS_MARGIN: Final = 0.3

    def pick(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> Move:
        """Return the heuristic's move."""
        hand = view.hand_mask
        if hand in plays:
            return Move(hand)  # go out
        danger = fewest_cards_of_others(view)
        before = hand_cost(hand)
        chain = finishing_chain(hand, plays, unanswerable_in(view))
        if chain is not None:
            return Move(chain)

        def score(play: int) -> float:
            shape = shape_of(play)
            assert shape is not None
            value = hand_cost(hand & ~play)
            # Tie-breakers: lead and follow low, and lead the longer combination.
            value += (play.bit_length() - 1) / 1000.0 - play.bit_count() / 200.0
            if danger == 1 and shape[0] == SINGLE:
                # An opponent holds a last card: only a high single can stop them.
                value += (51 - (play.bit_length() - 1)) / 20.0
            if view.table_shape is None and danger <= 2 and shape[1] == danger:
                value += 0.5  # leading what the opponent could answer with all their cards
            return value

        best = min(plays, key=score)
        if may_pass and danger > 2 and score(best) > before - self.PASS_MARGIN:
            return PASS
        return Move(best)
