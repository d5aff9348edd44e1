"""Per-player preferences: their names, allowed values and defaults."""

from __future__ import annotations

from typing import Any, Final

from parlour.i18n import LANGUAGES
from parlour.store.errors import InvalidPreference
from parlour.thirteen.bots import BOTS

BOT_SPEEDS: Final = ("slow", "normal", "fast", "instant")
BOT_STRENGTHS: Final = tuple(BOTS)  # the computer players Thirteen offers, weakest first

DEFAULTS: Final[dict[str, Any]] = {
    "lang": None,  # None: follow the browser's Accept-Language
    "error_help": True,
    "bot_speed": "normal",
    "bot_strength": "heuristic",
}


def validated(changes: dict[str, Any]) -> dict[str, Any]:
    """Return ``changes`` checked and normalized (a language tag becomes its base language).

    Raises:
        InvalidPreference: an unknown preference name or a value it cannot take.
    """
    clean: dict[str, Any] = {}
    for name, value in changes.items():
        if name not in DEFAULTS:
            raise InvalidPreference(f"unknown preference {name!r}: choose one of {', '.join(DEFAULTS)}")
        if name == "lang":
            if value is not None and value not in LANGUAGES:
                raise InvalidPreference(
                    f"unsupported language {value!r}: choose one of {', '.join(LANGUAGES)}"
                )
        elif name == "error_help":
            if not isinstance(value, bool):
                raise InvalidPreference(f"error_help must be true or false, not {value!r}")
        else:
            allowed = BOT_SPEEDS if name == "bot_speed" else BOT_STRENGTHS
            if value not in allowed:
                raise InvalidPreference(f"{name} cannot be {value!r}: choose one of {', '.join(allowed)}")
        clean[name] = value
    return clean


def with_defaults(stored: dict[str, Any] | None) -> dict[str, Any]:
    """Return every preference: the stored ones, the defaults for the rest (unknown keys dropped)."""
    merged = dict(DEFAULTS)
    merged.update({key: value for key, value in (stored or {}).items() if key in DEFAULTS})
    return merged
