"""The platform knows games only through their definitions: no module of the server, the store, the
terminal app or the command line names a game, except a game's own modules (their file name carries
the game's name) and the migrations (which say what was there before). The modules still waiting for
their step of issue 25 are listed with it; a listed module that no longer names a game fails too, so
the list only shrinks."""

from __future__ import annotations

import re
from pathlib import Path

PARLOUR = Path(__file__).resolve().parents[1] / "src" / "parlour"
NAMES = re.compile(r"tripeaks|thirteen|\bTP1-|\bTH1-", re.IGNORECASE)
PENDING = {
    "server/numbered_pages.py": "numbered deals for any game (issue 25 item 2)",
    "server/players_chart.py": "the player page's charts from each definition (issue 25 item 2)",
    "server/players.py": "the player page's charts from each definition (issue 25 item 2)",
    "server/rules_pages.py": "the rules pages from each definition (issue 25 item 2)",
    "server/protocol.py": "the hint message as the game's own JSON (issue 25 item 2)",
    "store/records.py": "numbered records keyed by game, with the game's standing (issue 25 item 2)",
    "store/models.py": "numbered records keyed by game, with the game's standing (issue 25 item 2)",
}


def naming_modules() -> dict[str, list[str]]:
    """Return each platform module that names a game, with the lines that do."""
    found: dict[str, list[str]] = {}
    for part in ("server", "store", "tui", "cli"):
        for path in sorted((PARLOUR / part).rglob("*.py")):
            relative = path.relative_to(PARLOUR).as_posix()
            if NAMES.search(path.name) or "/migrations/" in relative:
                continue
            lines = [line.strip() for line in path.read_text().splitlines() if NAMES.search(line)]
            if lines:
                found[relative] = lines
    return found


def test_no_platform_module_names_a_game() -> None:
    found = naming_modules()
    unexpected = {module: lines[:3] for module, lines in found.items() if module not in PENDING}
    assert not unexpected, unexpected
    done = sorted(set(PENDING) - set(found))
    assert not done, f"these no longer name a game: take them off PENDING: {done}"
