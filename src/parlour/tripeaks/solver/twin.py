"""The pure-Python twin of the compiled core (``_core.c``): the same algorithm, step for step.

Both take a position in the same low-level form and return the same answer, the same line and the same
node count, so that either can stand in for the other. docs/solver.md explains the algorithm. The full
answer is the sweep of ``sweep.py``; this module searches instead under "draw only when stuck", for any
win (``winnable_only=2``), and from a removed set play cannot reach. The search, in short:

* a state is (removed mask, the ranks of the free cards the discard top takes), with the number of
  cards drawn kept beside it. The top matters only through the free cards it takes (after one more move
  it is another card). A *draw state* has a top that takes no card: all there is to do is draw or play
  a joker, which every top can, so every removal also reaches the draw state of its cards, and draws
  are made from draw states only. The same state reached with more draws is never better (play the
  same cards, then draw up to the other state), so only the fewest draws count. Under "draw only when
  stuck" that argument fails and the number of draws becomes part of the key;
* a draw is a "macro" move to the first stock card of each rank still to come that fits a free card,
  unless an earlier such card's top takes every free card it takes;
* every win removes the same 28 cards, so the fewest moves are the fewest draws: pass 1 is an A*
  search on draws with a bucket queue (last in, first out inside a bucket), an admissible lower bound
  from rank components, rank parity and the depth of the stock cards that can start their chains;
* pass 2, only for a position without a win, finds the fewest cards left (then the fewest moves). It
  goes on from pass 1's states: from those pass 1 dropped as dead, by increasing draws, pruned by an
  upper bound on the cards that can still be removed.

Rank codes: 0 = ace … 12 = king, 13 = the joker (as a card) or a top that takes any card (the joker, or
an empty discard pile).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from parlour.tripeaks.layout import COVERS, TABLEAU_SIZE
from parlour.tripeaks.solver.answer import CoreAnswer

FULL: Final = (1 << TABLEAU_SIZE) - 1
WILD: Final = 13
CODES: Final = 14
ALL_RANKS: Final = 0x1FFF
F_SHIFT: Final = 28
K_SHIFT: Final = 41
ITEM_K_SHIFT: Final = 48
ITEM_KEY: Final = (1 << ITEM_K_SHIFT) - 1
IDX_SHIFT: Final = 53
LATER: Final = 1 << 63
"""Marks a bucket item standing for the draws still to make from a draw state, or, on a state whose top
takes cards, for a draw not recorded yet."""
NO_PARENT: Final = -1
DRAW_MOVE: Final = 28
MAX_STOCK: Final = 30
BUCKETS: Final = MAX_STOCK + 2
DRAW_AHEAD: Final = 4
"""Draws costing up to this much more than the current bucket are made at once: coming back for each
one later costs more than the few states made that are never used."""


def _covers() -> list[int]:
    """For each position, the bit mask of the positions it covers (the row above), from the layout."""
    return [sum(1 << q for q in COVERS[p]) for p in range(TABLEAU_SIZE)]


COVERS_MASK: Final = _covers()


def rank_steps(easy: bool) -> list[int]:
    """For each rank code, the mask of the ranks a top of that code takes (the joker's code takes all)."""
    steps = []
    for t in range(CODES):
        if t == WILD:
            steps.append(ALL_RANKS)
        elif easy:
            steps.append((1 << ((t + 1) % 13)) | (1 << ((t + 12) % 13)))
        else:
            steps.append((1 << (t + 1) if t < 12 else 0) | (1 << (t - 1) if t > 0 else 0))
    return steps


def _up_closures() -> list[int]:
    """For each position, itself and every position it covers, transitively."""
    covers = COVERS_MASK
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
    """The positions still there and no longer covered, for a removed mask."""
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


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _nth_fitting(stock: list[int], k: int, near: int, count: int) -> int:
    """Return the index of the ``count``-th stock card from index ``k`` on that is the joker or whose rank
    is in the mask ``near``, or -1 when the stock holds fewer than ``count`` such cards."""
    for x in range(k, len(stock)):
        code = stock[x]
        if code == WILD or near >> code & 1:
            count -= 1
            if count == 0:
                return x
    return -1


class _Components(NamedTuple):
    near: list[int]  # the ranks a card must have to start a chain in the component
    pos: list[int]  # the positions holding its cards
    need: list[int]  # the fewest chains that can clear it


class _Search:
    """One solve: the position, its tables and the search state."""

    def __init__(
        self, ranks: bytes, stock: bytes, easy: bool, draw_only_when_stuck: bool, node_limit: int
    ) -> None:
        self.rank = list(ranks)
        self.stock = list(stock)
        self.n = len(stock)
        self.easy = easy
        self.dows = draw_only_when_stuck
        self.limit = node_limit
        self.adjrank = rank_steps(easy)
        self.rankpos = [0] * CODES
        for p, r in enumerate(self.rank):
            self.rankpos[r] |= 1 << p
        self.adjpos = []
        for t in range(CODES):
            pos = self.rankpos[WILD]
            for r in _bits(self.adjrank[t]):
                pos |= self.rankpos[r]
            self.adjpos.append(pos)
        self.scnt = [[0] * CODES for _ in range(self.n + 1)]
        self.firsts: list[list[int]] = [[] for _ in range(self.n + 1)]
        for k in range(self.n - 1, -1, -1):
            self.scnt[k] = list(self.scnt[k + 1])
            self.scnt[k][self.stock[k]] += 1
            code = self.stock[k]
            self.firsts[k] = [k] + [x for x in self.firsts[k + 1] if self.stock[x] != code]
        self.smask = [sum(1 << r for r in range(13) if counts[r]) for counts in self.scnt]
        # key -> (draws, parent key, move): a position, DRAW_MOVE, or -1 at a root
        self.seen: dict[int, tuple[int, int, int]] = {}
        self.buckets: list[list[int]] = [[] for _ in range(BUCKETS)]
        self.dead: list[int] = []
        self.nodes = 0
        self.mode = 1
        self.any_win = False
        self.stop = False
        self.won = False
        self.win_key = NO_PARENT
        self.best_p = -1
        self.best_k = 1 << 20
        self.best_key = NO_PARENT

    def make_key(self, removed: int, k: int, ranks: int) -> int:
        key = removed | ranks << F_SHIFT
        if self.dows:
            key |= k << K_SHIFT
        return key

    def ranks_at(self, positions: int) -> int:
        """The ranks (13 bits, jokers left out) of the cards at these positions."""
        ranks = 0
        for p in _bits(positions):
            r = self.rank[p]
            if r != WILD:
                ranks |= 1 << r
        return ranks

    def pos_of(self, ranks: int) -> int:
        """The positions of the cards with these ranks."""
        pos = 0
        for r in _bits(ranks):
            pos |= self.rankpos[r]
        return pos

    def neighbours(self, ranks: int) -> int:
        if self.easy:
            return ((ranks << 1) | (ranks >> 1) | (ranks << 12) | (ranks >> 12)) & ALL_RANKS
        return ((ranks << 1) | (ranks >> 1)) & ALL_RANKS

    def jokers_left(self, removed: int) -> bool:
        return (~removed & FULL & self.rankpos[WILD]) != 0

    # ------------------------------------------------------------------------------------ bounds
    def components(self, removed: int) -> _Components:
        """The rank components of the cards left, each with the fewest chains that can clear it."""
        rest = ~removed & FULL
        cnt = [(rest & self.rankpos[r]).bit_count() for r in range(13)]
        present = 0
        for r in range(13):
            if cnt[r]:
                present |= 1 << r
        out = _Components([], [], [])
        if not present:
            return out
        if self.easy and present == ALL_RANKS:
            # The whole odd cycle: cut it at every edge and keep the strongest parity bound. The
            # alternating sum from just after edge e+1 is 2 * cnt[e+1] minus the one after edge e.
            best = 1
            imb = 0
            for i in range(13):
                imb += -cnt[(1 + i) % 13] if i & 1 else cnt[(1 + i) % 13]
            for e in range(13):
                a, b = cnt[e], cnt[(e + 1) % 13]
                cap = min(2 * a, 2 * b, a + b - 1)
                best = max(best, abs(imb) - cap)
                imb = 2 * b - imb
            out.near.append(present)
            out.pos.append(FULL & ~self.rankpos[WILD])
            out.need.append(best)
            return out
        start = 0
        if self.easy:
            while present >> start & 1:
                start += 1
            start = (start + 1) % 13  # a missing rank: walk the cycle from just after it
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
            out.near.append(self.neighbours(mask))
            out.pos.append(self.pos_of(mask))
            out.need.append(max(abs(imb), 1))
        return out

    def lower_bound(self, comp: _Components, jt: bool, k: int, fits: int) -> int:
        """Fewest draws still needed to win (admissible), or -1 when no win is possible any more."""
        total = deepest = 0
        stock, n = self.stock, self.n
        for near, pos, need in zip(comp.near, comp.pos, comp.need, strict=True):
            total += need
            if jt:
                continue  # the joker can carry a chain from one component into another
            # The chains of this component start on distinct stock cards that fit it (one may start on
            # the top): the last of them lies at least this deep in the stock.
            more = need - (1 if fits & pos else 0)
            if more <= 0:
                continue
            x = _nth_fitting(stock, k, near, more)
            if x < 0:
                return -1
            deepest = max(deepest, x + 1 - k)
        lb = total - (1 if jt else 0) - (1 if fits else 0)
        if not jt and lb > 0:
            # Those chains need as many distinct stock cards that fit some component: the last is this deep.
            near_all = 0
            for near in comp.near:
                near_all |= near
            x = _nth_fitting(stock, k, near_all, lb)
            if x < 0:
                return -1
            deepest = max(deepest, x + 1 - k)
        lb = max(lb, 0, deepest)
        return -1 if lb > n - k else lb

    def upper_bound(self, removed: int, comp: _Components, jt: bool, k: int, fits: int) -> int:
        """The most cards that can be removed in all, those removed so far included."""
        if jt or self.scnt[k][WILD] or fits & self.rankpos[WILD]:
            return TABLEAU_SIZE
        dead = 0
        for near, pos in zip(comp.near, comp.pos, strict=True):
            if fits & pos or self.smask[k] & near:
                continue
            dead |= pos
        dead &= ~removed
        blocked = 0
        for p in _bits(dead):
            blocked |= UP_CLOSURE[p]
        return TABLEAU_SIZE - (blocked & ~removed & FULL).bit_count()

    def priority(self, removed: int, comp: _Components, jt: bool, k: int, fits: int) -> int:
        """The bucket of a state, or -1 to drop it."""
        if self.mode == 1:
            h = self.lower_bound(comp, jt, k, fits)
            if self.any_win:
                return -1 if h < 0 else 0
            return -1 if h < 0 else k + h
        # pass 2 runs only once pass 1 proved that no win is left
        ub = min(self.upper_bound(removed, comp, jt, k, fits), TABLEAU_SIZE - 1)
        if ub < self.best_p or (ub == self.best_p and k >= self.best_k):
            return -1
        return k

    # ------------------------------------------------------------------------------------ search
    def note_best(self, removed: int, k: int, key: int) -> None:
        p = removed.bit_count()
        if p > self.best_p or (p == self.best_p and k < self.best_k):
            self.best_p, self.best_k, self.best_key = p, k, key

    def visit(self, key: int, k: int, parent: int, move: int) -> bool:
        """Record a state reached with k draws from parent by move; True when it is new or now reached
        with fewer draws."""
        known = self.seen.get(key)
        if known is not None and known[0] <= k:
            return False
        self.seen[key] = (k, parent, move)
        self.nodes += 1
        if self.nodes > self.limit:
            self.stop = True
            return False
        return True

    def push(self, bucket: int, key: int, k: int) -> None:
        self.buckets[bucket].append(key | k << ITEM_K_SHIFT)

    def drop(self, key: int, k: int) -> None:
        """A state pass 1 drops as dead: without a win, pass 2 starts from it."""
        if self.mode == 1 and not self.any_win:
            self.dead.append(key | k << ITEM_K_SHIFT)

    def remove_card(self, removed: int, k: int, p: int, key: int, f: int) -> None:
        """Remove the card at p from the state reached by key: its draw state and, when the new top
        takes a card, its chain state (explored at once when their bucket is the current one)."""
        removed2 = removed | 1 << p
        free2 = free_of(removed2)
        fits = free2 & self.adjpos[self.rank[p]]
        if removed2 == FULL:
            key2 = self.make_key(removed2, k, 0)
            if self.visit(key2, k, key, p):
                self.won = self.stop = True
                self.win_key = key2
                self.note_best(removed2, k, key2)
            return
        comp: _Components | None = None
        jt = self.jokers_left(removed2)
        ranks2 = self.ranks_at(fits)
        jokers = free2 & self.rankpos[WILD]
        if not self.dows or not ranks2:
            d2 = self.make_key(removed2, k, 0)
            if self.visit(d2, k, key, p):
                self.note_best(removed2, k, d2)
                comp = self.components(removed2)
                pr = self.priority(removed2, comp, jt, k, jokers)
                if pr > f:
                    self.push(pr, d2, k)
                elif pr >= 0:
                    self.expand_draws(removed2, k, d2, f, 0)
                else:
                    self.drop(d2, k)
        if not self.stop and ranks2:
            key2 = self.make_key(removed2, k, ranks2)
            if self.visit(key2, k, key, p):
                if self.dows:
                    self.note_best(removed2, k, key2)
                if comp is None:
                    comp = self.components(removed2)
                pr = self.priority(removed2, comp, jt, k, fits)
                if pr > f:
                    self.push(pr, key2, k)
                elif pr >= 0:
                    self.expand_chain(removed2, k, ranks2, key2, f)
                else:
                    self.drop(key2, k)

    def expand_chain(self, removed: int, k: int, ranks: int, key: int, f: int) -> None:
        """The removals from a state whose top takes cards of these ranks, depth-first."""
        free = free_of(removed)
        cand = free & self.pos_of(ranks)
        if self.dows:
            cand |= free & self.rankpos[WILD]
        while cand and not self.stop:
            low = cand & -cand
            cand ^= low
            self.remove_card(removed, k, low.bit_length() - 1, key, f)

    def expand_draws(self, removed: int, k: int, key: int, f: int, i0: int) -> None:
        """From a draw state: its jokers, then the draws to the first stock card of each rank that fits a
        free card (a later card of that rank, one that fits nothing, or one whose top takes no card an
        earlier one's does not, is no better), from the i0-th such card on. Only the draws that cost at
        most f + DRAW_AHEAD are made now; the rest wait in the bucket of the next one (none can cost
        less)."""
        free = free_of(removed)
        if i0 == 0:
            for p in _bits(free & self.rankpos[WILD]):
                if self.stop:
                    break
                self.remove_card(removed, k, p, key, f)
            if self.stop:
                return
            if self.dows:
                if free & self.rankpos[WILD] or k >= self.n:
                    return
                fits = free & self.adjpos[self.stock[k]]
                ranks = self.ranks_at(fits)
                key2 = self.make_key(removed, k + 1, ranks)
                if self.visit(key2, k + 1, key, DRAW_MOVE):
                    self.note_best(removed, k + 1, key2)
                    pr = self.priority(
                        removed, self.components(removed), self.jokers_left(removed), k + 1, fits
                    )
                    if pr > f:
                        self.push(pr, key2, k + 1)
                    elif pr >= 0:
                        if fits:
                            self.expand_chain(removed, k + 1, ranks, key2, f)
                        else:
                            self.expand_draws(removed, k + 1, key2, f, 0)
                    else:
                        self.drop(key2, k + 1)
                return
        firsts = self.firsts[k]
        end = i0
        horizon = MAX_STOCK + 1 if self.any_win else f + DRAW_AHEAD  # depth-first: every draw now
        while end < len(firsts) and firsts[end] + 1 <= horizon:
            end += 1
        if end < len(firsts):
            self.buckets[firsts[end] + 1].append(key | k << ITEM_K_SHIFT | end << IDX_SHIFT | LATER)
        comp: _Components | None = None
        jt = self.jokers_left(removed)
        # A draw whose top takes only cards that an earlier draw's top also takes is no better: the
        # earlier one can play everything it can, with fewer draws.
        fits_of = [free & self.adjpos[self.stock[x]] for x in firsts[:end]]
        for i in range(end - 1, i0 - 1, -1):
            x = firsts[i]
            fits = fits_of[i]
            if not fits or any(earlier & fits == fits for earlier in fits_of[:i]):
                continue
            key2 = self.make_key(removed, x + 1, self.ranks_at(fits))
            if comp is None:
                comp = self.components(removed)
            # The state is recorded only when its bucket comes (LATER marks it): many of them are past
            # the fewest draws and never do.
            pr = self.priority(removed, comp, jt, x + 1, fits)
            if pr >= 0:
                self.buckets[max(pr, f)].append(key2 | (x + 1) << ITEM_K_SHIFT | LATER)
            elif self.visit(key2, x + 1, key, DRAW_MOVE):
                self.drop(key2, x + 1)
            if self.stop:
                return

    def run(self, removed0: int, top: int) -> None:
        """Pass 1 from the position: its draw state and, when the top takes a card, its chain state."""
        free0 = free_of(removed0)
        fits0 = free0 & self.adjpos[top]
        if removed0 == FULL:
            root = self.make_key(removed0, 0, 0)
            self.visit(root, 0, NO_PARENT, -1)
            self.note_best(removed0, 0, root)
            self.won = self.stop = True
            self.win_key = root
            return
        comp = self.components(removed0)
        jt = self.jokers_left(removed0)
        ranks0 = self.ranks_at(fits0)
        jokers = free0 & self.rankpos[WILD]
        roots = []
        if not self.dows or not ranks0:
            roots.append((self.make_key(removed0, 0, 0), jokers))
        if ranks0:
            roots.append((self.make_key(removed0, 0, ranks0), fits0))
        for root, fits in roots:
            if self.visit(root, 0, NO_PARENT, -1):
                self.note_best(removed0, 0, root)
                pr = self.priority(removed0, comp, jt, 0, fits)
                if pr >= 0:
                    self.push(pr, root, 0)
                else:
                    self.drop(root, 0)
        self.drain()

    def run_best(self) -> None:
        """Pass 2, on from pass 1's states: from the states it dropped, by their draws, pruned by the
        best result so far."""
        self.mode = 2
        self.stop = False
        for item in self.dead:
            self.buckets[(item >> ITEM_K_SHIFT) & 31].append(item)
        self.drain()

    def drain(self) -> None:
        """Expand the states in the buckets, lowest bucket first, last in first out."""
        for f in range(BUCKETS):
            bucket = self.buckets[f]
            while bucket and not self.stop:
                item = bucket.pop()
                key = item & ITEM_KEY
                k = (item >> ITEM_K_SHIFT) & 31
                removed = key & FULL
                ranks = (key >> F_SHIFT) & ALL_RANKS
                if ranks and item & LATER:  # a draw made from the draw state of removed, recorded now
                    if not self.visit(key, k, self.make_key(removed, 0, 0), DRAW_MOVE):
                        continue
                elif self.seen[key][0] < k:
                    continue  # reached with fewer draws since: that one counts
                if ranks:
                    self.expand_chain(removed, k, ranks, key, f)
                else:
                    i0 = (item >> IDX_SHIFT) & 31 if item & LATER else 0
                    self.expand_draws(removed, k, key, f, i0)
            if self.stop:
                return

    def line_to(self, end: int) -> list[int]:
        """The moves from the root to a state: positions, and -1 for each draw."""
        chain: list[tuple[int, int]] = []
        key = end
        while True:
            k, parent, move = self.seen[key]
            chain.append((move, k))
            if parent == NO_PARENT:
                break
            key = parent
        line: list[int] = []
        k = chain[-1][1]
        for move, child_k in reversed(chain[:-1]):
            if move == DRAW_MOVE:
                # Catch up: a parent may since have been reached with fewer draws.
                line.extend([-1] * (child_k - k))
                k = child_k
            else:
                line.append(move)
        return line


def solve(
    ranks: bytes,
    removed: int,
    stock: bytes,
    top: int,
    easy: bool,
    draw_only_when_stuck: bool,
    node_limit: int,
    winnable_only: int,
) -> CoreAnswer:
    """Solve a position given as rank codes (see the module docstring).

    Args:
        ranks: 28 rank codes by position.
        removed: the bit mask of the positions already removed.
        stock: the rank codes of the cards still in the stock, top first.
        top: the rank code of the discard top (13 for the joker or an empty pile).
        easy: True when K and A are adjacent.
        draw_only_when_stuck: True when a draw is allowed only while no card fits.
        node_limit: stop, unproved, after visiting this many states.
        winnable_only: 0 for the full answer; 1 to skip pass 2 (the best result of a position
            without a win); 2 to skip it and also accept any win, found depth-first (much faster,
            but the line is then not the fewest moves).

    Returns:
        The ``CoreAnswer``.

    Raises:
        ValueError: the input is malformed.
    """
    if (
        len(ranks) != TABLEAU_SIZE
        or len(stock) > MAX_STOCK
        or not 0 <= top <= WILD
        or not 0 <= removed <= FULL
    ):
        raise ValueError("solve() needs 28 ranks, at most 30 stock cards, a top code 0-13")
    if any(r > WILD for r in ranks) or any(r > WILD for r in stock):
        raise ValueError("rank codes run from 0 to 13")
    # The sweep builds on this module's layout masks, so it is imported here, not above.
    from parlour.tripeaks.solver import sweep

    if not draw_only_when_stuck and winnable_only != 2 and sweep.reachable(removed):
        return sweep.sweep(ranks, stock, easy, removed, top, node_limit, winnable_only)
    search = _Search(ranks, stock, easy, draw_only_when_stuck, node_limit)
    search.any_win = winnable_only == 2
    search.run(removed, top)
    if search.won:
        line = search.line_to(search.win_key)
        return CoreAnswer(True, line, search.best_p, list(line), search.nodes, True)
    proved = not search.stop
    if proved and not winnable_only:
        search.run_best()  # pass 2: the best result; pass 1's best is a result to beat
        proved = not search.stop
    best_line = None if winnable_only and proved else search.line_to(search.best_key)
    return CoreAnswer(False, None, search.best_p, best_line, search.nodes, proved)
