"""The one source of randomness for deals, in two generators fixed forever.

- Generator 1 (public deals): SplitMix64 and Fisher–Yates seeded by a deal number below 26^7.
  ``shuffled_deck(n)`` is the TP1 deal of number ``n``; Thirteen's TH1 deals the very same deck.
- Generator 2 (secret deals, decision 0059): a 128-bit seed from the operating system's random source,
  HMAC-SHA-256 in counter mode as the stream, the same unbiased draws and Fisher–Yates.
  ``secret_deck(seed, label)``; the seed is spelled in codes by ``seed_to_text``.

A change to anything here would change every deal code ever shared, so a new generator needs a new
version prefix. ``docs/deals.md`` specifies both, with test vectors.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from parlour.cards import DECK, Card
from parlour.errors import InvalidCode

MASK64: Final = (1 << 64) - 1
DEAL_NUMBER_LIMIT: Final = 26**7
"""Deal numbers run from 0 to 26^7 - 1, the numbers a 7-letter base-26 code can hold."""
NUMBER_LETTERS: Final = 7
"""Deal codes of both games (``TP1``, ``TH1``) spell the deal number in this many letters A-Z."""

T = TypeVar("T")

SEED_BYTES: Final = 16
"""A secret deal's seed: 128 bits (generator 2)."""
SEED_TEXT_LENGTH: Final = 27
"""A seed in a code: 26 base32 characters and a check character."""
SEED_ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
"""RFC 4648 base32: the characters of a seed in a code, value 0 to 31."""


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
        return _uniform(self.next, k)


class HmacStream:
    """Generator 2's stream: 64-bit words from HMAC-SHA-256 in counter mode, keyed by a 128-bit seed.

    Block ``i`` (from 0) is ``HMAC-SHA-256(seed, label ‖ 0x00 ‖ i as 8 bytes big-endian)``, read as four
    64-bit big-endian words in order. ``label`` keeps apart the streams one seed gives (``TP2 deal``,
    ``TH2 round 3``).

    Raises:
        ValueError: the seed is not 16 bytes, or the label is not ASCII without a NUL.
    """

    __slots__ = ("_block", "_key", "_prefix", "_words")

    def __init__(self, seed: bytes, label: str) -> None:
        if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
            raise ValueError(f"a generator 2 seed is {SEED_BYTES} bytes")
        if not label.isascii() or "\0" in label:
            raise ValueError(f"a stream label is ASCII without NUL, got {label!r}")
        self._key = seed
        self._prefix = label.encode("ascii") + b"\0"
        self._block = 0
        self._words: list[int] = []

    def next(self) -> int:
        """Return the next 64-bit word."""
        if not self._words:
            message = self._prefix + self._block.to_bytes(8, "big")
            digest = hmac.new(self._key, message, hashlib.sha256).digest()
            self._block += 1
            # Reversed so that pop() hands the words out first to last.
            self._words = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._words.pop()

    def uniform(self, k: int) -> int:
        """Return an unbiased integer in ``[0, k)``, by the same rejection as generator 1."""
        return _uniform(self.next, k)


def _uniform(words: Callable[[], int], k: int) -> int:
    if k <= 0:
        raise ValueError(f"uniform() needs a positive bound, got {k}")
    limit = (1 << 64) - ((1 << 64) % k)
    while True:
        x = words()
        if x < limit:
            return x % k


def _fisher_yates(items: Sequence[T], uniform: Callable[[int], int]) -> list[T]:
    deck = list(items)
    for i in range(len(deck) - 1, 0, -1):
        j = uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffle(items: Sequence[T], seed: int) -> list[T]:
    """Return a Fisher–Yates shuffle of ``items`` driven by SplitMix64 seeded with ``seed``.

    For i from len-1 down to 1: j = uniform(i + 1); swap items[i] and items[j].
    """
    return _fisher_yates(items, SplitMix64(seed).uniform)


def secret_shuffle(items: Sequence[T], seed: bytes, label: str) -> list[T]:
    """Return generator 2's Fisher–Yates shuffle of ``items``: the same steps as :func:`shuffle`, with
    the draws from :class:`HmacStream` ``(seed, label)``.

    Raises:
        ValueError: the seed is not 16 bytes, or the label is not ASCII without NUL.
    """
    return _fisher_yates(items, HmacStream(seed, label).uniform)


def secret_deck(seed: bytes, label: str) -> list[Card]:
    """Return the 52 cards in the order generator 2 deals them from ``seed`` for ``label``.

    Raises:
        ValueError: the seed is not 16 bytes, or the label is not ASCII without NUL.
    """
    return secret_shuffle(DECK, seed, label)


def new_seed() -> bytes:
    """Return a fresh secret seed: 16 bytes from the operating system's random source."""
    return secrets.token_bytes(SEED_BYTES)


def _check_character(values: Sequence[int]) -> int:
    """Return the Luhn mod 32 check value of ``values`` (each 0-31), to be appended after them."""
    total, factor = 0, 2
    for value in reversed(values):
        addend = factor * value
        total += addend // 32 + addend % 32
        factor = 3 - factor
    return (32 - total % 32) % 32


def seed_to_text(seed: bytes) -> str:
    """Return a seed as it is spelled in a code: its base32 (RFC 4648, no padding, 26 characters) and a
    Luhn mod 32 check character.

    Raises:
        ValueError: the seed is not 16 bytes.
    """
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise ValueError(f"a generator 2 seed is {SEED_BYTES} bytes")
    body = base64.b32encode(seed).decode("ascii").rstrip("=")
    return body + SEED_ALPHABET[_check_character([SEED_ALPHABET.index(c) for c in body])]


def text_to_seed(text: str) -> bytes:
    """Return the seed a code's 27 characters spell (upper case; the caller has checked the alphabet).

    Raises:
        InvalidCode: the check character does not fit (a character mistyped or two swapped), or the
            last base32 character carries bits a seed does not have.
    """
    values = [SEED_ALPHABET.index(c) for c in text]
    if len(values) != SEED_TEXT_LENGTH or _check_character(values[:-1]) != values[-1]:
        raise InvalidCode(f"{text!r}: its check character does not fit (a character is mistyped?)")
    seed = base64.b32decode(text[:-1] + "======")
    if seed_to_text(seed) != text:
        raise InvalidCode(f"{text!r} is not a seed's canonical spelling")
    return seed


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
