"""The attack of issue 47, run against today's deals: try every generator 1 deal number (all 26^7, about
8.0 × 10^9) for one whose deal fits what a player is shown, dropping a number at the first dealt card
that does not fit. Against a generator 1 deal it finds the number (the control); against a secret deal
(generator 2, decision 0059) it must find none.

Run: ``PYTHONPATH=src python benchmarks/search_deal_numbers.py [--target T] [--threads 2] [--limit N]``,
T being ``thirteen`` (the default), ``tripeaks``, ``control`` or ``tripeaks-control``:

- ``thirteen``: the 13 cards of seat 0 in round 1 of a new secret Thirteen match (``MatchCode.secret()``,
  as every match the server deals);
- ``tripeaks``: the ten face-up cards and the first discard of a new daily TriPeaks deal (``draw_daily``);
- ``control``: seat 0's cards of a ``TH1`` match of a random number below the limit: the search must
  find that number; ``tripeaks-control`` the same with a ``TP1`` TriPeaks deal.

The search loop is C (the project's own SplitMix64 header, ``src/parlour/native/splitmix64.h``, and
Fisher–Yates as docs/deals.md gives it, compiled here with the system's C compiler), spread over
``--threads`` threads. It prints the numbers tried, the candidates found and the rate; nothing is
asserted. Not part of the test suite: it takes minutes.
"""

from __future__ import annotations

import argparse
import secrets
import subprocess
import tempfile
import time
from pathlib import Path

from parlour.deal import DEAL_NUMBER_LIMIT
from parlour.thirteen import MatchCode
from parlour.tripeaks import Deal, DealCode
from parlour.tripeaks.definition import draw_daily

SEARCH_C = r"""
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "splitmix64.h" /* generator 1's SplitMix64 and unbiased draws, as the compiled cores use them */

static uint64_t limit_n, chunk = 1u << 20, next_start = 0;
static int mode;                      /* 0: a seat's 13 cards as a set, 1: positions 18..28 exactly */
static uint64_t want_mask;            /* mode 0 */
static int want[52];                  /* mode 1: the card each position must hold, -1 for any */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t found[64]; static int found_count = 0;

static int fits(uint64_t number) {
    int deck[52];
    for (int i = 0; i < 52; i++) deck[i] = i;
    uint64_t s = number;
    for (int i = 51; i >= 1; i--) {
        int j = (int)splitmix64_uniform(&s, (uint64_t)i + 1);
        int t = deck[i]; deck[i] = deck[j]; deck[j] = t;
        if (mode == 0) {
            if ((want_mask >> deck[i]) & 1) return 0;   /* a seat-0 card dealt to another seat */
            if (i == 13) return 1;                      /* positions 13..51 hold none: 0..12 are it */
        } else {
            if (want[i] >= 0 && deck[i] != want[i]) return 0;
            if (i == 18) return 1;
        }
    }
    return 0;
}

static void *work(void *unused) {
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&lock);
        uint64_t start = next_start; next_start += chunk;
        pthread_mutex_unlock(&lock);
        if (start >= limit_n) return NULL;
        uint64_t end = start + chunk < limit_n ? start + chunk : limit_n;
        for (uint64_t n = start; n < end; n++) {
            if (fits(n)) {
                pthread_mutex_lock(&lock);
                if (found_count < 64) found[found_count++] = n;
                pthread_mutex_unlock(&lock);
            }
        }
    }
}

int main(int argc, char **argv) {
    /* argv: threads limit mode then 52 numbers (mode 0: 1 for a wanted card; mode 1: card or -1) */
    int threads = atoi(argv[1]);
    limit_n = strtoull(argv[2], NULL, 10);
    mode = atoi(argv[3]);
    for (int i = 0; i < 52; i++) {
        int v = atoi(argv[4 + i]);
        if (mode == 0) { if (v) want_mask |= 1ULL << i; } else want[i] = v;
    }
    pthread_t pool[64];
    for (int t = 0; t < threads; t++) pthread_create(&pool[t], NULL, work, NULL);
    for (int t = 0; t < threads; t++) pthread_join(pool[t], NULL);
    for (int i = 0; i < found_count; i++) printf("%llu\n", (unsigned long long)found[i]);
    return 0;
}
"""


def compile_search(folder: Path) -> Path:
    """Compile the search loop with the system's C compiler; return the program's path."""
    source, program = folder / "search.c", folder / "search"
    source.write_text(SEARCH_C)
    native = Path(__file__).resolve().parents[1] / "src" / "parlour" / "native"
    subprocess.run(["cc", "-O2", "-pthread", "-I", str(native), "-o", str(program), str(source)], check=True)
    return program


def target(kind: str, limit: int) -> tuple[str, int, list[int], int | None]:
    """Return what is searched for: a description, the mode, the 52 arguments, and the number the
    search must find (the control's), else None."""
    if kind in ("tripeaks", "tripeaks-control"):
        number = secrets.randbelow(limit) if kind == "tripeaks-control" else None
        code = draw_daily("easy") if number is None else str(DealCode(number))
        deal = Deal.from_code(code)
        wanted = [-1] * 52
        for position in range(18, 28):
            wanted[position] = deal.tableau[position].index
        assert deal.discard is not None
        wanted[28] = deal.discard.index
        return f"a new TriPeaks deal {code[:6]}…: its ten face-up cards and discard", 1, wanted, number
    number = secrets.randbelow(limit) if kind == "control" else None
    code = MatchCode(number=number) if number is not None else MatchCode.secret()
    seat0 = {card.index for card in code.round_deck(1)[:13]}
    what = f"seat 0's 13 cards of a new {'TH1' if number is not None else 'TH2'} Thirteen match"
    return what, 0, [1 if index in seat0 else 0 for index in range(52)], number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    targets = ("thirteen", "tripeaks", "control", "tripeaks-control")
    parser.add_argument("--target", choices=targets, default="thirteen")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, default=DEAL_NUMBER_LIMIT, help="numbers 0 .. LIMIT-1")
    args = parser.parse_args()
    what, mode, wanted, expected = target(args.target, args.limit)
    with tempfile.TemporaryDirectory() as folder:
        program = compile_search(Path(folder))
        started = time.perf_counter()
        found = subprocess.run(
            [str(program), str(args.threads), str(args.limit), str(mode), *map(str, wanted)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        seconds = time.perf_counter() - started
    print(f"searched for: {what}")
    print(
        f"numbers tried: {args.limit:,} in {seconds:,.0f} s on {args.threads} threads "
        f"({args.limit / seconds / 1e6:,.1f} million a second)"
    )
    print(f"numbers that fit: {len(found)}" + (f" ({', '.join(found)})" if found else ""))
    if expected is not None:
        print(f"the control's number {expected} was {'found' if str(expected) in found else 'NOT found'}")


if __name__ == "__main__":
    main()
