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

Names are shown to strangers at public tables and on leaderboards (issue 50), so two more rules:

- **no name passes for the site's own**: a name may not begin with what the tables call a computer
  player ("Computer", "Ordinateur", "Gép", "कंप्यूटर", "Bot" …) or a strength, nor be a seat's
  default name ("Player 2"), nor the site's or its staff's ("Parlour", "Admin", "Moderator");
- **no blocked word**: ``data/blocked_words.txt`` (and the names an operator blocked, kept in the
  database) are looked for in the name's letters, so spacing and look-alikes do not hide them; a
  word of four letters or fewer only where a word of the name begins, so that names which merely
  hold its letters stay possible.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path
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


RESERVED_PREFIXES: Final = (
    "computer", "ordinateur", "gep", "gepi", "कंप्यूटर", "कम्प्यूटर", "may tinh", "bot", "robot",
    "parlour", "admin", "moderator", "moderateur", "system", "systeme",
    "beginner", "debutant", "शुरुआती", "kezdo", "expert", "विशेषज्ञ", "szakerto",
)  # fmt: skip
"""What a name may not begin with (skeletons): the computer players' names and strengths in the
site's languages, and the site's and its staff's."""
DEFAULT_NAME: Final = re.compile(r"(player|joueur|jatekos|खिलाड़ी|nguoi choi)\s*\d*")
"""A seat's default name ("Player 2" in each language): not a name of one's own."""
SHORT_WORD: Final = 4


@cache
def blocked_words() -> tuple[frozenset[str], tuple[str, ...]]:
    """Return the blocked words: (short ones, matched where a word of the name begins; longer ones,
    matched anywhere), as skeletons without spaces."""
    text = (Path(__file__).parent / "data" / "blocked_words.txt").read_text(encoding="utf-8")
    words = [
        letters(skeleton(line)) for line in text.splitlines() if line.strip() and not line.startswith("#")
    ]
    short = frozenset(word for word in words if len(word) <= SHORT_WORD)
    return short, tuple(word for word in words if len(word) > SHORT_WORD)


def letters(text: str) -> str:
    """Return only the letters of ``text`` (and Devanagari's vowel signs), without spaces."""
    return "".join(c for c in text if c.isalpha() or unicodedata.category(c) in ("Mn", "Mc"))


def check_public(name: str, blocked: frozenset[str] = frozenset()) -> None:
    """Refuse a name strangers should not be shown: one that passes for a computer player's, a seat's
    default name or the site's, or that holds a blocked word (``blocked``: skeletons an operator
    blocked).

    Raises:
        InvalidInput: ``name_reserved`` or ``name_blocked``.
    """
    key = skeleton(name)
    flat = letters(key)
    if DEFAULT_NAME.fullmatch(key) or any(
        flat.startswith(letters(skeleton(word))) for word in RESERVED_PREFIXES
    ):
        raise InvalidInput(
            f"{name!r} could pass for a computer player or the site: choose another name",
            code="name_reserved",
        )
    short, long = blocked_words()
    words = [letters(word) for word in re.split(r"[\W_]+", key) if word]
    starts = any(word.startswith(bad) for word in words for bad in short)
    if key in blocked or flat in short or starts or any(word in flat for word in long):
        raise InvalidInput(f"{name!r} is not a name that can be shown here", code="name_blocked")
