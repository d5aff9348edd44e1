/*
 * The compiled core of Parlour's TriPeaks solver.
 *
 * The algorithms are those of twin.py and sweep.py, step for step, so that both cores give the same
 * answers, the same lines and the same node counts.  docs/solver.md explains them.  The full answer is
 * the sweep (below, before core_solve): one pass over every set of removed cards play can reach.  Under
 * "draw only when stuck", for any win, and from a removed set play cannot reach, a search is made:
 *
 *  - the top matters only through the free cards it takes (after one more move it is another card), so
 *    a state is (removed mask, ranks of the free cards the top takes).  A "draw state" is the same cards
 *    with a top that takes none: all that is left to do there is to draw or to play a joker, which every
 *    top can, so each removal also reaches the draw state of its cards and draws are made only from
 *    draw states.  The number of cards drawn is stored beside each state: the same state reached with
 *    more draws is never better (play the same cards, then draw up to the other state).  Under the
 *    variant "draw only when stuck" that argument fails and the number of draws becomes part of the key;
 *  - a draw is a "macro" move to the first stock card of each rank still to come that fits a free card,
 *    unless an earlier such card's top takes every free card it takes;
 *  - every win removes the same 28 cards, so the fewest moves are the fewest draws: pass 1 is an A*
 *    search on draws with a bucket queue (last in, first out inside a bucket), an admissible lower
 *    bound from rank components, rank parity and the stock, and dead-state pruning;
 *  - pass 2, only for a position without a win, finds the fewest cards left (then the fewest moves).
 *    It goes on from pass 1's states: from the states pass 1 dropped as dead, by increasing draws,
 *    pruned by an upper bound on the cards that can still be removed.
 *
 * Only the standard library and the Python C API are used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "tripeaks_layout.h" /* NPOS, FULL, WILD, DRAW_MOVE, COVERS_MASK */

#define NCODES 14
#define ALLR 0x1FFFu
#define MAXSTOCK 30
#define NBUCKETS (MAXSTOCK + 2)
#define NO_PARENT ((uint64_t)0xFFFFFFFFFFFFFFull)
#define F_SHIFT 28
#define K_SHIFT 41
#define ITEM_SHIFT 48
#define IDX_SHIFT 53
#define LATER ((uint64_t)1 << 63)
/* The few functions called for every state: inlined even where the compiler would rather not. */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

#define KF_SHIFT 41
#define PF_SHIFT 46
#define MV_SHIFT 59
#define ROOT_MOVE 29
/* Draws costing up to this much more than the current bucket are made at once: coming back for each one
 * later (a pop, a look-up, the bounds again) costs more than the few states made that are never used. */
#define DRAW_AHEAD 4
#define CCACHE_BITS 12 /* entries of the components cache: 4096 */

typedef uint64_t Slot;

typedef struct {
    Slot *slots;
    size_t cap, used;
    uint64_t keymask;
} Map;

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
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

typedef struct {
    uint32_t mask[7]; /* the ranks of the component */
    uint32_t near[7];
    uint32_t pos[7];
    int need[7];
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
    uint32_t rankbit[NPOS]; /* 1 << rank, 0 for a joker */
    uint32_t poslo[128], poshi[64]; /* positions of the ranks in a mask, by its low 7 and high 6 bits */
    uint32_t stocklo[128], stockhi[64]; /* the same for stock indices; jokers in every entry */
    uint32_t upclosure[NPOS];
    /* The cards left, by 10-position chunks of the complement of the removed mask: rank counts packed
     * four bits a rank, and the ranks present. */
    uint64_t lanes[3][1024];
    uint16_t present[3][1024];
    int scnt[MAXSTOCK + 1][NCODES];
    uint32_t smask[MAXSTOCK + 1];
    int8_t firsts[MAXSTOCK + 1][NCODES];
    int nfirsts[MAXSTOCK + 1];
    Map seen;
    struct {
        uint64_t V; /* the rank counts; 0 for an empty entry (without cards there is nothing to keep) */
        uint8_t count, need[7];
        uint16_t mask[7];
    } ccache[1 << CCACHE_BITS];
    uint64_t *bucket[NBUCKETS];
    uint64_t *dead; /* pass 1: states dropped because no win is left from them, kept for pass 2 */
    size_t ndead, capdead;
    size_t blen[NBUCKETS], bcap[NBUCKETS];
    long long nodes, limit;
    int mode;
    int any_win;
    int stop, oom, won;
    uint64_t win_key;
    int best_p, best_k;
    uint64_t best_key;
} Ctx;

static inline uint64_t make_key(const Ctx *c, uint32_t R, int k, uint32_t F) {
    uint64_t key = (uint64_t)R | ((uint64_t)F << F_SHIFT);
    if (c->dows) key |= (uint64_t)k << K_SHIFT;
    return key;
}

static inline uint32_t ranks_at(const Ctx *c, uint32_t positions) {
    uint32_t F = 0;
    for (; positions; positions &= positions - 1) F |= c->rankbit[__builtin_ctz(positions)];
    return F;
}

static inline uint32_t pos_of(const Ctx *c, uint32_t ranks) { return c->poslo[ranks & 127] | c->poshi[ranks >> 7]; }

/* The free cards of a removed mask, row by row: a card is free when the two below it are gone. */
static uint16_t FREE3[1024], FREE2[512], FREE1[64];

static void free_tables(void) {
    for (int m = 0; m < 1024; m++) FREE3[m] = (uint16_t)(m & (m >> 1) & 0x1FF);
    for (int m = 0; m < 512; m++) {
        int q = m & (m >> 1);
        FREE2[m] = (uint16_t)((q & 1) | ((q >> 1) & 1) << 1 | ((q >> 3) & 1) << 2 | ((q >> 4) & 1) << 3 |
                              ((q >> 6) & 1) << 4 | ((q >> 7) & 1) << 5);
    }
    for (int m = 0; m < 64; m++) {
        int q = m & (m >> 1);
        FREE1[m] = (uint16_t)((q & 1) | ((q >> 2) & 1) << 1 | ((q >> 4) & 1) << 2);
    }
}

static inline uint32_t free_of(uint32_t R) {
    uint32_t f = (0x3FFu << 18) | ((uint32_t)FREE3[R >> 18] << 9) | ((uint32_t)FREE2[(R >> 9) & 0x1FFu] << 3) |
                 FREE1[(R >> 3) & 0x3Fu];
    return f & ~R;
}

static inline uint32_t neighbours(const Ctx *c, uint32_t ranks) {
    if (c->easy) return ((ranks << 1) | (ranks >> 1) | (ranks << 12) | (ranks >> 12)) & ALLR;
    return ((ranks << 1) | (ranks >> 1)) & ALLR;
}

/* Four-bit lanes, one a rank, for the ranks in a mask (by its low 7 and high 6 bits). */
static uint64_t LANES_LO[128], LANES_HI[64];

static void lane_tables(void) {
    for (int m = 0; m < 128; m++) {
        uint64_t x = 0;
        for (int r = 0; r < 7; r++)
            if (m & (1 << r)) x |= (uint64_t)15 << (4 * r);
        LANES_LO[m] = x;
    }
    for (int m = 0; m < 64; m++) {
        uint64_t x = 0;
        for (int r = 0; r < 6; r++)
            if (m & (1 << r)) x |= (uint64_t)15 << (4 * (7 + r));
        LANES_HI[m] = x;
    }
}

/* The sum of the rank counts in V over the ranks in a mask. */
static inline int lanes_sum(uint64_t V, uint32_t ranks) {
    uint64_t x = V & (LANES_LO[ranks & 127] | LANES_HI[ranks >> 7]);
    x = (x & 0x0F0F0F0F0F0F0F0FULL) + ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL);
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The rank components of the cards left (counts V, ranks present S), each with the fewest chains that can
 * clear it. */
static void compute_components(const Ctx *c, uint64_t V, uint32_t S, Components *out) {
#define CNT(r) ((int)((V >> (4 * (r))) & 15))
    out->count = 0;
    if (!S) return;
    if (c->easy && S == ALLR) {
        int cnt[14];
        for (int r = 0; r < 13; r++) cnt[r] = CNT(r);
        cnt[13] = cnt[0];
        int best = 1, imb = 0;
        for (int i = 0; i < 13; i++) imb += (i & 1) ? -cnt[1 + i] : cnt[1 + i];
        for (int e = 0; e < 13; e++) {
            int a = cnt[e], b = cnt[e + 1];
            int cap = 2 * a;
            if (2 * b < cap) cap = 2 * b;
            if (a + b - 1 < cap) cap = a + b - 1;
            int need = (imb < 0 ? -imb : imb) - cap;
            if (need > best) best = need;
            imb = 2 * b - imb;
        }
        out->mask[0] = ALLR;
        out->near[0] = ALLR;
        out->pos[0] = FULL & ~c->rankpos[WILD];
        out->need[0] = best;
        out->count = 1;
        return;
    }
    int rot = 0;
    uint32_t T = S;
    if (c->easy) {
        rot = __builtin_ctz(~S) + 1; /* a missing rank goes to the top bit: no run wraps around */
        if (rot == 13) rot = 0;
        T = ((S >> rot) | (S << (13 - rot))) & ALLR;
    }
    while (T) {
        uint32_t low = T & (~T + 1);
        uint32_t run = T & ~(T + low);
        T ^= run;
        /* every other rank of the run, from its first one; both back in rank order */
        uint32_t alt = run & ((low & 0x1555u) ? 0x1555u : 0x0AAAu);
        uint32_t m = run, even = alt;
        if (rot) {
            m = ((run << rot) | (run >> (13 - rot))) & ALLR;
            even = ((alt << rot) | (alt >> (13 - rot))) & ALLR;
        }
        int imb = 2 * lanes_sum(V, even) - lanes_sum(V, m);
        if (imb < 0) imb = -imb;
        out->mask[out->count] = m;
        out->near[out->count] = neighbours(c, m);
        out->pos[out->count] = pos_of(c, m);
        out->need[out->count] = imb > 1 ? imb : 1;
        out->count++;
    }
#undef CNT
}

/* The same for the cards left of a removed mask; the answer depends only on the rank counts, which many
 * states share, so the last answers are kept by a hash of the counts. */
static void components(Ctx *c, uint32_t R, Components *out) {
    uint32_t rest = ~R & FULL;
    uint64_t V = c->lanes[0][rest & 1023] + c->lanes[1][(rest >> 10) & 1023] + c->lanes[2][rest >> 20];
    uint32_t h = (uint32_t)((V * 0x9E3779B97F4A7C15ULL) >> (64 - CCACHE_BITS));
    if (V && c->ccache[h].V == V) {
        int n = c->ccache[h].count;
        out->count = n;
        for (int i = 0; i < n; i++) {
            uint32_t m = c->ccache[h].mask[i];
            out->mask[i] = m;
            out->need[i] = c->ccache[h].need[i];
            out->near[i] = neighbours(c, m);
            out->pos[i] = m == ALLR ? FULL & ~c->rankpos[WILD] : pos_of(c, m);
        }
        return;
    }
    uint32_t S = (uint32_t)c->present[0][rest & 1023] | c->present[1][(rest >> 10) & 1023] | c->present[2][rest >> 20];
    compute_components(c, V, S, out);
    c->ccache[h].V = V;
    c->ccache[h].count = (uint8_t)out->count;
    for (int i = 0; i < out->count; i++) {
        c->ccache[h].mask[i] = (uint16_t)out->mask[i];
        c->ccache[h].need[i] = (uint8_t)out->need[i];
    }
}

/* The index of the count-th stock card from index k on whose rank is in near (or a joker), or -1. */
static inline int nth_fitting(const Ctx *c, uint32_t near, int k, int count) {
    uint32_t at = (c->stocklo[near & 127] | c->stockhi[near >> 7]) >> k;
    while (--count > 0) at &= at - 1;
    return at ? k + __builtin_ctz(at) : -1;
}

/* Fewest draws still needed to win (admissible), or -1 when no win is possible any more.  The top can
 * start one chain without a draw, and only on a card that is free now (fits = the free cards it takes). */
ALWAYS_INLINE int lower_bound(const Ctx *c, const Components *comp, int jt, int k, uint32_t fits) {
    int total = 0, deepest = 0;
    for (int i = 0; i < comp->count; i++) {
        int need = comp->need[i];
        total += need;
        if (jt) continue;
        int more = need - ((fits & comp->pos[i]) != 0);
        if (more <= 0) continue;
        int x = nth_fitting(c, comp->near[i], k, more);
        if (x < 0) return -1;
        if (x + 1 - k > deepest) deepest = x + 1 - k;
    }
    int lb = total - jt - (fits != 0);
    if (!jt && lb > 0) {
        uint32_t near = 0;
        for (int i = 0; i < comp->count; i++) near |= comp->near[i];
        int x = nth_fitting(c, near, k, lb);
        if (x < 0) return -1;
        if (x + 1 - k > deepest) deepest = x + 1 - k;
    }
    if (lb < deepest) lb = deepest;
    if (lb > c->n - k) return -1;
    return lb;
}

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

/* The bucket of a state, or -1 to drop it: draws + lower bound in pass 1, draws in pass 2 (where a state
 * that cannot beat the best result so far is dropped). */
ALWAYS_INLINE int priority(Ctx *c, uint32_t R, const Components *comp, int jt, int k, uint32_t fits) {
    if (c->mode == 1) {
        int h = lower_bound(c, comp, jt, k, fits);
        if (c->any_win) return h < 0 ? -1 : 0;
        return h < 0 ? -1 : k + h;
    }
    int ub = upper_bound(c, R, comp, jt, k, fits);
    if (ub > NPOS - 1) ub = NPOS - 1; /* pass 2 runs only once pass 1 proved that no win is left */
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

/* Record a state reached with k draws from parent by move; 1 when new or reached with fewer draws. */
ALWAYS_INLINE int visit(Ctx *c, uint64_t key, int k, uint64_t parent, int move) {
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
    uint64_t parent_ranks = parent == NO_PARENT ? 0 : (parent >> F_SHIFT) & 0x1FFFu;
    *s = key | ((uint64_t)k << KF_SHIFT) | (parent_ranks << PF_SHIFT) | ((uint64_t)(31 - move) << MV_SHIFT);
    if (++c->nodes > c->limit) {
        c->stop = 1;
        return 0;
    }
    return 1;
}

static inline int draws_of(const Ctx *c, uint64_t key) { return slot_draws(*map_find(&c->seen, key)); }

/* Put an item in bucket b: a state's key and draws; with LATER, for a draw state, the draws still to make
 * from the draw index on, and for a state whose top takes cards, a draw not yet recorded. */
ALWAYS_INLINE void push(Ctx *c, int b, uint64_t item) {
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
    c->bucket[b][c->blen[b]++] = item;
}

static inline uint64_t item_of(uint64_t key, int k) { return key | ((uint64_t)k << ITEM_SHIFT); }

/* A state pass 1 drops: without a win it is where pass 2 starts. */
static void drop(Ctx *c, uint64_t key, int k) {
    if (c->mode != 1 || c->any_win) return;
    if (c->ndead == c->capdead) {
        size_t cap = c->capdead ? c->capdead * 2 : 1024;
        uint64_t *items = realloc(c->dead, cap * sizeof(uint64_t));
        if (!items) {
            c->oom = c->stop = 1;
            return;
        }
        c->dead = items;
        c->capdead = cap;
    }
    c->dead[c->ndead++] = item_of(key, k);
}

static void expand_chain(Ctx *c, uint32_t R, int k, uint32_t F, uint64_t key, int f);
static void expand_draws(Ctx *c, uint32_t R, int k, uint64_t key, int f, int i0);

/* Remove the card at p from a state (R, k) reached by key. */
static void remove_card(Ctx *c, uint32_t R, int k, int p, uint64_t key, int f) {
    uint32_t R2 = R | (1u << p);
    int r = c->rank[p];
    uint32_t fr2 = free_of(R2);
    uint32_t fits = fr2 & c->adjpos[r];
    if (R2 == FULL) {
        uint64_t key2 = make_key(c, R2, k, 0);
        if (visit(c, key2, k, key, p)) {
            c->won = c->stop = 1;
            c->win_key = key2;
            note_best(c, R2, k, key2);
        }
        return;
    }
    Components comp;
    int have_comp = 0;
    int jt = (~R2 & FULL & c->rankpos[WILD]) != 0;
    uint32_t F2 = ranks_at(c, fits);
    uint32_t jokers = fr2 & c->rankpos[WILD];
    /* the state with the top kept only for what it shares with every top: draws and jokers */
    if (!c->dows || !F2) {
        uint64_t d2 = make_key(c, R2, k, 0);
        if (visit(c, d2, k, key, p)) {
            note_best(c, R2, k, d2);
            components(c, R2, &comp);
            have_comp = 1;
            int pr = priority(c, R2, &comp, jt, k, jokers);
            if (pr > f) push(c, pr, item_of(d2, k));
            else if (pr >= 0) expand_draws(c, R2, k, d2, f, 0);
            else drop(c, d2, k);
        }
    }
    if (!c->stop && F2) {
        uint64_t key2 = make_key(c, R2, k, F2);
        if (visit(c, key2, k, key, p)) {
            if (c->dows) note_best(c, R2, k, key2);
            if (!have_comp) components(c, R2, &comp);
            int pr = priority(c, R2, &comp, jt, k, fits);
            if (pr > f) push(c, pr, item_of(key2, k));
            else if (pr >= 0) expand_chain(c, R2, k, F2, key2, f);
            else drop(c, key2, k);
        }
    }
}

/* The removals from a state whose top takes cards of the ranks F, depth-first. */
static void expand_chain(Ctx *c, uint32_t R, int k, uint32_t F, uint64_t key, int f) {
    uint32_t fr = free_of(R);
    uint32_t cand = fr & pos_of(c, F);
    if (c->dows) cand |= fr & c->rankpos[WILD];
    while (cand && !c->stop) {
        int p = __builtin_ctz(cand);
        cand &= cand - 1;
        remove_card(c, R, k, p, key, f);
    }
}

/* From a draw state: its jokers, then the draws to the first stock card of each rank that fits a free card
 * (a later card of that rank, or one that fits nothing, is no better), from the i0-th such card on.  Only
 * the draws that cost at most f + DRAW_AHEAD are made now; the rest wait in the bucket of the next one. */
static void expand_draws(Ctx *c, uint32_t R, int k, uint64_t key, int f, int i0) {
    uint32_t fr = free_of(R);
    if (i0 == 0) {
        uint32_t jokers = fr & c->rankpos[WILD];
        while (jokers && !c->stop) {
            int p = __builtin_ctz(jokers);
            jokers &= jokers - 1;
            remove_card(c, R, k, p, key, f);
        }
        if (c->stop) return;
        if (c->dows) {
            if ((fr & c->rankpos[WILD]) || k >= c->n) return;
            uint32_t fits = fr & c->adjpos[c->stock[k]];
            uint32_t F = ranks_at(c, fits);
            uint64_t key2 = make_key(c, R, k + 1, F);
            if (visit(c, key2, k + 1, key, DRAW_MOVE)) {
                note_best(c, R, k + 1, key2);
                Components comp;
                components(c, R, &comp);
                int pr = priority(c, R, &comp, ((~R & FULL & c->rankpos[WILD]) != 0), k + 1, fits);
                if (pr > f) push(c, pr, item_of(key2, k + 1));
                else if (pr >= 0) {
                    if (fits) expand_chain(c, R, k + 1, F, key2, f);
                    else expand_draws(c, R, k + 1, key2, f, 0);
                } else drop(c, key2, k + 1);
            }
            return;
        }
    }
    int n = c->nfirsts[k], end = i0;
    int horizon = c->any_win ? MAXSTOCK + 1 : f + DRAW_AHEAD;
    while (end < n && c->firsts[k][end] + 1 <= horizon) end++;
    if (end < n) {
        int b = c->firsts[k][end] + 1;
        push(c, b, item_of(key, k) | ((uint64_t)end << IDX_SHIFT) | LATER);
        if (c->stop) return;
    }
    Components comp;
    int have_comp = 0;
    int jt = (~R & FULL & c->rankpos[WILD]) != 0;
    /* A draw whose top takes only cards that an earlier draw's top also takes is no better: the earlier
     * one can play everything it can, with fewer draws. */
    uint32_t fitsof[NCODES];
    for (int i = 0; i < end; i++) fitsof[i] = fr & c->adjpos[c->stock[c->firsts[k][i]]];
    for (int i = end - 1; i >= i0; i--) {
        int x = c->firsts[k][i];
        uint32_t fits = fitsof[i];
        if (!fits) continue;
        int dominated = 0;
        for (int j = 0; j < i && !dominated; j++) dominated = (fitsof[j] & fits) == fits;
        if (dominated) continue;
        uint32_t F = ranks_at(c, fits);
        uint64_t key2 = make_key(c, R, x + 1, F);
        if (!have_comp) {
            components(c, R, &comp);
            have_comp = 1;
        }
        /* The state is recorded only when its bucket comes (LATER marks it): many of them are past the
         * fewest draws and never do, and looking each up now cost more than its bound. */
        int pr = priority(c, R, &comp, jt, x + 1, fits);
        if (pr >= 0) push(c, pr > f ? pr : f, item_of(key2, x + 1) | LATER);
        else if (visit(c, key2, x + 1, key, DRAW_MOVE)) drop(c, key2, x + 1);
        if (c->stop) return;
    }
}


/* ---- The exact sweep over every set of removed cards ----
 *
 * Without "draw only when stuck", a state is (removed set, rank of the top) and only its fewest draws
 * count (see above).  Removals only add cards, so the sets can be taken in order of size and each
 * state's fewest draws is final when its set comes up: no search, no queue, no bound.  A set's states
 * are 14 bytes (the fewest draws for each top rank, INF for none) and its moves are its free cards.
 * Reaching a set with fewest draws K, a draw can also make the top the first stock card of each rank
 * from index K on (one more draw than its index).  The layout's sets that play can reach (every card
 * removed only once both cards on it are gone) are the same for every deal: they and the removals
 * between them are listed once. */
#define INF 255
#define MAXSETS 23000

static uint32_t SETS[MAXSETS];     /* the sets play can reach, by size, then by value */
static int NSETS;
static int SIZE_START[NPOS + 2];   /* the first index of each size */
static uint32_t EDGE_START[MAXSETS + 1];
static uint16_t *EDGE_TO;          /* the set with the card removed */
static uint8_t *EDGE_POS;          /* the card */

/* The index of a set in SETS (binary search among the sets of its size), or -1 when play cannot reach it. */
static int set_index(uint32_t R) {
    int size = __builtin_popcount(R), lo = SIZE_START[size], hi = SIZE_START[size + 1];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (SETS[mid] < R) lo = mid + 1;
        else hi = mid;
    }
    return lo < SIZE_START[size + 1] && SETS[lo] == R ? lo : -1;
}

static int cmp_sets(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int px = __builtin_popcount(x), py = __builtin_popcount(y);
    if (px != py) return px - py;
    return x < y ? -1 : x > y;
}

/* Lists SETS and the removals between them (EDGE_*); 0 when memory runs out (every position is then
 * searched). */
static int sweep_tables(void) {
    if (NSETS) return 1; /* listed when the module was first loaded */
    /* every set reached from the empty one by removing free cards, breadth first (a set is seen again
     * from each of its last cards: an open-addressed table of the sets listed so far keeps one) */
    enum { SEEN_SLOTS = 1 << 16 };
    uint32_t *seen = calloc(SEEN_SLOTS, sizeof(uint32_t));
    if (!seen) return 0;
    NSETS = 0;
    SETS[NSETS++] = 0;
    for (int i = 0; i < NSETS; i++) {
        uint32_t R = SETS[i];
        for (uint32_t fr = free_of(R); fr; fr &= fr - 1) {
            uint32_t R2 = R | (fr & -fr);
            size_t h = mix(R2) & (SEEN_SLOTS - 1);
            while (seen[h] && seen[h] != R2) h = (h + 1) & (SEEN_SLOTS - 1);
            if (seen[h]) continue;
            seen[h] = R2; /* never 0: R2 has a card */
            if (NSETS == MAXSETS) {
                free(seen);
                return 0;
            }
            SETS[NSETS++] = R2;
        }
    }
    free(seen);
    qsort(SETS, (size_t)NSETS, sizeof(uint32_t), cmp_sets);
    for (int s = 0, i = 0; s <= NPOS + 1; s++) {
        while (i < NSETS && __builtin_popcount(SETS[i]) < s) i++;
        SIZE_START[s] = i;
    }
    size_t edges = 0;
    for (int i = 0; i < NSETS; i++) edges += (size_t)__builtin_popcount(free_of(SETS[i]));
    EDGE_TO = malloc(edges * sizeof(uint16_t));
    EDGE_POS = malloc(edges);
    if (!EDGE_TO || !EDGE_POS) return 0;
    size_t e = 0;
    for (int i = 0; i < NSETS; i++) {
        EDGE_START[i] = (uint32_t)e;
        for (uint32_t fr = free_of(SETS[i]); fr; fr &= fr - 1) {
            int p = __builtin_ctz(fr);
            EDGE_TO[e] = (uint16_t)set_index(SETS[i] | (1u << p));
            EDGE_POS[e] = (uint8_t)p;
            e++;
        }
    }
    EDGE_START[NSETS] = (uint32_t)e;
    return 1;
}

/* The fewest draws of the top ranks nxt[K][r] when the top is drawn from stock index K on: one more than
 * the index of the first card of rank r there, INF for none. */
static void draw_table(const Ctx *c, uint8_t nxt[MAXSTOCK + 1][16]) {
    memset(nxt[c->n], INF, 16);
    for (int k = c->n - 1; k >= 0; k--) {
        memcpy(nxt[k], nxt[k + 1], 16);
        nxt[k][c->stock[k]] = (uint8_t)(k + 1);
    }
}

static inline uint8_t min8(uint8_t a, uint8_t b) { return a < b ? a : b; }

/* The fewest draws of every top rank of the set at best (eff), once a draw may be made; returns the set's
 * fewest draws K, INF when it is not reached. */
ALWAYS_INLINE int set_tops(const uint8_t nxt[MAXSTOCK + 1][16], const uint8_t *best, uint8_t eff[16]) {
    int K = INF;
    for (int r = 0; r < NCODES; r++)
        if (best[r] < K) K = best[r];
    if (K == INF) return INF;
    for (int r = 0; r < NCODES; r++) eff[r] = min8(best[r], nxt[K][r]);
    return K;
}

/* The fewest draws with which a card of rank q can be played on the set whose tops are eff. */
ALWAYS_INLINE uint8_t fits_rank(const Ctx *c, const uint8_t eff[16], int q, int K) {
    if (q == WILD) return (uint8_t)K;
    uint8_t m = eff[WILD];
    if (c->easy) return min8(m, min8(eff[(q + 12) % 13], eff[(q + 1) % 13]));
    if (q > 0) m = min8(m, eff[q - 1]);
    if (q < 12) m = min8(m, eff[q + 1]);
    return m;
}

/* The sweep from the position whose removed set is SETS[i0] (nxt from draw_table): fills best (16 bytes
 * a set from i0 on), the result in c (won, best_p, best_k, and the set's index in best_key). */
static void sweep(Ctx *c, const uint8_t nxt[MAXSTOCK + 1][16], int i0, int top, uint8_t *best) {
    memset(best + 16 * (size_t)i0, INF, 16 * (size_t)(NSETS - i0));
    best[16 * (size_t)i0 + top] = 0;
    for (int i = i0; i < NSETS; i++) {
        const uint8_t *b = best + 16 * (size_t)i;
        _Alignas(16) uint8_t eff[16], cand[16];
        int K;
#ifdef __SSE2__
        /* the same as set_tops and fits_rank, sixteen bytes at a time */
        __m128i v = _mm_load_si128((const __m128i *)b);
        __m128i m = _mm_min_epu8(v, _mm_srli_si128(v, 8));
        m = _mm_min_epu8(m, _mm_srli_si128(m, 4));
        m = _mm_min_epu8(m, _mm_srli_si128(m, 2));
        m = _mm_min_epu8(m, _mm_srli_si128(m, 1));
        K = _mm_cvtsi128_si32(m) & 0xFF;
        if (K == INF) continue;
        __m128i ev = _mm_min_epu8(v, _mm_load_si128((const __m128i *)nxt[K]));
        _mm_store_si128((__m128i *)eff, ev);
        __m128i below = _mm_or_si128(_mm_slli_si128(ev, 1), _mm_cvtsi32_si128(INF)); /* lane q: eff[q - 1] */
        __m128i above = _mm_srli_si128(ev, 1);                                      /* lane q: eff[q + 1] */
        __m128i cv = _mm_min_epu8(_mm_min_epu8(below, above), _mm_set1_epi8((char)eff[WILD]));
        _mm_store_si128((__m128i *)cand, cv);
        if (c->easy) {
            cand[0] = min8(cand[0], eff[12]);
            cand[12] = min8(cand[12], eff[0]);
        }
        cand[WILD] = (uint8_t)K;
#else
        K = set_tops(nxt, b, eff);
        if (K == INF) continue;
        for (int q = 0; q < NCODES; q++) cand[q] = fits_rank(c, eff, q, K);
#endif
        if (++c->nodes > c->limit) {
            c->stop = 1;
            return;
        }
        int p = __builtin_popcount(SETS[i]);
        if (p > c->best_p || (p == c->best_p && K < c->best_k)) {
            c->best_p = p;
            c->best_k = K;
            c->best_key = (uint64_t)i;
        }
        if (SETS[i] == FULL) {
            c->won = 1;
            c->win_key = (uint64_t)i;
            return;
        }
        for (uint32_t e = EDGE_START[i]; e < EDGE_START[i + 1]; e++) {
            int q = c->rank[EDGE_POS[e]];
            uint8_t *t = best + 16 * (size_t)EDGE_TO[e] + q;
            if (cand[q] < *t) *t = cand[q];
        }
    }
}

/* The moves of a line to the set of index end reached with its fewest draws, from the sweep's tables:
 * positions, and -1 for each draw; the number of moves. */
static int sweep_line(const Ctx *c, const uint8_t nxt[MAXSTOCK + 1][16], const uint8_t *best, int i0, int end,
                      int *out) {
    uint32_t R0 = SETS[i0];
    int rev[NPOS + MAXSTOCK + 4], n = 0;
    int i = end, need = -1;
    int v = INF;
    for (int r = 0; r < NCODES; r++) v = min8((uint8_t)v, best[16 * (size_t)i + r]);
    for (;;) {
        uint32_t R = SETS[i];
        const uint8_t *b = best + 16 * (size_t)i;
        if (need < 0)
            for (int r = 0; r < NCODES && need < 0; r++)
                if (b[r] == v) need = r;
        if (R == R0) break; /* only the position's own top is reached there */
        /* a last card of rank need whose set before it had a top that takes it with v draws */
        int found = 0;
        for (uint32_t m = R & ~R0; m && !found; m &= m - 1) {
            int p = __builtin_ctz(m);
            if (c->rank[p] != need || (COVERS_MASK[p] & R)) continue;
            int j = set_index(R & ~(1u << p));
            uint8_t eff[16];
            int K = set_tops(nxt, best + 16 * (size_t)j, eff);
            if (K == INF || fits_rank(c, eff, need, K) != v) continue;
            found = 1;
            rev[n++] = p;
            const uint8_t *bj = best + 16 * (size_t)j;
            int u = -1;
            for (int r = 0; r < NCODES && u < 0; r++)
                if (bj[r] == v && (need == WILD || r == WILD || (c->adjrank[r] >> need) & 1)) u = r;
            if (u < 0) { /* drawn: the draws from the set's fewest on */
                for (int d = K; d < v; d++) rev[n++] = -1;
                v = K;
            }
            need = u;
            i = j;
        }
        if (!found) return -1; /* cannot happen: every value came from such a card */
    }
    for (int k = 0; k < n; k++) out[k] = rev[n - 1 - k];
    return n;
}

static void drain(Ctx *c);

/* Pass 1 from the position: its draw state and, when the top takes a card, its own state. */
static void run(Ctx *c, uint32_t R0, int top) {
    for (int b = 0; b < NBUCKETS; b++) c->blen[b] = 0;
    uint32_t fr0 = free_of(R0);
    uint32_t fits0 = fr0 & c->adjpos[top];
    if (R0 == FULL) {
        uint64_t root = make_key(c, R0, 0, 0);
        visit(c, root, 0, NO_PARENT, ROOT_MOVE);
        note_best(c, R0, 0, root);
        c->won = c->stop = 1;
        c->win_key = root;
        return;
    }
    Components comp;
    components(c, R0, &comp);
    int jt = (~R0 & FULL & c->rankpos[WILD]) != 0;
    uint32_t F0 = ranks_at(c, fits0);
    uint32_t jokers = fr0 & c->rankpos[WILD];
    if (!c->dows || !F0) {
        uint64_t d0 = make_key(c, R0, 0, 0);
        if (visit(c, d0, 0, NO_PARENT, ROOT_MOVE)) {
            note_best(c, R0, 0, d0);
            int pr = priority(c, R0, &comp, jt, 0, jokers);
            if (pr >= 0) push(c, pr, item_of(d0, 0));
            else drop(c, d0, 0);
        }
    }
    if (F0) {
        uint64_t root = make_key(c, R0, 0, F0);
        if (visit(c, root, 0, NO_PARENT, ROOT_MOVE)) {
            note_best(c, R0, 0, root);
            int pr = priority(c, R0, &comp, jt, 0, fits0);
            if (pr >= 0) push(c, pr, item_of(root, 0));
            else drop(c, root, 0);
        }
    }
    drain(c);
}

/* Pass 2 on from pass 1's map: the dropped states, by their draws, pruned by the best result so far. */
static void run_best(Ctx *c) {
    c->mode = 2;
    c->stop = 0;
    for (int b = 0; b < NBUCKETS; b++) c->blen[b] = 0;
    for (size_t i = 0; i < c->ndead && !c->stop; i++) {
        uint64_t item = c->dead[i];
        push(c, (int)((item >> ITEM_SHIFT) & 31), item);
    }
    drain(c);
}

/* Expand the items of the buckets, lowest bucket first, last in first out inside one. */
static void drain(Ctx *c) {
    for (int f = 0; f < NBUCKETS && !c->stop; f++) {
        while (c->blen[f] && !c->stop) {
            uint64_t item = c->bucket[f][--c->blen[f]];
            if (c->blen[f]) { /* the next item's state: its slot is far in memory, ask for it now */
                uint64_t next = c->bucket[f][c->blen[f] - 1] & ((1ull << ITEM_SHIFT) - 1);
                __builtin_prefetch(&c->seen.slots[mix(next) & (c->seen.cap - 1)]);
            }
            uint64_t key = item & ((1ull << ITEM_SHIFT) - 1);
            int k = (int)((item >> ITEM_SHIFT) & 31);
            uint32_t R = (uint32_t)(key & FULL);
            uint32_t F = (uint32_t)((key >> F_SHIFT) & ALLR);
            if (F && (item & LATER)) { /* a draw made from the draw state of R, recorded now */
                if (!visit(c, key, k, make_key(c, R, 0, 0), DRAW_MOVE)) continue;
            } else if (draws_of(c, key) < k) continue;
            if (F) expand_chain(c, R, k, F, key, f);
            else expand_draws(c, R, k, key, f, (item & LATER) ? (int)((item >> IDX_SHIFT) & 31) : 0);
        }
    }
}

/* The moves from the root to a state: positions, and -1 for each draw; the number of moves. */
static int moves_to(Ctx *c, uint64_t end, int *out) {
    int moves[NPOS + MAXSTOCK + 4], draws[NPOS + MAXSTOCK + 4];
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
        if (move == DRAW_MOVE) kp = k - 1;
        else R &= ~(1u << move);
        key = make_key(c, R, kp, slot_parent_ranks(s));
    }
    int n = 0;
    int k = draws[len - 1];
    for (int i = len - 2; i >= 0; i--) {
        int count = 1;
        int move = moves[i];
        if (move == DRAW_MOVE) {
            move = -1;
            count = draws[i] - k;
            k = draws[i];
        }
        for (int j = 0; j < count; j++) out[n++] = move;
    }
    return n;
}

/* The ranks a top of each rank code takes (the sweep needs only these). */
static void rank_steps(Ctx *c) {
    for (int t = 0; t < NCODES; t++) {
        uint32_t ranks;
        if (t == WILD) ranks = ALLR;
        else if (c->easy) ranks = (1u << ((t + 1) % 13)) | (1u << ((t + 12) % 13));
        else ranks = (t < 12 ? 1u << (t + 1) : 0) | (t > 0 ? 1u << (t - 1) : 0);
        c->adjrank[t] = ranks;
    }
}

/* The search's tables of the deal. */
static void prepare(Ctx *c) {
    rank_steps(c);
    for (int t = 0; t < NCODES; t++) c->rankpos[t] = 0;
    for (int p = 0; p < NPOS; p++) {
        c->rankpos[c->rank[p]] |= 1u << p;
        c->rankbit[p] = c->rank[p] == WILD ? 0 : 1u << c->rank[p];
    }
    for (int m = 0; m < 128; m++) {
        uint32_t pos = 0;
        for (int r = 0; r < 7; r++)
            if (m & (1 << r)) pos |= c->rankpos[r];
        c->poslo[m] = pos;
    }
    for (int m = 0; m < 64; m++) {
        uint32_t pos = 0;
        for (int r = 0; r < 6; r++)
            if (m & (1 << r)) pos |= c->rankpos[7 + r];
        c->poshi[m] = pos;
    }
    for (int t = 0; t < NCODES; t++) c->adjpos[t] = c->rankpos[WILD] | pos_of(c, c->adjrank[t]);
    for (int chunk = 0; chunk < 3; chunk++) {
        c->lanes[chunk][0] = 0;
        c->present[chunk][0] = 0;
        for (int m = 1; m < 1024; m++) {
            int p = 10 * chunk + __builtin_ctz((unsigned)m);
            int low = m & (m - 1);
            uint64_t lane = 0;
            uint16_t bit = 0;
            if (p < NPOS && c->rank[p] != WILD) {
                lane = (uint64_t)1 << (4 * c->rank[p]);
                bit = (uint16_t)(1u << c->rank[p]);
            }
            c->lanes[chunk][m] = c->lanes[chunk][low] + lane;
            c->present[chunk][m] = c->present[chunk][low] | bit;
        }
    }
    uint32_t stockpos[NCODES];
    memset(stockpos, 0, sizeof stockpos);
    for (int x = 0; x < c->n; x++) stockpos[c->stock[x]] |= 1u << x;
    for (int m = 0; m < 128; m++) {
        uint32_t at = stockpos[WILD];
        for (int r = 0; r < 7; r++)
            if (m & (1 << r)) at |= stockpos[r];
        c->stocklo[m] = at;
    }
    for (int m = 0; m < 64; m++) {
        uint32_t at = stockpos[WILD];
        for (int r = 0; r < 6; r++)
            if (m & (1 << r)) at |= stockpos[7 + r];
        c->stockhi[m] = at;
    }
    for (int q = 0; q < NPOS; q++) {
        uint32_t cl = 1u << q, frontier = COVERS_MASK[q];
        while (frontier) {
            cl |= frontier;
            uint32_t next = 0;
            for (int p = 0; p < NPOS; p++)
                if (frontier & (1u << p)) next |= COVERS_MASK[p];
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

/* The same as a Python list. */

static PyObject *list_of(const int *moves, int n) {
    if (n < 0) { /* cannot happen: a line is always there to walk back */
        PyErr_SetString(PyExc_RuntimeError, "the solver lost its way back");
        return NULL;
    }
    PyObject *line = PyList_New(n);
    if (!line) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(moves[i]);
        if (!item) {
            Py_DECREF(line);
            return NULL;
        }
        PyList_SET_ITEM(line, i, item);
    }
    return line;
}

static PyObject *line_to(Ctx *c, uint64_t end) {
    int moves[NPOS + MAXSTOCK + 4];
    return list_of(moves, moves_to(c, end, moves));
}

/* The answer of the sweep from the set SETS[i0] (see sweep): the same tuple as core_solve's. */
static PyObject *sweep_answer(Ctx *c, int i0, int top, int winnable_only) {
    uint8_t *best = aligned_alloc(16, 16 * (size_t)NSETS);
    if (!best) return PyErr_NoMemory();
    _Alignas(16) uint8_t nxt[MAXSTOCK + 1][16];
    draw_table(c, nxt);
    Py_BEGIN_ALLOW_THREADS
    sweep(c, nxt, i0, top, best);
    Py_END_ALLOW_THREADS
    PyObject *line = NULL, *best_line = NULL, *result = NULL;
    int moves[NPOS + MAXSTOCK + 4];
    if (c->won) {
        line = list_of(moves, sweep_line(c, nxt, best, i0, (int)c->win_key, moves));
        best_line = line;
        Py_XINCREF(best_line);
    } else {
        line = Py_None;
        Py_INCREF(line);
        if (winnable_only && !c->stop) {
            best_line = Py_None;
            Py_INCREF(best_line);
        } else {
            best_line = list_of(moves, sweep_line(c, nxt, best, i0, (int)c->best_key, moves));
        }
    }
    free(best);
    if (line && best_line)
        result = Py_BuildValue("(OOiOLi)", c->won ? Py_True : Py_False, line, c->best_p, best_line, c->nodes,
                               !c->stop);
    Py_XDECREF(line);
    Py_XDECREF(best_line);
    return result;
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
    int i0 = NSETS ? set_index((uint32_t)removed) : -1; /* -1: a set play cannot reach, searched */
    if (!dows && winnable_only != 2 && i0 >= 0) {
        rank_steps(c);
        c->best_p = -1;
        c->best_k = 1 << 20;
        result = sweep_answer(c, i0, top, winnable_only);
        goto done;
    }
    prepare(c);
    if (!map_init(&c->seen, 1 << 17, dows ? (1ull << PF_SHIFT) - 1 : (1ull << KF_SHIFT) - 1)) {
        PyErr_NoMemory();
        goto done;
    }
    c->best_p = -1;
    c->best_k = 1 << 20;
    int proved = 1;
    c->mode = 1;

    Py_BEGIN_ALLOW_THREADS
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
        line = Py_None;
        Py_INCREF(line);
        if (c->stop) {
            proved = 0;
        } else if (!winnable_only) {
            /* Pass 2: the best result, on from pass 1's states; pass 1's best is a result to beat. */
            Py_BEGIN_ALLOW_THREADS
            run_best(c);
            Py_END_ALLOW_THREADS
            if (c->oom) {
                PyErr_NoMemory();
                goto done;
            }
            if (c->stop) proved = 0;
        }
        if (winnable_only && !c->stop) {
            best_line = Py_None;
            Py_INCREF(best_line);
        } else {
            best_line = line_to(c, c->best_key);
            if (!best_line) goto done;
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
        free(c->dead);
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

PyMODINIT_FUNC PyInit__core(void) {
    free_tables();
    lane_tables();
    if (!sweep_tables()) NSETS = 0; /* then every position is searched */
    return PyModule_Create(&module);
}
