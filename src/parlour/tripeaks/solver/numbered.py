"""The census of the numbered games (#1–#50,000, Easy and Classic) shipped with Parlour.

The data file ``numbered.bin.gz`` holds, per rule set, two bytes per game: the moves and the peak cards
left of the best result. A game is winnable exactly when no card is left, and then the moves are the
fewest moves of a win. ``pack`` builds the file from census records (see docs/solver.md).
"""

from __future__ import annotations

import gzip
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.rules import CLASSIC, EASY, Rules

MAGIC: Final = b"PTPN1"
DATA_FILE: Final = "numbered.bin.gz"
RULE_SETS: Final = ("easy", "classic")


@dataclass(frozen=True, slots=True)
class NumberedResult:
    """The solver's verdict on one numbered game: ``winnable``, ``moves`` (fewest moves of a win, None
    without one), and the best result (``best_left`` cards left in ``best_moves`` moves)."""

    number: int
    rules: str
    winnable: bool
    moves: int | None
    best_left: int
    best_moves: int

    def to_json(self) -> dict[str, Any]:
        """The result as JSON (the same fields as ``parlour tripeaks solve --json``)."""
        return {
            "number": self.number,
            "rules": self.rules,
            "winnable": self.winnable,
            "moves": self.moves,
            "best": {"left": self.best_left, "moves": self.best_moves},
        }

    def describe(self) -> str:
        """In English, e.g. ``winnable in 41 moves`` or ``not winnable: at best 3 cards left``."""
        if self.winnable:
            return f"winnable in {self.moves} moves"
        return f"not winnable: at best {self.best_left} cards left in {self.best_moves} moves"


def pack(tables: dict[str, list[tuple[int, int]]]) -> bytes:
    """The data file for ``{"easy": [(moves, left), …], "classic": […]}`` (game #1 first)."""
    body = bytearray(MAGIC)
    for name in RULE_SETS:
        rows = tables[name]
        body += struct.pack("<I", len(rows))
        for moves, left in rows:
            body += bytes((moves, left))
    return gzip.compress(bytes(body), mtime=0)


def table_from_records(records: Iterable[dict[str, Any]]) -> list[tuple[int, int]]:
    """The (moves, left) rows of census records of codes, in game order from #1.

    Raises:
        ValueError: a game is missing, unproved or not a plain code.
    """
    rows: dict[int, tuple[int, int]] = {}
    for record in records:
        if not record.get("proved", False):
            raise ValueError(f"{record.get('code')} is not proved")
        number = DealCode.parse(record["code"]).number
        if record["winnable"]:
            rows[number] = (int(record["moves"]), 0)
        else:
            rows[number] = (int(record["best"]["moves"]), int(record["best"]["left"]))
    missing = [n for n in range(1, len(rows) + 1) if n not in rows]
    if missing:
        raise ValueError(f"games missing from the census, e.g. #{missing[0]}")
    return [rows[n] for n in range(1, len(rows) + 1)]


@cache
def _tables() -> dict[str, bytes]:
    try:
        data = resources.files("parlour.tripeaks.solver").joinpath(DATA_FILE).read_bytes()
    except FileNotFoundError:
        return {}
    raw = gzip.decompress(data)
    if not raw.startswith(MAGIC):
        return {}
    offset = len(MAGIC)
    tables = {}
    for name in RULE_SETS:
        (count,) = struct.unpack_from("<I", raw, offset)
        offset += 4
        tables[name] = raw[offset : offset + 2 * count]
        offset += 2 * count
    return tables


def numbered_count(rules: Rules = EASY) -> int:
    """How many numbered games of these rules the shipped census covers (0 for variants)."""
    if rules not in (EASY, CLASSIC):
        return 0
    return len(_tables().get(rules.name, b"")) // 2


def numbered_result(rules: Rules | str, number: int) -> NumberedResult | None:
    """The census result of numbered game ``number`` (#1 = deal number 1) under plain Easy or Classic
    rules (``rules`` may be ``"easy"``/``"classic"``); None outside the census or with variants.
    """
    if isinstance(rules, str):
        rules = Rules.named(rules)
    if rules not in (EASY, CLASSIC) or number < 1 or number > numbered_count(rules):
        return None
    table = _tables()[rules.name]
    moves, left = table[2 * (number - 1)], table[2 * (number - 1) + 1]
    winnable = left == 0
    return NumberedResult(number, rules.name, winnable, moves if winnable else None, left, moves)
