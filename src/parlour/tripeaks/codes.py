"""Deal codes: ``TP1-E-AAAAAAB`` ⇄ (deal number, rules).

``TP1`` is the generator version, the middle letter the King–Ace rule (``E`` Easy, ``C`` Classic; an
old ``N`` reads as Easy), then 7 letters A–Z holding the deal number in base 26, big-endian, A = 0.
Variants add a fourth part of flag letters in alphabetical order (``TP1-C-AAAAAAB-JO``):

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

from parlour.deal import letters_to_number, number_to_letters
from parlour.errors import InvalidCode
from parlour.tripeaks.rules import EASY, Rules

GENERATOR: Final = "TP1"
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
    "(e.g. TP1-C-AAAAAAB-JO)"
)
# ASCII | IGNORECASE: case-insensitive for A-Z only; str.upper() would turn "ſ" into "S" and "ß" into "SS".
_PATTERN: Final = re.compile(r"TP1-([ECN])-([A-Z]{7})(?:-([A-Z]+))?", re.ASCII | re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DealCode:
    """A deal number with the rules it is played under; ``str()`` is the canonical code."""

    number: int
    rules: Rules = EASY

    def __post_init__(self) -> None:
        number_to_letters(self.number)  # validates the range

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
        rule, letters, flags = (part.upper() for part in match.groups(""))
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
        return cls(letters_to_number(letters), Rules(**switches))

    def __str__(self) -> str:
        rule = "E" if self.rules.king_ace_linked else "C"
        flags = "".join(sorted(f for f, name in VARIANT_FLAGS.items() if getattr(self.rules, name)))
        code = f"{GENERATOR}-{rule}-{number_to_letters(self.number)}"
        return f"{code}-{flags}" if flags else code

    def __repr__(self) -> str:
        return f"DealCode.parse({str(self)!r})"


__all__ = [
    "CODE_FORMAT_HELP",
    "GENERATOR",
    "VARIANT_FLAGS",
    "DealCode",
    "letters_to_number",
    "number_to_letters",
]
