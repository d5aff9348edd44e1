"""The exact sweep: the full answer without a search. The pure-Python twin of the compiled core's sweep
(``_core.c``), step for step: the same answers, lines and node counts.

Without "draw only when stuck", a state is a set of removed cards with the rank of the discard top, and
only its fewest draws count: the same state reached with more draws can do nothing more (play the same
cards, then draw up to the other). Removals only add cards, so when the sets are taken in order of size,
every state's fewest draws are final by the time its set comes up. One pass over the sets therefore
gives the fewest draws of every state, with no queue and no bound:

* a set's states are 14 numbers, the fewest draws with each top rank (``INF`` for none); its fewest
  draws ``K`` are the least of them;
* from a set reached with ``K`` draws, a draw can make the top any stock card from index ``K`` on, and
  the first card of each rank there is the one that costs fewest draws (its index plus one);
* each free card whose rank a top takes is removed: the set with that card removed too gets the card's
  rank as its top, with the fewest draws of the tops that take it.

Every win removes the same cards, so the fewest moves of a win are the cards left plus the fewest draws
of the full set; the best result of a lost position is the largest set reached, then the fewest draws.
The sets are the 22,932 that play can reach in the layout (a card goes only once both cards on it are
gone), the same for every deal, so they and the removals between them are listed once.
"""

from __future__ import annotations

from functools import cache
from typing import Final, NamedTuple

from parlour.tripeaks.layout import TABLEAU_SIZE
from parlour.tripeaks.solver.answer import CoreAnswer
from parlour.tripeaks.solver.twin import CODES, COVERS_MASK, FULL, WILD, free_of, rank_steps

INF: Final = 255
"""The fewest draws of a state not reached (a byte, as in the compiled core)."""


class _Layout(NamedTuple):
    sets: list[int]  # by size, then by value
    index_of: dict[int, int]
    edges: list[list[tuple[int, int]]]  # per set: (free position, index of the set with it removed)


@cache
def _layout() -> _Layout:
    found = {0}
    frontier = [0]
    while frontier:
        following = []
        for removed in frontier:
            free = free_of(removed)
            for p in range(TABLEAU_SIZE):
                if free >> p & 1 and removed | 1 << p not in found:
                    found.add(removed | 1 << p)
                    following.append(removed | 1 << p)
        frontier = following
    sets = sorted(found, key=lambda removed: (removed.bit_count(), removed))
    index = {removed: i for i, removed in enumerate(sets)}
    edges = []
    for removed in sets:
        free = free_of(removed)
        edges.append([(p, index[removed | 1 << p]) for p in range(TABLEAU_SIZE) if free >> p & 1])
    return _Layout(sets, index, edges)


def reachable(removed: int) -> bool:
    """True when play can reach the set of removed positions (no card gone while one on it is there)."""
    return removed in _layout().index_of


def _draw_table(stock: bytes) -> list[list[int]]:
    """``table[k][r]``: one more than the index of the first stock card of rank code r from index k on,
    ``INF`` for none."""
    table = [[INF] * CODES for _ in range(len(stock) + 1)]
    for k in range(len(stock) - 1, -1, -1):
        table[k] = list(table[k + 1])
        table[k][stock[k]] = k + 1
    return table


class _Sweep:
    def __init__(self, ranks: bytes, stock: bytes, easy: bool) -> None:
        self.rank = list(ranks)
        self.nxt = _draw_table(stock)
        # The rank below and above each rank, or CODES (the INF that tops() appends) where there is none.
        self.below = [(q + 12) % 13 if easy else (q - 1 if q > 0 else CODES) for q in range(13)]
        self.above = [(q + 1) % 13 if easy else (q + 1 if q < 12 else CODES) for q in range(13)]
        # The ranks a top of each code takes, the joker's code among them (a joker fits every top).
        self.takes = [steps | 1 << WILD for steps in rank_steps(easy)]

    def tops(self, best: bytearray, i: int) -> tuple[int, list[int]]:
        """The set's fewest draws K (INF when not reached) and the fewest draws of each top rank once a
        draw may be made, with an INF at the end for a missing neighbour."""
        b = best[16 * i : 16 * i + CODES]
        k = min(b)
        if k == INF:
            return INF, []
        return k, [min(x, y) for x, y in zip(b, self.nxt[k], strict=True)] + [INF]

    def fits(self, eff: list[int], k: int) -> list[int]:
        """The fewest draws with which a card of each rank code can be played."""
        wild = eff[WILD]
        below, above = self.below, self.above
        return [min(eff[below[q]], eff[above[q]], wild) for q in range(13)] + [k]


def sweep(
    ranks: bytes, stock: bytes, easy: bool, removed: int, top: int, node_limit: int, winnable_only: int
) -> CoreAnswer:
    """The full answer from a position whose removed set play can reach (see ``reachable``);
    ``winnable_only`` leaves out the line of the best result of a position without a win. The arguments
    are those of ``twin.solve``, already checked."""
    layout = _layout()
    sets, edges = layout.sets, layout.edges
    state = _Sweep(ranks, stock, easy)
    rank = state.rank
    best = bytearray([INF]) * (16 * len(sets))
    i0 = layout.index_of[removed]
    best[16 * i0 + top] = 0
    nodes, stop, won = 0, False, False
    best_p, best_k, best_i = -1, 1 << 20, -1
    for i in range(i0, len(sets)):
        k, eff = state.tops(best, i)
        if k == INF:
            continue
        nodes += 1
        if nodes > node_limit:
            stop = True
            break
        size = sets[i].bit_count()
        if size > best_p or (size == best_p and k < best_k):
            best_p, best_k, best_i = size, k, i
        if sets[i] == FULL:
            won = True
            break
        cand = state.fits(eff, k)
        for p, j in edges[i]:
            q = rank[p]
            at = 16 * j + q
            if cand[q] < best[at]:
                best[at] = cand[q]
    if won:
        line = _line(state, best, removed, best_i)
        return CoreAnswer(True, line, best_p, list(line), nodes, True)
    best_line = None if winnable_only and not stop else _line(state, best, removed, best_i)
    return CoreAnswer(False, None, best_p, best_line, nodes, not stop)


def _line(state: _Sweep, best: bytearray, removed0: int, end: int) -> list[int]:
    """The moves to the set of index ``end`` with its fewest draws, from the sweep's table: positions,
    and -1 for each draw. Walked back from the end: a last card whose rank is the top needed, from a set
    where a top that takes it had the same draws; a draw when that top was a stock card."""
    layout = _layout()
    sets, index, rank = layout.sets, layout.index_of, state.rank
    reverse: list[int] = []
    i = end
    v = min(best[16 * i : 16 * i + CODES])
    need = -1
    while True:
        removed = sets[i]
        if need < 0:
            need = best[16 * i : 16 * i + CODES].index(v)
        if removed == removed0:  # only the position's own top is reached there
            break
        for p in range(TABLEAU_SIZE):
            if not (removed & ~removed0) >> p & 1 or rank[p] != need or COVERS_MASK[p] & removed:
                continue
            j = index[removed & ~(1 << p)]
            k, eff = state.tops(best, j)
            if k == INF or state.fits(eff, k)[need] != v:
                continue
            reverse.append(p)
            before = best[16 * j : 16 * j + CODES]
            u = next((r for r in range(CODES) if before[r] == v and state.takes[r] >> need & 1), -1)
            if u < 0:  # the top was drawn: the draws from the set's fewest on
                reverse.extend([-1] * (v - k))
                v = k
            need, i = u, j
            break
        else:  # pragma: no cover - every value came from such a card
            raise AssertionError("the sweep's table has no way back")
    reverse.reverse()
    return reverse
