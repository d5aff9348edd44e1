"""The pure-Python twin of the compiled core (``_core.c``): the same algorithm, step for step.

Both take a position in the same low-level form and return the same answer, the same line and the same
node count, so that either can stand in for the other. The algorithm is described in docs/solver.md:

* a state is (removed mask, cards drawn, rank code of the discard top), packed into one integer key;
* pass 1 is an A* search on the number of draws with a bucket queue (last in, first out inside a bucket),
  an admissible lower bound from rank components and rank parity, and dead-state pruning;
* a state is dominated by the same removed cards and top reached with fewer draws;
* pass 2, only for a position with no win, looks at every reachable state by increasing draws for the
  fewest cards left, pruned by an upper bound on the cards that can still be removed.

Rank codes: 0 = ace … 12 = king, 13 = the joker (as a card) or a top that takes any card (the joker, or
an empty discard pile).
"""

from __future__ import annotations

from typing import Final, NamedTuple

TABLEAU_SIZE: Final = 28
FULL: Final = (1 << TABLEAU_SIZE) - 1
WILD: Final = 13
ALL_RANKS: Final = 0x1FFF
K_SHIFT: Final = 28
T_SHIFT: Final = 33
NO_PARENT: Final = -1
MAX_STOCK: Final = 30


class CoreAnswer(NamedTuple):
    """The raw answer of a core: moves are positions 0–27 or -1 for a draw.

    ``winnable`` is True when a win was found (always one with the fewest draws); ``line`` is that win
    (None without one); ``best_removed`` and ``best_line`` give the best result found (the most cards
    removed, then the fewest moves; ``best_line`` is None when ``winnable_only`` skipped pass 2);
    ``nodes`` counts the states visited; ``proved`` is False when the node limit stopped the search.
    """

    winnable: bool
    line: list[int] | None
    best_removed: int
    best_line: list[int] | None
    nodes: int
    proved: bool


def _covers() -> list[int]:
    """For each position, the bit mask of the positions it covers (the row above)."""
    covers = [0] * TABLEAU_SIZE
    for t in range(3):
        covers[3 + 2 * t] |= 1 << t
        covers[4 + 2 * t] |= 1 << t
    for k in range(6):
        a = k + k // 2
        covers[9 + a] |= 1 << (3 + k)
        covers[10 + a] |= 1 << (3 + k)
    for j in range(9):
        covers[18 + j] |= 1 << (9 + j)
        covers[19 + j] |= 1 << (9 + j)
    return covers


def _up_closures() -> list[int]:
    """For each position, itself and every position it covers, transitively."""
    covers = _covers()
    closures = []
    for q in range(TABLEAU_SIZE):
        closure, frontier = 1 << q, covers[q]
        while frontier:
            closure |= frontier
            following = 0
            for p in range(TABLEAU_SIZE):
                if frontier >> p & 1:
                    following |= covers[p]
            frontier = following & ~closure
        closures.append(closure)
    return closures


UP_CLOSURE: Final = _up_closures()


def free_of(removed: int) -> int:
    """The positions that are still there and no longer covered, for a removed mask."""
    free = ~removed & (0x3FF << 18)
    r4 = (removed >> 18) & 0x3FF
    free |= (r4 & (r4 >> 1) & 0x1FF) << 9
    r3 = (removed >> 9) & 0x1FF
    q = r3 & (r3 >> 1)
    p2 = (
        (q & 1)
        | ((q >> 1) & 1) << 1
        | ((q >> 3) & 1) << 2
        | ((q >> 4) & 1) << 3
        | ((q >> 6) & 1) << 4
        | ((q >> 7) & 1) << 5
    )
    free |= p2 << 3
    r2 = (removed >> 3) & 0x3F
    q2 = r2 & (r2 >> 1)
    free |= (q2 & 1) | ((q2 >> 2) & 1) << 1 | ((q2 >> 4) & 1) << 2
    return free & ~removed & FULL


def _popcount(x: int) -> int:
    return bin(x).count("1")


class _Search:
    """One solve: the position, its precomputed tables and the search state."""

    def __init__(
        self, ranks: bytes, stock: bytes, easy: bool, draw_only_when_stuck: bool, node_limit: int
    ) -> None:
        self.rank = list(ranks)
        self.stock = list(stock)
        self.n = len(stock)
        self.easy = easy
        self.dows = draw_only_when_stuck
        self.limit = node_limit
        self.adjrank = []
        for t in range(WILD + 1):
            if t == WILD:
                ranks_mask = ALL_RANKS
            elif easy:
                ranks_mask = (1 << ((t + 1) % 13)) | (1 << ((t + 12) % 13))
            else:
                ranks_mask = (1 << (t + 1) if t < 12 else 0) | (1 << (t - 1) if t > 0 else 0)
            self.adjrank.append(ranks_mask)
        self.rankpos = [0] * (WILD + 1)
        for p, r in enumerate(self.rank):
            self.rankpos[r] |= 1 << p
        self.adjpos = []
        for t in range(WILD + 1):
            pos = self.rankpos[WILD]
            for r in range(13):
                if self.adjrank[t] >> r & 1:
                    pos |= self.rankpos[r]
            self.adjpos.append(pos)
        self.scnt = [[0] * (WILD + 1) for _ in range(self.n + 1)]
        for k in range(self.n - 1, -1, -1):
            self.scnt[k] = list(self.scnt[k + 1])
            self.scnt[k][self.stock[k]] += 1
        self.smask = [sum(1 << r for r in range(13) if counts[r]) for counts in self.scnt]
        self.seen: dict[int, int] = {}
        self.mink: dict[int, int] = {}
        self.buckets: list[list[int]] = [[] for _ in range(MAX_STOCK + 4)]
        self.nodes = 0
        self.mode = 1
        self.aborted = False
        self.win_key = NO_PARENT
        self.best_p = -1
        self.best_k = 1 << 20
        self.best_key = NO_PARENT

    # ------------------------------------------------------------------------------------ bounds
    def neighbours(self, ranks: int) -> int:
        if self.easy:
            return ((ranks << 1) | (ranks >> 1) | (ranks << 12) | (ranks >> 12)) & ALL_RANKS
        return ((ranks << 1) | (ranks >> 1)) & ALL_RANKS

    def components(self, cnt: list[int], present: int) -> list[tuple[int, int]]:
        """The rank components of the cards left, each with the chains it needs at least."""
        if self.easy and present == ALL_RANKS:
            best = 1
            for e in range(13):
                imb = 0
                for i in range(13):
                    v = cnt[(e + 1 + i) % 13]
                    imb += -v if i & 1 else v
                imb = abs(imb)
                a, b = cnt[e], cnt[(e + 1) % 13]
                cap = min(2 * a, 2 * b, a + b - 1)
                best = max(best, imb - cap)
            return [(present, best)]
        start = 0
        if self.easy:
            while present >> start & 1:
                start += 1
            start = (start + 1) % 13
        out = []
        i = 0
        while i < 13:
            r = (start + i) % 13
            if not present >> r & 1:
                i += 1
                continue
            mask = imb = 0
            sign = 1
            while i < 13:
                r = (start + i) % 13
                if not present >> r & 1:
                    break
                mask |= 1 << r
                imb += sign * cnt[r]
                sign = -sign
                i += 1
            out.append((mask, max(abs(imb), 1)))
        return out

    def starters(self, near: int, k: int) -> int:
        counts = self.scnt[k]
        s = counts[WILD]
        for r in range(13):
            if near >> r & 1:
                s += counts[r]
        return s

    def lower_bound(self, cnt: list[int], k: int, top: int) -> int:
        present = _rank_set(cnt)
        if not present:
            return 0
        jt = 1 if cnt[WILD] > 0 else 0
        total = topuse = 0
        for mask, need in self.components(cnt, present):
            topadj = 1 if top == WILD or self.adjrank[top] & mask else 0
            if not jt and need > self.starters(mask | self.neighbours(mask), k) + topadj:
                return -1
            total += need
            topuse |= topadj
        lb = max(total - jt - topuse, 0)
        return -1 if lb > self.n - k else lb

    def upper_bound(self, removed: int, cnt: list[int], k: int, top: int) -> int:
        if cnt[WILD] or self.scnt[k][WILD] or top == WILD:
            return TABLEAU_SIZE
        dead = 0
        for mask, _need in self.components(cnt, _rank_set(cnt)):
            if self.adjrank[top] & mask:
                continue
            if self.smask[k] & (mask | self.neighbours(mask)):
                continue
            for r in range(13):
                if mask >> r & 1:
                    dead |= self.rankpos[r]
        dead &= ~removed
        blocked = 0
        for p in range(TABLEAU_SIZE):
            if dead >> p & 1:
                blocked |= UP_CLOSURE[p]
        return TABLEAU_SIZE - _popcount(blocked & ~removed & FULL)

    # ------------------------------------------------------------------------------------ search
    def note_best(self, removed: int, k: int, key: int) -> None:
        p = _popcount(removed)
        if p > self.best_p or (p == self.best_p and k < self.best_k):
            self.best_p, self.best_k, self.best_key = p, k, key

    def priority(self, removed: int, cnt: list[int], k: int, top: int) -> int:
        if self.mode == 1:
            h = self.lower_bound(cnt, k, top)
            return -1 if h < 0 else k + h
        ub = self.upper_bound(removed, cnt, k, top)
        if ub < self.best_p or (ub == self.best_p and k >= self.best_k):
            return -1
        return k

    def fresh(self, key: int) -> bool:
        """True when a state reached by a removal is new and not dominated by the same cards and top
        reached with fewer draws (that state can play the same cards, then draw up to here). States
        reached by a draw are never pruned that way: a dominating state's catching-up draws pass there.
        """
        if key in self.seen:
            return False
        best = self.mink.get(key & ~(31 << K_SHIFT))
        return not (best is not None and best < (key >> K_SHIFT) & 31)

    def visit(self, key: int, parent: int) -> bool:
        self.seen[key] = parent
        self.mink[key & ~(31 << K_SHIFT)] = (key >> K_SHIFT) & 31
        self.nodes += 1
        if self.nodes > self.limit:
            self.aborted = True
            return False
        return True

    def expand(self, removed: int, k: int, top: int, cnt: list[int], key: int, f: int) -> bool:
        """Depth-first through the removals from one state; True means stop (a win or the limit)."""
        cand = free_of(removed) & self.adjpos[top]
        if k < self.n and not (self.dows and cand):
            t2 = self.stock[k]
            key2 = removed | (k + 1) << K_SHIFT | t2 << T_SHIFT
            if key2 not in self.seen:
                if not self.visit(key2, key):
                    return True
                pr = self.priority(removed, cnt, k + 1, t2)
                if pr >= 0:
                    self.buckets[max(pr, f)].append(key2)
        while cand:
            low = cand & -cand
            cand ^= low
            p = low.bit_length() - 1
            removed2 = removed | low
            t2 = self.rank[p]
            key2 = removed2 | k << K_SHIFT | t2 << T_SHIFT
            if not self.fresh(key2):
                continue
            if not self.visit(key2, key):
                return True
            if removed2 == FULL:
                self.win_key = key2
                return True
            cnt[t2] -= 1
            self.note_best(removed2, k, key2)
            pr = self.priority(removed2, cnt, k, t2)
            stop = False
            if pr > f:
                self.buckets[pr].append(key2)
            elif pr >= 0:
                stop = self.expand(removed2, k, t2, cnt, key2, f)
            cnt[t2] += 1
            if stop:
                return True
        return False

    def counts_of(self, removed: int) -> list[int]:
        cnt = [0] * (WILD + 1)
        for p in range(TABLEAU_SIZE):
            if not removed >> p & 1:
                cnt[self.rank[p]] += 1
        return cnt

    def run(self, root: int) -> None:
        for bucket in self.buckets:
            bucket.clear()
        if root in self.seen:
            return
        if not self.visit(root, NO_PARENT):
            return
        removed0 = root & FULL
        if removed0 == FULL:
            self.win_key = root
            return
        cnt = self.counts_of(removed0)
        k0, t0 = (root >> K_SHIFT) & 31, (root >> T_SHIFT) & 15
        self.note_best(removed0, k0, root)
        pr = self.priority(removed0, cnt, k0, t0)
        if pr < 0:
            return
        self.buckets[pr].append(root)
        for f, bucket in enumerate(self.buckets):
            while bucket:
                key = bucket.pop()
                removed = key & FULL
                cnt = self.counts_of(removed)
                if self.expand(removed, (key >> K_SHIFT) & 31, (key >> T_SHIFT) & 15, cnt, key, f):
                    return

    def line_to(self, end: int) -> list[int]:
        line = []
        key = end
        while True:
            parent = self.seen[key]
            if parent == NO_PARENT:
                break
            if (key >> K_SHIFT) & 31 != (parent >> K_SHIFT) & 31:
                line.append(-1)
            else:
                line.append(((key ^ parent) & FULL).bit_length() - 1)
            key = parent
        line.reverse()
        return line


def _rank_set(cnt: list[int]) -> int:
    present = 0
    for r in range(13):
        if cnt[r]:
            present |= 1 << r
    return present


def solve(
    ranks: bytes,
    removed: int,
    stock: bytes,
    top: int,
    easy: bool,
    draw_only_when_stuck: bool,
    node_limit: int,
    winnable_only: bool,
) -> CoreAnswer:
    """Solve a position given as rank codes (see the module docstring).

    Args:
        ranks: 28 rank codes by position.
        removed: the bit mask of the positions already removed.
        stock: the rank codes of the cards still in the stock, top first.
        top: the rank code of the discard top (13 for the joker or an empty pile).
        easy: True when K and A are adjacent.
        draw_only_when_stuck: True when a draw is allowed only while no card fits.
        node_limit: stop (unproved) after visiting this many states.
        winnable_only: skip pass 2 (the best result of a position without a win).

    Returns:
        The ``CoreAnswer``.

    Raises:
        ValueError: the input is malformed.
    """
    if len(ranks) != TABLEAU_SIZE or len(stock) > MAX_STOCK or not 0 <= top <= WILD:
        raise ValueError("solve() needs 28 ranks, at most 30 stock cards, a top code 0-13")
    if not 0 <= removed <= FULL or any(r > WILD for r in ranks) or any(r > WILD for r in stock):
        raise ValueError("rank codes run from 0 to 13")
    search = _Search(ranks, stock, easy, draw_only_when_stuck, node_limit)
    root = removed | top << T_SHIFT
    search.run(root)
    if search.win_key != NO_PARENT:
        line = search.line_to(search.win_key)
        return CoreAnswer(True, line, TABLEAU_SIZE, line, search.nodes, True)
    proved = not search.aborted
    best_line: list[int] | None = None
    if proved and not winnable_only:
        best_line = search.line_to(search.best_key)
        first_best = search.best_key
        search.seen = {}
        search.mink = {}
        search.mode = 2
        search.run(root)
        proved = not search.aborted
        if search.best_key != first_best:
            best_line = search.line_to(search.best_key)
    elif not proved:
        best_line = search.line_to(search.best_key)
    return CoreAnswer(False, None, search.best_p, best_line, search.nodes, proved)
