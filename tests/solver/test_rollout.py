"""Rollouts on sampled deals, the fair player's hot loop: the compiled core and its pure-Python twin
give the same counts, bad arguments are refused, and nothing hidden is ever read."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from parlour.tripeaks import CLASSIC, EASY, Deal, DealCode, Game
from parlour.tripeaks.layout import TABLEAU_SIZE
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver import fair_hint, solve
from parlour.tripeaks.solver.hints import preference_order
from parlour.tripeaks.solver.players import chooser, greedy_move
from parlour.tripeaks.solver.rollout import (
    COMPILED_ROLLOUTS,
    DRAW_MOVE,
    POLICIES,
    Seen,
    rollout_core,
    rollouts,
)
from solver.helpers import game_after, replay

RULE_SETS = [
    EASY,
    CLASSIC,
    EASY.with_variants("joker"),
    CLASSIC.with_variants("empty_discard"),
    EASY.with_variants("draw_only_when_stuck"),
    CLASSIC.with_variants("joker", "empty_discard", "open_peaks"),
]


def codes_of(game: Game) -> tuple[Seen, list[int]]:
    seen = Seen.of_game(game)
    return seen, [seen.move_code(game, move) for move in preference_order(game)]


@pytest.mark.skipif(COMPILED_ROLLOUTS is None, reason="the compiled rollout core is not built")
@settings(max_examples=40, deadline=None)
@given(
    number=st.integers(1, 50_000),
    rules=st.sampled_from(RULE_SETS),
    moves=st.integers(0, 30),
    seed=st.integers(0, 2**64 - 1),
    policy=st.sampled_from(POLICIES),
)
def test_core_and_twin_give_the_same_counts(
    number: int, rules: Rules, moves: int, seed: int, policy: str
) -> None:
    game = game_after(number, rules, moves)
    assume(game.status == "playing")  # a finished game has no rollouts to compare
    seen, codes = codes_of(game)
    compiled = rollouts(seen, codes, samples=12, seed=seed, policy=policy, core_name="c")
    python = rollouts(seen, codes, samples=12, seed=seed, policy=policy, core_name="python")
    assert compiled == python
    wins, beats = compiled
    count = len(codes)
    for i in range(count):
        assert 0 <= wins[i] <= 12 and beats[i * count + i] == 0
        for j in range(count):  # wins[i] - wins[j] = (i won, j lost) - (j won, i lost)
            assert wins[i] - wins[j] == beats[i * count + j] - beats[j * count + i]


def test_the_last_card_wins_in_every_sample() -> None:
    game = Game.from_code("TP1-E-AAAAAAB")
    line = solve(game).line
    replay(game, line[:-1])
    seen, codes = codes_of(game)
    wins, _ = rollouts(seen, codes, samples=50, seed=1)
    assert wins[preference_order(game).index(line[-1])] == 50


@pytest.mark.parametrize("name", ["c", "python"])
def test_bad_arguments_are_refused_with_a_reason(name: str) -> None:
    if name == "c" and COMPILED_ROLLOUTS is None:
        pytest.skip("the compiled rollout core is not built")
    _, run = rollout_core(name)
    seen = Seen.of_game(Game.from_code("TP1-E-AAAAAAB"))
    args = (seen.ranks, seen.removed, seen.stock_count, seen.top, seen.unseen, True, False, False)
    with pytest.raises(ValueError, match="do not fill"):
        run(*args[:4], seen.unseen[:-1], *args[5:], bytes([DRAW_MOVE]), 4, 0, 0)
    with pytest.raises(ValueError, match="not a free card"):
        run(*args, bytes([0]), 4, 0, 0)  # a peak top, covered
    with pytest.raises(ValueError, match="out of range"):
        run(*args, bytes([DRAW_MOVE]), 4, 0, 7)  # no such policy
    with pytest.raises(ValueError, match="out of range"):
        run(seen.ranks[:-1], *args[1:], bytes([DRAW_MOVE]), 4, 0, 0)


def test_an_unknown_policy_or_core_is_refused() -> None:
    seen, codes = codes_of(Game.from_code("TP1-E-AAAAAAB"))
    with pytest.raises(ValueError, match="unknown base policy"):
        rollouts(seen, codes, samples=1, seed=0, policy="peek")
    with pytest.raises(ValueError, match="unknown solver core"):
        rollout_core("fortran")


def hidden_twin(number: int, rules: Rules, swaps: int) -> tuple[Game, Game]:
    """A deal and another that differs from it only in cards the player cannot see yet: face-down peak
    cards and stock cards swapped among themselves."""
    deal = Deal.from_code(DealCode(number, rules))
    tableau = list(deal.tableau)
    stock = list(deal.stock)
    hidden = [p for p in range(TABLEAU_SIZE) if p < 18]  # rows 1-3 start face down
    for k in range(swaps):
        a, b = hidden[(k * 7) % len(hidden)], hidden[(k * 11 + 3) % len(hidden)]
        tableau[a], tableau[b] = tableau[b], tableau[a]
        i, j = (k * 5) % len(stock), (k * 13 + 1) % len(stock)
        stock[i], stock[j] = stock[j], stock[i]
    # Mixing a face-down card with a stock card is hidden too.
    tableau[0], stock[-1] = stock[-1], tableau[0]
    other = Deal(tuple(tableau), deal.discard, tuple(stock))
    return Game(deal, rules), Game(other, rules)


@settings(max_examples=25, deadline=None)
@given(number=st.integers(1, 50_000), rules=st.sampled_from([EASY, CLASSIC]), swaps=st.integers(1, 6))
def test_two_deals_that_look_the_same_give_the_same_counts_and_hint(
    number: int, rules: Rules, swaps: int
) -> None:
    one, two = hidden_twin(number, rules, swaps)
    assert Seen.of_game(one) == Seen.of_game(two)
    seen, codes = codes_of(one)
    assert rollouts(seen, codes, samples=30, seed=number) == rollouts(*codes_of(two), samples=30, seed=number)
    assert fair_hint(one, samples=200, seed=number) == fair_hint(two, samples=200, seed=number)


def test_the_fair_and_greedy_players_decide_the_same_on_deals_that_look_the_same() -> None:
    # Both games are played move by move while the player sees the same thing in both: every decision
    # must be the same, until a card turned up differs (then the player may rightly differ).
    for number in (3, 17):
        one, two = hidden_twin(number, EASY, 4)
        choose = chooser("fair", samples=200)
        for _ in range(60):
            if one.status != "playing" or Seen.of_game(one) != Seen.of_game(two):
                break
            assert greedy_move(one) == greedy_move(two)
            move = choose(one)
            assert choose(two) == move
            one.apply(move)
            two.apply(move)
