"""A browser's rough name from its User-Agent ("Firefox on Android"), for the player's list of their
browsers: enough for a person to tell their phone from their laptop, nothing that tells where they
are (no address, no version).
"""

from __future__ import annotations

from typing import Final

BROWSERS: Final = (
    ("Edg/", "Edge"),
    ("EdgA/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("HeadlessChrome/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
"""Marks of browsers, the more specific first (Edge and Opera say Chrome too, Chrome says Safari)."""
SYSTEMS: Final = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
)
SEPARATOR: Final = "|"


def browser_name(user_agent: str | None) -> str | None:
    """Return a browser's rough name as kept: ``"Chrome|Android"`` (browser, system, either may be
    empty); None when the User-Agent names nothing we know. :func:`shown` makes it words."""
    if not user_agent:
        return None
    agent = user_agent[:512]
    browser = next((name for mark, name in BROWSERS if mark in agent), "")
    system = next((name for mark, name in SYSTEMS if mark in agent), "")
    return f"{browser}{SEPARATOR}{system}" if browser or system else None


def parts(kept: str | None) -> tuple[str, str]:
    """Return the browser's and the system's names of a kept rough name (empty when unknown)."""
    browser, _, system = (kept or "").partition(SEPARATOR)
    return browser, system
