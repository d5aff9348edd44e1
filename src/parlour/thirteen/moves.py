"""Legal move generation on bitmask hands, fast enough for search and simulations.

Plays are card masks (see ``order``). ``all_plays(hand)`` lists every combination a hand holds;
``legal_plays(hand, table, rules, must_include)`` lists those that may be played now. Only the kinds
that can matter are generated: on a table of pairs, pairs (and, on 2s, bombs) only.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from parlour.thirteen.combos import (
    PAIR,
    QUAD,
    SEQUENCE,
    SINGLE,
    TRIPLE,
    Shape,
    is_bomb,
    shape_beats,
    shape_of,
)
from parlour.thirteen.order import TWO
from parlour.thirteen.rules import STANDARD, Rules


def _subsets_by_size() -> tuple[tuple[tuple[int, ...], ...], ...]:
    table = []
    for nibble in range(16):
        by_size: list[list[int]] = [[] for _ in range(5)]
        for sub in range(1, 16):
            if sub & nibble == sub:
                by_size[sub.bit_count()].append(sub)
        table.append(tuple(tuple(group) for group in by_size))
    return tuple(table)


SUBSETS: Final = _subsets_by_size()
"""``SUBSETS[nibble][k]``: the k-card subsets of the cards of one rank."""
_SEQUENCE_TOP_RANK: Final = TWO - 1  # the ace: 2s never join a sequence


def _nibbles(hand: int) -> list[int]:
    return [(hand >> (4 * rank)) & 15 for rank in range(13)]


def same_rank_plays(hand: int, size: int) -> list[int]:
    """Return every single (size 1), pair (2), triple (3) or quad (4) in the hand, lowest first."""
    plays = []
    for rank, nibble in enumerate(_nibbles(hand)):
        for sub in SUBSETS[nibble][size]:
            plays.append(sub << (4 * rank))
    return plays


def run_plays(hand: int, per_rank: int, length: int | None = None) -> list[int]:
    """Return sequences (``per_rank`` 1) or double sequences (2) of the hand.

    ``length`` is the number of ranks wanted; None means every length from 3 ranks up.
    """
    nibbles = _nibbles(hand)
    plays: list[int] = []
    for start in range(_SEQUENCE_TOP_RANK - 1):
        partial = [0]
        for rank in range(start, _SEQUENCE_TOP_RANK + 1):
            choices = SUBSETS[nibbles[rank]][per_rank]
            if not choices:
                break
            shift = 4 * rank
            partial = [mask | (sub << shift) for mask in partial for sub in choices]
            ranks = rank - start + 1
            if length is None:
                if ranks >= 3:
                    plays.extend(partial)
            elif ranks == length:
                plays.extend(partial)
                break
    return plays


_SAME_RANK_SIZE: Final = {SINGLE: 1, PAIR: 2, TRIPLE: 3, QUAD: 4}


def all_plays(hand: int) -> list[int]:
    """Return every combination the hand holds (each once)."""
    plays = []
    for size in (1, 2, 3, 4):
        plays.extend(same_rank_plays(hand, size))
    plays.extend(run_plays(hand, 1))
    plays.extend(run_plays(hand, 2))
    return plays


def _candidates(hand: int, table: Shape, rules: Rules) -> list[int]:
    kind, length, top = table
    if kind in _SAME_RANK_SIZE:
        plays = same_rank_plays(hand, _SAME_RANK_SIZE[kind])
    elif kind == SEQUENCE:
        plays = run_plays(hand, 1, length)
    else:
        plays = run_plays(hand, 2, length // 2)
    if top >> 2 == TWO and kind != QUAD:
        plays.extend(same_rank_plays(hand, 4))
        plays.extend(run_plays(hand, 2))
    elif kind == QUAD and rules.double_sequence_beats_quad:
        plays.extend(run_plays(hand, 2))
    return plays


@lru_cache(maxsize=65536)
def legal_plays(
    hand: int, table: Shape | None, rules: Rules = STANDARD, must_include: int = 0
) -> tuple[int, ...]:
    """Return every play the hand may make now, as masks (a pass is not included).

    Args:
        hand: the player's cards.
        table: the shape on the table, None when it is empty.
        rules: the house rules (bombs).
        must_include: a mask of cards every play must contain (3♠ on a game's first play), 0 for none.
    """
    plays = all_plays(hand) if table is None else _candidates(hand, table, rules)
    result = []
    for mask in plays:
        if mask & must_include != must_include:
            continue
        shape = shape_of(mask)
        if shape is not None and shape_beats(shape, table, rules):
            result.append(mask)
    return tuple(result)


def plays_now(
    hand: int, table: Shape | None, rules: Rules, must_include: int, locked: bool
) -> tuple[int, ...]:
    """Return the plays a seat to move may make: ``legal_plays``, bombs only when the seat is ``locked``
    (it passed, and the ``bomb_after_pass`` house rule gives it a turn while it holds a bomb)."""
    plays = legal_plays(hand, table, rules, must_include)
    return tuple(mask for mask in plays if is_bomb(mask)) if locked else plays


def _has_run(counts: list[int], tops: list[int], per_rank: int, ranks: int, table_top: int) -> bool:
    """True when runs of ``ranks`` ranks, ``per_rank`` cards each, end above strength ``table_top``."""
    table_rank = table_top >> 2
    for end in range(max(table_rank, ranks - 1), _SEQUENCE_TOP_RANK + 1):
        if end == table_rank and tops[end] <= table_top:
            continue
        if all(counts[rank] >= per_rank for rank in range(end - ranks + 1, end + 1)):
            return True
    return False


def can_beat(cards: int, table: Shape, rules: Rules = STANDARD) -> bool:
    """Return True when some combination of ``cards`` beats ``table`` (bombs included).

    Faster than ``legal_plays`` on large card sets (such as every card still unseen), because it only
    looks for one play instead of listing them all.
    """
    kind, length, top = table
    counts = [((cards >> (4 * rank)) & 15).bit_count() for rank in range(13)]
    tops = [4 * rank + ((cards >> (4 * rank)) & 15).bit_length() - 1 for rank in range(13)]
    table_rank = top >> 2
    if kind in _SAME_RANK_SIZE:
        size = _SAME_RANK_SIZE[kind]
        if counts[table_rank] >= size and tops[table_rank] > top:
            return True
        if any(counts[rank] >= size for rank in range(table_rank + 1, 13)):
            return True
    elif _has_run(
        counts, tops, 1 if kind == SEQUENCE else 2, length if kind == SEQUENCE else length // 2, top
    ):
        return True
    if table_rank == TWO and kind in (SINGLE, PAIR, TRIPLE):
        if _has_run(counts, tops, 2, length + 2, -1):
            return True
        quad_fits = kind == SINGLE or (kind == PAIR and rules.quad_beats_pair_of_twos)
        return quad_fits and 4 in counts
    if kind == QUAD and rules.double_sequence_beats_quad:
        return _has_run(counts, tops, 2, 4, -1)
    return False
