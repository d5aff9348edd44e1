"""The registry of game definitions: the one place that lists which games Parlour plays.

``default_registry()`` holds every game an installed package registers, Parlour's own TriPeaks and
Thirteen among them: a game is one package with a :class:`~parlour.games.base.GameDefinition` and one
registration line, an entry point of the ``parlour.games`` group naming its definition (in the package's
``pyproject.toml``: ``[project.entry-points."parlour.games"]`` ``golf = "golf.game:DEFINITION"``), or a
registry built with it (``default_registry().with_games(Tally())``). The server, the store, the
statistics and the command line pick it up from there.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from importlib.metadata import entry_points

from parlour.errors import InvalidInput
from parlour.games.base import GameDefinition
from parlour.i18n import add_catalogs
from parlour.installed_games import ENTRY_POINTS

log = logging.getLogger("parlour.games")


class UnknownGameKind(InvalidInput):
    """A game name that no registered definition has."""

    code = "no_such_game_kind"


class Registry:
    """Game definitions by name, in the order they were registered."""

    def __init__(self, definitions: Iterable[GameDefinition] = ()) -> None:
        self._games: dict[str, GameDefinition] = {}
        for definition in definitions:
            self.register(definition)

    def register(self, definition: GameDefinition) -> GameDefinition:
        """Add a game and return it.

        Raises:
            ValueError: a game of that name is registered already, or its catalogs take a domain that
                another's has.
        """
        if definition.name in self._games:
            raise ValueError(f"a game called {definition.name!r} is registered already")
        catalogs = definition.assets("locale")
        if catalogs is not None:  # an installed game's are found already; a game registered by hand's now
            add_catalogs(catalogs)
        self._games[definition.name] = definition
        return definition

    def with_games(self, *definitions: GameDefinition) -> Registry:
        """Return a new registry with this one's games and ``definitions`` (replacing same-named ones)."""
        names = {definition.name for definition in definitions}
        kept = [game for game in self._games.values() if game.name not in names]
        return Registry([*kept, *definitions])

    def get(self, name: str) -> GameDefinition:
        """Return the game called ``name``.

        Raises:
            UnknownGameKind: no such game.
        """
        found = self._games.get(name)
        if found is None:
            known = ", ".join(self._games) or "none"
            raise UnknownGameKind(f"unknown game {name!r}: choose one of {known}")
        return found

    def find(self, name: str) -> GameDefinition | None:
        """Return the game called ``name``, or None."""
        return self._games.get(name)

    def numbered(self) -> list[GameDefinition]:
        """Return the games that have numbered deals (their records live in the store), in order."""
        return [game for game in self._games.values() if game.numbered is not None]

    def names(self) -> list[str]:
        """Return the games' names, in registration order."""
        return list(self._games)

    def __iter__(self) -> Iterator[GameDefinition]:
        return iter(list(self._games.values()))

    def __contains__(self, name: object) -> bool:
        return name in self._games

    def __len__(self) -> int:
        return len(self._games)


def default_registry() -> Registry:
    """Return a new registry of every installed game: each package's games registered under
    :data:`ENTRY_POINTS` (Parlour's own TriPeaks and Thirteen among them), in their definitions' ``order``
    then their names'. A registered game that cannot be loaded, is no game definition or takes a name
    already taken is left out with a warning: Parlour runs without it."""
    found: list[tuple[int, str, GameDefinition]] = []
    for entry in sorted(entry_points(group=ENTRY_POINTS), key=lambda each: (each.name, each.value)):
        try:
            definition = entry.load()
            if not isinstance(definition, GameDefinition):
                raise TypeError(f"{entry.value} is a {type(definition).__name__}, not a game definition")
        except Exception as error:  # a broken game of another package must not stop Parlour
            log.warning("the game %r (%s) is left out: %s", entry.name, entry.value, error)
            continue
        found.append((definition.order, entry.name, definition))
    registry = Registry()
    for _, name, definition in sorted(found, key=lambda each: each[:2]):
        try:
            registry.register(definition)
        except ValueError as error:
            log.warning("the game %r is left out: %s", name, error)
    return registry
