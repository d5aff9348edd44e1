"""The expert and the ladder: a search player that decides from its own view alone."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from thirteen_helpers import make_view

from parlour.deal import SplitMix64
from parlour.thirteen import Match
from parlour.thirteen.bots import BOTS, PLAYERS, ExpertBot, KeeperBot, SamplerBot, make_bot
from parlour.thirteen.bots.expert import MAX_CANDIDATES, MAX_SAMPLES, MIN_SAMPLES
from parlour.thirteen.bots.search import (
    MODELS,
    OWN_POLICIES,
    Position,
    choose_search_core,
    evaluate,
    misses,
    round_of,
    sample_hands,
)
from parlour.thirteen.definition import STRENGTH_NAMES, STRENGTHS
from parlour.thirteen.observation import cards_played
from parlour.thirteen.rules import Rules

COMPILED = choose_search_core()[0] == "c"
MODEL_NAMES = [model.name for model in MODELS]
RULE_SETS = [
    Rules(),
    Rules(bomb_after_pass=True),
    Rules(quad_beats_pair_of_twos=True, double_sequence_beats_quad=True),
    Rules(instant_wins=True, three_of_spades_opens=False),
    Rules(
        bomb_after_pass=True, quad_beats_pair_of_twos=True, double_sequence_beats_quad=True, instant_wins=True
    ),
]


def test_the_ladder_runs_beginner_casual_strong_expert() -> None:
    assert list(BOTS) == ["random", "greedy", "strong", "expert"] == list(STRENGTHS)
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


@pytest.mark.parametrize("core", ["c", "python"])
def test_the_samples_depend_on_the_view_only_and_stay_in_bounds(core: str) -> None:
    early = make_view("3S 4C 5D 7H 7D 9C JD QH 2S 2H KS KH AD", "6S")
    late = make_view("7H 9C", "6S", counts=(2, 1, 3, 2))
    low, high = MIN_SAMPLES[core], MAX_SAMPLES[core]
    assert low <= ExpertBot.samples(early, 5, core) < ExpertBot.samples(late, 2, core) <= high


def test_a_sampled_round_holds_what_the_view_shows() -> None:
    match = Match(8)
    for _ in range(9):
        seat = match.turn
        assert seat is not None
        match.apply(seat, make_bot("heuristic").choose(match.view(seat)))
    seat = match.turn
    assert seat is not None
    view = match.view(seat)
    position = Position.of_view(view)
    hands = sample_hands(position, SplitMix64(1))
    assert hands[seat] == view.hand_mask
    assert [hand.bit_count() for hand in hands] == list(view.hand_counts)
    assert not any(hands[a] & hands[b] for a in range(4) for b in range(a + 1, 4))
    assert not any(hand & cards_played(view.history) for hand in hands)  # no played card is dealt again
    state = round_of(position, hands)
    assert (state.turn, state.table_mask, state.table_shape, state.finished) == (
        view.turn,
        view.table_mask,
        view.table_shape,
        list(view.finished),
    )
    assert [(step.seat, step.mask) for step in state.steps] == [
        (step.seat, step.mask) for step in view.history
    ]


def played_to_a_choice(number: int, rules: Rules, moves: int, players: str = "mixed") -> Match | None:
    """Match ``number`` after up to ``moves`` moves by computer players, stopped where the seat to move
    has a real choice (a play and something else); None when none came."""
    match = Match(number, rules)
    rng = random.Random(number)
    names = ["heuristic", "keeper", "greedy", "random"] if players == "mixed" else [players]
    made = 0
    while True:
        seat = match.turn
        if seat is None:
            return None
        view = match.view(seat)
        if made >= moves and len(view.legal_moves()) > 1 and match.round.number == view.round:
            return match
        match.push(make_bot(rng.choice(names), made).choose(view))
        made += 1
        if made > moves + 60:
            return None


@pytest.mark.skipif(not COMPILED, reason="the compiled search core is not built")
@settings(max_examples=30, deadline=None)
@given(
    number=st.integers(0, 10**6),
    rules=st.sampled_from(RULE_SETS),
    moves=st.integers(0, 45),
    samples=st.integers(1, 3),
    extra=st.integers(0, 4),
    seed=st.integers(0, 2**64 - 1),
    own=st.sampled_from(sorted(OWN_POLICIES)),
)
def test_the_compiled_search_and_its_twin_give_the_same_totals(
    number: int, rules: Rules, moves: int, samples: int, extra: int, seed: int, own: str
) -> None:
    match = played_to_a_choice(number, rules, moves)
    assume(match is not None)  # the deal came to no choice in time
    assert match is not None
    seat = match.turn
    assert seat is not None
    view = match.view(seat)
    moves_now = [move.mask for move in view.legal_moves()][:6]
    position = Position.of_view(view)
    compiled = evaluate(position, moves_now, samples, samples + extra, seed, core="c", own=own)
    twin = evaluate(position, moves_now, samples, samples + extra, seed, core="python", own=own)
    assert compiled == twin
    assert all(0 <= total <= 3 * samples for total in compiled.totals)
    assert compiled.models[seat] is None and all(model in MODEL_NAMES for model in compiled.models if model)


@settings(max_examples=15, deadline=None)
@given(number=st.integers(0, 10**6), rules=st.sampled_from(RULE_SETS), moves=st.integers(1, 60))
def test_the_true_hands_explain_every_move_of_heuristic_players(
    number: int, rules: Rules, moves: int
) -> None:
    """The inference counts the others' moves each model would not have made; at a table of heuristic
    players the real hands miss none of the heuristic's, and the search then models every seat so."""
    match = played_to_a_choice(number, rules, moves, players="heuristic")
    assume(match is not None)  # the deal came to no choice in time
    assert match is not None
    seat = match.turn
    assert seat is not None
    position = Position.of_view(match.view(seat))
    found = misses(position, match.round.hands)
    assert all(found[other][0] == 0 for other in range(4))  # the heuristic, the first model
    assert found[seat] == [0] * len(MODELS)  # the expert's own moves are never counted


def test_the_search_refuses_arguments_out_of_range() -> None:
    position = Position.of_view(make_view("3S 4C 5D", "", counts=(3, 13, 13, 13), played=""))
    with pytest.raises(ValueError, match="candidates"):
        evaluate(position, [], 1, 1, 0)
    with pytest.raises(ValueError, match="draws"):
        evaluate(position, [1], 4, 2, 0)
    with pytest.raises(ValueError, match="plays itself out"):
        evaluate(position, [1], 1, 1, 0, own="greedy")
    if COMPILED:
        from parlour.thirteen.bots import _search  # type: ignore[attr-defined]

        arguments = [0, position.hand, [3, 13, 13, 13], 0, 0, -1, 0, [], 0, 0, [], [], False, [1], 1, 1, 0, 1]
        assert _search.evaluate(*arguments) == [0, -1, 0, 0, 0]  # one total, then the seats' models
        assert _search.evaluate(*arguments[:-1]) == [0, -1, 0, 0, 0]  # the keeper unless told
        for at, bad in (
            (2, [3, 13, 13, 14]),
            (13, [1 << 40]),
            (10, [9]),
            (1, 1 << 60),
            (3, 1),
            (15, 0),
            (9, 8),
            (17, 2),
        ):
            broken = list(arguments)
            broken[at] = bad
            if at == 10:
                broken[11] = [0]
            with pytest.raises(ValueError):
                _search.evaluate(*broken)


@pytest.mark.skipif(not COMPILED, reason="the compiled search core is not built")
def test_the_same_seed_gives_the_same_totals_and_the_inference_changes_the_deals_kept() -> None:
    match = played_to_a_choice(11, Rules(), 20, players="heuristic")
    assert match is not None
    seat = match.turn
    assert seat is not None
    position = Position.of_view(match.view(seat))
    moves_now = [move.mask for move in match.view(seat).legal_moves()][:5]
    first = evaluate(position, moves_now, 64, 256, 99)
    assert first == evaluate(position, moves_now, 64, 256, 99)
    assert sum(first.totals) > 0
    assert first.models == tuple(None if other == seat else "heuristic" for other in range(4))


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
        assume(seat is not None)  # the match ended before the moves ran out
        assert seat is not None
        match.apply(seat, make_bot("keeper").choose(match.view(seat)))
    seat = match.turn
    assume(seat is not None)
    assert seat is not None
    other = swap_hidden(match, seat, cards)
    # Fewer than two other hands left to differ: nothing to compare.
    assume(
        [hand for s, hand in enumerate(other.round.hands) if s != seat]
        != [hand for s, hand in enumerate(match.round.hands) if s != seat]
    )
    assert match.view(seat) == other.view(seat)
    for name in PLAYERS:
        assert make_bot(name, number).choose(match.view(seat)) == make_bot(name, number).choose(
            other.view(seat)
        )


@pytest.mark.skipif(not COMPILED, reason="the compiled search core is not built")
@settings(max_examples=200, deadline=None)
@given(
    me=st.integers(0, 3),
    order=st.permutations(range(52)),
    steps=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), max_size=12),
    counts=st.lists(st.integers(0, 13), min_size=4, max_size=4),
    table=st.integers(0, (1 << 52) - 1),
    owner=st.integers(-1, 3),
    passed=st.integers(0, 15),
    finished=st.lists(st.integers(0, 3), max_size=4),
    candidates=st.lists(st.integers(0, (1 << 52) - 1), min_size=1, max_size=4),
    rules=st.integers(0, 7),
)
def test_the_compiled_core_answers_or_refuses_any_arguments_and_never_crashes(
    me: int,
    order: list[int],
    steps: list[tuple[int, int]],
    counts: list[int],
    table: int,
    owner: int,
    passed: int,
    finished: list[int],
    candidates: list[int],
    rules: int,
) -> None:
    """Positions no game reaches (moves out of turn, seats out twice, a table nobody played) never come
    from the engine's views, but the core must stay memory-safe whatever it is given: an answer or a
    ValueError. The history's cards are distinct, as any history's are."""
    from parlour.thirteen.bots import _search  # type: ignore[attr-defined]  # (a C extension)

    cards = iter(order)
    seats, masks = [], []
    for seat, size in steps:
        seats.append(seat)
        masks.append(sum(1 << next(cards) for _ in range(size)))
    hand = sum(1 << next(cards) for _ in range(min(counts[me], 52 - sum(size for _, size in steps))))
    counts[me] = hand.bit_count()
    arguments = (me, hand, counts, me, table, owner, passed, finished, 0, rules, seats, masks, True)
    try:
        answer = _search.evaluate(*arguments, [c & hand for c in candidates], 2, 6, 1)
    except ValueError:
        return
    totals, models = answer[: len(candidates)], answer[len(candidates) :]
    assert all(0 <= total <= 6 for total in totals) and len(models) == 4 and models[me] == -1


@pytest.mark.skipif(not COMPILED, reason="the compiled search core is not built")
@settings(max_examples=10, deadline=None)
@given(number=st.integers(1, 10**6), moves=st.integers(0, 25))
def test_the_sampler_makes_the_same_move_with_either_search_core(number: int, moves: int) -> None:
    match = played_to_a_choice(number, Rules(), moves, players="keeper")
    assume(match is not None)
    assert match is not None
    seat = match.turn
    assert seat is not None
    view = match.view(seat)
    compiled, twin = SamplerBot(number, core="c"), SamplerBot(number, core="python")
    move = compiled.choose(view)
    assert move == twin.choose(view) and move in view.legal_moves()


def test_the_sampler_goes_out_when_it_can_and_its_seed_decides_the_rest() -> None:
    assert str(SamplerBot().choose(make_view("9S 9C", "8S 8H"))) == "9S 9C"
    view = make_view("3S 4C 7H 9D JC KD 2S", "5S", counts=(7, 10, 11, 12))
    assert SamplerBot(1).choose(view) == SamplerBot(1).choose(view)
    assert SamplerBot(1).choose(view) in view.legal_moves()
