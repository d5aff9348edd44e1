"""Deals: from codes and numbers (variants included), explicit layouts, validation, the JSON view."""

from __future__ import annotations

import pytest

from parlour.cards import DECK, JOKER, Card
from parlour.deal import shuffle, shuffled_deck
from parlour.errors import InvalidCard, InvalidInput
from parlour.tripeaks import EASY, Deal, Game
from tripeaks.builders import seed_example_deal


def test_from_number_follows_the_spec_positions() -> None:
    deck = shuffled_deck(1234)
    deal = Deal.from_number(1234)
    assert list(deal.tableau) == deck[:28] and deal.discard == deck[28] and list(deal.stock) == deck[29:]


def test_empty_discard_puts_24_cards_in_the_stock() -> None:
    deck = shuffled_deck(5)
    deal = Deal.from_number(5, EASY.with_variants("empty_discard"))
    assert deal.discard is None and list(deal.stock) == deck[28:] and len(deal.stock) == 24


def test_joker_deck_is_the_same_generator_over_53_cards() -> None:
    deck = shuffle((*DECK, JOKER), 9)
    deal = Deal.from_number(9, EASY.with_variants("joker"))
    assert list(deal.tableau) == deck[:28] and deal.discard == deck[28] and len(deal.stock) == 24
    assert deal.has_joker and sorted(deck) == [*DECK, JOKER]


def test_from_number_range() -> None:
    with pytest.raises(ValueError, match="outside"):
        Deal.from_number(26**7, EASY.with_variants("joker"))


def test_parse_round_trips_and_reads_an_empty_discard() -> None:
    deal = seed_example_deal()
    assert Deal.parse(deal.to_text()) == deal
    empty = Deal.from_number(3, EASY.with_variants("empty_discard"))
    assert " - " in empty.to_text() and Deal.parse(empty.to_text()) == empty


@pytest.mark.parametrize(
    ("text", "error", "match"),
    [
        ("AC 2C", InvalidInput, "got 2 items"),
        (" ".join(str(c) for c in DECK[:51]) + " AC", InvalidInput, "A♣ twice"),
        (" ".join(str(c) for c in DECK[:51]), InvalidInput, "missing: K♠"),
        (" ".join(str(c) for c in DECK[:51]) + " XX", InvalidCard, "'XX'"),
    ],
)
def test_parse_rejects_what_is_not_a_deck(text: str, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        Deal.parse(text)


def test_player_view_hides_face_down_cards_and_the_stock() -> None:
    game = Game.from_code("TP1-E-AAAAAAB")
    state = game.to_json()
    hidden = {str(card) for card in game.deal.tableau[:18]} | {str(card) for card in game.deal.stock}
    text = repr(state)
    assert not any(f"'{card}'" in text for card in hidden)
    assert [entry["card"] for entry in state["tableau"][:18]] == [None] * 18
    assert state["stock"] == 23 and "stock_cards" not in state
    revealed = game.to_json(reveal=True)
    assert revealed["tableau"][0]["card"] == str(game.deal.tableau[0])
    assert revealed["stock_cards"] == [str(card) for card in game.deal.stock]


def test_json_state_fields() -> None:
    game = Game.from_code("tp1-c-aaaaaab")
    state = game.to_json(rejected=[{"index": 0, "move": "AC", "reason": "blocked"}])
    assert state["code"] == "TP1-C-AAAAAAB" and state["rules"] == "classic" and state["deal_number"] == 1
    assert state["discard"] == ["QC"] and state["status"] == "playing"
    assert state["peaks_cleared"] == [False, False, False] and state["variants"] == []
    assert state["rejected"] == [{"index": 0, "move": "AC", "reason": "blocked"}]
    assert state["tableau"][18] == {"card": "2C", "face_up": True, "removed": False}
    assert Card.parse(state["tableau"][27]["card"]) == Card.parse("8S")
