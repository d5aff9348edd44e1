"""Pack census output files into the numbered-game data shipped with Parlour.

Run: ``PYTHONPATH=src python scripts/pack_census.py EASY.jsonl CLASSIC.jsonl`` after
``parlour tripeaks census --from 1 --to 50000 --rules easy --out EASY.jsonl`` (and the same for
classic). Each rule set keeps the games #1..#N that were all solved and proved.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.solver.numbered import DATA_FILE, pack, table_from_records

TARGET = Path(__file__).resolve().parents[1] / "src/parlour/tripeaks/solver" / DATA_FILE


def contiguous(path: Path) -> list[dict[str, object]]:
    """The records of games #1..#N, N as large as every game up to it is solved and proved."""
    by_number = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            if record.get("proved"):
                by_number[DealCode.parse(record["code"]).number] = record
    count = 0
    while count + 1 in by_number:
        count += 1
    return [by_number[n] for n in range(1, count + 1)]


def main() -> None:
    easy, classic = (contiguous(Path(name)) for name in sys.argv[1:3])
    TARGET.write_bytes(pack({"easy": table_from_records(easy), "classic": table_from_records(classic)}))
    print(f"{TARGET}: easy #1-#{len(easy)}, classic #1-#{len(classic)}")


if __name__ == "__main__":
    main()
