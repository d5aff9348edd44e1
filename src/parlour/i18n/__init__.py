"""Text at the edge: gettext catalogs (Babel) for English, Hindi, Hungarian, French and Vietnamese.

The engine speaks reason codes; adapters turn them into text here, per request or session. Catalogs are
the ``.po`` files under ``locale/<lang>/LC_MESSAGES/<domain>.po``, one domain per part of Parlour
(``cards``, ``tripeaks``, ``thirteen``, ``web`` …), compiled in memory on first use. English is the
source language: its text is the msgid itself.
"""

from __future__ import annotations

import contextlib
import gettext
import io
from functools import cache
from pathlib import Path
from typing import Final

from babel.core import Locale, negotiate_locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import Translations

from parlour.errors import InvalidInput
from parlour.installed_games import game_folders

LANGUAGES: Final = ("en", "hi", "hu", "fr", "vi")
"""Supported languages, English first (the default and the source language)."""
DEFAULT_LANGUAGE: Final = "en"
LANGUAGE_NAMES: Final = {"en": "English", "hi": "हिन्दी", "hu": "Magyar", "fr": "Français", "vi": "Tiếng Việt"}
"""Each language's name in that language, for language pickers."""

LOCALE_DIR: Final = Path(__file__).resolve().with_name("locale")
"""The platform's own catalogs; each game's are in its package (:func:`add_catalogs`)."""

_added: list[Path] = []
"""Catalog folders added by hand (:func:`add_catalogs`): a game registered without an entry point."""


def catalog_folders() -> list[Path]:
    """Return the folders searched for catalogs: the platform's, each installed game's ``locale`` (found
    through its entry point), then those added by :func:`add_catalogs`."""
    folders = [LOCALE_DIR]
    for folder in [*(game / "locale" for game in game_folders()), *_added]:
        if folder.is_dir() and folder not in folders:
            folders.append(folder)
    return folders


def add_catalogs(directory: Path) -> None:
    """Add a folder of catalogs (``<lang>/LC_MESSAGES/<domain>.po``), a game's own, to those searched.

    A game's domains are its own: a domain found in two folders is an error, since one of them would
    never be read.

    Raises:
        ValueError: a domain of ``directory`` is already found in another folder.
    """
    directory = directory.resolve()
    if directory in catalog_folders():
        return
    known = set(domains())
    for path in directory.glob("*/LC_MESSAGES/*.po"):
        if path.stem in known:
            raise ValueError(f"the catalog domain {path.stem!r} of {directory} is already another's")
    _added.append(directory)
    translations.cache_clear()
    _games_catalogs.cache_clear()


def catalog_path(lang: str, domain: str) -> Path:
    """Return the ``.po`` file of ``domain`` in ``lang``, in the platform's folder or a game's.

    Raises:
        FileNotFoundError: no folder has that catalog.
    """
    for directory in catalog_folders():
        path = directory / lang / "LC_MESSAGES" / f"{domain}.po"
        if path.exists():
            return path
    raise FileNotFoundError(f"no {lang} catalog of the domain {domain!r}")


def normalize_language(tag: str) -> str:
    """Return the supported language for a tag such as ``hi``, ``HU``, ``fr-CA`` or ``en_GB``.

    Raises:
        InvalidInput: the tag names no supported language.
    """
    base = tag.strip().replace("_", "-").split("-")[0].lower()
    if base not in LANGUAGES:
        raise InvalidInput(f"unsupported language {tag!r}: choose one of {', '.join(LANGUAGES)}")
    return base


def negotiate(accept_language: str | None) -> str:
    """Return the best supported language for an HTTP ``Accept-Language`` header (English if none fits)."""
    if not accept_language:
        return DEFAULT_LANGUAGE
    wanted: list[tuple[float, str]] = []
    for position, item in enumerate(accept_language.split(",")):
        parts = item.strip().split(";")
        tag = parts[0].strip()
        quality = 1.0
        for param in parts[1:]:
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag:
            wanted.append((-quality + position * 1e-6, tag.replace("-", "_")))
    preferred = [tag for _, tag in sorted(wanted)]
    found = negotiate_locale(preferred, list(LANGUAGES), sep="_") or negotiate_locale(
        [tag.split("_")[0] for tag in preferred], list(LANGUAGES), sep="_"
    )
    return found or DEFAULT_LANGUAGE


def own_domains() -> list[str]:
    """Return the games' own domains: every catalog in a game's ``locale`` folder. They supply the texts
    the platform shows for a game (its title, its rule sets' names, its statistics' headings, the
    words of its pages that the platform's helpers look up), so that a game's texts never go in a
    platform catalog (TriPeaks' in ``tripeaks_site``, Thirteen's in ``thirteen_web``)."""
    return sorted(
        {path.stem for folder in catalog_folders()[1:] for path in folder.glob("*/LC_MESSAGES/*.po")}
    )


def _catalog(path: Path, lang: str, domain: str) -> Translations:
    """Return a fresh compiled catalog of ``domain`` in ``lang`` (not English) from its ``.po`` file."""
    with path.open("rb") as po_file:
        catalog = read_po(po_file, locale=Locale.parse(lang), domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=domain)


@cache
def _games_catalogs(lang: str) -> gettext.NullTranslations | None:
    """Return the games' own catalogs in ``lang`` chained one after the other (each falling back on the
    next), made once for every platform catalog to fall back on; None when no game has one.

    They are copies of their own: gettext chains a fallback by setting the last link's, so the catalogs
    :func:`translations` gives for the games' own domains must stay unchained."""
    chain: gettext.NullTranslations | None = None
    for own in own_domains():
        with contextlib.suppress(FileNotFoundError):
            catalog = _catalog(catalog_path(lang, own), lang, own)
            if chain is None:
                chain = catalog
            else:
                chain.add_fallback(catalog)
    return chain


@cache
def translations(lang: str, domain: str) -> gettext.NullTranslations:
    """Return the catalog of ``domain`` in ``lang`` (a no-op catalog for English).

    A platform catalog (``web``, ``store`` …) falls back on the games' own domains (:func:`own_domains`)
    for a text it does not have.

    Raises:
        InvalidInput: the language is not supported.
        FileNotFoundError: a non-English language has no catalog for this domain.
    """
    lang = normalize_language(lang)
    if lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    path = catalog_path(lang, domain)
    found = _catalog(path, lang, domain)
    games = _games_catalogs(lang) if path.is_relative_to(LOCALE_DIR) else None
    if games is not None:
        found.add_fallback(games)
    return found


def gettext_for(lang: str, domain: str, message: str) -> str:
    """Translate one message of ``domain`` into ``lang``."""
    return translations(lang, domain).gettext(message)


def pgettext_for(lang: str, domain: str, context: str, message: str) -> str:
    """Translate one message with a context (``msgctxt``) of ``domain`` into ``lang``."""
    return translations(lang, domain).pgettext(context, message)


def ngettext_for(lang: str, domain: str, singular: str, plural: str, n: int) -> str:
    """Translate a message with a plural form chosen for ``n``."""
    return translations(lang, domain).ngettext(singular, plural, n)


def domains() -> list[str]:
    """Return the names of every catalog domain that exists in some language, the platform's and the
    registered games'."""
    return sorted({path.stem for folder in catalog_folders() for path in folder.glob("*/LC_MESSAGES/*.po")})


def labelled(label: str, lang: str) -> str:
    """Return ``label`` ready to stand before its value, as ``lang`` punctuates it: "Score:" in English,
    "Score\u00a0:" in French (a no-break space before the colon, so the colon never starts a line)."""
    return gettext_for(lang, "common", "{label}:").format(label=label)


def _pattern(pattern: str, digits: int) -> str:
    """Return a CLDR number ``pattern`` with exactly ``digits`` decimals, keeping the language's own
    grouping (Hindi groups by lakhs: ``#,##,##0``) and its spacing before ``%`` (French ``12\u00a0%``)."""
    integer = pattern.split(";")[0]  # the positive half: the negative one mirrors it
    if "." in integer:
        body, _, fraction = integer.partition(".")
        suffix = fraction.lstrip("#0")
    else:
        body = integer.rstrip("%\u00a0\u202f ")
        suffix = integer[len(body) :]
    return body + ("." + "0" * digits if digits else "") + suffix


def percent(value: float, lang: str, digits: int = 1) -> str:
    """Return ``value`` (0.125) as a percentage the way ``lang`` writes it: ``12.5%``, ``12,5\u00a0%``."""
    locale = Locale.parse(normalize_language(lang))
    pattern = _pattern(locale.percent_formats[None].pattern, digits)
    return format_percent(value, pattern, locale=locale)


def decimal(value: float, lang: str, digits: int = 1) -> str:
    """Return ``value`` with ``digits`` decimals the way ``lang`` writes it: ``1,234.5``, ``1\u202f234,5``,
    ``12,34,567`` (Hindi)."""
    locale = Locale.parse(normalize_language(lang))
    pattern = _pattern(locale.decimal_formats[None].pattern, digits)
    return format_decimal(value, pattern, locale=locale)
