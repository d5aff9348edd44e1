"""Text at the edge: the spoken board description (the seeds' two descriptions verbatim), reasons, plurals."""

from __future__ import annotations

import importlib

import pytest
from babel.messages.extract import extract
from babel.messages.pofile import read_po

import parlour.tripeaks.texts as i18n_tripeaks
from parlour.i18n import LANGUAGES, catalog_path, gettext_for
from parlour.tripeaks import EASY, Game
from parlour.tripeaks.game import REASON_CODES
from parlour.tripeaks.texts import (
    REASONS,
    cards_count,
    describe,
    no_more_moves,
    reason_text,
    rules_name,
    variant_names,
    won_text,
)
from tripeaks.builders import seed_example_deal

cli_tripeaks = importlib.import_module(
    "parlour.tripeaks.commands.group"
)  # the package attribute is the Click group

SEED_HI_START = (
    "ड्रॉ ढेर: 23 पत्ते; डिस्कार्ड ढेर: चिड़ी का इक्का। शिखरों की चोटियाँ: छिपा पत्ता, छिपा पत्ता, छिपा पत्ता; "
    "पंक्ति 2: छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता; पंक्ति 3: छिपा पत्ता, "
    "छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता; सबसे नीचे "
    "की पंक्ति: हुकुम का 3, हुकुम का 5, चिड़ी का बादशाह, हुकुम का 4, ईंट का 2, हुकुम का इक्का, ईंट का बादशाह, "
    "पान का 8, चिड़ी का 7, हुकुम का 9।"
)
SEED_HI_AFTER = (
    "ड्रॉ ढेर: 23 पत्ते; डिस्कार्ड ढेर: ईंट का 2। शिखरों की चोटियाँ: छिपा पत्ता, छिपा पत्ता, छिपा पत्ता; "
    "पंक्ति 2: छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता; पंक्ति 3: छिपा पत्ता, "
    "छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, हुकुम का 7, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता, छिपा पत्ता; सबसे नीचे "
    "की पंक्ति: हुकुम का 3, हुकुम का 5, हुकुम का 4, ईंट का बादशाह, पान का 8, चिड़ी का 7, हुकुम का 9।"
)
SEED_HU_START = (
    "Húzópakli: 23 lap; dobópakli: treff ász. Csúcslapok: rejtett lap, rejtett lap, rejtett lap; 2. sor: "
    "rejtett lap, rejtett lap, rejtett lap, rejtett lap, rejtett lap, rejtett lap; 3. sor: rejtett lap, "
    "rejtett lap, rejtett lap, rejtett lap, rejtett lap, rejtett lap, rejtett lap, rejtett lap, rejtett lap; "
    "alsó sor: pikk 3, pikk 5, treff király, pikk 4, káró 2, pikk ász, káró király, kőr 8, treff 7, pikk 9."
)
SEED_HU_AFTER = (
    "Húzópakli: 23 lap; dobópakli: káró 2. Csúcslapok: rejtett lap, rejtett lap, rejtett lap; 2. sor: "
    "rejtett lap, rejtett lap, rejtett lap, rejtett lap, rejtett lap, rejtett lap; 3. sor: rejtett lap, "
    "rejtett lap, rejtett lap, rejtett lap, pikk 7, rejtett lap, rejtett lap, rejtett lap, rejtett lap; "
    "alsó sor: pikk 3, pikk 5, pikk 4, káró király, kőr 8, treff 7, pikk 9."
)
EN_AFTER = (
    "Draw pile: 23 cards; discard pile: 2 of diamonds. Peak tops: hidden card, hidden card, hidden card; "
    "row 2: hidden card, hidden card, hidden card, hidden card, hidden card, hidden card; "
    "row 3: hidden card, hidden card, hidden card, hidden card, 7 of spades, hidden card, hidden card, "
    "hidden card, hidden card; bottom row: 3 of spades, 5 of spades, 4 of spades, king of diamonds, "
    "8 of hearts, 7 of clubs, 9 of spades."
)
FR_START = (
    (  # "~" stands for the no-break space French puts before ":", "^" for the narrow one before ";"
        "Pioche~: 23 cartes^; défausse~: as de trèfle. Sommets~: carte cachée, carte cachée, carte cachée^; "
        "rangée 2~: carte cachée, carte cachée, carte cachée, carte cachée, carte cachée, carte cachée^; "
        "rangée 3~: carte cachée, carte cachée, carte cachée, carte cachée, carte cachée, carte cachée, "
        "carte cachée, carte cachée, carte cachée^; rangée du bas~: 3 de pique, 5 de pique, roi de trèfle, "
        "4 de pique, 2 de carreau, as de pique, roi de carreau, 8 de cœur, 7 de trèfle, 9 de pique."
    )
    .replace("~", "\u00a0")
    .replace("^", "\u202f")
)


def seed_states() -> tuple[Game, Game]:
    start = Game(seed_example_deal(), EASY)
    after = Game(seed_example_deal(), EASY)
    for move in ("K♣", "A♠", "2♦"):
        after.apply(move)
    return start, after


@pytest.mark.parametrize(
    ("lang", "start_text", "after_text"),
    [("hi", SEED_HI_START, SEED_HI_AFTER), ("hu", SEED_HU_START, SEED_HU_AFTER)],
)
def test_the_seeds_descriptions_word_for_word(lang: str, start_text: str, after_text: str) -> None:
    start, after = seed_states()
    assert describe(start.to_json(), lang) == start_text
    assert describe(after.to_json(), lang) == after_text


def test_english_and_french_follow_the_same_form() -> None:
    start, after = seed_states()
    assert describe(after.to_json(), "en") == EN_AFTER
    assert describe(start.to_json(), "fr") == FR_START


def test_empty_rows_and_an_empty_discard_pile() -> None:
    game = Game.from_code("TP1-E-AAAAAAB-W")
    assert "discard pile: empty." in describe(game.to_json(), "en")
    assert "dobópakli: üres." in describe(game.to_json(), "hu")
    state = game.to_json()
    for entry in state["tableau"][18:]:
        entry["removed"] = True
    assert describe(state, "en").endswith("bottom row: no cards.")


def test_description_never_names_a_hidden_card() -> None:
    game = Game.from_code("TP1-E-AAAAAAB-O")  # open peaks: every card may be named
    assert "hidden card" not in describe(game.to_json(), "en")
    closed = Game.from_code("TP1-E-AAAAAAB")
    assert describe(closed.to_json(), "en").count("hidden card") == 18
    # even handed the revealed state by mistake, a face-down card stays "hidden card"
    assert describe(closed.to_json(reveal=True), "en") == describe(closed.to_json(), "en")


@pytest.mark.parametrize(
    ("lang", "not_adjacent", "blocked", "stuck"),
    [
        ("en", "Rank must be exactly one higher or lower", "This card is blocked", "No more moves possible"),
        ("hi", "दर्जा ठीक एक अधिक या एक कम होना चाहिए", "यह पत्ता अवरुद्ध है", "अब कोई चाल संभव नहीं"),
        (
            "hu",
            "Eggyel magasabb vagy alacsonyabb értékűnek kell lennie",
            "Ez a lap blokkolva van",
            "Nincs több lehetséges lépés",
        ),
        (
            "fr",
            "La carte doit être exactement d’un rang au-dessus ou au-dessous",
            "Cette carte est bloquée",
            "Plus aucun coup possible",
        ),
    ],
)
def test_error_help_and_stuck_texts(lang: str, not_adjacent: str, blocked: str, stuck: str) -> None:
    assert reason_text("not_adjacent", lang) == not_adjacent
    assert reason_text("blocked", lang) == blocked
    assert no_more_moves(lang) == stuck


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_reason_and_message_is_translated(lang: str) -> None:
    for code in REASON_CODES:
        assert reason_text(code, lang) != reason_text(code, "en")
    assert won_text(772, lang) != won_text(772, "en") and "772" in won_text(772, lang)
    assert rules_name("classic", lang) != "Classic"


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [
        ("en", "1 card", "2 cards"),
        ("hi", "1 पत्ता", "2 पत्ते"),
        ("hu", "1 lap", "2 lap"),
        ("fr", "1 carte", "2 cartes"),
    ],
)
def test_plural_of_the_draw_pile(lang: str, one: str, many: str) -> None:
    assert cards_count(1, lang) == one and cards_count(2, lang) == many


def test_catalog_domain_is_separate() -> None:
    assert gettext_for("hu", "tripeaks", "hidden card") == "rejtett lap"


def test_catalog_holds_exactly_the_messages_the_code_uses() -> None:
    keywords = {"_": (2,), "gettext_for": (3,), "pgettext_for": ((3, "c"), 4), "ngettext_for": (3, 4)}
    used: set[tuple[str | None, str]] = set()
    for module in (i18n_tripeaks, cli_tripeaks):
        with open(module.__file__ or "", "rb") as source:
            for _line, message, _comments, context in extract("python", source, keywords=keywords):
                if isinstance(message, tuple):
                    message = message[0]
                if message:
                    used.add((context, message))
    used |= {(None, text) for text in REASONS.values()} | {(None, cli_tripeaks.HELP)}
    with catalog_path("hu", "tripeaks").open("rb") as handle:
        catalog = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(handle) if m.id}
    assert used == catalog


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        # the seeds' own names of the variants named in the literature
        ("hi", ["खुले शिखर", "खाली डिस्कार्ड ढेर", "जोकर पत्ता"]),
        ("hu", ["felfedett csúcsok", "üres dobópakli", "dzsókerlap"]),
    ],
)
def test_variant_names_are_the_seeds_words(lang: str, names: list[str]) -> None:
    assert variant_names(("open_peaks", "empty_discard", "joker"), lang) == names
