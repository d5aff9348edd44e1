/*
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
