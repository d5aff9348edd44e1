"""Invariants under random play: cards conserved, undo is exact, the score formula, games end."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.cards import DECK, JOKER, Card
from parlour.deal import DEAL_NUMBER_LIMIT
from parlour.errors import IllegalMove
from parlour.tripeaks import DealCode, Game, Rules
from parlour.tripeaks.game import PEAK_BONUS, START_SCORE
from parlour.tripeaks.rules import VARIANTS

numbers = st.integers(min_value=0, max_value=DEAL_NUMBER_LIMIT - 1)
app_rules = st.builds(
    lambda linked, variants: Rules(king_ace_linked=linked).with_variants(*variants),
    st.booleans(),
    st.sets(st.sampled_from([v for v in VARIANTS if v != "traditional_scoring"])),
)
any_rules = st.builds(
    lambda linked, variants: Rules(king_ace_linked=linked).with_variants(*variants),
    st.booleans(),
    st.sets(st.sampled_from(VARIANTS)),
)


def all_cards(game: Game) -> list[Card]:
    tableau = [game.card_at(p) for p in range(28) if not game.removed(p)]
    stock = [Card.parse(c) for c in game.to_json(reveal=True)["stock_cards"]]
    return sorted([*tableau, *game.discard, *stock])


def without_moves(state: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in state.items() if key != "moves"}


@settings(max_examples=60, deadline=None)
@given(numbers, any_rules, st.data())
def test_cards_are_conserved_and_undo_is_exact(number: int, rules: Rules, data: st.DataObject) -> None:
    game = Game.from_code(DealCode(number, rules))
    deck = sorted([*DECK, JOKER]) if rules.joker else list(DECK)
    history: list[dict[str, Any]] = []
    for _ in range(80):
        assert all_cards(game) == deck
        choices = [*game.legal_actions(), "undo", "draw", "AS", "KH"]
        move = data.draw(st.sampled_from(choices))
        before = game.to_json(reveal=True)
        moves_before = game.moves
        try:
            applied = game.apply(move)
        except IllegalMove:
            assert game.to_json(reveal=True) == before
            assert move not in game.legal_actions() or move == "undo"
            continue
        assert game.moves >= moves_before
        if applied == "undo":
            assert without_moves(game.to_json(reveal=True)) == without_moves(history.pop())
            assert game.moves == moves_before
        else:
            history.append(before)
            assert game.moves == moves_before + 1
        if game.status != "playing":
            break


@settings(max_examples=60, deadline=None)
@given(numbers, app_rules, st.randoms(use_true_random=False))
def test_score_is_500_minus_live_actions_plus_bonuses(number: int, rules: Rules, rng: Any) -> None:
    game = Game.from_code(DealCode(number, rules))
    for step in range(150):
        if game.status != "playing":
            break
        if game.undo_available and step % 5 == 4 and rng.random() < 0.5:
            game.undo()
        else:
            game.apply(rng.choice(game.legal_actions()))
        live = len(game.live_moves())
        assert game.score == START_SCORE - live + PEAK_BONUS * sum(game.peaks_cleared)


@settings(max_examples=100, deadline=None)
@given(numbers, any_rules, st.randoms(use_true_random=False))
def test_random_play_always_ends(number: int, rules: Rules, rng: Any) -> None:
    game = Game.from_code(DealCode(number, rules))
    limit = 28 + game.stock_count
    for _ in range(limit):
        if game.status != "playing":
            break
        game.apply(rng.choice(game.legal_actions()))
    assert game.status in ("won", "stuck")
    assert game.moves <= limit and game.legal_actions() == []


@settings(max_examples=100, deadline=None)
@given(numbers, any_rules, st.randoms(use_true_random=False))
def test_push_pop_restores_the_start(number: int, rules: Rules, rng: Any) -> None:
    game = Game.from_code(DealCode(number, rules))
    start = game.to_json(reveal=True)
    pushes = 0
    while game.status == "playing":
        move = rng.choice(game.legal_actions())
        if move == "draw":
            game.push_draw()
        else:
            game.push_remove(next(p for p in game.fitting_positions() if str(game.card_at(p)) == move))
        pushes += 1
    for _ in range(pushes):
        game.pop()
    assert game.to_json(reveal=True) == start


@settings(max_examples=40, deadline=None)
@given(numbers, any_rules, st.randoms(use_true_random=False))
def test_the_players_view_never_shows_a_face_down_card(number: int, rules: Rules, rng: Any) -> None:
    game = Game.from_code(DealCode(number, rules))
    while game.status == "playing":
        view = game.to_json()
        for p, entry in enumerate(view["tableau"]):
            assert (entry["card"] is None) == (not game.face_up(p))
        assert "stock_cards" not in view
        game.apply(rng.choice(game.legal_actions()))


@settings(max_examples=60, deadline=None)
@given(numbers, any_rules, st.randoms(use_true_random=False))
def test_a_ranked_undo_never_hides_a_card_seen(number: int, rules: Rules, rng: Any) -> None:
    game = Game.from_code(DealCode(number, rules))
    for _ in range(150):
        if game.status == "won":
            break
        move = rng.choice([*game.legal_actions(), "undo", "undo"])
        face_down = {p for p in range(28) if not game.face_up(p)}
        stock = game.stock_count
        before = game.to_json(reveal=True)
        expected = game.can_undo(ranked=True) if move == "undo" else True
        try:
            game.apply(move, ranked=True)
        except IllegalMove as error:
            assert not expected and move == "undo" and error.code in ("nothing_to_undo", "undo_ranked")
            assert game.to_json(reveal=True) == before
            continue
        assert expected
        if move == "undo":  # what was taken back showed nothing: nothing seen goes out of sight again
            assert game.stock_count == stock
            assert {p for p in range(28) if not game.face_up(p)} == face_down
