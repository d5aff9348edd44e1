"""The variants, each off by default: open peaks, empty discard, joker, draw only when stuck, traditional
scoring."""

from __future__ import annotations

import pytest

from parlour.cards import JOKER, Card
from parlour.errors import IllegalMove
from parlour.tripeaks import CLASSIC, EASY, Deal, DealCode, Game
from parlour.tripeaks.rules import VARIANTS, Rules
from tripeaks.builders import REMOVAL_ORDER_BY_ROWS, cards, explicit_deal, planned_deal, seed_example_deal


def test_defaults_are_the_apps_rules() -> None:
    assert EASY.variants == () and CLASSIC.variants == ()
    assert str(DealCode(1)) == "TP1-E-AAAAAAB"


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_round_trips_through_its_code(variant: str) -> None:
    rules = EASY.with_variants(variant)
    code = DealCode(77, rules)
    assert DealCode.parse(str(code)).rules == rules
    game = Game.from_code(str(code))
    assert game.rules == rules and game.to_json()["variants"] == [variant]


# ------------------------------------------------------------------------------------------- open peaks
def test_open_peaks_shows_every_card_but_covered_cards_stay_blocked() -> None:
    game = Game.from_code("TP1-E-AAAAAAB-O")
    assert all(game.face_up(p) for p in range(28))
    assert None not in [entry["card"] for entry in game.to_json()["tableau"]]
    assert game.playable_positions() == list(range(18, 28))
    with pytest.raises(IllegalMove) as caught:
        game.remove(0)
    assert caught.value.code == "blocked"


def test_open_peaks_undo_turns_nothing_face_down() -> None:
    game = Game(seed_example_deal(), EASY.with_variants("open_peaks"))
    for move in ("KC", "AS", "2D"):
        game.apply(move)
    game.undo()
    assert game.face_up(13) and all(game.face_up(p) for p in range(28))


# ---------------------------------------------------------------------------------------- empty discard
def test_empty_discard_takes_any_free_card_first() -> None:
    game = Game.from_code("TP1-E-AAAAAAB-W")
    assert game.discard == () and game.stock_count == 24
    assert game.fitting_positions() == list(range(18, 28))
    game.apply("6S")  # any bottom card; then the usual adjacency applies
    assert game.discard_top == Card.parse("6S")
    assert sorted(game.legal_actions()) == sorted(["draw"])  # no 5 or 7 on the bottom row of deal 1
    game.undo()
    assert game.discard == () and game.to_json()["discard"] == []


def test_empty_discard_draw_starts_the_pile() -> None:
    game = Game.from_code("TP1-E-AAAAAAB-W")
    game.draw()
    assert len(game.discard) == 1 and game.stock_count == 23


# ------------------------------------------------------------------------------------------------ joker
def bottom_row(text: str) -> dict[int, str]:
    return {18 + i: str(card) for i, card in enumerate(cards(text))}


def test_joker_deal_from_the_generator_holds_53_cards() -> None:
    game = Game.from_code("TP1-E-AAAAAAB-J")
    deal = game.deal
    assert deal.has_joker and len(deal.tableau) + 1 + len(deal.stock) == 53


@pytest.mark.parametrize("rules", [EASY, CLASSIC])
def test_the_joker_fits_every_discard_top_and_every_card_fits_it(rules: Rules) -> None:
    deal = explicit_deal(bottom_row("JK 8H 2D 5S 5H 5D 5C 9S 9H 9D"), "KC", joker=True)
    game = Game(deal, rules.with_variants("joker"))
    assert game.fitting_positions() == [18]
    game.remove(18)
    assert game.discard_top is JOKER
    assert game.fitting_positions() == list(range(19, 28))
    game.remove(19)
    with pytest.raises(IllegalMove) as caught:
        game.remove(20)  # 2♦ on 8♥: the joker no longer helps
    assert caught.value.code == "not_adjacent"


def test_a_drawn_joker_takes_any_card() -> None:
    deal = explicit_deal(bottom_row("8H 2D 5S 5H 5D 5C 9S 9H 9D 9C"), "KC", stock_top=["JK"], joker=True)
    game = Game(deal, CLASSIC.with_variants("joker"))
    assert game.fitting_positions() == []
    game.draw()
    assert game.discard_top is JOKER and game.fitting_positions() == list(range(18, 28))


def test_joker_rules_and_deal_must_agree() -> None:
    with pytest.raises(ValueError, match="joker"):
        Game(Deal.from_code("TP1-E-AAAAAAB-J"), EASY)


# -------------------------------------------------------------------------------- draw only when stuck
def test_draw_only_when_no_card_fits() -> None:
    rules = EASY.with_variants("draw_only_when_stuck")
    game = Game(seed_example_deal(), rules)
    assert "draw" not in game.legal_actions()
    with pytest.raises(IllegalMove) as caught:
        game.draw()
    assert caught.value.code == "must_play" and game.stock_count == 23
    stuck_now = Game(explicit_deal(bottom_row("5S 5H 5D 5C 9S 9H 9D 9C 7S 7H"), "KC"), rules)
    assert stuck_now.legal_actions() == ["draw"]
    stuck_now.draw()
    assert stuck_now.stock_count == 22


# ---------------------------------------------------------------------------------- traditional scoring
def test_traditional_scoring_runs_draws_and_peaks() -> None:
    rules = EASY.with_variants("traditional_scoring")
    game = Game(planned_deal(REMOVAL_ORDER_BY_ROWS), rules)
    assert game.score == 0
    game.draw()
    assert game.score == -5  # traditional scoring has no floor
    game.undo()
    for i, position in enumerate(REMOVAL_ORDER_BY_ROWS[:3], start=1):
        game.remove(position)
        assert game.score == i * (i + 1) // 2  # 1 + 2 + 3: each card of a run is worth its place in it
    for position in REMOVAL_ORDER_BY_ROWS[3:]:
        game.remove(position)
    assert game.status == "won"
    assert game.score == sum(range(1, 29)) + 15 + 15 + 30


def test_traditional_draw_ends_the_run_and_undo_restores_it() -> None:
    line: list[int | str] = [18, 19, "draw", 20, 21]
    game = Game(planned_deal(line), EASY.with_variants("traditional_scoring"))
    game.remove(18)
    game.remove(19)
    assert game.score == 3
    game.draw()
    assert game.score == -2
    game.remove(20)
    assert game.score == -1
    game.remove(21)
    assert game.score == 1
    game.undo()
    assert game.score == -1
    game.remove(21)
    assert game.score == 1  # the run was restored: second card of the run after the draw
    for _ in range(3):
        game.undo()
    assert game.score == 3 and game.stock_count == 23
