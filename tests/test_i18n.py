"""Catalogs: every language complete for every domain, language negotiation, card names."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from parlour.cards import Card
from parlour.errors import InvalidInput
from parlour.i18n import LANGUAGES, catalog_folders, catalog_path, domains, negotiate, normalize_language
from parlour.i18n.cards import card_name


@pytest.mark.parametrize("domain", domains())
def test_every_catalog_has_the_same_messages_all_translated(domain: str) -> None:
    keys: dict[str, set[tuple[str | None, str]]] = {}
    for lang in LANGUAGES[1:]:
        try:
            path = catalog_path(lang, domain)
        except FileNotFoundError:
            raise AssertionError(f"{lang} has no {domain} catalog") from None
        with path.open("rb") as handle:
            catalog = read_po(handle)
        keys[lang] = set()
        for message in catalog:
            if not message.id:
                continue
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            keys[lang].add((message.context, msgid))
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(strings), f"{lang}/{domain}: {msgid!r} is untranslated"
            assert not message.fuzzy, f"{lang}/{domain}: {msgid!r} is fuzzy"
    first = keys[LANGUAGES[1]]
    for lang, found in keys.items():
        assert found == first, f"{lang}/{domain} differs: {sorted(found ^ first)}"


@pytest.mark.parametrize(
    ("card", "lang", "name"),
    [
        ("AC", "en", "ace of clubs"),
        ("3S", "en", "3 of spades"),
        ("AC", "hi", "चिड़ी का इक्का"),
        ("3S", "hi", "हुकुम का 3"),
        ("KC", "hi", "चिड़ी का बादशाह"),
        ("8H", "hi", "पान का 8"),
        ("2D", "hi", "ईंट का 2"),
        ("AC", "hu", "treff ász"),
        ("KD", "hu", "káró király"),
        ("8H", "hu", "kőr 8"),
        ("3S", "hu", "pikk 3"),
        ("QH", "fr", "dame de cœur"),
        ("QH", "hi", "पान की बेगम"),
        ("KH", "hi", "पान का बादशाह"),
        ("JD", "hi", "ईंट का गुलाम"),
        ("QS", "hu", "pikk dáma"),
        ("JC", "hu", "treff bubi"),
        ("KD", "fr", "roi de carreau"),
        ("JS", "en", "jack of spades"),
        ("JK", "fr", "joker"),
        ("AC", "vi", "át chuồn"),
        ("2H", "vi", "2 cơ"),
        ("KD", "vi", "già rô"),
        ("QS", "vi", "đầm bích"),
        ("JH", "vi", "bồi cơ"),
    ],
)
def test_card_names(card: str, lang: str, name: str) -> None:
    assert card_name(Card.parse(card), lang) == name


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("hi-IN,hi;q=0.9,en;q=0.8", "hi"),
        ("de-DE,hu;q=0.8,en;q=0.5", "hu"),
        ("fr-CA", "fr"),
        ("en-GB;q=0.2,fr;q=0.9", "fr"),
        ("de, ja", "en"),
        ("hu;q=bad", "hu"),
    ],
)
def test_negotiate(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


def test_plural_forms_headers_are_well_formed() -> None:
    for path in (path for folder in catalog_folders() for path in folder.glob("*/LC_MESSAGES/*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle)
        assert "\\n" not in str(catalog.plural_forms), path
        expected = {"fr": "(n > 1)", "vi": "0"}.get(path.parts[-3], "(n != 1)")
        assert catalog.plural_expr.strip("()") == expected.strip("()"), f"{path}: {catalog.plural_forms}"


def test_normalize_language() -> None:
    assert normalize_language("HU") == "hu" and normalize_language("fr_CA") == "fr"
    with pytest.raises(InvalidInput, match="'de'"):
        normalize_language("de")


def test_card_corners_use_each_languages_rank_letters() -> None:
    from parlour.i18n.cards import rank_letters

    assert rank_letters("en") == {"A": "A", "J": "J", "Q": "Q", "K": "K"}
    assert rank_letters("fr") == {"A": "A", "J": "V", "Q": "D", "K": "R"}
    assert rank_letters("hu")["K"] == "R"  # as seed 001 writes the king: R♣
    assert rank_letters("hi") == rank_letters("en")


def test_french_puts_its_spaces_before_double_punctuation() -> None:
    """French typography (docs/languages.md): a no-break space before ":" and a narrow one before ";",
    "!" and "?" in every French text (placeholders, addresses and times aside)."""
    import re

    wrong = []
    for path in (path for folder in catalog_folders() for path in folder.glob("fr/LC_MESSAGES/*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle):
                if not message.id:
                    continue  # the header
                strings = [message.string] if isinstance(message.string, str) else list(message.string or ())
                for text in strings:
                    bare = re.sub(r"https?://\S+|\{[^}]*\}|\d:\d", "", text or "")
                    for found in re.finditer(r"(.)([:;!?])", bare):
                        space = "\u00a0" if found.group(2) == ":" else "\u202f"
                        if found.group(1) != space:
                            wrong.append(f"{path.name}: {text[:60]!r}")
    assert wrong == []
