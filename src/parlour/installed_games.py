"""Where the installed games live, read from their entry points without importing any game's code.

Each game registers its definition under the :data:`ENTRY_POINTS` group (decision 0061); the module
that defines it sits in the game's package, whose folder holds the game's own ``templates/``,
``static/`` and ``locale/``. The message catalogs need those folders before any game is loaded (the
command line translates before it builds a registry), so they are found here from the entry points'
module names alone.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Final

ENTRY_POINTS: Final = "parlour.games"
"""The entry point group through which an installed package registers its games."""


@cache
def game_folders() -> tuple[Path, ...]:
    """Return the folder of each installed game's definition module, in the entry points' names' order.

    A module that cannot be found is left out (the registry warns about it when it loads the game).
    """
    folders: list[Path] = []
    for entry in sorted(entry_points(group=ENTRY_POINTS), key=lambda each: (each.name, each.value)):
        try:
            spec = importlib.util.find_spec(entry.module)
        except (ImportError, ValueError):
            continue
        if spec is not None and spec.origin is not None:
            folder = Path(spec.origin).resolve().parent
            if folder not in folders:
                folders.append(folder)
    return tuple(folders)
