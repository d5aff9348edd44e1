/*
 * The compiled core of Parlour's TriPeaks solver.
 *
 * The algorithm is the one of twin.py, line for line, so that both give the same answers (and the same
 * lines).  See docs/solver.md for the reasoning.  In short:
 *
 *  - a state is (removed mask, cards drawn, rank of the discard top); every win removes the same 28
 *    cards, so the fewest moves are the fewest draws;
 *  - pass 1 is an A* search on draws with a bucket queue (LIFO inside a bucket), an admissible lower
 *    bound built from rank components and rank parity, and dead-state pruning;
 *  - pass 2 (only for a position with no win) searches every reachable state by increasing draws for the
 *    fewest peak cards left, pruned by an upper bound on the cards that can still be removed.
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
#define MAXSTOCK 32
#define NONE_KEY (~(uint64_t)0)

#define KEY(R, k, t) ((uint64_t)(R) | ((uint64_t)(k) << 28) | ((uint64_t)(t) << 33))
#define KEY_R(key) ((uint32_t)((key) & FULL))
#define KEY_K(key) ((int)(((key) >> 28) & 31))
#define KEY_T(key) ((int)(((key) >> 33) & 15))

/* ---- hash map: state key -> parent key (open addressing, linear probing) ---- */

typedef struct {
    uint64_t *keys; /* stored as key + 1, 0 = empty */
    uint64_t *vals;
    size_t cap, used;
} Map;

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

static int map_init(Map *m, size_t cap) {
    m->cap = cap;
    m->used = 0;
    m->keys = calloc(cap, sizeof(uint64_t));
    m->vals = malloc(cap * sizeof(uint64_t));
    return m->keys && m->vals;
}

static void map_free(Map *m) {
    free(m->keys);
    free(m->vals);
    m->keys = m->vals = NULL;
}

static inline int map_has(const Map *m, uint64_t key) {
    size_t mask = m->cap - 1, i = mix(key) & mask;
    uint64_t stored = key + 1;
    for (;;) {
        uint64_t s = m->keys[i];
        if (s == stored) return 1;
        if (s == 0) return 0;
        i = (i + 1) & mask;
    }
}

static inline uint64_t map_get(const Map *m, uint64_t key) {
    size_t mask = m->cap - 1, i = mix(key) & mask;
    uint64_t stored = key + 1;
    for (;;) {
        uint64_t s = m->keys[i];
        if (s == stored) return m->vals[i];
        if (s == 0) return NONE_KEY;
        i = (i + 1) & mask;
    }
}

static int map_grow(Map *m) {
    Map n;
    if (!map_init(&n, m->cap * 2)) {
        map_free(&n);
        return 0;
    }
    size_t mask = n.cap - 1;
    for (size_t j = 0; j < m->cap; j++) {
        if (!m->keys[j]) continue;
        size_t i = mix(m->keys[j] - 1) & mask;
        while (n.keys[i]) i = (i + 1) & mask;
        n.keys[i] = m->keys[j];
        n.vals[i] = m->vals[j];
    }
    n.used = m->used;
    map_free(m);
    *m = n;
    return 1;
}

/* Insert a key known to be absent. */
static inline int map_put(Map *m, uint64_t key, uint64_t val) {
    if ((m->used + 1) * 2 > m->cap && !map_grow(m)) return 0;
    size_t mask = m->cap - 1, i = mix(key) & mask;
    while (m->keys[i]) i = (i + 1) & mask;
    m->keys[i] = key + 1;
    m->vals[i] = val;
    m->used++;
    return 1;
}

/* ---- bucket queue of open states ---- */

typedef struct {
    uint64_t *items;
    size_t len, cap;
} Stack;

static int stack_push(Stack *s, uint64_t v) {
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        uint64_t *items = realloc(s->items, cap * sizeof(uint64_t));
        if (!items) return 0;
        s->items = items;
        s->cap = cap;
    }
    s->items[s->len++] = v;
    return 1;
}

/* ---- the position being solved ---- */

typedef struct {
    uint8_t rank[NPOS];
    uint8_t stock[MAXSTOCK];
    int n;
    int easy, draw_only_when_stuck;
    uint32_t adjpos[NCODES];   /* positions whose card may go on a top of this code */
    uint32_t adjrank[NCODES];  /* ranks (13 bits) that may go on a top of this code */
    uint32_t rankpos[NCODES];  /* positions holding a card of this code */
    uint32_t upclosure[NPOS];  /* the position and every position it covers, transitively */
    int scnt[MAXSTOCK + 1][NCODES]; /* counts of each code in stock[k..n-1] */
    uint32_t smask[MAXSTOCK + 1];   /* ranks present in stock[k..n-1] (joker excluded) */
    /* search */
    Map seen;
    Map mink; /* (removed, top) -> fewest draws seen: more draws for the same cards and top is no better */
    Stack buckets[MAXSTOCK + 2];
    long long nodes, limit;
    int mode; /* 1 = win search, 2 = best result */
    int aborted, oom;
    uint64_t win_key;
    int best_p, best_k;
    uint64_t best_key;
    int base_removed;
} Ctx;

static inline int popcount32(uint32_t x) { return __builtin_popcount(x); }

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

/* Components of a rank set as masks in a fixed order; each with its ranks in walk order. */
typedef struct {
    int count;
    uint32_t mask[13];
    int imbalance[13];
} Components;

static void components(const Ctx *c, const int *cnt, uint32_t S, Components *out) {
    out->count = 0;
    if (c->easy && S == 0x1FFFu) {
        /* The whole odd cycle: cut it at every edge and keep the strongest parity bound. */
        int best = 1;
        for (int e = 0; e < 13; e++) {
            int imb = 0;
            for (int i = 0; i < 13; i++) {
                int v = cnt[(e + 1 + i) % 13];
                imb += (i & 1) ? -v : v;
            }
            if (imb < 0) imb = -imb;
            int a = cnt[e], b = cnt[(e + 1) % 13];
            int cap = 2 * a;
            if (2 * b < cap) cap = 2 * b;
            if (a + b - 1 < cap) cap = a + b - 1;
            int need = imb - cap;
            if (need > best) best = need;
        }
        out->mask[0] = S;
        out->imbalance[0] = best;
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
        out->imbalance[out->count] = imb > 1 ? imb : 1;
        out->count++;
    }
}

static inline int starters(const Ctx *c, uint32_t near, int k) {
    int s = c->scnt[k][WILD];
    for (int r = 0; r < 13; r++)
        if (near & (1u << r)) s += c->scnt[k][r];
    return s;
}

static inline uint32_t rank_set(const int *cnt) {
    uint32_t S = 0;
    for (int r = 0; r < 13; r++)
        if (cnt[r]) S |= 1u << r;
    return S;
}

/* Fewest draws still needed to win (admissible), or -1 when no win is possible any more. */
static int lower_bound(const Ctx *c, const int *cnt, int k, int top) {
    uint32_t S = rank_set(cnt);
    if (!S) return 0;
    int jt = cnt[WILD] > 0;
    Components comp;
    components(c, cnt, S, &comp);
    int total = 0, topuse = 0;
    for (int i = 0; i < comp.count; i++) {
        uint32_t C = comp.mask[i];
        int need = comp.imbalance[i];
        int topadj = top == WILD || (c->adjrank[top] & C) != 0;
        if (!jt && need > starters(c, C | neighbours(c, C), k) + topadj) return -1;
        total += need;
        topuse |= topadj;
    }
    int lb = total - jt - topuse;
    if (lb < 0) lb = 0;
    if (lb > c->n - k) return -1;
    return lb;
}

/* The most cards that can still be removed in total (removed so far included). */
static int upper_bound(const Ctx *c, uint32_t R, const int *cnt, int k, int top) {
    if (cnt[WILD] || c->scnt[k][WILD] || top == WILD) return NPOS;
    uint32_t S = rank_set(cnt);
    Components comp;
    components(c, cnt, S, &comp);
    uint32_t dead = 0;
    for (int i = 0; i < comp.count; i++) {
        uint32_t C = comp.mask[i];
        if ((c->adjrank[top] & C) != 0) continue;
        if ((c->smask[k] & (C | neighbours(c, C))) != 0) continue;
        for (int r = 0; r < 13; r++)
            if (C & (1u << r)) dead |= c->rankpos[r];
    }
    dead &= ~R;
    uint32_t blocked = 0;
    for (int p = 0; p < NPOS; p++)
        if (dead & (1u << p)) blocked |= c->upclosure[p];
    return NPOS - popcount32(blocked & ~R);
}

static inline void note_best(Ctx *c, uint32_t R, int k, uint64_t key) {
    int p = popcount32(R);
    if (p > c->best_p || (p == c->best_p && k < c->best_k)) {
        c->best_p = p;
        c->best_k = k;
        c->best_key = key;
    }
}

/* Priority of a new state, or -1 to drop it. */
static int priority(Ctx *c, uint32_t R, const int *cnt, int k, int top) {
    if (c->mode == 1) {
        int h = lower_bound(c, cnt, k, top);
        return h < 0 ? -1 : k + h;
    }
    int ub = upper_bound(c, R, cnt, k, top);
    if (ub < c->best_p || (ub == c->best_p && k >= c->best_k)) return -1;
    return k;
}

/* True when a state reached by a removal is new and not dominated by the same cards and top reached
 * with fewer draws (that state can play the same cards, then draw up to here).  States reached by a draw
 * are never pruned that way: the catching-up draws of a dominating state pass through them. */
static inline int fresh(Ctx *c, uint64_t key) {
    if (map_has(&c->seen, key)) return 0;
    uint64_t rt = key & ~((uint64_t)31 << 28);
    uint64_t k = (uint64_t)KEY_K(key);
    uint64_t best = map_get(&c->mink, rt);
    if (best != NONE_KEY && best < k) return 0;
    return 1;
}

static int note_mink(Ctx *c, uint64_t key) {
    uint64_t rt = key & ~((uint64_t)31 << 28);
    size_t mask = c->mink.cap - 1, i = mix(rt) & mask;
    for (;;) {
        uint64_t s = c->mink.keys[i];
        if (s == rt + 1) {
            c->mink.vals[i] = (uint64_t)KEY_K(key);
            return 1;
        }
        if (s == 0) break;
        i = (i + 1) & mask;
    }
    return map_put(&c->mink, rt, (uint64_t)KEY_K(key));
}

static int visit(Ctx *c, uint64_t key, uint64_t parent) {
    if (!map_put(&c->seen, key, parent) || !note_mink(c, key)) {
        c->oom = 1;
        return 0;
    }
    if (++c->nodes > c->limit) {
        c->aborted = 1;
        return 0;
    }
    return 1;
}

static int push(Ctx *c, int bucket, uint64_t key) {
    if (!stack_push(&c->buckets[bucket], key)) {
        c->oom = 1;
        return 0;
    }
    return 1;
}

/* Depth-first through the removals from one state; returns 1 to stop (win, limit or no memory). */
static int expand(Ctx *c, uint32_t R, int k, int top, int *cnt, uint64_t key, int f) {
    uint32_t cand = free_of(R) & c->adjpos[top];
    if (k < c->n && !(c->draw_only_when_stuck && cand)) {
        int t2 = c->stock[k];
        uint64_t key2 = KEY(R, k + 1, t2);
        if (!map_has(&c->seen, key2)) {
            if (!visit(c, key2, key)) return 1;
            int pr = priority(c, R, cnt, k + 1, t2);
            if (pr >= 0 && !push(c, pr > f ? pr : f, key2)) return 1;
        }
    }
    while (cand) {
        int p = __builtin_ctz(cand);
        cand &= cand - 1;
        uint32_t R2 = R | (1u << p);
        int t2 = c->rank[p];
        uint64_t key2 = KEY(R2, k, t2);
        if (!fresh(c, key2)) continue;
        if (!visit(c, key2, key)) return 1;
        if (R2 == FULL) {
            c->win_key = key2;
            return 1;
        }
        cnt[t2]--;
        note_best(c, R2, k, key2);
        int pr = priority(c, R2, cnt, k, t2);
        int stop = 0;
        if (pr > f) stop = !push(c, pr, key2);
        else if (pr >= 0) stop = expand(c, R2, k, t2, cnt, key2, f);
        cnt[t2]++;
        if (stop) return 1;
    }
    return 0;
}

static void counts_of(const Ctx *c, uint32_t R, int *cnt) {
    memset(cnt, 0, NCODES * sizeof(int));
    for (int p = 0; p < NPOS; p++)
        if (!(R & (1u << p))) cnt[c->rank[p]]++;
}

/* Run one pass from the root; returns 0 normally, 1 when stopped early. */
static int run(Ctx *c, uint64_t root) {
    int cnt[NCODES];
    for (int b = 0; b <= MAXSTOCK + 1; b++) c->buckets[b].len = 0;
    if (map_has(&c->seen, root)) return 0;
    if (!visit(c, root, NONE_KEY)) return 1;
    uint32_t R0 = KEY_R(root);
    if (R0 == FULL) {
        c->win_key = root;
        return 1;
    }
    counts_of(c, R0, cnt);
    note_best(c, R0, KEY_K(root), root);
    int pr = priority(c, R0, cnt, KEY_K(root), KEY_T(root));
    if (pr < 0) return 0;
    if (!push(c, pr, root)) return 1;
    for (int f = 0; f <= MAXSTOCK + 1; f++) {
        Stack *s = &c->buckets[f];
        while (s->len) {
            uint64_t key = s->items[--s->len];
            uint32_t R = KEY_R(key);
            counts_of(c, R, cnt);
            if (expand(c, R, KEY_K(key), KEY_T(key), cnt, key, f)) return 1;
        }
    }
    return 0;
}

static PyObject *line_to(Ctx *c, uint64_t end) {
    PyObject *line = PyList_New(0);
    if (!line) return NULL;
    uint64_t key = end;
    for (;;) {
        uint64_t parent = map_get(&c->seen, key);
        if (parent == NONE_KEY) break;
        long move;
        if (KEY_K(key) != KEY_K(parent)) move = -1;
        else move = __builtin_ctz(KEY_R(key) ^ KEY_R(parent));
        PyObject *item = PyLong_FromLong(move);
        if (!item || PyList_Append(line, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(line);
            return NULL;
        }
        Py_DECREF(item);
        key = parent;
    }
    if (PyList_Reverse(line) < 0) {
        Py_DECREF(line);
        return NULL;
    }
    return line;
}

static void prepare(Ctx *c) {
    for (int t = 0; t < NCODES; t++) {
        uint32_t ranks;
        if (t == WILD) ranks = 0x1FFFu;
        else if (c->easy) ranks = ((1u << ((t + 1) % 13)) | (1u << ((t + 12) % 13)));
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
    /* The positions each card covers: the row above, by the layout of the spec. */
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
    for (int k = c->n - 1; k >= 0; k--) {
        memcpy(c->scnt[k], c->scnt[k + 1], sizeof c->scnt[k]);
        c->scnt[k][c->stock[k]]++;
    }
    for (int k = 0; k <= c->n; k++) {
        c->smask[k] = 0;
        for (int r = 0; r < 13; r++)
            if (c->scnt[k][r]) c->smask[k] |= 1u << r;
    }
}

static PyObject *core_solve(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"ranks", "removed", "stock", "top", "easy", "draw_only_when_stuck",
                             "node_limit", "winnable_only", NULL};
    Py_buffer ranks, stock;
    unsigned long removed;
    int top, easy, dows, winnable_only;
    long long limit;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*ky*ippLp", kwlist, &ranks, &removed, &stock, &top,
                                     &easy, &dows, &limit, &winnable_only))
        return NULL;
    Ctx *c = calloc(1, sizeof(Ctx));
    PyObject *result = NULL;
    if (!c) {
        PyBuffer_Release(&ranks);
        PyBuffer_Release(&stock);
        return PyErr_NoMemory();
    }
    if (ranks.len != NPOS || stock.len > MAXSTOCK - 2 || top < 0 || top > WILD || removed > FULL) {
        PyErr_SetString(PyExc_ValueError, "solve() needs 28 ranks, at most 30 stock cards, a top code 0-13");
        goto done;
    }
    for (int p = 0; p < NPOS; p++) {
        c->rank[p] = ((uint8_t *)ranks.buf)[p];
        if (c->rank[p] > WILD) {
            PyErr_SetString(PyExc_ValueError, "rank codes run from 0 to 13");
            goto done;
        }
    }
    c->n = (int)stock.len;
    for (int k = 0; k < c->n; k++) {
        c->stock[k] = ((uint8_t *)stock.buf)[k];
        if (c->stock[k] > WILD) {
            PyErr_SetString(PyExc_ValueError, "rank codes run from 0 to 13");
            goto done;
        }
    }
    c->easy = easy;
    c->draw_only_when_stuck = dows;
    c->limit = limit;
    prepare(c);
    if (!map_init(&c->seen, 1 << 12) || !map_init(&c->mink, 1 << 12)) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t root = KEY(removed, 0, top);
    c->win_key = NONE_KEY;
    c->best_p = -1;
    c->best_k = 1 << 20;
    c->best_key = root;
    int winnable = 0, proved = 1;
    PyObject *line = NULL, *best_line = NULL;

    Py_BEGIN_ALLOW_THREADS
    c->mode = 1;
    run(c, root);
    Py_END_ALLOW_THREADS

    if (c->oom) {
        PyErr_NoMemory();
        goto done;
    }
    if (c->win_key != NONE_KEY) {
        winnable = 1;
        line = line_to(c, c->win_key);
        if (!line) goto done;
        best_line = line;
        Py_INCREF(best_line);
        c->best_p = NPOS;
    } else if (c->aborted) {
        proved = 0;
    } else if (!winnable_only) {
        /* Pass 2: the best result; the best of pass 1 is a known result to beat. */
        best_line = line_to(c, c->best_key);
        if (!best_line) goto done;
        map_free(&c->seen);
        map_free(&c->mink);
        if (!map_init(&c->seen, 1 << 12) || !map_init(&c->mink, 1 << 12)) {
            Py_DECREF(best_line);
            PyErr_NoMemory();
            goto done;
        }
        uint64_t first_best = c->best_key;
        Py_BEGIN_ALLOW_THREADS
        c->mode = 2;
        run(c, root);
        Py_END_ALLOW_THREADS
        if (c->oom) {
            Py_DECREF(best_line);
            PyErr_NoMemory();
            goto done;
        }
        if (c->aborted) proved = 0;
        if (c->best_key != first_best) {
            Py_DECREF(best_line);
            best_line = line_to(c, c->best_key);
            if (!best_line) goto done;
        }
    }
    if (!line) {
        line = Py_None;
        Py_INCREF(line);
    }
    if (!best_line) {
        if (winnable_only && !c->aborted) {
            best_line = Py_None;
            Py_INCREF(best_line);
        } else {
            best_line = line_to(c, c->best_key);
        }
        if (!best_line) {
            Py_DECREF(line);
            goto done;
        }
    }
    result = Py_BuildValue("(NNiNLi)", PyBool_FromLong(winnable), line, c->best_p, best_line, c->nodes,
                           proved);
done:
    map_free(&c->seen);
    map_free(&c->mink);
    for (int b = 0; b <= MAXSTOCK + 1; b++) free(c->buckets[b].items);
    free(c);
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
