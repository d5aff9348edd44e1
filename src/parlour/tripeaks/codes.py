"""Deal codes: ``TP1-E-AAAAAAB`` ⇄ (deal number, rules), ``TP2-E-…`` ⇄ (secret seed, rules).

``TP1`` is generator 1, the middle letter the King–Ace rule (``E`` Easy, ``C`` Classic; an old ``N``
reads as Easy), then 7 letters A–Z holding the deal number in base 26, big-endian, A = 0. ``TP2`` is
generator 2 (decision 0059): the same rule letter, then the 128-bit seed in 26 base32 characters and a
check character. Variants add a fourth part of flag letters in alphabetical order (``TP1-C-AAAAAAB-JO``):

====  =========================
D     draw only when no card fits
J     joker
O     open peaks
T     traditional scoring
W     empty waste (discard) at the start
====  =========================

Input may differ from the canonical form only in case (ASCII letters only: ``ſ`` is not an ``S``);
spaces, other characters, and flags repeated or out of alphabetical order are refused. ``str()`` gives
the canonical upper-case form, so every code round-trips.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from parlour.deal import (
    SEED_BYTES,
    letters_to_number,
    new_seed,
    number_to_letters,
    seed_to_text,
    text_to_seed,
)
from parlour.errors import InvalidCode
from parlour.tripeaks.rules import EASY, Rules

GENERATOR: Final = "TP1"
SECRET_GENERATOR: Final = "TP2"
SEED_LIMIT: Final = 1 << (8 * SEED_BYTES)
VARIANT_FLAGS: Final = {
    "D": "draw_only_when_stuck",
    "J": "joker",
    "O": "open_peaks",
    "T": "traditional_scoring",
    "W": "empty_discard",
}
"""Flag letter → ``Rules`` field, for the optional fourth part of a code."""

CODE_FORMAT_HELP: Final = (
    "a deal code looks like TP1-E-AAAAAAB: TP1, then E (Easy) or C (Classic), then 7 letters A-Z, "
    "optionally followed by a dash and variant letters from D, J, O, T, W in that order "
    "(e.g. TP1-C-AAAAAAB-JO); a secret deal's code is TP2, E or C, then 27 characters A-Z and 2-7"
)
# ASCII | IGNORECASE: case-insensitive for A-Z only; str.upper() would turn "ſ" into "S" and "ß" into "SS".
_PATTERN: Final = re.compile(
    r"(?:TP1-([ECN])-([A-Z]{7})|TP2-([EC])-([A-Z2-7]{27}))(?:-([A-Z]+))?", re.ASCII | re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class DealCode:
    """A deal with the rules it is played under; ``str()`` is the canonical code.

    ``generator`` 1: ``number`` is the deal number (0 .. 26^7 - 1). ``generator`` 2: ``number`` is the
    128-bit secret seed read as a big-endian integer (:attr:`seed` gives its bytes).

    Raises:
        InvalidCode: the number is outside its generator's range, or the generator is neither.
    """

    number: int
    rules: Rules = EASY
    generator: int = 1

    def __post_init__(self) -> None:
        if self.generator == 1:
            number_to_letters(self.number)  # validates the range
        elif self.generator == 2:
            if isinstance(self.number, bool) or not isinstance(self.number, int):
                raise InvalidCode(f"a secret seed is a number, not {self.number!r}")
            if not 0 <= self.number < SEED_LIMIT:
                raise InvalidCode("a secret seed has 128 bits")
        else:
            raise InvalidCode(f"there is no deal generator {self.generator!r}")

    @classmethod
    def secret(cls, rules: Rules = EASY) -> DealCode:
        """Return a fresh secret deal under ``rules``: generator 2 with a seed from the system's source."""
        return cls(int.from_bytes(new_seed(), "big"), rules, 2)

    @property
    def is_secret(self) -> bool:
        """True for a generator 2 deal (nobody can compute its cards from some of them)."""
        return self.generator == 2

    @property
    def seed(self) -> bytes:
        """The 16 bytes of a generator 2 deal's seed.

        Raises:
            ValueError: a generator 1 deal has a number, not a seed.
        """
        if self.generator != 2:
            raise ValueError("a TP1 deal has a number, not a seed")
        return self.number.to_bytes(SEED_BYTES, "big")

    @classmethod
    def parse(cls, text: str) -> DealCode:
        """Read a code such as ``TP1-E-AAAAAAB``, ``tp1-c-aaaaaab`` or ``TP1-N-AAAAAAB-OW``.

        Only the case may differ from the canonical form (``N`` reads as ``E``).

        Raises:
            InvalidCode: the text is not a code; the message quotes it and says what a code looks like.
        """
        if not isinstance(text, str):
            raise InvalidCode(f"expected a deal code as text, got {text!r}: {CODE_FORMAT_HELP}")
        match = _PATTERN.fullmatch(text)
        if match is None:
            raise InvalidCode(f"{text!r} is not a deal code: {CODE_FORMAT_HELP}")
        old_rule, letters, new_rule, seed_text, flags = (part.upper() for part in match.groups(""))
        rule = old_rule or new_rule
        switches: dict[str, bool] = {"king_ace_linked": rule != "C"}
        previous = ""
        for flag in flags:
            name = VARIANT_FLAGS.get(flag)
            if name is None:
                raise InvalidCode(f"{text!r} has an unknown variant letter {flag!r}: {CODE_FORMAT_HELP}")
            if flag <= previous:
                problem = f"repeats {flag!r}" if flag == previous else "has its variant letters out of order"
                raise InvalidCode(f"{text!r} {problem}: {CODE_FORMAT_HELP}")
            switches[name] = True
            previous = flag
        if seed_text:
            try:
                seed = text_to_seed(seed_text)
            except InvalidCode as error:
                raise InvalidCode(f"{text!r} is not a deal code: {error}") from None
            return cls(int.from_bytes(seed, "big"), Rules(**switches), 2)
        return cls(letters_to_number(letters), Rules(**switches))

    def __str__(self) -> str:
        rule = "E" if self.rules.king_ace_linked else "C"
        flags = "".join(sorted(f for f, name in VARIANT_FLAGS.items() if getattr(self.rules, name)))
        if self.generator == 2:
            code = f"{SECRET_GENERATOR}-{rule}-{seed_to_text(self.seed)}"
        else:
            code = f"{GENERATOR}-{rule}-{number_to_letters(self.number)}"
        return f"{code}-{flags}" if flags else code

    def __repr__(self) -> str:
        return f"DealCode.parse({str(self)!r})"


__all__ = [
    "CODE_FORMAT_HELP",
    "GENERATOR",
    "SECRET_GENERATOR",
    "VARIANT_FLAGS",
    "DealCode",
    "letters_to_number",
    "number_to_letters",
]
