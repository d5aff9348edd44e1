"""Fair hints: legal, reproducible, honest about their chance, and blind to the cards the player cannot
see."""

from __future__ import annotations

import pytest

from parlour.errors import GameOver
from parlour.tripeaks import CLASSIC, EASY, Deal, DealCode, Game
from parlour.tripeaks.layout import COVERED_BY, TABLEAU_SIZE
from parlour.tripeaks.solver import fair_hint, solve
from parlour.tripeaks.solver.hints import BATCH, DEFAULT_SAMPLES, MIN_SAMPLES
from parlour.tripeaks.solver.players import greedy_move, play
from parlour.tripeaks.solver.rollout import HIDDEN, Seen, unseen_cards
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
    from parlour.tripeaks.solver.players import PLAYERS, hint_at

    for strength in PLAYERS:  # every hint strength
        assert hint_at(one, strength, seed=5, samples=40) == hint_at(two, strength, seed=5, samples=40)


def test_what_the_player_sees_holds_no_hidden_card() -> None:
    game = game_after(5, EASY, 8)
    seen = Seen.of_game(game)
    hidden = [p for p in range(TABLEAU_SIZE) if not game.face_up(p)]
    assert hidden and all(COVERED_BY[p] for p in hidden)
    assert [p for p in range(TABLEAU_SIZE) if seen.ranks[p] == HIDDEN] == hidden
    assert len(seen.unseen) == len(hidden) + game.stock_count == len(unseen_cards(game))
    shown = {game.card_at(p) for p in range(TABLEAU_SIZE) if game.face_up(p)} | set(game.discard)
    assert not shown & set(unseen_cards(game))
    assert len(shown) + len(unseen_cards(game)) == 52


def test_the_chance_comes_with_an_interval_that_holds_it() -> None:
    hint = fair_hint(game_after(7, CLASSIC, 5), seed=2)
    assert hint.low <= hint.chance <= hint.high and 0 < hint.margin < 0.1
    assert hint.samples % BATCH == 0 and MIN_SAMPLES <= hint.samples <= DEFAULT_SAMPLES


def test_an_obvious_choice_stops_early_and_a_close_one_draws_more_samples() -> None:
    # One card left to win: every sample agrees at once.
    game = Game.from_code("TP1-E-AAAAAAB")
    line = solve(game).line
    replay(game, line[:-1])
    hint = fair_hint(game)
    assert hint.move == line[-1] and hint.chance == 1.0 and hint.samples == MIN_SAMPLES
    close = fair_hint(game_after(5, EASY, 3), seed=0)  # 8C and 8D are nearly worth the same
    assert close.samples > MIN_SAMPLES


def test_a_finished_game_has_no_hint() -> None:
    game = Game.from_code("TP1-E-AAAAAAB")
    replay(game, solve(game).line)
    with pytest.raises(GameOver):
        fair_hint(game, samples=2)


def test_the_greedy_player_plays_a_game_to_its_end() -> None:
    played = play(Game.from_code("TP1-C-AAAAAAC"), greedy_move)
    assert played.moves > 0
    assert played.won == (played.left == 0)


def test_the_hint_strengths_are_a_ladder_of_budgets_on_the_same_judgement() -> None:
    from parlour.errors import InvalidInput
    from parlour.tripeaks.solver.players import (
        PLAYERS,
        QUICK_SAMPLES,
        SIMPLE_SAMPLES,
        STRENGTH_NAMES,
        hint_at,
    )

    assert PLAYERS == ("greedy", "quick", "fair")
    assert [STRENGTH_NAMES[name] for name in PLAYERS] == ["Simple", "Quick", "Thorough"]
    game = game_after(5, EASY, 6)
    simple = hint_at(game, "greedy", seed=3)
    assert simple.move == greedy_move(game) and list(simple.chances) == [simple.move]
    assert simple.samples == SIMPLE_SAMPLES
    quick = hint_at(game, "quick", seed=3)
    assert quick.samples == QUICK_SAMPLES and set(quick.chances) == set(game.legal_actions()) - {"undo"}
    thorough = hint_at(game, "fair", seed=3)
    assert thorough.samples == DEFAULT_SAMPLES and thorough.margin < quick.margin
    assert hint_at(game, "quick", seed=3) == quick  # the same game and seed, the same hint
    assert hint_at(game, "fair", seed=3, samples=200).samples == 200  # a smaller budget (the twin's)
    for bad in ("strong", "", 3, "FAIR"):
        with pytest.raises(InvalidInput, match="hint strength"):
            hint_at(game, bad, seed=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="judged"):
        fair_hint(game, judged=0)


def test_the_quick_player_plays_hints_of_one_batch() -> None:
    from parlour.tripeaks.solver.players import chooser

    game = game_after(8, CLASSIC, 0)
    quick = chooser("quick", seed=1)
    assert quick(game) in game.legal_actions()
    assert chooser("greedy") is greedy_move
