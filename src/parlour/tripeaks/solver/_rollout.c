/*
 * The compiled core of Parlour's fair TriPeaks player: rollouts on sampled deals.
 *
 * rollout.py (the pure-Python twin) is the same algorithm step for step, with the same random numbers,
 * so that both give the same counts (tests compare them). docs/decisions/0037-tripeaks-fair-rollouts.md
 * says why rollouts, and docs/solver.md how they are used. In short: the cards the player has not seen
 * are shuffled into the face-down places and the stock (one sample); every candidate move is made in
 * that sample and the game is played on to its end by a base policy that sees only what a player would
 * see there (the free cards, never a face-down card nor the stock order). The answer is, for each
 * candidate, in how many samples it won. The same samples serve every candidate (common random
 * numbers: the comparison between moves is much sharper than each count alone), and beside the counts
 * the core says, for each two moves, in how many samples the first won and the second lost.
 *
 * Base policies (each reads only the free cards and the shape of the layout):
 *   0 greedy: the fitting free card that turns the most face-down cards up (then the rightmost), else draw;
 *   1 chain:  the first card of the longest run of free cards that can be played one on another from the
 *             top (cards that a removal would turn up are unknown, so they are not counted), ties by the
 *             cards the run turns up, then as greedy; draw when no card fits.
 *
 * Only the standard library and the Python C API are used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "splitmix64.h"
#include "tripeaks_layout.h" /* NPOS, FULL, WILD, DRAW_MOVE, COVERED_BY, COVERS */

#define HIDDEN 255
#define MAXSTOCK 32
#define MAXCARDS 53
#define MAXMOVES 29

typedef struct {
    uint8_t rank[NPOS];
    uint8_t stock[MAXSTOCK];
    int nstock;
    int easy, dows, open;
} Sim;

static inline int fits(const Sim *s, int card, int top) {
    if (card == WILD || top == WILD) return 1;
    int d = card > top ? card - top : top - card;
    return d == 1 || (s->easy && d == 12);
}

static inline int is_free(uint32_t removed, int p) {
    if (removed >> p & 1) return 0;
    for (int i = 0; i < 2; i++) {
        int q = COVERED_BY[p][i];
        if (q >= 0 && !(removed >> q & 1)) return 0;
    }
    return 1;
}

/* The places that removing p turns face up: those whose other cover is gone (`removed` may hold p or not). */
static inline uint32_t freed_by(uint32_t removed, int p) {
    uint32_t freed = 0;
    for (int i = 0; i < 2; i++) {
        int q = COVERS[p][i];
        if (q < 0) continue;
        int other = COVERED_BY[q][0] == p ? COVERED_BY[q][1] : COVERED_BY[q][0];
        if (removed >> other & 1) freed |= 1u << q;
    }
    return freed;
}

/* How many face-down cards removing p would turn up (0 when every card is face up from the start). */
static inline int turns_up(const Sim *s, uint32_t removed, int p) {
    if (s->open) return 0;
    uint32_t freed = freed_by(removed, p);
    return (freed != 0) + ((freed & (freed - 1)) != 0); /* at most two bits: cheaper than a popcount here */
}

static inline uint32_t free_cards(uint32_t removed) {
    uint32_t free = 0;
    for (int p = 0; p < NPOS; p++)
        if (is_free(removed, p)) free |= 1u << p;
    return free;
}

/* The highest position of a non-empty mask: the scans go from the right, as greedy play's tie rule asks. */
static inline int highest(uint32_t mask) {
    return 31 - __builtin_clz(mask);
}

/* The greedy choice among the fitting free cards: most turned up, then the rightmost; -1 for none. */
static int greedy_choice(const Sim *s, uint32_t removed, uint32_t free, int top) {
    int best = -1, best_up = -1;
    for (uint32_t left = free; left;) {
        int p = highest(left);
        left &= ~(1u << p);
        if (!fits(s, s->rank[p], top)) continue;
        int up = turns_up(s, removed, p);
        if (up > best_up) {
            best = p;
            best_up = up;
        }
    }
    return best;
}

/* The longest run of known free cards from a top (depth first over the cards free now; a card that a
 * removal frees is face down until then, so the run never counts it). Returns its length, and through
 * `up` the face-down cards it turns up. */
static int longest_run(const Sim *s, uint32_t removed, uint32_t free, int top, int *up) {
    int best = 0, best_up = 0;
    for (uint32_t left = free; left;) {
        int p = highest(left);
        left &= ~(1u << p);
        if (!fits(s, s->rank[p], top)) continue;
        int here_up = turns_up(s, removed, p);
        int after_up = 0;
        int length = 1 + longest_run(s, removed | 1u << p, free & ~(1u << p), s->rank[p], &after_up);
        here_up += after_up;
        if (length > best || (length == best && here_up > best_up)) {
            best = length;
            best_up = here_up;
        }
    }
    *up = best_up;
    return best;
}

static int chain_choice(const Sim *s, uint32_t removed, uint32_t free, int top) {
    int best = -1, best_length = -1, best_up = -1;
    for (uint32_t left = free; left;) {
        int p = highest(left);
        left &= ~(1u << p);
        if (!fits(s, s->rank[p], top)) continue;
        int up = 0;
        int length = 1 + longest_run(s, removed | 1u << p, free & ~(1u << p), s->rank[p], &up);
        up += turns_up(s, removed, p);
        if (length > best_length || (length == best_length && up > best_up)) {
            best = p;
            best_length = length;
            best_up = up;
        }
    }
    return best;
}

/* Play a sample on from (removed, next stock index k, top) with a base policy; 1 when it is won. The free
 * cards are kept up to date as cards go rather than found again at every step. */
static int play_out(const Sim *s, uint32_t removed, int k, int top, int policy) {
    uint32_t free = free_cards(removed);
    for (;;) {
        if (removed == FULL) return 1;
        int p = policy == 1 ? chain_choice(s, removed, free, top) : greedy_choice(s, removed, free, top);
        if (p >= 0) {
            removed |= 1u << p;
            free = (free & ~(1u << p)) | freed_by(removed, p);
            top = s->rank[p];
            continue;
        }
        if (k >= s->nstock) return 0;
        top = s->stock[k++];
    }
}

static PyObject *core_rollouts(PyObject *self, PyObject *args) {
    (void)self;
    const char *ranks, *unseen, *moves;
    Py_ssize_t nranks, nunseen, nmoves;
    unsigned long removed;
    int stock_count, top, easy, dows, open, samples, policy;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "y#kiiy#pppy#iKi", &ranks, &nranks, &removed, &stock_count, &top, &unseen,
                          &nunseen, &easy, &dows, &open, &moves, &nmoves, &samples, &seed, &policy))
        return NULL;
    if (nranks != NPOS || removed > FULL || stock_count < 0 || stock_count > MAXSTOCK || top < 0 ||
        top > WILD || nunseen > MAXCARDS || nmoves < 1 || nmoves > MAXMOVES || samples < 0 || policy < 0 ||
        policy > 1) {
        PyErr_SetString(PyExc_ValueError, "rollouts: an argument is out of range");
        return NULL;
    }
    Sim s;
    memset(&s, 0, sizeof s);
    s.easy = easy;
    s.dows = dows;
    s.open = open;
    s.nstock = stock_count;
    int hidden[NPOS], nhidden = 0;
    for (int p = 0; p < NPOS; p++) {
        uint8_t r = (uint8_t)ranks[p];
        if (r == HIDDEN && !(removed >> p & 1)) hidden[nhidden++] = p;
        else if (r > WILD && !(removed >> p & 1)) {
            PyErr_SetString(PyExc_ValueError, "rollouts: a rank is out of range");
            return NULL;
        }
        s.rank[p] = r;
    }
    if (nhidden + stock_count != nunseen) {
        PyErr_SetString(PyExc_ValueError, "rollouts: the unseen cards do not fill the hidden places and the stock");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nunseen; i++) {
        if ((uint8_t)unseen[i] > WILD) {
            PyErr_SetString(PyExc_ValueError, "rollouts: an unseen rank is out of range");
            return NULL;
        }
    }
    for (Py_ssize_t m = 0; m < nmoves; m++) {
        int move = (uint8_t)moves[m];
        if (move != DRAW_MOVE && (move >= NPOS || !is_free((uint32_t)removed, move) || ranks[move] == (char)HIDDEN)) {
            PyErr_SetString(PyExc_ValueError, "rollouts: a move is not a free card nor a draw");
            return NULL;
        }
        if (move == DRAW_MOVE && stock_count == 0) {
            PyErr_SetString(PyExc_ValueError, "rollouts: a draw from an empty stock");
            return NULL;
        }
    }
    long wins[MAXMOVES] = {0};
    long beats[MAXMOVES * MAXMOVES] = {0};
    int won[MAXMOVES];
    uint8_t cards[MAXCARDS];
    uint64_t state = seed;
    Py_BEGIN_ALLOW_THREADS
    for (int n = 0; n < samples; n++) {
        memcpy(cards, unseen, (size_t)nunseen);
        for (int i = (int)nunseen - 1; i > 0; i--) {
            int j = (int)(splitmix64_next(&state) % (uint64_t)(i + 1));
            uint8_t swap = cards[i];
            cards[i] = cards[j];
            cards[j] = swap;
        }
        for (int h = 0; h < nhidden; h++) s.rank[hidden[h]] = cards[h];
        memcpy(s.stock, cards + nhidden, (size_t)stock_count);
        for (Py_ssize_t m = 0; m < nmoves; m++) {
            int move = (uint8_t)moves[m];
            won[m] = move == DRAW_MOVE ? play_out(&s, (uint32_t)removed, 1, s.stock[0], policy)
                                       : play_out(&s, (uint32_t)removed | 1u << move, 0, s.rank[move], policy);
            wins[m] += won[m];
        }
        for (Py_ssize_t i = 0; i < nmoves; i++)
            for (Py_ssize_t j = 0; j < nmoves; j++) beats[i * nmoves + j] += won[i] && !won[j];
    }
    Py_END_ALLOW_THREADS
    PyObject *won_list = PyList_New(nmoves), *beat_list = PyList_New(nmoves * nmoves);
    if (won_list == NULL || beat_list == NULL) goto fail;
    for (Py_ssize_t m = 0; m < nmoves; m++) {
        PyObject *count = PyLong_FromLong(wins[m]);
        if (count == NULL) goto fail;
        PyList_SET_ITEM(won_list, m, count);
    }
    for (Py_ssize_t m = 0; m < nmoves * nmoves; m++) {
        PyObject *count = PyLong_FromLong(beats[m]);
        if (count == NULL) goto fail;
        PyList_SET_ITEM(beat_list, m, count);
    }
    return Py_BuildValue("(NN)", won_list, beat_list);
fail:
    Py_XDECREF(won_list);
    Py_XDECREF(beat_list);
    return NULL;
}

static PyMethodDef methods[] = {
    {"rollouts", core_rollouts, METH_VARARGS,
     "rollouts(ranks, removed, stock_count, top, unseen, easy, draw_only_when_stuck, open_peaks, moves, "
     "samples, seed, policy) -> (wins per move, beats: samples move i won and move j lost, at i * len(moves) + j)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rollout", "Rollouts of TriPeaks on sampled deals.",
                                    -1, methods};

PyMODINIT_FUNC PyInit__rollout(void) {
    return PyModule_Create(&module);
}
