"""The expert and the ladder: a search player that decides from its own view alone."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from thirteen_helpers import make_view

from parlour.games.thirteen import STRENGTH_NAMES, STRENGTHS
from parlour.thirteen import Match
from parlour.thirteen.bots import BOTS, PLAYERS, ExpertBot, KeeperBot, make_bot
from parlour.thirteen.bots.expert import MAX_CANDIDATES, MAX_SAMPLES, MIN_SAMPLES, round_of
from parlour.thirteen.bots.heuristic import played_cards


def test_the_ladder_runs_beginner_casual_strong_expert() -> None:
    assert list(BOTS) == ["random", "greedy", "heuristic", "expert"] == list(STRENGTHS)
    assert [STRENGTH_NAMES[name] for name in BOTS] == ["Beginner", "Casual", "Strong", "Expert"]
    assert isinstance(make_bot("expert", 3), ExpertBot)


def test_the_expert_goes_out_when_it_can_and_compares_a_few_legal_moves() -> None:
    assert str(ExpertBot().choose(make_view("9S 9C", "8S 8H"))) == "9S 9C"
    view = make_view("3S 4C 5D 7H 7D 9C JD QH 2S", "6S", counts=(9, 10, 11, 12))
    plays = view.legal_plays()
    moves = ExpertBot().candidates(view, plays, view.may_pass)
    assert moves[0] == KeeperBot().choose(view)  # the keeper's move wins ties
    assert 1 < len(moves) <= MAX_CANDIDATES and len(set(moves)) == len(moves)
    assert all(move in view.legal_moves() for move in moves)
    assert ExpertBot(4).choose(view) in moves


def test_the_samples_depend_on_the_view_only_and_stay_in_bounds() -> None:
    early = make_view("3S 4C 5D 7H 7D 9C JD QH 2S 2H KS KH AD", "6S")
    late = make_view("7H 9C", "6S", counts=(2, 1, 3, 2))
    assert MIN_SAMPLES <= ExpertBot.samples(early, 5) < ExpertBot.samples(late, 2) <= MAX_SAMPLES


def test_a_sampled_round_holds_what_the_view_shows() -> None:
    match = Match(8)
    for _ in range(9):
        seat = match.turn
        assert seat is not None
        match.apply(seat, make_bot("heuristic").choose(match.view(seat)))
    seat = match.turn
    assert seat is not None
    view = match.view(seat)
    expert = ExpertBot(1)
    hands = expert.sample_hands(view)
    assert hands[seat] == view.hand_mask
    assert [hand.bit_count() for hand in hands] == list(view.hand_counts)
    assert not any(hands[a] & hands[b] for a in range(4) for b in range(a + 1, 4))
    assert not any(hand & played_cards(view) for hand in hands)  # no played card is dealt again
    state = round_of(view, hands)
    assert (state.turn, state.table_mask, state.finished, state.steps) == (
        view.turn,
        view.table_mask,
        list(view.finished),
        list(view.history),
    )


def swap_hidden(match: Match, seat: int, cards: int) -> Match:
    """A copy of ``match`` in which two other seats still in play swapped ``cards`` cards each: what
    ``seat`` sees is the same, what it cannot see differs."""
    other = match.copy()
    hands = other.round.hands
    others = [s for s in range(4) if s != seat and hands[s] and s not in other.round.finished]
    if len(others) < 2:
        return other
    a, b = others[:2]
    give = [bit for bit in range(52) if hands[a] >> bit & 1][:cards]
    take = [bit for bit in range(52) if hands[b] >> bit & 1][:cards]
    for x, y in zip(give, take, strict=False):
        hands[a] ^= 1 << x | 1 << y
        hands[b] ^= 1 << x | 1 << y
    return other


@settings(max_examples=12, deadline=None)
@given(number=st.integers(1, 10**6), moves=st.integers(0, 30), cards=st.integers(1, 4))
def test_deals_that_differ_only_in_hidden_cards_give_every_player_the_same_decision(
    number: int, moves: int, cards: int
) -> None:
    match = Match(number)
    for _ in range(moves):
        seat = match.turn
        if seat is None:
            return
        match.apply(seat, make_bot("keeper").choose(match.view(seat)))
    seat = match.turn
    if seat is None:
        return
    other = swap_hidden(match, seat, cards)
    if [hand for s, hand in enumerate(other.round.hands) if s != seat] == [
        hand for s, hand in enumerate(match.round.hands) if s != seat
    ]:
        return  # fewer than two other hands are left to differ
    assert match.view(seat) == other.view(seat)
    for name in PLAYERS:
        assert make_bot(name, number).choose(match.view(seat)) == make_bot(name, number).choose(
            other.view(seat)
        )
