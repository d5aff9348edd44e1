"""Golden TriPeaks playthroughs: the deal of a code, every step of a move line, the final views.

Regenerate after a deliberate change, from the repository root:
``PYTHONPATH=src:tests python -m tripeaks.golden``; the tests compare the engine with these files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from parlour.errors import IllegalMove, InvalidInput
from parlour.tripeaks import Game

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "data" / "tripeaks"

WIN_E_B = (
    "KC AD 2C draw draw draw 6S 5D draw KD draw draw KH draw draw draw JC TH JS TS JH TD draw draw draw "
    "8S 7H draw 2D 3C 4H 5S draw draw draw 5H 6D draw draw 9S draw JD draw 4D draw draw 8H 9C 8D 7D"
)
WIN_C_D = (
    "8H draw 4S draw 8C draw draw 8D draw 8S draw draw draw draw JD draw draw draw 2H AC draw 6H 5C draw "
    "JC QH KS QS KH QC KD draw 4C 3H draw AH draw 9S draw draw 6C 7S 6S 5S draw AD 2C 3D"
)
_WIN = WIN_E_B.split()
LINES: dict[str, str] = {
    # refused moves first (hidden card, not adjacent, nothing to undo, malformed), an undo in the middle,
    # a win with 1 card left in the stock and a refused move after it
    "TP1-E-AAAAAAB": " ".join(["AS 2C undo XX", *_WIN[:9], "undo", _WIN[8], *_WIN[9:], "draw"]),
    "TP1-C-AAAAAAB": "KH KC 6S draw draw undo undo undo undo undo",
    "TP1-C-AAAAAAD": WIN_C_D,
    "TP1-E-AAAAAAC": " ".join(["draw"] * 24) + " undo",
    # open peaks, an empty discard pile to start, the joker in the deck
    "TP1-E-AAAAAAB-JOW": "6D 7C draw QD draw draw 3S 2D draw draw AS draw 7S 6H undo 6H",
    # draw only when stuck (must_play first), traditional scoring (runs, -5 per draw, no floor)
    "TP1-C-AAAAABA-DT": "draw 8S draw draw 5D 4H 3C 2D 3D draw 6S 5S draw AC draw undo",
}


def playthrough(code: str, line: str) -> dict[str, Any]:
    """Play ``line`` on the deal of ``code`` and record every step and the final views."""
    game = Game.from_code(code)
    steps: list[dict[str, Any]] = []
    rejected: list[dict[str, Any]] = []
    start = game.to_json()
    for index, move in enumerate(line.split(), start=1):
        try:
            game.apply(move)
            result = "ok"
        except (IllegalMove, InvalidInput) as error:
            result = error.code
            rejected.append({"index": index, "move": move, "reason": error.code})
        top = game.discard_top
        steps.append(
            {
                "move": move,
                "result": result,
                "score": game.score,
                "moves": game.moves,
                "stock": game.stock_count,
                "discard_top": None if top is None else str(top),
                "status": game.status,
            }
        )
    return {
        "code": code,
        "layout": game.deal.to_text(),
        "start": start,
        "steps": steps,
        "final": game.to_json(rejected=rejected),
    }


def path_for(code: str) -> Path:
    return GOLDEN_DIR / f"{code}.json"


def write_all() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for code, line in LINES.items():
        text = json.dumps(playthrough(code, line), ensure_ascii=False, indent=1)
        path_for(code).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_all()
