"""``docs/architecture.md`` maps ``src/parlour``: every folder and module at its top is described there,
and everything it names exists, so the map stays true as the tree changes."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARLOUR = ROOT / "src" / "parlour"
MAP = (ROOT / "docs" / "architecture.md").read_text()


def described() -> set[str]:
    """The names in the first column of the map's tables (``tripeaks/``, ``server/pages/``, ``cards.py``)."""
    cells = re.findall(r"^\| `([^|]+)` \|", MAP, re.M)
    return {name for cell in cells for name in re.findall(r"[\w./]+", cell)}


def test_every_top_level_folder_and_module_is_on_the_map() -> None:
    names = described()
    for path in PARLOUR.iterdir():
        if path.name.startswith(("_", ".")) and path.name not in ("__init__.py", "__main__.py"):
            continue
        if path.is_dir() and (path.name == "__pycache__" or not any(path.iterdir())):
            continue
        if path.suffix in (".typed", ".so") or path.name.endswith(".egg-info"):
            continue
        wanted = f"{path.name}/" if path.is_dir() else path.name
        assert wanted in names, f"{wanted} is not described in docs/architecture.md"


def test_everything_on_the_map_exists() -> None:
    for name in described():
        assert (PARLOUR / name.rstrip("/")).exists(), f"docs/architecture.md names {name}, which is gone"


def test_the_files_named_in_a_folders_row_exist() -> None:
    """The modules and folders a row names in its description are in that folder (``site/``, ``app.py``)."""
    rows = re.findall(r"^\| `([\w/]+)/` \| (.*) \|$", MAP, re.M)
    assert len(rows) >= 10
    for folder, text in rows:
        for name in re.findall(r"`(\w+(?:\.py|/))`", text):
            if name in ("templates/", "static/", "locale/") and not (PARLOUR / folder / name).exists():
                continue  # a platform folder keeps these elsewhere (i18n's locale, web's templates)
            assert (PARLOUR / folder / name.rstrip("/")).exists(), (folder, name)
