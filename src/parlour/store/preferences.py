"""Per-player preferences: their names, allowed values and defaults.

The platform's own are the language and error help; each registered game adds its own
(``GameDefinition.preferences``: its computer players' speed and strength, say).
"""

from __future__ import annotations

from typing import Any, Final

from parlour.games.base import Preference
from parlour.games.registry import Registry
from parlour.i18n import LANGUAGES
from parlour.store.errors import InvalidPreference

PLATFORM_DEFAULTS: Final[dict[str, Any]] = {
    "lang": None,  # None: follow the browser's Accept-Language
    "error_help": True,
    "sound": True,
    "screen_reader": False,  # every event read out in order, a command box for moves typed as text
    "felt": "green",
    "card_back": "red",
    "theme": "auto",
    "deck": "two_colour",
    "card_size": "normal",
}
FELTS: Final = ("green", "blue", "red", "grey")
"""The table colours a player may choose."""
CARD_BACKS: Final = ("red", "blue", "green")
"""The card backs a player may choose."""
SWITCHES: Final = ("error_help", "sound", "screen_reader")
"""The preferences that are on or off."""
THEMES: Final = ("auto", "felt", "dark", "high_contrast")
"""The page's look: ``auto`` follows the device's ``prefers-contrast`` and ``prefers-color-scheme``;
``felt`` is the green table; ``dark`` and ``high_contrast`` are for the eyes that need them."""
DECKS: Final = ("two_colour", "four_colour")
"""Suit colours: red and black, or the four-colour deck (diamonds blue, clubs green)."""
CARD_SIZES: Final = ("normal", "large")
"""Large cards: bigger cards where the table has room, and large corner letters always."""
CHOICES: Final = {
    "felt": FELTS,
    "card_back": CARD_BACKS,
    "theme": THEMES,
    "deck": DECKS,
    "card_size": CARD_SIZES,
}


def game_preferences(games: Registry | None) -> dict[str, Preference]:
    """Return every preference the registered games add, by name."""
    found: dict[str, Preference] = {}
    for definition in games or ():
        found.update(definition.preferences)
    return found


def validated(changes: dict[str, Any], games: Registry | None = None) -> dict[str, Any]:
    """Return ``changes`` checked and normalized.

    Raises:
        InvalidPreference: an unknown preference name or a value it cannot take.
    """
    extra = game_preferences(games)
    clean: dict[str, Any] = {}
    for name, value in changes.items():
        if name == "lang":
            if value is not None and value not in LANGUAGES:
                raise InvalidPreference(
                    f"unsupported language {value!r}: choose one of {', '.join(LANGUAGES)}"
                )
        elif name in SWITCHES:
            if not isinstance(value, bool):
                raise InvalidPreference(f"{name} must be true or false, not {value!r}")
        elif name in CHOICES:
            if not isinstance(value, str) or value not in CHOICES[name]:
                raise InvalidPreference(
                    f"{name} cannot be {value!r}: choose one of {', '.join(CHOICES[name])}"
                )
        elif name in extra:
            if value not in extra[name].choices:
                choices = ", ".join(extra[name].choices)
                raise InvalidPreference(f"{name} cannot be {value!r}: choose one of {choices}")
        else:
            known = ", ".join([*PLATFORM_DEFAULTS, *extra])
            raise InvalidPreference(f"unknown preference {name!r}: choose one of {known}")
        clean[name] = value
    return clean


def with_defaults(stored: dict[str, Any] | None, games: Registry | None = None) -> dict[str, Any]:
    """Return every preference: the stored ones, the defaults for the rest (unknown keys dropped)."""
    merged = dict(PLATFORM_DEFAULTS)
    merged.update({name: preference.default for name, preference in game_preferences(games).items()})
    merged.update({key: value for key, value in (stored or {}).items() if key in merged})
    return merged
