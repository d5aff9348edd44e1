/*
 * The TriPeaks layout and move codes, shared by the solver's and the fair player's compiled cores.
 * Written by scripts/core_header.py from parlour/tripeaks/layout.py and parlour/tripeaks/solver/twin.py:
 * do not edit; run the script again.
 */
#ifndef PARLOUR_TRIPEAKS_LAYOUT_H
#define PARLOUR_TRIPEAKS_LAYOUT_H

#include <stdint.h>

/* The tableau's positions 0-27, row by row from the peak tops. */
#define NPOS 28
#define FULL ((1u << NPOS) - 1u)
/* The rank code of a joker, which fits on every card (ranks A-K are 0-12). */
#define WILD 13
/* The move code of a draw from the stock (a removal is its position, 0-27). */
#define DRAW_MOVE 28

/* COVERED_BY[p]: the (up to two) positions whose cards cover position p, -1 for none. */
static const int8_t COVERED_BY[NPOS][2] = {
    {3, 4}, {5, 6}, {7, 8}, {9, 10}, {10, 11}, {12, 13}, {13, 14},
    {15, 16}, {16, 17}, {18, 19}, {19, 20}, {20, 21}, {21, 22}, {22, 23},
    {23, 24}, {24, 25}, {25, 26}, {26, 27}, {-1, -1}, {-1, -1}, {-1, -1},
    {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1},
};

/* COVERS[p]: the (up to two) positions the card at p covers, -1 for none. */
static const int8_t COVERS[NPOS][2] = {
    {-1, -1}, {-1, -1}, {-1, -1}, {0, -1}, {0, -1}, {1, -1}, {1, -1},
    {2, -1}, {2, -1}, {3, -1}, {3, 4}, {4, -1}, {5, -1}, {5, 6},
    {6, -1}, {7, -1}, {7, 8}, {8, -1}, {9, -1}, {9, 10}, {10, 11},
    {11, 12}, {12, 13}, {13, 14}, {14, 15}, {15, 16}, {16, 17}, {17, -1},
};

/* COVERS_MASK[p]: the positions the card at p covers, as a bit mask. */
static const uint32_t COVERS_MASK[NPOS] = {
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000001u, 0x0000001u, 0x0000002u, 0x0000002u,
    0x0000004u, 0x0000004u, 0x0000008u, 0x0000018u, 0x0000010u, 0x0000020u, 0x0000060u,
    0x0000040u, 0x0000080u, 0x0000180u, 0x0000100u, 0x0000200u, 0x0000600u, 0x0000c00u,
    0x0001800u, 0x0003000u, 0x0006000u, 0x000c000u, 0x0018000u, 0x0030000u, 0x0020000u,
};

#endif
