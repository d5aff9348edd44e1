/*
 * The compiled core of Parlour's TriPeaks solver.
 *
 * The algorithm is the one of twin.py, step for step, so that both give the same answers, the same lines
 * and the same node counts.  docs/solver.md explains it; in short:
 *
 *  - a state is (removed mask, rank code of the discard top) with the number of cards drawn stored
 *    beside it: the same cards and top reached with more draws is never better (play the same cards,
 *    then draw up to the other state), so only the fewest draws are kept.  Under the variant "draw only
 *    when stuck" that argument fails and the number of draws becomes part of the key;
 *  - a draw is a "macro" move to the first stock card of each rank still to come;
 *  - every win removes the same 28 cards, so the fewest moves are the fewest draws: pass 1 is an A*
 *    search on draws with a bucket queue (last in, first out inside a bucket), an admissible lower
 *    bound from rank components and rank parity, and dead-state pruning;
 *  - pass 2, only for a position without a win, finds the fewest cards left (then the fewest moves),
 *    by increasing draws, pruned by an upper bound on the cards that can still be removed.
 *
 * Only the standard library and the Python C API are used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NPOS 28
#define FULL ((1u << NPOS) - 1u)
#define WILD 13
#define NCODES 14
#define MAXSTOCK 30
#define NBUCKETS (MAXSTOCK + 2)
#define NO_PARENT ((uint64_t)0xFFFFFFFFFFFFFFull)
#define F_SHIFT 28
#define K_SHIFT 41
#define ITEM_SHIFT 48
#define IDX_SHIFT 53
#define LATER ((uint64_t)1 << 63) /* a bucket item standing for the draws still to make from a state */

/* ---- hash map of visited states, one 64-bit word each ----
 *
 *   bits  0..40  key without draws: removed mask (28) | ranks the top takes (13)
 *   bits 41..45  draws (part of the key only under "draw only when stuck")
 *   bits 46..58  the parent's ranks-the-top-takes
 *   bits 59..63  31 - move from the parent: a position 0..27, DRAW_MOVE or ROOT_MOVE; 0 = empty slot
 */

#define KF_SHIFT 41
#define PF_SHIFT 46
#define MV_SHIFT 59
#define DRAW_MOVE 28
#define ROOT_MOVE 29

typedef uint64_t Slot;

typedef struct {
    Slot *slots;
    size_t cap, used;
    uint64_t keymask;
} Map;

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

static int map_init(Map *m, size_t cap, uint64_t keymask) {
    m->cap = cap;
    m->used = 0;
    m->keymask = keymask;
    m->slots = calloc(cap, sizeof(Slot));
    return m->slots != NULL;
}

static void map_free(Map *m) {
    free(m->slots);
    m->slots = NULL;
}

static inline Slot *map_find(const Map *m, uint64_t key) {
    size_t mask = m->cap - 1, i = mix(key) & mask;
    for (;;) {
        Slot *s = &m->slots[i];
        if (!*s || (*s & m->keymask) == key) return s;
        i = (i + 1) & mask;
    }
}

static int map_grow(Map *m) {
    Map n;
    if (!map_init(&n, m->cap * 2, m->keymask)) return 0;
    for (size_t j = 0; j < m->cap; j++) {
        if (!m->slots[j]) continue;
        *map_find(&n, m->slots[j] & m->keymask) = m->slots[j];
    }
    n.used = m->used;
    map_free(m);
    *m = n;
    return 1;
}

static inline int slot_draws(Slot s) { return (int)((s >> KF_SHIFT) & 31); }
static inline int slot_move(Slot s) { return 31 - (int)(s >> MV_SHIFT); }
static inline uint32_t slot_parent_ranks(Slot s) { return (uint32_t)((s >> PF_SHIFT) & 0x1FFFu); }

/* ---- the position being solved ---- */

typedef struct {
    uint32_t mask[13];
    uint32_t near[13]; /* the ranks a card must have to start a chain in the component */
    uint32_t pos[13];  /* the positions holding its cards */
    int need[13];
    int count;
} Components;

typedef struct {
    uint8_t rank[NPOS];
    uint8_t stock[MAXSTOCK];
    int n;
    int easy, dows;
    uint32_t adjpos[NCODES];
    uint32_t adjrank[NCODES];
    uint32_t rankpos[NCODES];
    uint32_t upclosure[NPOS];
    int scnt[MAXSTOCK + 1][NCODES];
    uint32_t smask[MAXSTOCK + 1];
    int8_t firsts[MAXSTOCK + 1][NCODES]; /* stock indices >= k holding the first card of their code */
    int nfirsts[MAXSTOCK + 1];
    Map seen;
    uint64_t *bucket[NBUCKETS];
    size_t blen[NBUCKETS], bcap[NBUCKETS];
    long long nodes, limit;
    int mode;
    int any_win; /* only whether a win exists: search depth-first instead of by draws */
    int stop, oom, won;
    uint64_t win_key;
    int best_p, best_k;
    uint64_t best_key;
} Ctx;

/* A state's key: the removed cards, the ranks of the free cards the top takes (all the top matters
 * for: after one more move the top is another card) and, only when drawing is restricted, the draws. */
static inline uint64_t make_key(const Ctx *c, uint32_t R, int k, uint32_t F) {
    uint64_t key = (uint64_t)R | ((uint64_t)F << F_SHIFT);
    if (c->dows) key |= (uint64_t)k << K_SHIFT;
    return key;
}

/* The ranks (13 bits, jokers left out) of the cards at these positions. */
static inline uint32_t ranks_at(const Ctx *c, uint32_t positions) {
    uint32_t F = 0;
    for (; positions; positions &= positions - 1) {
        int r = c->rank[__builtin_ctz(positions)];
        if (r != WILD) F |= 1u << r;
    }
    return F;
}

/* The free cards a top accepting the ranks F takes (a free joker fits every top). */
static inline uint32_t fitting(const Ctx *c, uint32_t fr, uint32_t F) {
    uint32_t pos = c->rankpos[WILD];
    for (; F; F &= F - 1) pos |= c->rankpos[__builtin_ctz(F)];
    return fr & pos;
}

static inline uint32_t free_of(uint32_t R) {
    uint32_t f = (~R) & (0x3FFu << 18);
    uint32_t r4 = (R >> 18) & 0x3FFu;
    f |= (r4 & (r4 >> 1) & 0x1FFu) << 9;
    uint32_t r3 = (R >> 9) & 0x1FFu;
    uint32_t q = r3 & (r3 >> 1);
    uint32_t p2 = (q & 1u) | (((q >> 1) & 1u) << 1) | (((q >> 3) & 1u) << 2) | (((q >> 4) & 1u) << 3) |
                  (((q >> 6) & 1u) << 4) | (((q >> 7) & 1u) << 5);
    f |= p2 << 3;
    uint32_t r2 = (R >> 3) & 0x3Fu;
    uint32_t q2 = r2 & (r2 >> 1);
    f |= (q2 & 1u) | (((q2 >> 2) & 1u) << 1) | (((q2 >> 4) & 1u) << 2);
    return f & ~R;
}

static inline uint32_t neighbours(const Ctx *c, uint32_t ranks) {
    if (c->easy) return ((ranks << 1) | (ranks >> 1) | (ranks << 12) | (ranks >> 12)) & 0x1FFFu;
    return ((ranks << 1) | (ranks >> 1)) & 0x1FFFu;
}

static inline uint32_t rank_set(const int *cnt) {
    uint32_t S = 0;
    for (int r = 0; r < 13; r++)
        if (cnt[r]) S |= 1u << r;
    return S;
}

/* The rank components of the cards left, each with the fewest chains that can clear it. */
static void components(const Ctx *c, const int *cnt, Components *out) {
    uint32_t S = rank_set(cnt);
    out->count = 0;
    if (!S) return;
    if (c->easy && S == 0x1FFFu) {
        /* The whole odd cycle: cut it at every edge and keep the strongest parity bound.  The alternating
         * sum from just after edge e+1 is 2 * cnt[e+1] minus the one from just after edge e. */
        int best = 1, imb = 0;
        for (int i = 0; i < 13; i++) imb += (i & 1) ? -cnt[(1 + i) % 13] : cnt[(1 + i) % 13];
        for (int e = 0; e < 13; e++) {
            int a = cnt[e], b = cnt[(e + 1) % 13];
            int cap = 2 * a;
            if (2 * b < cap) cap = 2 * b;
            if (a + b - 1 < cap) cap = a + b - 1;
            int need = (imb < 0 ? -imb : imb) - cap;
            if (need > best) best = need;
            imb = 2 * b - imb;
        }
        out->mask[0] = S;
        out->near[0] = S;
        out->pos[0] = FULL & ~c->rankpos[WILD];
        out->need[0] = best;
        out->count = 1;
        return;
    }
    int start = 0;
    if (c->easy) {
        while (S & (1u << start)) start++; /* a missing rank: walk the cycle from just after it */
        start = (start + 1) % 13;
    }
    int i = 0;
    while (i < 13) {
        int r = (start + i) % 13;
        if (!(S & (1u << r))) {
            i++;
            continue;
        }
        uint32_t m = 0;
        int imb = 0, sign = 1;
        while (i < 13) {
            r = (start + i) % 13;
            if (!(S & (1u << r))) break;
            m |= 1u << r;
            imb += sign * cnt[r];
            sign = -sign;
            i++;
        }
        if (imb < 0) imb = -imb;
        out->mask[out->count] = m;
        out->near[out->count] = neighbours(c, m);
        uint32_t pos = 0;
        for (uint32_t bits = m; bits; bits &= bits - 1) pos |= c->rankpos[__builtin_ctz(bits)];
        out->pos[out->count] = pos;
        out->need[out->count] = imb > 1 ? imb : 1;
        out->count++;
    }
}

/* Fewest draws still needed to win (admissible), or -1 when no win is possible any more.  The top can
 * start one chain without a draw, and only on a card that is free now (fits = free cards it takes). */
static int lower_bound(const Ctx *c, const Components *comp, int jt, int k, uint32_t fits) {
    int total = 0, deepest = 0;
    for (int i = 0; i < comp->count; i++) {
        int need = comp->need[i];
        total += need;
        if (jt) continue; /* the joker can carry a chain from one component into another */
        /* The chains of this component start on distinct stock cards that fit it (one may start on the
         * top): the last of them lies at least this deep in the stock. */
        int more = need - ((fits & comp->pos[i]) != 0);
        if (more <= 0) continue;
        uint32_t near = comp->near[i];
        int x = k;
        for (; x < c->n; x++) {
            int code = c->stock[x];
            if (code == WILD || (near & (1u << code))) {
                if (--more == 0) break;
            }
        }
        if (x >= c->n) return -1;
        if (x + 1 - k > deepest) deepest = x + 1 - k;
    }
    int lb = total - jt - (fits != 0);
    if (!jt && lb > 0) {
        /* Those chains need as many distinct stock cards that fit some component: the last is this deep. */
        uint32_t near = 0;
        for (int i = 0; i < comp->count; i++) near |= comp->near[i];
        int more = lb, x = k;
        for (; x < c->n; x++) {
            int code = c->stock[x];
            if ((code == WILD || (near & (1u << code))) && --more == 0) break;
        }
        if (x >= c->n) return -1;
        if (x + 1 - k > deepest) deepest = x + 1 - k;
    }
    if (lb < deepest) lb = deepest;
    if (lb > c->n - k) return -1;
    return lb;
}

/* The most cards that can be removed in all (those removed so far included): a component that no
 * card still to come and no free card under the top can enter is never removed, nor what it covers. */
static int upper_bound(const Ctx *c, uint32_t R, const Components *comp, int jt, int k, uint32_t fits) {
    if (jt || c->scnt[k][WILD] || (fits & c->rankpos[WILD])) return NPOS;
    uint32_t dead = 0;
    for (int i = 0; i < comp->count; i++) {
        if ((fits & comp->pos[i]) != 0 || (c->smask[k] & comp->near[i]) != 0) continue;
        dead |= comp->pos[i];
    }
    dead &= ~R;
    uint32_t blocked = 0;
    while (dead) {
        int p = __builtin_ctz(dead);
        dead &= dead - 1;
        blocked |= c->upclosure[p];
    }
    return NPOS - __builtin_popcount(blocked & ~R);
}

/* Priority (bucket) of a state, or -1 to drop it. */
static int priority(Ctx *c, uint32_t R, const Components *comp, int jt, int k, uint32_t fits) {
    if (c->mode == 1) {
        int h = lower_bound(c, comp, jt, k, fits);
        if (c->any_win) return h < 0 ? -1 : 0;
        return h < 0 ? -1 : k + h;
    }
    int ub = upper_bound(c, R, comp, jt, k, fits);
    if (ub < c->best_p || (ub == c->best_p && k >= c->best_k)) return -1;
    return k;
}

static inline void note_best(Ctx *c, uint32_t R, int k, uint64_t key) {
    int p = __builtin_popcount(R);
    if (p > c->best_p || (p == c->best_p && k < c->best_k)) {
        c->best_p = p;
        c->best_k = k;
        c->best_key = key;
    }
}

/* Record a state reached with k draws from parent; 1 when it is new or now reached with fewer draws. */
static int visit(Ctx *c, uint64_t key, int k, uint64_t parent) {
    Slot *s = map_find(&c->seen, key);
    if (*s) {
        if (slot_draws(*s) <= k) return 0;
    } else {
        if ((c->seen.used + 1) * 2 > c->seen.cap) {
            if (!map_grow(&c->seen)) {
                c->oom = c->stop = 1;
                return 0;
            }
            s = map_find(&c->seen, key);
        }
        c->seen.used++;
    }
    int move = ROOT_MOVE;
    uint64_t parent_ranks = 0;
    if (parent != NO_PARENT) {
        uint32_t changed = (uint32_t)((key ^ parent) & FULL);
        move = changed ? __builtin_ctz(changed) : DRAW_MOVE;
        parent_ranks = (parent >> F_SHIFT) & 0x1FFFu;
    }
    *s = key | ((uint64_t)k << KF_SHIFT) | (parent_ranks << PF_SHIFT) | ((uint64_t)(31 - move) << MV_SHIFT);
    if (++c->nodes > c->limit) {
        c->stop = 1;
        return 0;
    }
    return 1;
}

static inline int draws_of(const Ctx *c, uint64_t key) { return slot_draws(*map_find(&c->seen, key)); }

static void push(Ctx *c, int b, uint64_t key, int k) {
    if (c->blen[b] == c->bcap[b]) {
        size_t cap = c->bcap[b] ? c->bcap[b] * 2 : 256;
        uint64_t *items = realloc(c->bucket[b], cap * sizeof(uint64_t));
        if (!items) {
            c->oom = c->stop = 1;
            return;
        }
        c->bucket[b] = items;
        c->bcap[b] = cap;
    }
    c->bucket[b][c->blen[b]++] = key | ((uint64_t)k << ITEM_SHIFT);
}

/* Draws from a state to the first stock card of each rank that fits a free card (a later card of the
 * same rank, or one that fits nothing, is never better), from the i0-th such card on.  Only the draws
 * that cost at most f are made now; the rest wait in the bucket of the next one (none can cost less). */
static void draw_successors(Ctx *c, uint32_t R, int k, uint32_t fr, const Components *comp, int jt,
                            uint64_t key, int f, int i0) {
    int n = c->nfirsts[k], end = i0;
    int horizon = c->any_win ? MAXSTOCK + 1 : f; /* depth-first: every draw now */
    while (end < n && c->firsts[k][end] + 1 <= horizon) end++;
    if (end < n) {
        int b = c->firsts[k][end] + 1;
        push(c, b, key, k);
        if (c->stop) return;
        c->bucket[b][c->blen[b] - 1] |= ((uint64_t)end << IDX_SHIFT) | LATER;
    }
    for (int i = end - 1; i >= i0; i--) {
        int x = c->firsts[k][i];
        uint32_t fits = fr & c->adjpos[c->stock[x]];
        if (!fits) continue;
        uint64_t key2 = make_key(c, R, x + 1, ranks_at(c, fits));
        if (visit(c, key2, x + 1, key)) {
            note_best(c, R, x + 1, key2);
            int pr = priority(c, R, comp, jt, x + 1, fits);
            if (pr >= 0) push(c, pr > f ? pr : f, key2, x + 1);
        }
        if (c->stop) return;
    }
}

/* Depth-first through the removals from one state, with its draws (see draw_successors). */
static void expand(Ctx *c, uint32_t R, int k, uint32_t F, int *cnt, uint64_t key, int f) {
    uint32_t fr = free_of(R);
    uint32_t cand = fitting(c, fr, F);
    Components comp;
    components(c, cnt, &comp);
    int jt = cnt[WILD] > 0;
    if (c->dows) {
        if (!cand && k < c->n) {
            uint32_t fits = fr & c->adjpos[c->stock[k]];
            uint64_t key2 = make_key(c, R, k + 1, ranks_at(c, fits));
            if (visit(c, key2, k + 1, key)) {
                note_best(c, R, k + 1, key2);
                int pr = priority(c, R, &comp, jt, k + 1, fits);
                if (pr >= 0) push(c, pr > f ? pr : f, key2, k + 1);
            }
            if (c->stop) return;
        }
    } else {
        draw_successors(c, R, k, fr, &comp, jt, key, f, 0);
        if (c->stop) return;
    }
    while (cand) {
        int p = __builtin_ctz(cand);
        cand &= cand - 1;
        uint32_t R2 = R | (1u << p);
        int r = c->rank[p];
        uint32_t fits = free_of(R2) & c->adjpos[r];
        uint32_t F2 = ranks_at(c, fits);
        uint64_t key2 = make_key(c, R2, k, F2);
        if (!visit(c, key2, k, key)) {
            if (c->stop) return;
            continue;
        }
        if (R2 == FULL) {
            c->won = c->stop = 1;
            c->win_key = key2;
            note_best(c, R2, k, key2);
            return;
        }
        cnt[r]--;
        Components comp2;
        components(c, cnt, &comp2);
        note_best(c, R2, k, key2);
        int pr = priority(c, R2, &comp2, cnt[WILD] > 0, k, fits);
        if (pr > f) push(c, pr, key2, k);
        else if (pr >= 0) expand(c, R2, k, F2, cnt, key2, f);
        cnt[r]++;
        if (c->stop) return;
    }
}

static void counts_of(const Ctx *c, uint32_t R, int *cnt) {
    memset(cnt, 0, NCODES * sizeof(int));
    for (int p = 0; p < NPOS; p++)
        if (!(R & (1u << p))) cnt[c->rank[p]]++;
}

static void run(Ctx *c, uint32_t R0, int top) {
    int cnt[NCODES];
    for (int b = 0; b < NBUCKETS; b++) c->blen[b] = 0;
    uint32_t fits0 = free_of(R0) & c->adjpos[top];
    uint64_t root = make_key(c, R0, 0, ranks_at(c, fits0));
    if (!visit(c, root, 0, NO_PARENT)) return;
    note_best(c, R0, 0, root);
    if (R0 == FULL) {
        c->won = c->stop = 1;
        c->win_key = root;
        return;
    }
    counts_of(c, R0, cnt);
    Components comp;
    components(c, cnt, &comp);
    int pr = priority(c, R0, &comp, cnt[WILD] > 0, 0, fits0);
    if (pr < 0) return;
    push(c, pr, root, 0);
    for (int f = 0; f < NBUCKETS && !c->stop; f++) {
        while (c->blen[f] && !c->stop) {
            uint64_t item = c->bucket[f][--c->blen[f]];
            uint64_t key = item & ((1ull << ITEM_SHIFT) - 1);
            int k = (int)((item >> ITEM_SHIFT) & 31);
            if (draws_of(c, key) < k) continue; /* reached with fewer draws since: that one counts */
            uint32_t R = (uint32_t)(key & FULL);
            counts_of(c, R, cnt);
            if (item & LATER) {
                components(c, cnt, &comp);
                draw_successors(c, R, k, free_of(R), &comp, cnt[WILD] > 0, key, f, (int)((item >> IDX_SHIFT) & 31));
            } else {
                expand(c, R, k, (uint32_t)((key >> F_SHIFT) & 0x1FFFu), cnt, key, f);
            }
        }
    }
}

/* The moves from the root to a state: positions, and -1 for each draw. */
static PyObject *line_to(Ctx *c, uint64_t end) {
    int moves[NPOS + MAXSTOCK + 2], draws[NPOS + MAXSTOCK + 2];
    int len = 0;
    uint64_t key = end;
    for (;;) {
        Slot s = *map_find(&c->seen, key);
        int move = slot_move(s), k = slot_draws(s);
        moves[len] = move;
        draws[len] = k;
        len++;
        if (move == ROOT_MOVE) break;
        uint32_t R = (uint32_t)(key & FULL);
        int kp = k;
        if (move == DRAW_MOVE) kp = k - 1; /* only read under "draw only when stuck": single draws */
        else R &= ~(1u << move);
        key = make_key(c, R, kp, slot_parent_ranks(s));
    }
    PyObject *line = PyList_New(0);
    if (!line) return NULL;
    int k = draws[len - 1];
    for (int i = len - 2; i >= 0; i--) {
        int count = 1;
        long move = moves[i];
        if (move == DRAW_MOVE) {
            move = -1;
            count = draws[i] - k; /* catch up: a parent may since have been reached with fewer draws */
            k = draws[i];
        }
        for (int j = 0; j < count; j++) {
            PyObject *item = PyLong_FromLong(move);
            if (!item || PyList_Append(line, item) < 0) {
                Py_XDECREF(item);
                Py_DECREF(line);
                return NULL;
            }
            Py_DECREF(item);
        }
    }
    return line;
}

static void prepare(Ctx *c) {
    for (int t = 0; t < NCODES; t++) {
        uint32_t ranks;
        if (t == WILD) ranks = 0x1FFFu;
        else if (c->easy) ranks = (1u << ((t + 1) % 13)) | (1u << ((t + 12) % 13));
        else ranks = (t < 12 ? 1u << (t + 1) : 0) | (t > 0 ? 1u << (t - 1) : 0);
        c->adjrank[t] = ranks;
        c->rankpos[t] = 0;
    }
    for (int p = 0; p < NPOS; p++) c->rankpos[c->rank[p]] |= 1u << p;
    for (int t = 0; t < NCODES; t++) {
        uint32_t pos = c->rankpos[WILD];
        for (int r = 0; r < 13; r++)
            if (c->adjrank[t] & (1u << r)) pos |= c->rankpos[r];
        c->adjpos[t] = pos;
    }
    uint32_t covers[NPOS];
    memset(covers, 0, sizeof covers);
    for (int t = 0; t < 3; t++) {
        covers[3 + 2 * t] |= 1u << t;
        covers[4 + 2 * t] |= 1u << t;
    }
    for (int k = 0; k < 6; k++) {
        int a = k + k / 2;
        covers[9 + a] |= 1u << (3 + k);
        covers[10 + a] |= 1u << (3 + k);
    }
    for (int j = 0; j < 9; j++) {
        covers[18 + j] |= 1u << (9 + j);
        covers[19 + j] |= 1u << (9 + j);
    }
    /* A card that can never go blocks every card it covers, transitively. */
    for (int q = 0; q < NPOS; q++) {
        uint32_t cl = 1u << q, frontier = covers[q];
        while (frontier) {
            cl |= frontier;
            uint32_t next = 0;
            for (int p = 0; p < NPOS; p++)
                if (frontier & (1u << p)) next |= covers[p];
            frontier = next & ~cl;
        }
        c->upclosure[q] = cl;
    }
    memset(c->scnt, 0, sizeof c->scnt);
    c->nfirsts[c->n] = 0;
    for (int k = c->n - 1; k >= 0; k--) {
        memcpy(c->scnt[k], c->scnt[k + 1], sizeof c->scnt[k]);
        c->scnt[k][c->stock[k]]++;
        int m = 0;
        c->firsts[k][m++] = (int8_t)k;
        for (int i = 0; i < c->nfirsts[k + 1]; i++)
            if (c->stock[c->firsts[k + 1][i]] != c->stock[k]) c->firsts[k][m++] = c->firsts[k + 1][i];
        c->nfirsts[k] = m;
    }
    for (int k = 0; k <= c->n; k++) {
        c->smask[k] = 0;
        for (int r = 0; r < 13; r++)
            if (c->scnt[k][r]) c->smask[k] |= 1u << r;
    }
}

static void reset_search(Ctx *c, int mode) {
    memset(c->seen.slots, 0, c->seen.cap * sizeof(Slot));
    c->seen.used = 0;
    c->mode = mode;
    c->stop = 0;
}

static PyObject *core_solve(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"ranks", "removed", "stock", "top", "easy", "draw_only_when_stuck",
                             "node_limit", "winnable_only", NULL};
    Py_buffer ranks, stock;
    unsigned long removed;
    int top, easy, dows, winnable_only; /* 0: full answer; 1: winnable, fewest moves; 2: winnable, any win */
    long long limit;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*ky*ippLi", kwlist, &ranks, &removed, &stock, &top,
                                     &easy, &dows, &limit, &winnable_only))
        return NULL;
    PyObject *result = NULL, *line = NULL, *best_line = NULL;
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) {
        PyErr_NoMemory();
        goto done;
    }
    if (ranks.len != NPOS || stock.len > MAXSTOCK || top < 0 || top > WILD || removed > FULL) {
        PyErr_SetString(PyExc_ValueError, "solve() needs 28 ranks, at most 30 stock cards, a top code 0-13");
        goto done;
    }
    for (int p = 0; p < NPOS; p++) c->rank[p] = ((uint8_t *)ranks.buf)[p];
    c->n = (int)stock.len;
    for (int k = 0; k < c->n; k++) c->stock[k] = ((uint8_t *)stock.buf)[k];
    for (int p = 0; p < NPOS; p++)
        if (c->rank[p] > WILD) c->oom = 2;
    for (int k = 0; k < c->n; k++)
        if (c->stock[k] > WILD) c->oom = 2;
    if (c->oom) {
        PyErr_SetString(PyExc_ValueError, "rank codes run from 0 to 13");
        goto done;
    }
    c->easy = easy;
    c->dows = dows;
    c->any_win = winnable_only == 2;
    c->limit = limit;
    prepare(c);
    if (!map_init(&c->seen, 1 << 14, dows ? (1ull << PF_SHIFT) - 1 : (1ull << KF_SHIFT) - 1)) {
        PyErr_NoMemory();
        goto done;
    }
    c->best_p = -1;
    c->best_k = 1 << 20;
    int proved = 1;

    Py_BEGIN_ALLOW_THREADS
    reset_search(c, 1);
    run(c, (uint32_t)removed, top);
    Py_END_ALLOW_THREADS

    if (c->oom) {
        PyErr_NoMemory();
        goto done;
    }
    if (c->won) {
        line = line_to(c, c->win_key);
        if (!line) goto done;
        best_line = line;
        Py_INCREF(best_line);
    } else {
        best_line = line_to(c, c->best_key);
        if (!best_line) goto done;
        line = Py_None;
        Py_INCREF(line);
        if (c->stop) {
            proved = 0;
        } else if (winnable_only) {
            Py_DECREF(best_line);
            best_line = Py_None;
            Py_INCREF(best_line);
        } else {
            /* Pass 2: the best result; the best of pass 1 is a known result to beat. */
            uint64_t first_best = c->best_key;
            Py_BEGIN_ALLOW_THREADS
            reset_search(c, 2);
            run(c, (uint32_t)removed, top);
            Py_END_ALLOW_THREADS
            if (c->oom) {
                PyErr_NoMemory();
                goto done;
            }
            if (c->stop) proved = 0;
            if (c->best_key != first_best) {
                Py_DECREF(best_line);
                best_line = line_to(c, c->best_key);
                if (!best_line) goto done;
            }
        }
    }
    result = Py_BuildValue("(OOiOLi)", c->won ? Py_True : Py_False, line, c->best_p, best_line, c->nodes,
                           proved);
done:
    Py_XDECREF(line);
    Py_XDECREF(best_line);
    if (c) {
        map_free(&c->seen);
        for (int b = 0; b < NBUCKETS; b++) free(c->bucket[b]);
        free(c);
    }
    PyBuffer_Release(&ranks);
    PyBuffer_Release(&stock);
    return result;
}

static PyMethodDef methods[] = {
    {"solve", (PyCFunction)(void (*)(void))core_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(ranks, removed, stock, top, easy, draw_only_when_stuck, node_limit, winnable_only)\n"
     "-> (winnable, line, best_removed, best_line, nodes, proved); see twin.solve for the meaning."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "Compiled core of the TriPeaks solver.",
                                    -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
