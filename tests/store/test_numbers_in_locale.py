"""Numbers and punctuation as each language writes them (issue 48): decimal commas and spaced
thousands in French and Hungarian, lakh grouping in Hindi, the French space before a colon, and card
names with their article where a sentence needs one ("jouez le 4 de trèfle")."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from parlour.cards import Card
from parlour.i18n import decimal, labelled, percent
from parlour.i18n.cards import card_name
from parlour.server.app import create_app
from parlour.store import Store

from .lines import code_of, stuck_line, winning_line
from .test_pages import finish, me

NBSP, NNBSP = "\u00a0", "\u202f"


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("lang", "share", "whole", "points", "thousands"),
    [
        ("en", "12.5%", "50%", "-1.75", "1,000,000"),
        ("fr", f"12,5{NBSP}%", f"50{NBSP}%", "-1,75", f"1{NNBSP}000{NNBSP}000"),
        ("hu", "12,5%", "50%", "-1,75", f"1{NBSP}000{NBSP}000"),
        ("hi", "12.5%", "50%", "-1.75", "10,00,000"),
    ],
)
def test_figures_follow_the_language(lang: str, share: str, whole: str, points: str, thousands: str) -> None:
    assert percent(0.125, lang) == share
    assert percent(0.5, lang, digits=0) == whole
    assert decimal(-1.75, lang, digits=2) == points
    assert decimal(1_000_000, lang, digits=0) == thousands


def test_a_label_is_punctuated_as_its_language_does() -> None:
    assert labelled("Score", "en") == "Score:"
    assert labelled("Défi", "fr") == f"Défi{NBSP}:"
    assert labelled("Pontszám", "hu") == "Pontszám:"


@pytest.mark.parametrize(
    ("card", "lang", "name"),
    [
        ("4C", "en", "the 4 of clubs"),
        ("4C", "fr", "le 4 de trèfle"),
        ("AS", "fr", "l’as de pique"),
        ("QH", "fr", "la dame de cœur"),
        ("KD", "hu", "a káró király"),
        ("QH", "hi", "पान की बेगम"),
    ],
)
def test_a_card_named_in_a_sentence_has_its_article(card: str, lang: str, name: str) -> None:
    assert card_name(Card.parse(card), lang, definite=True) == name


def test_french_catalogs_space_their_punctuation() -> None:
    """French puts a no-break space before ``:`` and a narrow one before ``;`` ``!`` ``?``, so the sign never
    starts a line; a plain space there is the typo this scan finds."""
    from babel.messages.pofile import read_po

    from parlour.i18n import catalog_folders

    bad = re.compile(r"[^\s\u00a0\u202f/]:(?![/\d])| [:;!?]|[^\s\u00a0\u202f][;!?»]")
    for path in sorted(
        path for folder in catalog_folders() for path in (folder / "fr" / "LC_MESSAGES").glob("*.po")
    ):
        with path.open("rb") as handle:
            catalog = read_po(handle)
        for message in catalog:
            if not message.id:
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in strings:
                assert isinstance(text, str)
                without_urls = re.sub(r"https?://\S+", "", text)
                assert not bad.search(without_urls), (path.name, text)


def page_text(page: str) -> str:
    main = re.search(r"<main.*?</main>", page, re.S)
    assert main is not None
    return re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", " ", main.group(0), flags=re.S))


@pytest.mark.parametrize(
    ("lang", "rate", "average", "count"),
    [
        ("en", "50%", r"\d+\.\d", "50,000"),
        ("fr", f"50{NBSP}%", r"\d+,\d", f"50{NNBSP}000"),
        ("hu", "50%", r"\d+,\d", f"50{NBSP}000"),
        ("hi", "50%", r"\d+\.\d", "50,000"),
    ],
)
def test_pages_write_figures_in_the_players_language(
    client: TestClient, store: Store, lang: str, rate: str, average: str, count: str
) -> None:
    player_id = me(client, store)
    finish(store, player_id, 2, winning_line(code_of(2)) or ())
    finish(store, player_id, 4, stuck_line(code_of(4)))
    headers = {"Accept-Language": lang}
    stats = page_text(client.get("/stats", headers=headers).text)
    assert rate in stats
    assert re.search(average, stats), stats[:400]  # the average moves of wins, with one decimal
    if lang in ("fr", "hu"):
        assert not re.search(r"\d\.\d", stats), stats[:400]
    numbered = page_text(client.get("/tripeaks/numbered", headers=headers).text)
    assert count in numbered
    daily = client.get("/tripeaks/daily", headers=headers).text
    heading = re.search(r"<h1>(.*?)</h1>", daily, re.S)
    assert heading is not None
    assert (f"{NBSP}: " in heading.group(1)) == (lang == "fr"), heading.group(1)
