"""Match codes ``TH1-XXXXXXX`` and the deal of every round of a match.

The seven letters are a base-26 number, big-endian, ``A`` = 0, exactly as in TriPeaks' ``TP1`` codes, and
round 1 of match ``TH1-X`` is the very deck ``shuffled_deck(X)`` that ``TP1`` deals for the same number.
Round r > 1 uses the deal number ``round_deal_number(X, r)``, derived from X and r with generator 1's
SplitMix64, so one code replays a whole match.
"""

from __future__ import annotations

from typing import Final

from parlour.deal import DEAL_NUMBER_LIMIT, SplitMix64, letters_to_number, number_to_letters
from parlour.errors import InvalidCode

PREFIX: Final = "TH1-"
LETTERS: Final = 7
CODE_FORMAT_HELP: Final = "a Thirteen code is TH1- followed by 7 letters A-Z, e.g. TH1-AAAAAAB"
_ROUND_SALT: Final = 0x7448_3152_4F55_4E44  # "tH1ROUND": keeps round seeds apart from plain deal numbers


def format_code(number: int) -> str:
    """Return the canonical code of a match number, e.g. ``TH1-AAAAAAB`` for 1.

    Raises:
        InvalidCode: the number is outside 0 .. 26^7 - 1.
    """
    return PREFIX + number_to_letters(number)


def parse_code(text: str) -> int:
    """Return the match number of a code such as ``TH1-AAAAAAB`` (case and surrounding space ignored).

    Raises:
        InvalidCode: the text is not a ``TH1-`` code of seven letters A-Z; the message quotes it.
    """
    # ASCII only: str.upper() would read "ſ" as "S" and "ß" as "SS".
    stripped = text.strip() if isinstance(text, str) else ""
    body = stripped.upper() if stripped.isascii() else ""
    letters = body[len(PREFIX) :]
    if not body.startswith(PREFIX) or len(letters) != LETTERS or not all("A" <= c <= "Z" for c in letters):
        raise InvalidCode(f"{text!r} is not a Thirteen code: {CODE_FORMAT_HELP}")
    return letters_to_number(letters)


def round_deal_number(match_number: int, round_number: int) -> int:
    """Return the deal number of round ``round_number`` (1, 2, …) of match ``match_number``.

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
