"""Golden playthroughs of Thirteen: whole matches between seeded computer players, one JSON line a step.

Each file ``tests/data/thirteen/playthrough-<code>.jsonl`` starts with a header line (code, rules,
players) and then has one line per move: the seat to move, that seat's view (without the code, rules,
round results and round history, which the header, the last line and the earlier lines hold), its legal
moves and the move made; the last line holds the scores, winners and round results.
``test_thirteen_golden.py`` regenerates every file in memory and diffs it against the stored one.
After an intended change of the rules or of a bot, rewrite them with:

    PYTHONPATH=src .venv/bin/python tests/thirteen/thirteen_golden.py --write
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from parlour.thirteen import Match
from parlour.thirteen.bots import make_bot

DATA = Path(__file__).resolve().parents[1] / "data" / "thirteen"
PLAYERS = ("heuristic", "greedy", "random", "heuristic")
CODES = ("TH1-AAAAAAB", "TH1-THIRTEN", "TH1-ZZZZZZZ")


def playthrough(code: str) -> list[str]:
    """Return the lines of the golden playthrough of ``code``."""
    match = Match.from_code(code)
    bots = [make_bot(name, seat) for seat, name in enumerate(PLAYERS)]
    lines = [json.dumps({"code": code, "rules": match.rules.to_json(), "players": list(PLAYERS)})]
    while not match.over:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        data = view.to_json()
        legal = data.pop("legal_moves")
        del data["history"], data["rules"], data["results"]  # in the header and last line
        move = bots[seat].choose(view)
        lines.append(
            json.dumps({"seat": seat, "view": data, "legal": legal, "move": str(move)}, ensure_ascii=False)
        )
        match.apply(seat, move)
    final = {
        "scores": match.scores,
        "winners": list(match.winners),
        "results": [r.to_json() for r in match.results],
    }
    lines.append(json.dumps(final))
    return lines


def path_of(code: str) -> Path:
    """Return the stored file of a code's playthrough."""
    return DATA / f"playthrough-{code}.jsonl"


def write_all() -> None:
    """Regenerate every stored playthrough."""
    DATA.mkdir(parents=True, exist_ok=True)
    for code in CODES:
        path_of(code).write_text("\n".join(playthrough(code)) + "\n", encoding="utf-8")
        print(f"wrote {path_of(code)}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: {sys.argv[0]} --write")
    write_all()
