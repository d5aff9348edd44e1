/* The compiled core of the Thirteen expert: sampled deals, the inference that weighs them against how
 * the others played, and playouts by the keeper and the heuristic player.
 *
 * Its twin in pure Python is parlour/thirteen/bots/search.py, which runs the same algorithm on the
 * engine itself (Round, HeuristicBot, KeeperBot) with the same random numbers; the two give the same
 * totals (tests compare them). Everything here mirrors those modules line for line, down to the order
 * in which legal plays are listed, because the heuristic breaks ties by that order.
 *
 * Cards are strength bits 0 (3 of spades) .. 51 (2 of hearts); a rank is a nibble (see order.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "splitmix64.h"

typedef uint64_t u64;

enum { SINGLE, PAIR, TRIPLE, QUAD, SEQUENCE, DOUBLE_SEQUENCE };
#define TWO 12
#define ACE 11
#define KING 10
#define SEQUENCE_TOP ACE
#define FULL ((1ULL << 52) - 1)
#define TWOS (0xFULL << (4 * TWO))
#define SEATS 4
#define MAXPLAYS 4096
#define MAXPARTIAL 4096
#define MAXSPLIT 16
#define MAXHISTORY 512
#define MAXCANDIDATES 16
#define MAXDRAWS 4096
#define PLAYOUT_MOVES 400
#define PASS_MARGIN 0.3

static const int POINTS[SEATS] = {3, 2, 1, 0};

typedef struct {
    int kind, length, top;
} Shape;

typedef struct {
    int quad_beats_pair_of_twos, double_sequence_beats_quad, bomb_after_pass;
} Rules;

typedef struct {
    u64 hands[SEATS];
    int turn; /* -1: the round is over */
    u64 must_include;
    u64 table_mask;
    int has_table;
    Shape table;
    int owner; /* -1: none */
    int passed;
    int finished[SEATS];
    int nfinished;
    u64 played; /* every card of every step so far */
    Rules rules;
} State;

typedef struct {
    u64 plays[MAXPLAYS];
    int n;
    int overflow;
} Plays;

/* Everything a call works in, so that calls on several threads (the GIL released) share nothing. */
#define COST_CACHE_BITS 16
typedef struct {
    Plays raw, chosen, bombs;
    u64 partial[MAXPARTIAL], grown[MAXPARTIAL];
    u64 cost_keys[1 << COST_CACHE_BITS];
    double cost_values[1 << COST_CACHE_BITS];
} Ctx;

static inline int popc(u64 x) { return __builtin_popcountll(x); }
static inline int top_bit(u64 x) { return 63 - __builtin_clzll(x); }
static inline int low_bit(u64 x) { return __builtin_ctzll(x); }
static inline int nibble(u64 hand, int rank) { return (int)((hand >> (4 * rank)) & 15); }

/* SUBSETS[nibble][k]: the k-card subsets of one rank's cards, in increasing order (moves.py). */
static uint8_t SUBSETS[16][5][6];
static uint8_t NSUBSETS[16][5];

static void init_subsets(void) {
    for (int n = 0; n < 16; n++)
        for (int sub = 1; sub < 16; sub++)
            if ((sub & n) == sub) {
                int k = popc((u64)sub);
                SUBSETS[n][k][NSUBSETS[n][k]++] = (uint8_t)sub;
            }
}

/* ---- combinations (combos.py) ---------------------------------------------------------------------- */

static int shape_of(u64 mask, Shape *shape) {
    if (!mask) return 0;
    int count = popc(mask), top = top_bit(mask);
    int low_rank = low_bit(mask) >> 2, high_rank = top >> 2;
    if (low_rank == high_rank) {
        if (count > 4) return 0;
        shape->kind = count - 1; /* SINGLE .. QUAD */
        shape->length = count;
        shape->top = top;
        return 1;
    }
    if (high_rank == TWO || count < 3) return 0;
    int span = high_rank - low_rank + 1;
    int per_rank = count / span;
    if (per_rank * span != count || per_rank > 2 || span < 3) return 0;
    for (int rank = low_rank; rank <= high_rank; rank++)
        if (popc((u64)nibble(mask, rank)) != per_rank) return 0;
    shape->kind = per_rank == 1 ? SEQUENCE : DOUBLE_SEQUENCE;
    shape->length = count;
    shape->top = top;
    return 1;
}

static int shape_beats(const Shape *play, const Shape *table, const Rules *rules) {
    if (!table) return 1;
    if (play->kind == table->kind && play->length == table->length) return play->top > table->top;
    if ((table->top >> 2) == TWO && (table->kind == SINGLE || table->kind == PAIR || table->kind == TRIPLE)) {
        if (play->kind == DOUBLE_SEQUENCE && play->length / 2 >= table->length + 2) return 1;
        if (play->kind == QUAD)
            return table->kind == SINGLE || (table->kind == PAIR && rules->quad_beats_pair_of_twos);
        return 0;
    }
    return rules->double_sequence_beats_quad && table->kind == QUAD && play->kind == DOUBLE_SEQUENCE &&
           play->length >= 8;
}

static int is_bomb(u64 mask) {
    Shape s;
    return shape_of(mask, &s) && (s.kind == QUAD || s.kind == DOUBLE_SEQUENCE);
}

/* ---- legal plays, in the order of moves.py -------------------------------------------------------- */

static inline void add_play(Plays *out, u64 mask) {
    if (out->n < MAXPLAYS)
        out->plays[out->n++] = mask;
    else
        out->overflow = 1;
}

static void same_rank_plays(u64 hand, int size, Plays *out) {
    for (int rank = 0; rank < 13; rank++) {
        int n = nibble(hand, rank);
        for (int i = 0; i < NSUBSETS[n][size]; i++) add_play(out, (u64)SUBSETS[n][size][i] << (4 * rank));
    }
}

/* Sequences (per_rank 1) or double sequences (2) of `ranks` ranks; 0 for every length from 3 up. */
static void run_plays(Ctx *cx, u64 hand, int per_rank, int ranks_wanted, Plays *out) {
    u64 *partial = cx->partial, *grown = cx->grown;
    for (int start = 0; start < SEQUENCE_TOP - 1; start++) {
        int npartial = 1;
        partial[0] = 0;
        for (int rank = start; rank <= SEQUENCE_TOP; rank++) {
            int n = nibble(hand, rank);
            int nchoices = NSUBSETS[n][per_rank];
            if (!nchoices) break;
            int ngrown = 0;
            for (int i = 0; i < npartial; i++)
                for (int c = 0; c < nchoices; c++) {
                    if (ngrown < MAXPARTIAL)
                        grown[ngrown++] = partial[i] | (u64)SUBSETS[n][per_rank][c] << (4 * rank);
                    else
                        out->overflow = 1;
                }
            memcpy(partial, grown, sizeof(u64) * (size_t)ngrown);
            npartial = ngrown;
            int ranks = rank - start + 1;
            if (ranks_wanted == 0) {
                if (ranks >= 3)
                    for (int i = 0; i < npartial; i++) add_play(out, partial[i]);
            } else if (ranks == ranks_wanted) {
                for (int i = 0; i < npartial; i++) add_play(out, partial[i]);
                break;
            }
        }
    }
}

static void candidate_plays(Ctx *cx, u64 hand, const Shape *table, const Rules *rules, Plays *out) {
    if (!table) {
        for (int size = 1; size <= 4; size++) same_rank_plays(hand, size, out);
        run_plays(cx, hand, 1, 0, out);
        run_plays(cx, hand, 2, 0, out);
        return;
    }
    if (table->kind <= QUAD)
        same_rank_plays(hand, table->kind + 1, out);
    else if (table->kind == SEQUENCE)
        run_plays(cx, hand, 1, table->length, out);
    else
        run_plays(cx, hand, 2, table->length / 2, out);
    if ((table->top >> 2) == TWO && table->kind != QUAD) {
        same_rank_plays(hand, 4, out);
        run_plays(cx, hand, 2, 0, out);
    } else if (table->kind == QUAD && rules->double_sequence_beats_quad) {
        run_plays(cx, hand, 2, 0, out);
    }
}

/* legal_plays, then plays_now: a locked seat (it passed) may only bomb. */
static void plays_now(Ctx *cx, u64 hand, const Shape *table, const Rules *rules, u64 must_include,
                      int locked, Plays *out) {
    Plays *raw = &cx->raw;
    raw->n = 0; /* overflow stays set once set: the call then fails */
    candidate_plays(cx, hand, table, rules, raw);
    out->n = 0;
    out->overflow |= raw->overflow;
    for (int i = 0; i < raw->n; i++) {
        u64 mask = raw->plays[i];
        Shape s;
        if ((mask & must_include) != must_include) continue;
        if (!shape_of(mask, &s) || !shape_beats(&s, table, rules)) continue;
        if (locked && !(s.kind == QUAD || s.kind == DOUBLE_SEQUENCE)) continue;
        add_play(out, mask);
    }
}

/* ---- can_beat (moves.py): does some combination of `cards` beat `table`? -------------------------- */

static int has_run(const int *counts, const int *tops, int per_rank, int ranks, int table_top) {
    int table_rank = table_top >> 2; /* -1 >> 2 is -1 with gcc and clang, as in Python */
    int first = table_rank > ranks - 1 ? table_rank : ranks - 1;
    for (int end = first; end <= SEQUENCE_TOP; end++) {
        if (end == table_rank && tops[end] <= table_top) continue;
        int all = 1;
        for (int rank = end - ranks + 1; rank <= end; rank++)
            if (counts[rank] < per_rank) {
                all = 0;
                break;
            }
        if (all) return 1;
    }
    return 0;
}

static int can_beat(u64 cards, const Shape *table, const Rules *rules) {
    int counts[13], tops[13];
    for (int rank = 0; rank < 13; rank++) {
        int n = nibble(cards, rank);
        counts[rank] = popc((u64)n);
        tops[rank] = 4 * rank + (n ? top_bit((u64)n) : -1);
    }
    int kind = table->kind, length = table->length, top = table->top;
    int table_rank = top >> 2;
    if (kind <= QUAD) {
        int size = kind + 1;
        if (counts[table_rank] >= size && tops[table_rank] > top) return 1;
        for (int rank = table_rank + 1; rank < 13; rank++)
            if (counts[rank] >= size) return 1;
    } else if (has_run(counts, tops, kind == SEQUENCE ? 1 : 2, kind == SEQUENCE ? length : length / 2, top)) {
        return 1;
    }
    if (table_rank == TWO && (kind == SINGLE || kind == PAIR || kind == TRIPLE)) {
        if (has_run(counts, tops, 2, length + 2, -1)) return 1;
        int quad_fits = kind == SINGLE || (kind == PAIR && rules->quad_beats_pair_of_twos);
        if (!quad_fits) return 0;
        for (int rank = 0; rank < 13; rank++)
            if (counts[rank] == 4) return 1;
        return 0;
    }
    if (kind == QUAD && rules->double_sequence_beats_quad) return has_run(counts, tops, 2, 4, -1);
    return 0;
}

/* ---- the heuristic's valuation of a hand (heuristic.py) ------------------------------------------- */

static double combo_cost(u64 mask) {
    Shape s;
    shape_of(mask, &s);
    int rank = s.top >> 2;
    if (s.kind == QUAD || s.kind == DOUBLE_SEQUENCE) return 0.3;
    if (rank == TWO) return 0.25;
    if (s.kind == SEQUENCE) return (s.length >= 5 || rank >= KING) ? 0.85 : 1.0;
    if (rank == ACE) return 0.6;
    if (rank == KING) return 0.85;
    return 1.0;
}

static int lowest_of(int n, int count) {
    int chosen = 0;
    for (int i = 0; i < count; i++) {
        int low = n & -n;
        chosen |= low;
        n ^= low;
    }
    return chosen;
}

/* The combinations holding the hand's lowest card, lowest suits of each rank, in heuristic.py's order. */
static int combos_with_lowest_card(u64 mask, u64 *found) {
    int nfound = 0;
    int rank = low_bit(mask) >> 2;
    int own = nibble(mask, rank);
    int own_count = popc((u64)own);
    for (int size = 1; size <= own_count; size++) found[nfound++] = (u64)lowest_of(own, size) << (4 * rank);
    for (int per_rank = 1; per_rank <= 2; per_rank++) {
        if (own_count < per_rank) continue;
        u64 run = (u64)lowest_of(own, per_rank) << (4 * rank);
        for (int next = rank + 1; next <= SEQUENCE_TOP; next++) {
            int n = nibble(mask, next);
            if (popc((u64)n) < per_rank) break;
            run |= (u64)lowest_of(n, per_rank) << (4 * next);
            if (next - rank >= 2) found[nfound++] = run;
        }
    }
    return nfound;
}

/* A direct-mapped cache of hand costs: a value depends on the hand alone, so what the cache holds
 * changes only the speed, never an answer. */
static double hand_cost(Ctx *cx, u64 mask) {
    if (!mask) return 0.0;
    u64 slot = (mask * 0x9E3779B97F4A7C15ULL) >> (64 - COST_CACHE_BITS);
    if (cx->cost_keys[slot] == mask) return cx->cost_values[slot];
    u64 found[32];
    int n = combos_with_lowest_card(mask, found);
    double best = 0.0;
    for (int i = 0; i < n; i++) {
        double value = combo_cost(found[i]) + hand_cost(cx, mask & ~found[i]);
        if (i == 0 || value < best) best = value;
    }
    cx->cost_keys[slot] = mask;
    cx->cost_values[slot] = best;
    return best;
}

/* best_split: a cheapest split, lowest combination first (the first of equal cost, as Python's min). */
static int best_split(Ctx *cx, u64 mask, u64 *units) {
    int n = 0;
    while (mask && n < MAXSPLIT) {
        u64 found[32];
        int nfound = combos_with_lowest_card(mask, found);
        u64 chosen = found[0];
        double best = combo_cost(found[0]) + hand_cost(cx, mask & ~found[0]);
        for (int i = 1; i < nfound; i++) {
            double value = combo_cost(found[i]) + hand_cost(cx, mask & ~found[i]);
            if (value < best) {
                best = value;
                chosen = found[i];
            }
        }
        units[n++] = chosen;
        mask &= ~chosen;
    }
    return n;
}

/* ---- the round (round.py) ------------------------------------------------------------------------ */

static int has_finished(const State *st, int seat) {
    for (int i = 0; i < st->nfinished; i++)
        if (st->finished[i] == seat) return 1;
    return 0;
}

static int in_play(const State *st, int seat) { return st->hands[seat] && !has_finished(st, seat); }

/* Append a seat to the finishing order; a seat already there (only an inconsistent history could do
 * it) is not appended twice, so the order never outgrows its four places. */
static void finish(State *st, int seat) {
    if (st->nfinished < SEATS && !has_finished(st, seat)) st->finished[st->nfinished++] = seat;
}

static void clear_table(State *st, int leader) {
    st->table_mask = 0;
    st->has_table = 0;
    st->owner = -1;
    st->passed = 0;
    st->turn = leader;
}

static int may_return(Ctx *cx, State *st, int seat) {
    if (!st->rules.bomb_after_pass) return 0;
    Plays *plays = &cx->bombs;
    plays_now(cx, st->hands[seat], st->has_table ? &st->table : NULL, &st->rules, 0, 0, plays);
    for (int i = 0; i < plays->n; i++)
        if (is_bomb(plays->plays[i])) return 1;
    return 0;
}

static void advance(Ctx *cx, State *st, int actor) {
    int remaining[SEATS], nremaining = 0;
    for (int seat = 0; seat < SEATS; seat++)
        if (in_play(st, seat)) remaining[nremaining++] = seat;
    if (nremaining <= 1) {
        for (int i = 0; i < nremaining; i++) finish(st, remaining[i]);
        st->turn = -1;
        return;
    }
    int owner = st->owner;
    for (int step = 1; step <= SEATS; step++) {
        int seat = (actor + step) % SEATS;
        if (seat == owner && st->hands[seat]) {
            clear_table(st, seat);
            return;
        }
        if (!st->hands[seat]) continue;
        if ((st->passed >> seat & 1) && !may_return(cx, st, seat)) continue;
        st->turn = seat;
        return;
    }
    for (int k = 1; k < SEATS; k++) {
        int seat = (owner + k) % SEATS;
        if (st->hands[seat]) {
            clear_table(st, seat);
            return;
        }
    }
}

static void push(Ctx *cx, State *st, u64 mask) {
    int seat = st->turn;
    if (mask) {
        st->hands[seat] &= ~mask;
        st->table_mask = mask;
        st->has_table = shape_of(mask, &st->table);
        st->owner = seat;
        st->must_include = 0;
        st->passed &= ~(1 << seat);
        if (!st->hands[seat]) finish(st, seat);
    } else {
        st->passed |= 1 << seat;
    }
    st->played |= mask;
    advance(cx, st, seat);
}

/* ---- the two players of the playouts ------------------------------------------------------------- */

static inline int lowest_less(u64 a, u64 b) { /* lowest_play's key: bit length, card count, mask */
    int la = top_bit(a), lb = top_bit(b);
    if (la != lb) return la < lb;
    int ca = popc(a), cb = popc(b);
    if (ca != cb) return ca < cb;
    return a < b;
}

static inline int precious(u64 play) { return (play & TWOS) || is_bomb(play); }

/* Bot.choose's legal plays for the seat to move; returns 0 when it has none (it passes). */
static int plays_of(Ctx *cx, State *st, int seat, Plays *plays) {
    plays_now(cx, st->hands[seat], st->has_table ? &st->table : NULL, &st->rules, st->must_include,
              st->passed >> seat & 1, plays);
    return plays->n;
}

static int in_list(const u64 *list, int n, u64 mask) {
    for (int i = 0; i < n; i++)
        if (list[i] == mask) return 1;
    return 0;
}

/* The keeper's sorting of the plays (keeper.by_structure), each list's lowest: `kept` units that spend
 * no 2 and are no bomb, `special` units that do, `ordinary` plays that do not, `any` play. */
typedef struct {
    u64 kept, special, ordinary, any;
} Sorted;

static Sorted by_structure(const u64 *units, int nunits, const Plays *plays) {
    Sorted out = {0, 0, 0, 0};
    for (int i = 0; i < plays->n; i++) {
        u64 play = plays->plays[i];
        int unit = in_list(units, nunits, play);
        if (!precious(play)) {
            if (unit && (!out.kept || lowest_less(play, out.kept))) out.kept = play;
            if (!out.ordinary || lowest_less(play, out.ordinary)) out.ordinary = play;
        } else if (unit && (!out.special || lowest_less(play, out.special))) {
            out.special = play;
        }
        if (!out.any || lowest_less(play, out.any)) out.any = play;
    }
    return out;
}

/* fewest_cards_of_others: the fewest cards another seat still in the round holds (13 when none). */
static int fewest_of_others(const State *st, int seat) {
    int danger = 13;
    for (int other = 0; other < SEATS; other++) {
        int count = popc(st->hands[other]);
        if (other != seat && count && count < danger) danger = count;
    }
    return danger;
}

/* Each player's choice among `plays`, the seat's legal plays now (never empty). The keeper (keeper.py): */
static u64 keeper_pick(Ctx *cx, State *st, int seat, const Plays *plays) {
    u64 hand = st->hands[seat];
    if (in_list(plays->plays, plays->n, hand)) return hand;
    int may_pass = st->has_table;
    u64 units[MAXSPLIT];
    Sorted s = by_structure(units, best_split(cx, hand, units), plays);
    if (s.kept) return s.kept;
    if (s.special) return s.special;
    if (may_pass && precious(st->table_mask)) return 0;
    if (s.ordinary) return s.ordinary;
    if (may_pass) return 0;
    return s.any;
}

/* The eager keeper (keeper.py): leads its longest unit, spends 2s and bombs, passes only when nothing
 * fits. */
static u64 eager_pick(Ctx *cx, State *st, int seat, const Plays *plays) {
    u64 hand = st->hands[seat];
    if (in_list(plays->plays, plays->n, hand)) return hand;
    u64 units[MAXSPLIT];
    int nunits = best_split(cx, hand, units);
    if (!st->has_table) {
        u64 best = 0;
        int best_plain = 0;
        for (int i = 0; i < plays->n; i++) {
            u64 play = plays->plays[i];
            if (!in_list(units, nunits, play)) continue;
            int plain = !precious(play);
            /* an ordinary unit before a 2 or a bomb; then the most cards, the lowest top, the lowest */
            if (!best || plain > best_plain ||
                (plain == best_plain &&
                 (popc(play) > popc(best) ||
                  (popc(play) == popc(best) &&
                   (top_bit(play) < top_bit(best) || (top_bit(play) == top_bit(best) && play < best)))))) {
                best = play;
                best_plain = plain;
            }
        }
        if (best) return best;
    }
    Sorted s = by_structure(units, nunits, plays);
    if (s.kept) return s.kept;
    if (s.special) return s.special;
    if (s.ordinary) return s.ordinary;
    return s.any;
}

typedef struct {
    Ctx *cx;
    u64 hand, unseen;
    int danger, leading;
    const Rules *rules;
} Judge;

static int boss(const Judge *j, u64 combo) {
    Shape s;
    return shape_of(combo, &s) && !can_beat(j->unseen, &s, j->rules);
}

static double score_of(const Judge *j, u64 play) {
    Shape s;
    shape_of(play, &s);
    double value = hand_cost(j->cx, j->hand & ~play);
    value += (double)top_bit(play) / 1000.0 - (double)popc(play) / 200.0;
    if (j->danger == 1 && s.kind == SINGLE) value += (double)(51 - top_bit(play)) / 20.0;
    if (j->leading && j->danger <= 2 && s.length == j->danger) value += 0.5;
    return value;
}

/* What the heuristic and the Strong player read of the round (heuristic.py's helpers). */
static void judge_init(Judge *j, Ctx *cx, const State *st, int seat) {
    j->cx = cx;
    j->hand = st->hands[seat];
    j->rules = &st->rules;
    j->leading = !st->has_table;
    j->danger = fewest_of_others(st, seat);
    j->unseen = FULL & ~j->hand & ~st->played;
}

/* finishing_chain: the unanswerable play after which all but one unit are unanswerable too (the most
 * cards, then the lowest), or 0. */
static u64 finishing_chain(const Judge *j, const Plays *plays) {
    u64 chain = 0;
    for (int i = 0; i < plays->n; i++) {
        u64 play = plays->plays[i];
        if (!boss(j, play)) continue;
        u64 units[MAXSPLIT];
        int nunits = best_split(j->cx, j->hand & ~play, units), open = 0;
        for (int u = 0; u < nunits; u++) open += !boss(j, units[u]);
        if (open > 1) continue;
        /* max by (card count, -mask): more cards, then the lower mask */
        if (!chain || popc(play) > popc(chain) || (popc(play) == popc(chain) && play < chain)) chain = play;
    }
    return chain;
}

static u64 heuristic_pick(Ctx *cx, State *st, int seat, const Plays *plays) {
    u64 hand = st->hands[seat];
    if (in_list(plays->plays, plays->n, hand)) return hand;
    Judge j;
    judge_init(&j, cx, st, seat);
    double before = hand_cost(cx, hand);
    u64 chain = finishing_chain(&j, plays);
    if (chain) return chain;
    u64 best = plays->plays[0];
    double best_score = score_of(&j, best);
    for (int i = 1; i < plays->n; i++) {
        double value = score_of(&j, plays->plays[i]);
        if (value < best_score) {
            best_score = value;
            best = plays->plays[i];
        }
    }
    if (st->has_table && j.danger > 2 && best_score > before - PASS_MARGIN) return 0;
    return best;
}

/* The Strong player (strong.py), step for step. */
#define STRONG_DANGER 2
#define STRONG_SPEND_DANGER 3
#define STRONG_SPEND_WITHIN 2.0

/* The lowest lead among the plays (only the units of the split when `units`, none of `skip` cards when
 * `skip`): one that is neither a 2, a bomb nor unanswerable, else one that is no 2 nor bomb, else any;
 * 0 when none is left to choose. */
static u64 lowest_lead(const Judge *j, const Plays *plays, const u64 *units, int nunits, int skip) {
    u64 ordinary = 0, lasting = 0, any = 0;
    for (int i = 0; i < plays->n; i++) {
        u64 play = plays->plays[i];
        if ((units && !in_list(units, nunits, play)) || popc(play) == skip) continue;
        if (!any || lowest_less(play, any)) any = play;
        if (precious(play)) continue;
        if (!ordinary || lowest_less(play, ordinary)) ordinary = play;
        if (!boss(j, play) && (!lasting || lowest_less(play, lasting))) lasting = play;
    }
    return lasting ? lasting : ordinary ? ordinary : any;
}

/* StrongBot._lead among the units of the split that are legal (every play when none is): against an
 * opponent holding one or two cards, no combination of that many cards if another is left (against a
 * last card, the highest single otherwise). */
static u64 strong_lead(const Judge *j, const Plays *plays, const u64 *units, int nunits) {
    int any_unit = 0;
    for (int i = 0; i < plays->n && !any_unit; i++) any_unit = in_list(units, nunits, plays->plays[i]);
    if (!any_unit) units = NULL;
    if (j->danger <= STRONG_DANGER) {
        u64 safe = lowest_lead(j, plays, units, nunits, j->danger);
        if (safe) return safe;
        if (j->danger == 1) { /* only singles are left: the highest, the first of equals */
            u64 high = 0;
            for (int i = 0; i < plays->n; i++) {
                u64 play = plays->plays[i];
                if ((units && !in_list(units, nunits, play)) || (high && top_bit(play) <= top_bit(high))) continue;
                high = play;
            }
            return high;
        }
    }
    return lowest_lead(j, plays, units, nunits, 0);
}

static u64 strong_pick(Ctx *cx, State *st, int seat, const Plays *plays) {
    u64 hand = st->hands[seat];
    if (in_list(plays->plays, plays->n, hand)) return hand;
    Judge j;
    judge_init(&j, cx, st, seat);
    u64 chain = finishing_chain(&j, plays);
    if (chain) return chain;
    u64 units[MAXSPLIT];
    int nunits = best_split(cx, hand, units);
    if (!st->has_table) return strong_lead(&j, plays, units, nunits);
    Sorted s = by_structure(units, nunits, plays);
    if (s.kept) return s.kept;
    if (s.special && (j.danger <= STRONG_SPEND_DANGER || precious(st->table_mask) ||
                      hand_cost(cx, hand & ~s.special) <= STRONG_SPEND_WITHIN))
        return s.special;
    /* the break that leaves the cheapest hand, then the lowest top card; the first of equals */
    u64 best = 0;
    double best_cost = 0.0;
    for (int i = 0; i < plays->n; i++) {
        u64 play = plays->plays[i];
        if (precious(play)) continue;
        double cost = hand_cost(cx, hand & ~play);
        if (!best || cost < best_cost || (cost == best_cost && top_bit(play) < top_bit(best))) {
            best = play;
            best_cost = cost;
        }
    }
    int may_pass = st->has_table;
    if (best && (!may_pass || j.danger <= STRONG_DANGER || best_cost <= hand_cost(cx, hand))) return best;
    if (may_pass) return 0;
    return s.any;
}

/* The greedy player (simple.py): its lowest legal play; it passes only when nothing fits. */
static u64 greedy_pick(const Plays *plays) {
    u64 lowest = plays->plays[0];
    for (int i = 1; i < plays->n; i++)
        if (lowest_less(plays->plays[i], lowest)) lowest = plays->plays[i];
    return lowest;
}

/* The models of how another seat plays, in search.py's MODELS order. */
#define NMODELS 5
enum { HEURISTIC, KEEPER, GREEDY, STRONG, EAGER };

static u64 model_pick(Ctx *cx, State *st, int seat, int model, const Plays *plays) {
    if (model == KEEPER) return keeper_pick(cx, st, seat, plays);
    if (model == GREEDY) return greedy_pick(plays);
    if (model == STRONG) return strong_pick(cx, st, seat, plays);
    if (model == EAGER) return eager_pick(cx, st, seat, plays);
    return heuristic_pick(cx, st, seat, plays);
}

/* Bot.choose: the seat passes when it has no legal play, else its model picks. */
static u64 model_move(Ctx *cx, State *st, int seat, int model) {
    Plays *plays = &cx->chosen;
    if (!plays_of(cx, st, seat, plays)) return 0;
    return model_pick(cx, st, seat, model, plays);
}

/* Play a sampled round on after `move`: the searcher (`me`) by its own policy (`own`: KEEPER or STRONG),
 * each other seat by its model; return the searcher's points. */
static int play_out(Ctx *cx, State *st, u64 move, int me, int own, const int *models) {
    push(cx, st, move);
    for (int i = 0; i < PLAYOUT_MOVES; i++) {
        int seat = st->turn;
        if (seat < 0 || has_finished(st, me)) break;
        push(cx, st, model_move(cx, st, seat, seat == me ? own : models[seat]));
    }
    for (int place = 0; place < st->nfinished; place++)
        if (st->finished[place] == me) return POINTS[place];
    return 0;
}

/* ---- sampling and inference ---------------------------------------------------------------------- */

/* SplitMix64 and its unbiased bound come from splitmix64.h (parlour.deal.SplitMix64 in Python). */

typedef struct {
    int me;
    u64 hand;
    int counts[SEATS];
    u64 unseen;
    int nhistory;
    int history_seat[MAXHISTORY];
    u64 history_mask[MAXHISTORY];
    u64 played_by[SEATS];
    int opening;
    Rules rules;
} Known;

static void sample_hands(const Known *k, u64 *rng, u64 *hands) {
    int cards[52], n = 0;
    for (int bit = 0; bit < 52; bit++)
        if (k->unseen >> bit & 1) cards[n++] = bit;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)splitmix64_uniform(rng, (u64)(i + 1));
        int t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    int at = 0;
    for (int seat = 0; seat < SEATS; seat++) {
        hands[seat] = 0;
        if (seat == k->me) {
            hands[seat] = k->hand;
            continue;
        }
        for (int c = 0; c < k->counts[seat] && at < n; c++) hands[seat] |= 1ULL << cards[at++];
    }
}

/* For each other seat and each model, how many of that seat's moves this round the model would not
 * have made with these hands (added to `missed[seat * NMODELS + model]`). */
static void mismatches(Ctx *cx, const Known *k, const u64 *hands, int *missed) {
    State st;
    memset(&st, 0, sizeof st);
    for (int seat = 0; seat < SEATS; seat++) st.hands[seat] = hands[seat] | k->played_by[seat];
    st.turn = k->nhistory ? k->history_seat[0] : -1;
    st.must_include = k->opening ? 1 : 0;
    st.owner = -1;
    st.rules = k->rules;
    for (int i = 0; i < k->nhistory; i++) {
        int seat = k->history_seat[i];
        u64 mask = k->history_mask[i];
        if (popc(mask) == 13) { /* a hand shown for an instant win: no choice was made */
            st.hands[seat] = 0;
            finish(&st, seat);
            st.must_include = 0;
            st.played |= mask;
            st.turn = (seat + 1) % SEATS;
            continue;
        }
        st.turn = seat;
        if (seat != k->me) {
            Plays *plays = &cx->chosen; /* listed once for the three models */
            int any = plays_of(cx, &st, seat, plays);
            for (int model = 0; model < NMODELS; model++)
                missed[seat * NMODELS + model] += (any ? model_pick(cx, &st, seat, model, plays) : 0) != mask;
        }
        push(cx, &st, mask);
    }
}

static int read_masks(PyObject *seq, u64 *out, int limit, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d", what, limit);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v > FULL) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: a mask holds a bit above 51", what);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return (int)n;
}

typedef struct {
    int mismatches, index;
} Ranked;

static int int_order(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int ranked_order(const void *a, const void *b) {
    const Ranked *x = a, *y = b;
    if (x->mismatches != y->mismatches) return x->mismatches < y->mismatches ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* Fill `k` and `start` from evaluate's arguments; 0 on success, -1 with a Python error set. */
static int read_position(PyObject *args, Known *k, State *start, u64 *candidates, int *ncandidates,
                         int *samples, int *draws, u64 *seed, int *own) {
    int me, turn, owner, passed, rules_bits, opening;
    unsigned long long hand, table_mask, must_include, seed_in;
    PyObject *counts_seq, *finished_seq, *seats_seq, *masks_seq, *candidates_seq;
    *own = KEEPER;
    if (!PyArg_ParseTuple(args, "iKOiKiiOKiOOpOiiK|i", &me, &hand, &counts_seq, &turn, &table_mask, &owner,
                          &passed, &finished_seq, &must_include, &rules_bits, &seats_seq, &masks_seq, &opening,
                          &candidates_seq, samples, draws, &seed_in, own))
        return -1;
    u64 counts[SEATS], finished[SEATS], seats[MAXHISTORY];
    int ncounts = read_masks(counts_seq, counts, SEATS, "counts");
    int nfinished = ncounts < 0 ? -1 : read_masks(finished_seq, finished, SEATS, "finished");
    int nseats = nfinished < 0 ? -1 : read_masks(seats_seq, seats, MAXHISTORY, "history seats");
    int nmasks = nseats < 0 ? -1 : read_masks(masks_seq, k->history_mask, MAXHISTORY, "history masks");
    *ncandidates = nmasks < 0 ? -1 : read_masks(candidates_seq, candidates, MAXCANDIDATES, "candidates");
    if (*ncandidates < 0) return -1;
    if (me < 0 || me >= SEATS || turn != me || hand > FULL || table_mask > FULL || must_include > FULL ||
        owner < -1 || owner >= SEATS || passed < 0 || passed > 15 || ncounts != SEATS || nseats != nmasks ||
        *ncandidates < 1 || *samples < 0 || *draws < *samples || *draws > MAXDRAWS || rules_bits < 0 ||
        rules_bits > 7 || (*own != KEEPER && *own != STRONG)) {
        PyErr_SetString(PyExc_ValueError, "evaluate: an argument is out of range");
        return -1;
    }
    k->me = me;
    k->hand = hand;
    k->opening = opening;
    k->nhistory = nseats;
    k->rules.quad_beats_pair_of_twos = rules_bits & 1;
    k->rules.double_sequence_beats_quad = rules_bits >> 1 & 1;
    k->rules.bomb_after_pass = rules_bits >> 2 & 1;
    u64 played = 0;
    for (int i = 0; i < nseats; i++) {
        if (seats[i] >= SEATS) {
            PyErr_SetString(PyExc_ValueError, "evaluate: a history seat is out of range");
            return -1;
        }
        if (k->history_mask[i] & played) {
            PyErr_SetString(PyExc_ValueError, "evaluate: a card is played twice in the history");
            return -1;
        }
        k->history_seat[i] = (int)seats[i];
        k->played_by[seats[i]] |= k->history_mask[i];
        played |= k->history_mask[i];
    }
    int total = 0;
    for (int seat = 0; seat < SEATS; seat++) {
        if (counts[seat] > 13) {
            PyErr_SetString(PyExc_ValueError, "evaluate: a hand count is out of range");
            return -1;
        }
        if (popc(k->played_by[seat]) + (int)counts[seat] > 13) {
            PyErr_SetString(PyExc_ValueError, "evaluate: a seat holds and played more than 13 cards");
            return -1;
        }
        k->counts[seat] = (int)counts[seat];
        if (seat != me) total += (int)counts[seat];
    }
    k->unseen = FULL & ~hand & ~played;
    if (total > popc(k->unseen) || popc(hand) != k->counts[me] || (hand & played)) {
        PyErr_SetString(PyExc_ValueError, "evaluate: the hands hold more cards than are unseen");
        return -1;
    }
    for (int c = 0; c < *ncandidates; c++)
        if (candidates[c] & ~hand) {
            PyErr_SetString(PyExc_ValueError, "evaluate: a candidate holds a card not in the hand");
            return -1;
        }
    memset(start, 0, sizeof *start);
    start->turn = turn;
    start->must_include = must_include;
    start->table_mask = table_mask;
    start->has_table = table_mask ? shape_of(table_mask, &start->table) : 0;
    start->owner = owner;
    start->passed = passed;
    start->nfinished = nfinished;
    for (int i = 0; i < nfinished; i++) {
        if (finished[i] >= SEATS) {
            PyErr_SetString(PyExc_ValueError, "evaluate: a finished seat is out of range");
            return -1;
        }
        start->finished[i] = (int)finished[i];
    }
    start->played = played;
    start->rules = k->rules;
    *seed = seed_in;
    return 0;
}

/* evaluate(me, hand, counts, turn, table_mask, owner, passed, finished, must_include, rules,
 *          history_seats, history_masks, opening, candidates, samples, draws, seed[, own])
 * (own: the searcher's playout policy, 1 the keeper (the default) or 3 the Strong player)
 * -> each candidate's total points over the `samples` deals kept of `draws` drawn, then each seat's
 *    model (-1 for the expert's own seat). */
static PyObject *core_evaluate(PyObject *self, PyObject *args) {
    (void)self;
    Known *k = PyMem_Calloc(1, sizeof(Known));
    Ctx *cx = PyMem_Calloc(1, sizeof(Ctx));
    u64 *drawn = NULL;
    Ranked *ranked = NULL;
    int *misses = NULL, *column = NULL;
    PyObject *result = NULL;
    State start;
    u64 candidates[MAXCANDIDATES], seed = 0;
    int ncandidates = 0, samples = 0, draws = 0, own = KEEPER;
    long totals[MAXCANDIDATES] = {0};
    if (!k || !cx) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_position(args, k, &start, candidates, &ncandidates, &samples, &draws, &seed, &own) < 0) goto done;
    drawn = PyMem_Malloc(sizeof(u64) * SEATS * (size_t)(draws ? draws : 1));
    ranked = PyMem_Malloc(sizeof(Ranked) * (size_t)(draws ? draws : 1));
    misses = PyMem_Calloc((size_t)SEATS * NMODELS * (size_t)(draws ? draws : 1), sizeof(int));
    column = PyMem_Malloc(sizeof(int) * (size_t)(draws ? draws : 1));
    if (!drawn || !ranked || !misses || !column) {
        PyErr_NoMemory();
        goto done;
    }
    int overflow = 0;
    int models[SEATS] = {HEURISTIC, HEURISTIC, HEURISTIC, HEURISTIC};
    Py_BEGIN_ALLOW_THREADS;
    u64 rng = seed;
    for (int d = 0; d < draws; d++) {
        sample_hands(k, &rng, drawn + SEATS * d);
        ranked[d].index = d;
        ranked[d].mismatches = 0;
    }
    if (draws > samples) {
        /* A seat's model is judged by its `samples` best deals: the misses summed over them. A model
         * the seat really plays by explains everything on the deals near the real one, whatever the
         * rest of the deals say. The heuristic stays unless another model misses at least half a move
         * a deal fewer (early in a round the models mostly agree, and a wrong switch costs more than a
         * late one). The deals kept are then those the seats' models explain best together. */
        for (int d = 0; d < draws; d++) mismatches(cx, k, drawn + SEATS * d, misses + SEATS * NMODELS * d);
        for (int seat = 0; seat < SEATS; seat++) {
            long sums[NMODELS];
            for (int model = 0; model < NMODELS; model++) {
                for (int d = 0; d < draws; d++) column[d] = misses[SEATS * NMODELS * d + seat * NMODELS + model];
                qsort(column, (size_t)draws, sizeof(int), int_order);
                sums[model] = 0;
                for (int d = 0; d < samples; d++) sums[model] += column[d];
            }
            int other = KEEPER; /* the other model that misses least, the first of equals */
            for (int model = KEEPER + 1; model < NMODELS; model++)
                if (sums[model] < sums[other]) other = model;
            if (2 * sums[other] + samples <= 2 * sums[HEURISTIC]) models[seat] = other;
        }
        for (int d = 0; d < draws; d++)
            for (int seat = 0; seat < SEATS; seat++)
                ranked[d].mismatches += misses[SEATS * NMODELS * d + seat * NMODELS + models[seat]];
        qsort(ranked, (size_t)draws, sizeof(Ranked), ranked_order);
    }
    for (int s = 0; s < samples; s++) {
        const u64 *hands = drawn + SEATS * ranked[s].index;
        for (int c = 0; c < ncandidates; c++) {
            State st = start;
            memcpy(st.hands, hands, sizeof st.hands);
            totals[c] += play_out(cx, &st, candidates[c], k->me, own, models);
        }
    }
    overflow = cx->raw.overflow || cx->chosen.overflow || cx->bombs.overflow;
    Py_END_ALLOW_THREADS;
    if (overflow) {
        PyErr_SetString(PyExc_RuntimeError, "evaluate: more plays than the core can list");
        goto done;
    }
    result = PyList_New(ncandidates + SEATS);
    if (!result) goto done;
    for (int c = 0; c < ncandidates; c++) PyList_SET_ITEM(result, c, PyLong_FromLong(totals[c]));
    for (int seat = 0; seat < SEATS; seat++)
        PyList_SET_ITEM(result, ncandidates + seat, PyLong_FromLong(seat == k->me ? -1 : models[seat]));
done:
    PyMem_Free(k);
    PyMem_Free(cx);
    PyMem_Free(drawn);
    PyMem_Free(ranked);
    PyMem_Free(misses);
    PyMem_Free(column);
    return result;
}

static PyMethodDef methods[] = {
    {"evaluate", core_evaluate, METH_VARARGS,
     "Total points of each candidate over the kept samples (see parlour.thirteen.bots.search)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search", NULL, -1, methods};

PyMODINIT_FUNC PyInit__search(void) {
    init_subsets();
    return PyModule_Create(&module);
}
