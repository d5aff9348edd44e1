"""The platform knows games only through their definitions: no module of the server, the store, the
terminal app or the command line names a game, except a game's own modules (their file name carries
the game's name) and the migrations (which say what was there before). The same holds for the pages'
templates: a template that is not a game's own names none."""

from __future__ import annotations

import re
from pathlib import Path

PARLOUR = Path(__file__).resolve().parents[1] / "src" / "parlour"
TEMPLATES = PARLOUR / "web" / "templates"
NAMES = re.compile(r"tripeaks|thirteen|\bTP1-|\bTH1-", re.IGNORECASE)


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
    found = {module: lines[:3] for module, lines in naming_modules().items()}
    assert not found, found


def test_no_platform_template_names_a_game() -> None:
    found = {}
    for path in sorted(TEMPLATES.glob("*.html")):
        if NAMES.search(path.name):
            continue
        lines = [line.strip() for line in path.read_text().splitlines() if NAMES.search(line)]
        if lines:
            found[path.name] = lines[:3]
    assert not found, found
