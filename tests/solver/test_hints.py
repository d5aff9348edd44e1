"""Fair hints: legal, reproducible, and blind to the cards the player cannot see."""

from __future__ import annotations

import pytest

from parlour.errors import GameOver
from parlour.tripeaks import EASY, Deal, DealCode, Game
from parlour.tripeaks.layout import COVERED_BY, TABLEAU_SIZE
from parlour.tripeaks.solver import fair_hint, solve
from parlour.tripeaks.solver.hints import sample_position, unseen_cards
from parlour.tripeaks.solver.players import greedy_move, play
from solver.helpers import game_after, replay


def test_a_hint_is_a_legal_move_with_a_chance_and_is_reproducible() -> None:
    game = game_after(3, EASY, 6)
    first = fair_hint(game, samples=8, seed=7)
    assert first.move in game.legal_actions()
    assert 0.0 <= first.chance <= 1.0
    assert first.chance == max(first.chances.values())
    assert set(first.chances) == set(game.legal_actions())
    assert fair_hint(game, samples=8, seed=7) == first


def test_the_hint_ignores_what_the_player_cannot_see() -> None:
    # Two deals that differ only in two face-down peak tops and two stock cards look the same to the
    # player, so the fair hint must be the same.
    deal = Deal.from_code(DealCode(11, EASY))
    tableau = list(deal.tableau)
    tableau[0], tableau[1] = tableau[1], tableau[0]
    stock = list(deal.stock)
    stock[3], stock[9] = stock[9], stock[3]
    other = Deal(tuple(tableau), deal.discard, tuple(stock))
    one, two = Game(deal, EASY), Game(other, EASY)
    for _ in range(4):
        move = greedy_move(one)
        one.apply(move)
        two.apply(move)
    assert [one.visible_card(p) for p in range(TABLEAU_SIZE)] == [two.visible_card(p) for p in range(28)]
    assert fair_hint(one, samples=6, seed=3) == fair_hint(two, samples=6, seed=3)


def test_samples_keep_every_seen_card_and_deal_the_unseen_ones() -> None:
    game = game_after(5, EASY, 8)
    import random

    sample = sample_position(game, random.Random(1))
    hidden = [p for p in range(TABLEAU_SIZE) if not game.face_up(p)]
    assert hidden and all(COVERED_BY[p] for p in hidden)
    for p in range(TABLEAU_SIZE):
        if game.face_up(p):
            assert sample.tableau[p] is game.card_at(p)
    dealt = sorted([sample.tableau[p] for p in hidden] + list(sample.stock))
    assert dealt == sorted(unseen_cards(game))
    assert len(sample.stock) == game.stock_count


def test_a_finished_game_has_no_hint() -> None:
    game = Game.from_code("TP1-E-AAAAAAB")
    replay(game, solve(game).line)
    with pytest.raises(GameOver):
        fair_hint(game, samples=2)


def test_the_greedy_player_plays_a_game_to_its_end() -> None:
    played = play(Game.from_code("TP1-C-AAAAAAC"), greedy_move)
    assert played.moves > 0
    assert played.won == (played.left == 0)
