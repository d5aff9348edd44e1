"""Card notation: every accepted spelling, both output forms, and precise errors."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.cards import DECK, JOKER, Card, Suit, parse_cards
from parlour.errors import InvalidCard, InvalidInput


@pytest.mark.parametrize("text", ["KC", "Kc", "kc", "K♣", " K♣ ", "k♧"])
def test_king_of_clubs_spellings(text: str) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (13, Suit.CLUBS)
    assert str(card) == "KC"
    assert card.pretty() == "K♣"


@pytest.mark.parametrize("text", ["10C", "TC", "10♣", "tc", "10c"])
def test_ten_spellings(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == "TC"
    assert card.pretty() == "10♣"


def test_index_is_the_tp1_base_order() -> None:
    assert [str(c) for c in DECK[:13]] == [
        "AC",
        "2C",
        "3C",
        "4C",
        "5C",
        "6C",
        "7C",
        "8C",
        "9C",
        "TC",
        "JC",
        "QC",
        "KC",
    ]
    assert str(DECK[13]) == "AD" and str(DECK[26]) == "AH" and str(DECK[51]) == "KS"
    assert all(card.index == i for i, card in enumerate(DECK))


@pytest.mark.parametrize(
    "text", ["", "K", "1C", "11C", "KX", "KCC", "C", "♣K", "0S", "10", "AKC", "XX", "JOKE"]
)
def test_bad_cards_are_rejected_with_the_input_quoted(text: str) -> None:
    with pytest.raises(InvalidCard) as caught:
        Card.parse(text)
    assert repr(text) in str(caught.value)
    assert "a card is a rank" in str(caught.value)
    assert isinstance(caught.value, InvalidInput) and isinstance(caught.value, ValueError)
    assert caught.value.code == "invalid_card"


def test_non_text_is_rejected() -> None:
    with pytest.raises(InvalidCard):
        Card.parse(12)  # type: ignore[arg-type]


def test_joker() -> None:
    assert Card.parse("JK") is JOKER and Card.parse("joker") is JOKER
    assert str(JOKER) == "JK" and JOKER.is_joker and JOKER.suit is None
    assert not DECK[0].is_joker


def test_interning_pickle_and_repr() -> None:
    card = Card.parse("QH")
    assert Card.from_index(card.index) is card
    assert Card.of(12, Suit.HEARTS) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert eval(repr(card)) is card


def test_out_of_range_constructors() -> None:
    with pytest.raises(InvalidCard):
        Card.from_index(53)
    with pytest.raises(InvalidCard):
        Card.of(14, Suit.SPADES)


def test_parse_cards() -> None:
    assert [str(c) for c in parse_cards("5S 5H,10♦  K♣")] == ["5S", "5H", "TD", "KC"]
    with pytest.raises(InvalidCard, match="'5Z'"):
        parse_cards("5S 5Z")


@given(st.sampled_from([*DECK, JOKER]))
def test_both_forms_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(card.pretty()) is card
    assert Card.parse(str(card).lower()) is card
