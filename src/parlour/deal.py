"""The one source of randomness for deals: SplitMix64 and Fisher–Yates, fixed forever as generator 1.

``shuffled_deck(n)`` is the TP1 deal of number ``n``; Thirteen's TH1 deals the very same deck. A change
to anything here would change every deal code ever shared, so a new generator needs a new version prefix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

from parlour.cards import DECK, Card
from parlour.errors import InvalidCode

MASK64: Final = (1 << 64) - 1
DEAL_NUMBER_LIMIT: Final = 26**7
"""Deal numbers run from 0 to 26^7 - 1, the numbers a 7-letter base-26 code can hold."""
NUMBER_LETTERS: Final = 7
"""Deal codes of both games (``TP1``, ``TH1``) spell the deal number in this many letters A-Z."""

T = TypeVar("T")


class SplitMix64:
    """SplitMix64 (Steele, Lea and Flood), the PRNG of generator 1."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """Return the next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def uniform(self, k: int) -> int:
        """Return an unbiased integer in ``[0, k)`` by rejection: draw until below 2^64 - (2^64 mod k)."""
        if k <= 0:
            raise ValueError(f"uniform() needs a positive bound, got {k}")
        limit = (1 << 64) - ((1 << 64) % k)
        while True:
            x = self.next()
            if x < limit:
                return x % k


def shuffle(items: Sequence[T], seed: int) -> list[T]:
    """Return a Fisher–Yates shuffle of ``items`` driven by SplitMix64 seeded with ``seed``.

    For i from len-1 down to 1: j = uniform(i + 1); swap items[i] and items[j].
    """
    rng = SplitMix64(seed)
    deck = list(items)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffled_deck(number: int) -> list[Card]:
    """Return the 52 cards of deal ``number`` in dealt order (TP1 and TH1 alike).

    Raises:
        ValueError: the number is outside 0 .. 26^7 - 1.
    """
    if not 0 <= number < DEAL_NUMBER_LIMIT:
        raise ValueError(f"deal number {number} is outside 0..{DEAL_NUMBER_LIMIT - 1}")
    return shuffle(DECK, number)


# --- the one base-26 spelling of deal numbers, shared by TriPeaks and Thirteen codes ---------------


def number_to_letters(number: int) -> str:
    """Return the 7 base-26 letters of a deal number (0 → ``AAAAAAA``).

    Raises:
        InvalidCode: the number is outside 0 .. 26^7 - 1.
    """
    if not 0 <= number < DEAL_NUMBER_LIMIT:
        raise InvalidCode(f"deal number {number!r} is outside 0..{DEAL_NUMBER_LIMIT - 1}")
    letters = []
    for _ in range(NUMBER_LETTERS):
        number, digit = divmod(number, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(reversed(letters))


def letters_to_number(letters: str) -> int:
    """Return the deal number of letters A–Z (big-endian base 26, A = 0); the caller checks them."""
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A")
    return number
