"""Take the terminal screenshots of docs/screenshots/ (SVG, as Textual draws them).

Run: ``.venv/bin/python scripts/terminal_screenshots.py``. Nothing is recorded (no database is used).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from parlour.thirteen.terminal.app import ThirteenApp  # noqa: E402
from parlour.tripeaks import DealCode, Game  # noqa: E402
from parlour.tripeaks.rules import EASY  # noqa: E402
from parlour.tripeaks.terminal.app import TriPeaksApp  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


async def tripeaks() -> None:
    app = TriPeaksApp(Game.from_code(DealCode(123, EASY)), "en", None, 123)
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("d", "right", "right", "enter", "h"):
            await pilot.press(key)
        app.save_screenshot(str(OUT / "terminal-tripeaks.svg"))


async def thirteen() -> None:
    app = ThirteenApp({"code": "TH1-AAAAAAC", "speed": "instant", "strength": "greedy"}, "en", None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "enter")
        await pilot.pause(0.5)
        app.save_screenshot(str(OUT / "terminal-thirteen.svg"))


if __name__ == "__main__":
    asyncio.run(tripeaks())
    asyncio.run(thirteen())
    print(f"saved in {OUT}")
