"""Generator 1 (SplitMix64 + Fisher–Yates): the spec's check value and its invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.cards import DECK, Card, parse_cards
from parlour.deal import DEAL_NUMBER_LIMIT, SplitMix64, shuffle, shuffled_deck


def test_splitmix64_reference_outputs() -> None:
    # Reference values of SplitMix64 seeded with 0 (the published test vector of the algorithm).
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_spec_check_value_for_deal_one() -> None:
    deck = shuffled_deck(1)
    assert deck[18:28] == parse_cards("2♣ A♦ 6♠ K♣ K♥ 10♥ 10♠ J♠ 10♦ 8♠")
    assert deck[28] == Card.parse("Q♣")


def test_uniform_rejects_bad_bounds() -> None:
    with pytest.raises(ValueError, match="positive"):
        SplitMix64(1).uniform(0)


@pytest.mark.parametrize("number", [-1, DEAL_NUMBER_LIMIT])
def test_deal_numbers_out_of_range(number: int) -> None:
    with pytest.raises(ValueError, match="outside"):
        shuffled_deck(number)


@given(st.integers(min_value=0, max_value=DEAL_NUMBER_LIMIT - 1))
def test_every_deal_is_a_permutation_and_repeatable(number: int) -> None:
    deck = shuffled_deck(number)
    assert sorted(deck) == list(DECK)
    assert deck == shuffled_deck(number)


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=1000))
def test_uniform_stays_in_range(seed: int, bound: int) -> None:
    assert 0 <= SplitMix64(seed).uniform(bound) < bound


def test_shuffle_of_other_items() -> None:
    assert sorted(shuffle(range(53), 7)) == list(range(53))
