"""Display names that cannot pass for one another on a leaderboard (issue 48).

Two rules, after Unicode's security mechanisms (UTS #39) for identifiers people read:

- **one script a name**: the letters of a name come from one writing system (Latin, Cyrillic, Greek,
  Devanagari …); digits, spaces and punctuation go with any. ``Аda`` (a Cyrillic А before Latin
  letters) is refused, ``Ада`` and ``Ada`` are both fine;
- **one skeleton a player**: a name's skeleton is its NFKC form, case-folded, its marks removed and the
  Cyrillic and Greek letters that are drawn like Latin ones (А, В, Е, К, М, Н, О, Р, С, Т, Х, а, е, о,
  р, с, у, х, і, ј, ѕ; Α, Β, Ε, Ζ, Η, Ι, Κ, Μ, Ν, Ο, Ρ, Τ, Υ, Χ, ο, ν) read as those. No two players
  hold names of the same skeleton: "ada", "ADA", "Ádá" and the Cyrillic "Ада"-like spellings are one.

The look-alike table covers the scripts Parlour's languages write in beside Latin; Devanagari letters
are not drawn like Latin ones.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from parlour.errors import InvalidInput

LOOK_ALIKES: Final = str.maketrans(
    "АВЕКМНОРСТХаеорсухіјѕΑΒΕΖΗΙΚΜΝΟΡΤΥΧον",
    "ABEKMHOPCTXaeopcyxijsABEZHIKMNOPTYXov",
)
"""Cyrillic and Greek letters drawn like Latin ones, as the Latin letters they pass for."""
JOINERS: Final = frozenset({"\u200c", "\u200d"})
"""Zero-width (non-)joiners, which Devanagari writing needs; any other invisible character is refused."""


def script_of(char: str) -> str | None:
    """Return the writing system of a letter (the first word of its Unicode name: ``LATIN``,
    ``CYRILLIC``, ``DEVANAGARI``…), None for anything that goes with any script (digits, spaces,
    punctuation, marks)."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def check_scripts(name: str) -> None:
    """Refuse a name whose letters come from more than one script, or that holds an invisible
    character other than the joiners Devanagari needs.

    Raises:
        InvalidInput: ``mixed_scripts``, saying which scripts it mixes (or that it hides a character).
    """
    scripts = {script for script in map(script_of, name) if script is not None}
    if len(scripts) > 1:
        mixed = " and ".join(sorted(script.title() for script in scripts))
        raise InvalidInput(
            f"a display name is written in one alphabet, not {mixed}: {name!r}", code="mixed_scripts"
        )
    invisible = [
        c
        for c in name
        if unicodedata.category(c) == "Cf" and not (c in JOINERS and scripts == {"DEVANAGARI"})
    ]
    if invisible:
        raise InvalidInput(f"a display name cannot hold invisible characters: {name!r}", code="mixed_scripts")


def skeleton(name: str) -> str:
    """Return the form two names share when people would read them as the same name (see the module's
    docstring): at most 64 characters, for the database's key."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).translate(LOOK_ALIKES))
    plain = "".join(c for c in folded if not unicodedata.combining(c) and c not in JOINERS)
    return " ".join(plain.casefold().split())[:64]
