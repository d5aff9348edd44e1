"""Combinations: every kind, every rejection, comparison by top card, every bomb case of the spec."""

from __future__ import annotations

import pytest
from thirteen_helpers import m

from parlour.cards import Card, parse_cards
from parlour.thirteen.combos import Combo, beats, classify, shape_beats, shape_of
from parlour.thirteen.order import BY_STRENGTH, strength
from parlour.thirteen.rules import Rules


def combo(text: str) -> Combo:
    found = classify(parse_cards(text))
    assert found is not None, text
    return found


@pytest.mark.parametrize(
    ("cards", "kind", "length", "top"),
    [
        ("7D", "single", 1, "7D"),
        ("2H", "single", 1, "2H"),
        ("5S 5H", "pair", 2, "5H"),
        ("2S 2C", "pair", 2, "2C"),
        ("9S 9C 9H", "triple", 3, "9H"),
        ("KS KC KD KH", "quad", 4, "KH"),
        ("3S 4S 5S", "sequence", 3, "5S"),
        ("4H 5S 6C", "sequence", 3, "6C"),
        ("TH JS QD KC AS", "sequence", 5, "AS"),
        ("3C 4D 5H 6S 7C 8D 9H TS JC QD KH AS", "sequence", 12, "AS"),
        ("3S 3C 4D 4H 5S 5H", "double_sequence", 6, "5H"),
        ("QS QH KS KD AS AC", "double_sequence", 6, "AC"),
        ("6S 6H 7S 7H 8S 8H 9C 9D", "double_sequence", 8, "9D"),
    ],
)
def test_every_kind(cards: str, kind: str, length: int, top: str) -> None:
    assert classify(parse_cards(cards)) == Combo(kind, length, Card.parse(top))


@pytest.mark.parametrize(
    "cards",
    [
        "",
        "5S 6S",  # two ranks, two cards: neither pair nor sequence
        "5S 5H 6S",
        "5S 7S 8S",  # a gap
        "QS KS AS 2S",  # 2 never in a sequence
        "KS AS 2S",
        "2S 3S 4S",  # no wrapping round
        "3S 3C 4S 4C",  # two pairs are not a double sequence
        "3S 3C 4S 4C 5S",
        "3S 3C 3D 4S 4C 4D 5S 5C 5D",  # triples in a row are nothing
        "KS KC AS AC 2S 2C",  # 2 never in a double sequence
        "3S 3C 4S 4C 6S 6C",
    ],
)
def test_rejections(cards: str) -> None:
    assert classify(parse_cards(cards)) is None


def test_a_repeated_card_is_no_combination() -> None:
    assert classify([Card.parse("5S"), Card.parse("5S")]) is None


def test_card_order_ranks_then_suits() -> None:
    assert str(BY_STRENGTH[0]) == "3S" and str(BY_STRENGTH[-1]) == "2H"
    assert strength(Card.parse("5S")) > strength(Card.parse("4H"))  # rank first
    order = [strength(Card.parse(text)) for text in ("5S", "5C", "5D", "5H")]
    assert order == sorted(order)  # ♠ < ♣ < ♦ < ♥
    ranks = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"]
    assert [strength(Card.parse(r + "S")) for r in ranks] == sorted(
        strength(Card.parse(r + "S")) for r in ranks
    )


@pytest.mark.parametrize(
    ("play", "table", "expected"),
    [
        ("5S", "4H", True),  # the spec: 5♠ beats 4♥
        ("5H", "5S", True),
        ("5S", "5H", False),
        ("5S", "5S 5C", False),  # another kind
        ("5H 5C", "5D 5S", True),  # the seed: C5 H5 beats D5 S5 because H5 > D5
        ("5D 5S", "5H 5C", False),
        ("6S 6C", "5S 5H", True),
        ("5C 6H 7D", "5D 6D 7C", True),  # the seed: D7 > C7
        ("6S 7S 8S", "5D 6D 7C", True),
        ("6S 7S 8S 9S", "5D 6D 7C", False),  # sequences must have the same length
        ("4S 5S 6S", "5D 6D 7C", False),
        ("8S 8C 8D", "7S 7C 7H", True),
        ("8S 8C 8D 8H", "7S 7C 7D 7H", True),
        ("4S 4C 5S 5C 6S 6C", "3S 3C 4D 4H 5D 5H", True),
        ("3S 3C 4S 4C 5S 5C", "3D 3H 4D 4H 5D 5H", False),
        ("2H", "2D", True),
        ("AS", "2S", False),
    ],
)
def test_same_kind_beats_by_top_card(play: str, table: str, expected: bool) -> None:
    assert beats(combo(play), combo(table)) is expected


def test_anything_goes_on_an_empty_table() -> None:
    for cards in ("3S", "2H 2D", "3S 4S 5S", "3S 3C 4S 4C 5S 5C", "KS KC KD KH"):
        assert beats(combo(cards), None)


QUAD = "6S 6C 6D 6H"
DSEQ3 = "3S 3C 4S 4C 5S 5C"
DSEQ4 = "3S 3C 4S 4C 5S 5C 6S 6C"
DSEQ5 = "3S 3C 4S 4C 5S 5C 6S 6C 7S 7C"


@pytest.mark.parametrize(
    ("play", "table", "expected"),
    [
        # a single 2
        (QUAD, "2S", True),
        (DSEQ3, "2H", True),
        (DSEQ4, "2H", True),
        (DSEQ5, "2H", True),
        ("3S 4S 5S", "2H", False),
        ("AS AH", "2H", False),
        ("3S 3C 3D", "2H", False),
        # a pair of 2s
        (DSEQ3, "2S 2H", False),
        (DSEQ4, "2S 2H", True),
        (DSEQ5, "2S 2H", True),
        (QUAD, "2S 2H", False),
        # three 2s
        (DSEQ4, "2S 2C 2H", False),
        (DSEQ5, "2S 2C 2H", True),
        (QUAD, "2S 2C 2H", False),
        # bombs only beat 2s
        (QUAD, "AS", False),
        (QUAD, "AS AH", False),
        (DSEQ3, "KH", False),
        (QUAD, "3S 4S 5S", False),
        (DSEQ4, "5S 5H 6S 6H 7S 7H", False),  # a longer double sequence is another length
        # bomb on bomb of the same type
        ("7S 7C 7D 7H", QUAD, True),
        ("5S 5C 5D 5H", QUAD, False),
        ("4S 4C 5S 5C 6S 6C", DSEQ3, True),
        (DSEQ4, QUAD, False),  # not a quad: house rule only
        (QUAD, DSEQ3, False),
        # nothing beats four 2s
        (DSEQ5, "2S 2C 2D 2H", False),
    ],
)
def test_bombs(play: str, table: str, expected: bool) -> None:
    assert beats(combo(play), combo(table)) is expected


def test_house_rules_for_bombs() -> None:
    both = Rules(quad_beats_pair_of_twos=True, double_sequence_beats_quad=True)
    assert beats(combo(QUAD), combo("2S 2H"), both)
    assert not beats(combo(QUAD), combo("2S 2C 2H"), both)
    assert beats(combo(DSEQ4), combo(QUAD), both)
    assert not beats(combo(DSEQ3), combo(QUAD), both)
    assert not beats(combo(DSEQ4), combo(QUAD))


def test_shapes_agree_with_combos() -> None:
    for cards in ("5S 5H", DSEQ4, QUAD, "3S 4S 5S"):
        shape = shape_of(m(cards))
        assert shape == combo(cards).shape
        assert shape is not None and shape_beats(shape, None)


def test_combo_json() -> None:
    assert combo("5S 5H").to_json() == {"kind": "pair", "length": 2, "top": "5H"}
