"""Match codes and the deal of every round of a match, in two generators (decision 0059).

``TH1-XXXXXXX`` (generator 1, public): the seven letters are a base-26 number, big-endian, ``A`` = 0,
exactly as in TriPeaks' ``TP1`` codes, and round 1 of match ``TH1-X`` is the very deck
``shuffled_deck(X)`` that ``TP1`` deals for the same number. Round r > 1 uses the deal number
``round_deal_number(X, r)``, derived from X and r with generator 1's SplitMix64.

``TH2-`` and 27 characters (generator 2, secret): a 128-bit seed from the system's random source in
base32 with a check character. Round r is ``secret_deck(seed, "TH2 round r")``: every round comes from the
seed through the cryptographic generator, never through a small number. Every match a player must not
know is dealt this way.

Either way one code replays a whole match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from parlour.cards import Card
from parlour.deal import (
    DEAL_NUMBER_LIMIT,
    SEED_BYTES,
    SplitMix64,
    letters_to_number,
    new_seed,
    number_to_letters,
    secret_deck,
    seed_to_text,
    shuffled_deck,
    text_to_seed,
)
from parlour.errors import InvalidCode

PREFIX: Final = "TH1-"
SECRET_PREFIX: Final = "TH2-"
LETTERS: Final = 7
CODE_FORMAT_HELP: Final = (
    "a Thirteen code is TH1- followed by 7 letters A-Z (e.g. TH1-AAAAAAB), "
    "or TH2- followed by 27 characters A-Z and 2-7"
)
_ROUND_SALT: Final = 0x7448_3152_4F55_4E44  # "tH1ROUND": keeps round seeds apart from plain deal numbers
_PATTERN: Final = re.compile(r"TH1-([A-Z]{7})|TH2-([A-Z2-7]{27})", re.ASCII | re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class MatchCode:
    """The code a match is dealt from: a ``TH1`` deal number or a ``TH2`` seed (16 bytes).

    Raises:
        InvalidCode: a number outside 0 .. 26^7 - 1, or a seed that is not 16 bytes.
    """

    number: int | None = None
    seed: bytes | None = None

    def __post_init__(self) -> None:
        if (self.number is None) == (self.seed is None):
            raise InvalidCode("a match code has a number (TH1) or a seed (TH2)")
        if self.number is not None:
            number_to_letters(self.number)  # validates the range
        elif not isinstance(self.seed, bytes) or len(self.seed) != SEED_BYTES:
            raise InvalidCode(f"a TH2 seed is {SEED_BYTES} bytes")

    @classmethod
    def secret(cls) -> MatchCode:
        """Return a fresh ``TH2`` code whose seed comes from the operating system's random source."""
        return cls(seed=new_seed())

    @classmethod
    def parse(cls, text: str) -> MatchCode:
        """Read ``TH1-AAAAAAB`` or a ``TH2-`` code (case and surrounding space ignored).

        Raises:
            InvalidCode: not a Thirteen code, or a ``TH2`` code whose check character does not fit.
        """
        # ASCII only: str.upper() would read "ſ" as "S" and "ß" as "SS".
        stripped = text.strip() if isinstance(text, str) else ""
        found = _PATTERN.fullmatch(stripped) if stripped.isascii() else None
        if found is None:
            raise InvalidCode(f"{text!r} is not a Thirteen code: {CODE_FORMAT_HELP}")
        letters, seed_text = found.groups()
        if letters:
            return cls(number=letters_to_number(letters.upper()))
        try:
            return cls(seed=text_to_seed(seed_text.upper()))
        except InvalidCode as error:
            raise InvalidCode(f"{text!r} is not a Thirteen code: {error}") from None

    @property
    def is_secret(self) -> bool:
        """True for a ``TH2`` code."""
        return self.seed is not None

    def round_deck(self, round_number: int) -> list[Card]:
        """Return the 52 cards of round ``round_number`` (from 1) in dealt order.

        Raises:
            ValueError: the round number is below 1.
        """
        if self.seed is not None:
            if round_number < 1:
                raise ValueError(f"rounds are numbered from 1, got {round_number}")
            return secret_deck(self.seed, f"TH2 round {round_number}")
        assert self.number is not None
        return shuffled_deck(round_deal_number(self.number, round_number))

    def __str__(self) -> str:
        if self.seed is not None:
            return SECRET_PREFIX + seed_to_text(self.seed)
        assert self.number is not None
        return PREFIX + number_to_letters(self.number)


def format_code(number: int) -> str:
    """Return the canonical ``TH1`` code of a match number, e.g. ``TH1-AAAAAAB`` for 1.

    Raises:
        InvalidCode: the number is outside 0 .. 26^7 - 1.
    """
    return PREFIX + number_to_letters(number)


def canonical(text: str) -> str:
    """Return the canonical form of a Thirteen code of either generator.

    Raises:
        InvalidCode: the text is not a Thirteen code.
    """
    return str(MatchCode.parse(text))


def parse_code(text: str) -> int:
    """Return the match number of a ``TH1`` code such as ``TH1-AAAAAAB`` (case and space ignored).

    Raises:
        InvalidCode: the text is not a ``TH1-`` code of seven letters A-Z (a ``TH2`` code has a seed,
            not a number: read it with :meth:`MatchCode.parse`).
    """
    code = MatchCode.parse(text)
    if code.number is None:
        raise InvalidCode(f"{text!r} is a secret match's code (TH2): it has a seed, not a number")
    return code.number


def round_deal_number(match_number: int, round_number: int) -> int:
    """Return the deal number of round ``round_number`` (1, 2, …) of ``TH1`` match ``match_number``.

    Round 1 is the match number itself; later rounds draw a uniform number in 0 .. 26^7 - 1 from
    SplitMix64 seeded with the match number, the round and a fixed salt.

    Raises:
        ValueError: the round number is below 1 or the match number out of range.
    """
    if round_number < 1:
        raise ValueError(f"rounds are numbered from 1, got {round_number}")
    if not 0 <= match_number < DEAL_NUMBER_LIMIT:
        raise ValueError(f"match number {match_number} is outside 0..{DEAL_NUMBER_LIMIT - 1}")
    if round_number == 1:
        return match_number
    rng = SplitMix64((match_number << 20 | round_number) ^ _ROUND_SALT)
    return rng.uniform(DEAL_NUMBER_LIMIT)
