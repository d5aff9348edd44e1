"""Write the headers Parlour's compiled cores share, in ``src/parlour/native/``, from the Python that
defines what they hold:

- ``tripeaks_layout.h``: the TriPeaks layout (``parlour.tripeaks.layout``) and the solver's rank and
  move codes (``parlour.tripeaks.solver.twin``), for the solver and the fair player's rollouts;
- ``splitmix64.h``: SplitMix64 and its unbiased bound (``parlour.deal.SplitMix64``), for the rollouts
  and the Thirteen expert's search.

Run after changing any of those: ``.venv/bin/python scripts/core_header.py``; a test checks that the
headers in the checkout are what this script writes (``tests/solver/test_core_headers.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from parlour.tripeaks.layout import COVERED_BY, COVERS, TABLEAU_SIZE
from parlour.tripeaks.solver.twin import DRAW_MOVE, WILD

NATIVE = Path(__file__).resolve().parents[1] / "src" / "parlour" / "native"


def pairs(table: tuple[tuple[int, ...], ...]) -> str:
    """Return a C initializer of two positions per place (-1 where there is none)."""
    rows = []
    for entry in table:
        first, second = (*entry, -1, -1)[:2]
        rows.append(f"{{{first}, {second}}}")
    lines = [", ".join(rows[start : start + 7]) for start in range(0, len(rows), 7)]
    return "{\n    " + ",\n    ".join(lines) + ",\n}"


def masks(table: tuple[tuple[int, ...], ...]) -> str:
    """Return a C initializer of one bit mask of positions per place."""
    values = [f"0x{sum(1 << q for q in entry):07x}u" for entry in table]
    lines = [", ".join(values[start : start + 7]) for start in range(0, len(values), 7)]
    return "{\n    " + ",\n    ".join(lines) + ",\n}"


def layout_header() -> str:
    """Return ``tripeaks_layout.h``."""
    return f"""/*
 * The TriPeaks layout and move codes, shared by the solver's and the fair player's compiled cores.
 * Written by scripts/core_header.py from parlour/tripeaks/layout.py and parlour/tripeaks/solver/twin.py:
 * do not edit; run the script again.
 */
#ifndef PARLOUR_TRIPEAKS_LAYOUT_H
#define PARLOUR_TRIPEAKS_LAYOUT_H

#include <stdint.h>

/* The tableau's positions 0-{TABLEAU_SIZE - 1}, row by row from the peak tops. */
#define NPOS {TABLEAU_SIZE}
#define FULL ((1u << NPOS) - 1u)
/* The rank code of a joker, which fits on every card (ranks A-K are 0-12). */
#define WILD {WILD}
/* The move code of a draw from the stock (a removal is its position, 0-{TABLEAU_SIZE - 1}). */
#define DRAW_MOVE {DRAW_MOVE}

/* COVERED_BY[p]: the (up to two) positions whose cards cover position p, -1 for none. */
static const int8_t COVERED_BY[NPOS][2] = {pairs(COVERED_BY)};

/* COVERS[p]: the (up to two) positions the card at p covers, -1 for none. */
static const int8_t COVERS[NPOS][2] = {pairs(COVERS)};

/* COVERS_MASK[p]: the positions the card at p covers, as a bit mask. */
static const uint32_t COVERS_MASK[NPOS] = {masks(COVERS)};

#endif
"""


def splitmix_header() -> str:
    """Return ``splitmix64.h``."""
    return """/*
 * SplitMix64 (Steele, Lea and Flood), the same as parlour.deal.SplitMix64 bit for bit: the random
 * numbers of the compiled cores whose Python twins must draw the same ones. Written by
 * scripts/core_header.py: do not edit; run the script again.
 */
#ifndef PARLOUR_SPLITMIX64_H
#define PARLOUR_SPLITMIX64_H

#include <stdint.h>

static inline uint64_t splitmix64_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* An unbiased integer in [0, k), by rejection (SplitMix64.uniform). */
static inline uint64_t splitmix64_uniform(uint64_t *state, uint64_t k) {
    uint64_t rest = (0 - k) % k; /* 2^64 mod k */
    for (;;) {
        uint64_t x = splitmix64_next(state);
        if (x <= UINT64_MAX - rest) return x % k; /* x < 2^64 - rest */
    }
}

#endif
"""


HEADERS = {"tripeaks_layout.h": layout_header, "splitmix64.h": splitmix_header}
"""Each header's file name in ``src/parlour/native`` and what writes its text."""


def main() -> None:
    NATIVE.mkdir(parents=True, exist_ok=True)
    for name, text in HEADERS.items():
        (NATIVE / name).write_text(text())
        print(f"wrote {NATIVE / name}", file=sys.stderr)


if __name__ == "__main__":
    main()
