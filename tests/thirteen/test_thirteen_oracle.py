"""The combination rules checked against a second, deliberately plain reading of the spec: cards as
(rank, suit) pairs, no bitmasks. ``judge`` and the engine must agree with it on any table and play."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.cards import DECK, Card
from parlour.thirteen.combos import shape_of
from parlour.thirteen.commands.group import judge_play
from parlour.thirteen.moves import legal_plays
from parlour.thirteen.order import mask_of
from parlour.thirteen.rules import Rules
from parlour.thirteen.select import Selection, judge_selection

RANKS = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"]
SUITS = ["S", "C", "D", "H"]


def value(card: Card) -> tuple[int, int]:
    text = str(card)
    return RANKS.index(text[0]), SUITS.index(text[1])


def plain_classify(cards: list[Card]) -> tuple[str, int, tuple[int, int]] | None:
    """The spec, read literally."""
    if not cards or len(set(cards)) != len(cards):
        return None
    values = sorted(value(card) for card in cards)
    ranks = [rank for rank, _ in values]
    top = values[-1]
    names = {1: "single", 2: "pair", 3: "triple", 4: "quad"}
    if len(set(ranks)) == 1:
        return names[len(cards)], len(cards), top
    distinct = sorted(set(ranks))
    consecutive = distinct == list(range(distinct[0], distinct[0] + len(distinct)))
    no_two = 12 not in distinct
    if consecutive and no_two and len(distinct) >= 3:
        if all(ranks.count(rank) == 1 for rank in distinct):
            return "sequence", len(cards), top
        if all(ranks.count(rank) == 2 for rank in distinct):
            return "double_sequence", len(cards), top
    return None


def plain_beats(
    play: tuple[str, int, tuple[int, int]], table: tuple[str, int, tuple[int, int]] | None
) -> bool:
    if table is None:
        return True
    if (play[0], play[1]) == (table[0], table[1]):
        return play[2] > table[2]
    twos = table[1] if table[2][0] == 12 and table[0] in ("single", "pair", "triple") else 0
    pairs = play[1] // 2 if play[0] == "double_sequence" else 0
    if twos == 1:
        return play[0] == "quad" or pairs >= 3
    if twos == 2:
        return pairs >= 4
    if twos == 3:
        return pairs >= 5
    return False


def biased_cards(draw: st.DrawFn) -> list[Card]:
    """Mostly near-combinations: a run of ranks with one to four cards each, sometimes random cards."""
    if draw(st.booleans()):
        return draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=10, unique=True))
    start = draw(st.integers(0, 12))
    length = draw(st.integers(1, 6))
    per_rank = draw(st.integers(1, 4))
    cards = []
    for rank in range(start, min(13, start + length)):
        suits = draw(st.permutations(SUITS))[:per_rank]
        cards += [Card.parse(RANKS[rank] + suit) for suit in suits]
    return cards


cards_strategy = st.composite(biased_cards)()


@settings(max_examples=400, deadline=None)
@given(cards_strategy, cards_strategy, st.booleans())
def test_judge_agrees_with_the_plain_reading(table: list[Card], play: list[Card], empty: bool) -> None:
    table = [] if empty else [card for card in table if card not in play]
    answer = judge_play(table, play, Rules())
    expected_play = plain_classify(play)
    expected_table = plain_classify(table) if table else None
    for got, want in ((answer["play"], expected_play), (answer["table"], expected_table)):
        if want is None:
            assert got is None
        else:
            assert got is not None
            assert (got["kind"], got["length"]) == want[:2]
            assert value(Card.parse(got["top"])) == want[2]
    if table and expected_table is None:
        assert answer == {**answer, "legal": False, "reason": "table_not_a_combination"}
    elif expected_play is None:
        assert answer["legal"] is False and answer["reason"] == "not_a_combination"
    else:
        legal = plain_beats(expected_play, expected_table)
        assert answer["legal"] is legal
        assert answer["reason"] == (None if legal else "does_not_beat")


@settings(max_examples=200, deadline=None)
@given(cards_strategy, cards_strategy, st.booleans())
def test_selection_rule_consistency(hand_cards: list[Card], table_cards: list[Card], empty: bool) -> None:
    hand = mask_of(hand_cards[:10])
    table_mask = mask_of(table_cards) & ~hand
    table = None if empty else shape_of(table_mask)
    plays = legal_plays(hand, table)
    for play in plays:
        answer = judge_selection(hand, play, table)
        bigger = any(other != play and other & play == play for other in plays)
        assert answer is (Selection.WAIT if bigger else Selection.PLAY_NOW)
    if hand and hand not in plays:
        assert judge_selection(hand, hand, table) is Selection.NOT_PLAYABLE
