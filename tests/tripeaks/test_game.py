"""The TriPeaks rules through real play: the seeds' worked example, scores, undo and every reason code."""

from __future__ import annotations

import pytest

from parlour.cards import Card
from parlour.errors import GameOver, IllegalMove, InvalidCard, InvalidInput
from parlour.tripeaks import CLASSIC, EASY, Deal, DealCode, Game
from parlour.tripeaks.layout import TABLEAU_SIZE
from tripeaks.builders import REMOVAL_ORDER_BY_ROWS, cards, explicit_deal, planned_deal, seed_example_deal


def fitting_cards(game: Game) -> list[str]:
    return [game.card_at(p).pretty() for p in game.fitting_positions()]


def play(game: Game, line: list[int | str]) -> None:
    for step in line:
        if step == "draw":
            game.draw()
        else:
            game.remove(int(step))


# ------------------------------------------------------------------------------ the seeds' worked example
def test_seed_example_easy_allows_three_cards() -> None:
    game = Game(seed_example_deal(), EASY)
    assert fitting_cards(game) == ["K♣", "2♦", "K♦"]
    assert game.legal_actions() == ["KC", "2D", "KD", "draw"]


def test_seed_example_classic_allows_only_the_two() -> None:
    game = Game(seed_example_deal(), CLASSIC)
    assert fitting_cards(game) == ["2♦"]
    with pytest.raises(IllegalMove) as caught:
        game.apply("K♣")
    assert caught.value.code == "not_adjacent"


def test_seed_example_turns_up_the_seven_of_spades_at_13() -> None:
    game = Game(seed_example_deal(), EASY)
    for move in ("K♣", "A♠", "2♦"):
        game.apply(move)
    assert game.face_up(13) and game.visible_card(13) == Card.parse("7S")
    assert [p for p in range(18) if game.face_up(p)] == [13]
    assert game.discard_top == Card.parse("2D")
    assert game.score == 497 and game.moves == 3 and game.stock_count == 23


def test_only_the_bottom_row_starts_face_up() -> None:
    game = Game.from_code("TP1-E-AAAAAAB")
    assert [p for p in range(TABLEAU_SIZE) if game.face_up(p)] == list(range(18, 28))
    assert game.playable_positions() == list(range(18, 28))
    assert game.stock_count == 23 and len(game.discard) == 1
    assert (game.score, game.moves, game.status) == (500, 0, "playing")


def test_spec_check_value_through_the_code() -> None:
    deal = Deal.from_code("TP1-E-AAAAAAB")
    assert list(deal.tableau[18:]) == cards("2♣ A♦ 6♠ K♣ K♥ 10♥ 10♠ J♠ 10♦ 8♠")
    assert deal.discard == Card.parse("QC")


# ----------------------------------------------------------------------------------------- adjacency
@pytest.mark.parametrize(
    ("card", "top", "easy", "classic"),
    [
        ("7H", "8C", True, True),
        ("9H", "8C", True, True),
        ("8H", "8C", False, False),
        ("6H", "8C", False, False),
        ("AS", "KD", True, False),
        ("KS", "AD", True, False),
        ("QS", "KD", True, True),
        ("2S", "AD", True, True),
        ("QS", "AD", False, False),
    ],
)
def test_adjacency(card: str, top: str, easy: bool, classic: bool) -> None:
    for rules, expected in ((EASY, easy), (CLASSIC, classic)):
        game = Game(explicit_deal({18: card}, top), rules)
        assert (18 in game.fitting_positions()) is expected


# ------------------------------------------------------------------------------------------ scoring
def test_772_a_chain_through_all_28_cards() -> None:
    game = Game(planned_deal(REMOVAL_ORDER_BY_ROWS), EASY)
    play(game, list(REMOVAL_ORDER_BY_ROWS))
    assert (game.status, game.score, game.moves, game.stock_count) == ("won", 772, 28, 23)
    assert game.peaks_cleared == (True, True, True)


def test_749_when_all_23_cards_were_drawn() -> None:
    line: list[int | str] = ["draw"] * 23 + list(REMOVAL_ORDER_BY_ROWS)
    game = Game(planned_deal(line), EASY)
    play(game, line)
    assert (game.status, game.score, game.moves, game.stock_count) == ("won", 749, 51, 0)


def test_classic_chain_scores_772_too() -> None:
    game = Game(planned_deal(REMOVAL_ORDER_BY_ROWS, king_ace_linked=False), CLASSIC)
    play(game, list(REMOVAL_ORDER_BY_ROWS))
    assert (game.status, game.score) == ("won", 772)


def line_emptying_peaks_at_37_42_50() -> list[int | str]:
    body = list(REMOVAL_ORDER_BY_ROWS[:-3])  # 25 removals, every peak but its top
    line: list[int | str] = []
    for i, position in enumerate(body):
        line.append(position)
        if i % 2 == 1 and line.count("draw") < 11:
            line.append("draw")
    return [*line, 0, *["draw"] * 4, 1, *["draw"] * 7, 2]


def test_750_with_peaks_emptied_at_moves_37_42_50() -> None:
    line = line_emptying_peaks_at_37_42_50()
    game = Game(planned_deal(line), EASY)
    emptied_at: list[int] = []
    for step in line:
        before = game.peaks_cleared
        play(game, [step])
        emptied_at += [game.moves for b, a in zip(before, game.peaks_cleared, strict=True) if a and not b]
        if game.moves in (37, 42):
            # the bonus arrives with the move that empties the peak, on top of the move's -1
            assert game.score == 500 - game.moves + 100 * sum(game.peaks_cleared)
    assert emptied_at == [37, 42, 50]
    assert (game.status, game.score, game.moves, game.stock_count) == ("won", 750, 50, 1)


STUCK_BOTTOM_ROW = {18 + i: str(card) for i, card in enumerate(cards("5S 5H 5D 5C 9S 9H 9D 9C 7S 7H"))}


def stuck_game() -> Game:
    """After 23 draws the discard top is K♣ and no free card is a Q or an A."""
    game = Game(explicit_deal(STUCK_BOTTOM_ROW, "2C", stock_bottom=["KC"]), EASY)
    for _ in range(23):
        game.draw()
    return game


def test_stuck_when_the_stock_is_empty_and_nothing_fits() -> None:
    game = stuck_game()
    assert (game.status, game.score, game.moves, game.stock_count) == ("stuck", 477, 23, 0)
    assert game.legal_actions() == []
    game.undo()  # the player may undo when stuck
    assert game.status == "playing" and game.stock_count == 1 and game.moves == 23


def test_not_stuck_while_the_stock_holds_cards() -> None:
    game = Game(explicit_deal(STUCK_BOTTOM_ROW, "KC"), EASY)
    assert game.fitting_positions() == [] and game.status == "playing"


def test_won_even_with_cards_left_in_the_stock() -> None:
    game = Game(planned_deal(REMOVAL_ORDER_BY_ROWS), EASY)
    play(game, list(REMOVAL_ORDER_BY_ROWS[:-1]))
    assert game.status == "playing" and game.cards_left == 1
    game.remove(2)
    assert game.status == "won" and game.stock_count == 23 and game.legal_actions() == []


# ------------------------------------------------------------------------------------ reason codes
def refused(game: Game, move: str, *, ranked: bool = False) -> IllegalMove:
    before = game.to_json(reveal=True)
    with pytest.raises(IllegalMove) as caught:
        game.apply(move, ranked=ranked)
    assert game.to_json(reveal=True) == before, "a refused move changed the game"
    return caught.value


def test_not_adjacent() -> None:
    error = refused(Game(seed_example_deal(), EASY), "3S")
    assert error.code == "not_adjacent" and "3♠" in str(error) and "A♣" in str(error)


@pytest.mark.parametrize("move", ["7S", "QH", "AC", "JK"])
def test_blocked_face_down_in_the_stock_on_the_discard_or_absent(move: str) -> None:
    # 7♠ is face down at 13; the others are in the stock, on the discard pile, or not in the deal:
    # the answer and the message are the same, so nothing hidden leaks.
    error = refused(Game(seed_example_deal(), EASY), move)
    assert error.code == "blocked"
    assert "is not a face-up card of the peaks" in str(error)


def test_blocked_covered_and_removed_positions() -> None:
    game = Game(seed_example_deal(), EASY, None)
    for move in ("K♣", "A♠", "2♦"):
        game.apply(move)
    game.draw()  # any top
    with pytest.raises(IllegalMove) as caught:
        game.remove(22)
    assert caught.value.code == "blocked" and "removed" in str(caught.value)
    with pytest.raises(IllegalMove) as caught:
        game.remove(4)
    assert caught.value.code == "blocked" and "face down" in str(caught.value)
    open_game = Game(seed_example_deal(), EASY.with_variants("open_peaks"))
    with pytest.raises(IllegalMove) as caught:
        open_game.remove(13)
    assert caught.value.code == "blocked" and "covered" in str(caught.value)


def test_stock_empty() -> None:
    assert refused(stuck_game(), "draw").code == "stock_empty"


def test_nothing_to_undo() -> None:
    assert refused(Game.from_code("TP1-E-AAAAAAB"), "undo").code == "nothing_to_undo"


@pytest.mark.parametrize("move", ["draw", "undo", "KC", "AC"])
def test_game_over_after_a_win(move: str) -> None:
    game = Game(planned_deal(REMOVAL_ORDER_BY_ROWS), EASY)
    play(game, list(REMOVAL_ORDER_BY_ROWS))
    error = refused(game, move)
    assert error.code == "game_over" and isinstance(error, GameOver)


def test_malformed_moves_are_input_errors() -> None:
    game = Game.from_code("TP1-E-AAAAAAB")
    with pytest.raises(InvalidCard, match="'drw'"):
        game.apply("drw")
    with pytest.raises(InvalidInput, match="28"):
        game.remove(28)
    assert game.moves == 0


# ------------------------------------------------------------------------------------------------- undo
def test_undo_puts_the_card_back_rehides_flips_restores_the_score_keeps_the_counter() -> None:
    game = Game(seed_example_deal(), EASY)
    game.apply("KC")
    game.apply("AS")
    snapshot = game.to_json(reveal=True)
    game.apply("2D")
    assert game.face_up(13)
    game.undo()
    assert not game.face_up(13) and not game.removed(22) and game.discard_top == Card.parse("AS")
    assert game.score == 498 and game.moves == 3
    assert {**game.to_json(reveal=True), "moves": 2} == snapshot
    game.undo()
    game.undo()
    assert game.score == 500 and game.moves == 3 and game.discard == (Card.parse("AC"),)
    assert refused(game, "undo").code == "nothing_to_undo"
    game.apply("2D")
    assert game.moves == 4 and game.score == 499


def test_undo_of_a_draw_returns_the_card_to_the_stock_top() -> None:
    game = Game.from_code("TP1-E-AAAAAAB")
    stock_top = game.deal.stock[0]
    game.draw()
    assert game.discard_top == stock_top and game.stock_count == 22 and game.score == 499
    game.undo()
    assert game.stock_count == 23 and game.discard_top == Card.parse("QC") and game.score == 500
    game.draw()
    assert game.discard_top == stock_top


def test_a_ranked_undo_takes_back_only_a_move_that_showed_no_card() -> None:
    game = Game.from_code("TP1-E-AAAAAAB")  # bottom row 2C AD 6S KC KH …, discard QC
    assert not game.last_action_showed_a_card and not game.can_undo(ranked=True)
    assert refused(game, "undo", ranked=True).code == "nothing_to_undo"
    game.apply("KC")  # position 21: its neighbours are still there, so nothing turns up
    assert not game.last_action_showed_a_card and game.can_undo(ranked=True)
    game.apply("undo", ranked=True)
    assert not game.removed(21) and game.discard_top == Card.parse("QC") and game.moves == 1
    for move in ("KC", "AD", "2C"):  # 2C (position 18) turns up position 9
        game.apply(move)
    assert game.face_up(9) and game.last_action_showed_a_card
    assert game.can_undo() and not game.can_undo(ranked=True)
    assert game.view().can_undo and not game.view(ranked=True).can_undo
    assert refused(game, "undo", ranked=True).code == "undo_ranked"
    game.draw()
    assert refused(game, "undo", ranked=True).code == "undo_ranked"
    game.undo()  # the seed apps' own undo takes either back
    assert game.stock_count == 23 and game.face_up(9)
    game.undo()
    assert not game.face_up(9)


def test_undo_reaches_every_live_action() -> None:
    line: list[int | str] = ["draw"] * 23 + list(REMOVAL_ORDER_BY_ROWS[:-1])
    game = Game(planned_deal(line), EASY)
    play(game, line)
    assert game.undo_available == 50
    for _ in range(50):
        game.undo()
    assert game.to_json(reveal=True) == {**Game(game.deal, EASY).to_json(reveal=True), "moves": 50}
    assert refused(game, "undo").code == "nothing_to_undo"


def test_pop_is_the_exact_inverse_of_push() -> None:
    game = Game.from_code("TP1-E-AAAAAAB")
    start = game.to_json(reveal=True)
    game.push_remove(21)
    game.push_draw()
    game.pop()
    game.pop()
    assert game.to_json(reveal=True) == start


# ---------------------------------------------------------------------------------------------- apply
def test_apply_reads_both_card_forms_and_words() -> None:
    game = Game.from_code("TP1-e-AAAAAAB")
    assert game.apply("kc") == "KC"
    assert game.apply(" DRAW ") == "draw"
    assert game.apply("Undo") == "undo"
    assert game.live_moves() == ["KC"]


def test_construction_checks_rules_against_the_deal() -> None:
    deal = Deal.from_code("TP1-E-AAAAAAB")
    with pytest.raises(InvalidInput, match="joker"):
        Game(deal, EASY.with_variants("joker"))
    with pytest.raises(InvalidInput, match="empty-discard"):
        Game(deal, EASY.with_variants("empty_discard"))
    with pytest.raises(InvalidInput, match="other rules"):
        Game(deal, CLASSIC, DealCode.parse("TP1-E-AAAAAAB"))


def test_apply_says_what_a_move_looks_like() -> None:
    with pytest.raises(InvalidCard) as caught:
        Game.from_code("TP1-E-AAAAAAB").apply("drew")
    assert "'drew' is not a move: a move is a card of the peaks (KC, K♣, 10♥), draw or undo" in str(
        caught.value
    )
    assert caught.value.code == "invalid_card"
