"""The game: deal by code, 3♠ opening, passes and lock-out, clearing, the lead after going out,
finishing order and points, the match to 10 with ties continuing, and precise errors."""

from __future__ import annotations

import pytest
from thirteen_helpers import m, make_round, play_on

from parlour.cards import Card, parse_cards
from parlour.deal import shuffled_deck
from parlour.errors import GameOver, IllegalMove, InvalidCode, InvalidInput, NotYourTurn
from parlour.thirteen import Match, Move, Rules, deal_hands, format_code, parse_code, round_deal_number
from parlour.thirteen.game import winners_of
from parlour.thirteen.order import mask_of
from parlour.thirteen.round import Round


def test_deal_is_the_tp1_deck_thirteen_cards_a_seat() -> None:
    deck = shuffled_deck(1234)
    hands = deal_hands(1234)
    for seat in range(4):
        assert hands[seat] == mask_of(deck[13 * seat : 13 * seat + 13])
    assert sum(hand.bit_count() for hand in hands) == 52


def test_codes_round_trip() -> None:
    assert (
        format_code(0) == "TH1-AAAAAAA"
        and format_code(1) == "TH1-AAAAAAB"
        and format_code(26) == "TH1-AAAAABA"
    )
    assert parse_code(" th1-aaaaabB ") == 27
    for text in ("TP1-E-AAAAAAB", "TH1-AAAAAA", "TH1-AAAAAA1", "TH2-AAAAAAA", ""):
        with pytest.raises(InvalidCode, match=repr(text)):
            parse_code(text)
    match = Match.from_code("TH1-AAAAAAB")
    assert match.code == "TH1-AAAAAAB" and match.round.dealt == tuple(deal_hands(1))


def test_round_deal_numbers_are_deterministic_and_spread() -> None:
    assert round_deal_number(77, 1) == 77
    later = [round_deal_number(77, r) for r in range(2, 40)]
    assert later == [round_deal_number(77, r) for r in range(2, 40)]
    assert len(set(later)) == len(later) and 77 not in later
    assert round_deal_number(78, 2) != round_deal_number(77, 2)
    with pytest.raises(ValueError):
        round_deal_number(77, 0)


def test_later_rounds_of_a_match_use_their_derived_deal() -> None:
    match = Match(5)
    play_on(match, lambda: len(match.results) >= 2)
    assert match.round.number == 3
    assert match.round.dealt == tuple(deal_hands(round_deal_number(5, 3)))


def test_holder_of_three_of_spades_leads_and_must_play_it() -> None:
    match = Match(42)
    holder = next(seat for seat in range(4) if match.round.hands[seat] & 1)
    assert match.turn == holder
    moves = match.legal_moves(holder)
    assert moves and all(move.mask & 1 for move in moves)
    other = next(card for card in match.view(holder).hand if str(card) != "3S")
    with pytest.raises(IllegalMove) as caught:
        match.play(holder, [other])
    assert caught.value.code == "must_include_three_of_spades"
    match.play(holder, [Card.parse("3S")])
    assert match.view(holder).hand_counts[holder] == 12


def test_three_of_spades_inside_a_combination_opens() -> None:
    rnd = make_round("3S 3H 4D 5C", "6S", "7S", "8S", leader=None, opening=True)
    assert rnd.turn == 0
    rnd.check(0, m("3S 4D 5C"))
    rnd.check(0, m("3S 3H"))
    with pytest.raises(IllegalMove, match="3♠") as caught:
        rnd.check(0, m("3H 4D 5C"))
    assert caught.value.code == "must_include_three_of_spades"


def test_errors_are_precise_and_change_nothing() -> None:
    rnd = make_round("5S 5H 9C", "6S 6C 7D", "KS", "AS 2H")

    def code_of(seat: int, cards: str) -> str:
        before = (list(rnd.hands), rnd.turn, rnd.table_mask, rnd.passed, len(rnd.steps))
        with pytest.raises(IllegalMove) as caught:
            rnd.check(seat, m(cards) if cards != "pass" else 0)
        assert before == (list(rnd.hands), rnd.turn, rnd.table_mask, rnd.passed, len(rnd.steps))
        return caught.value.code

    assert code_of(1, "6S") == "not_your_turn"
    assert code_of(0, "pass") == "cannot_pass_on_empty_table"
    assert code_of(0, "6S") == "not_in_hand"
    assert code_of(0, "5S 9C") == "not_a_combination"
    rnd.push(m("5S 5H"))
    assert code_of(1, "7D") == "does_not_beat"
    assert code_of(1, "6S 7D") == "not_a_combination"
    with pytest.raises(NotYourTurn):
        rnd.check(0, m("9C"))


def test_match_checked_actions_and_game_over() -> None:
    match = Match(3)
    seat = match.turn
    assert seat is not None
    with pytest.raises(InvalidInput) as caught:
        match.apply(seat, "3S 3S")
    assert caught.value.code == "duplicate_card"
    with pytest.raises(InvalidInput):
        match.play(seat, [])
    with pytest.raises(InvalidInput, match="'ZZ'"):
        match.apply(seat, "ZZ")
    play_on(match, lambda: match.over, pick=-1)
    assert match.status == "finished" and match.turn is None
    with pytest.raises(GameOver):
        match.pass_(0)
    assert match.legal_moves(0) == []


def test_pass_locks_out_until_the_table_clears() -> None:
    rnd = make_round("5S 7S 9S", "4S 8H TS", "6S JS QS", "3C KS AS")
    rnd.push(m("5S"))  # seat 0
    rnd.push(0)  # seat 1 passes
    rnd.push(m("6S"))  # seat 2
    rnd.push(0)  # seat 3 passes
    rnd.push(m("7S"))  # seat 0: seat 1 passed, so seat 2 is next
    assert rnd.turn == 2
    with pytest.raises(IllegalMove) as caught:
        rnd.check(1, m("8H"))
    assert caught.value.code == "locked_out_after_pass"
    rnd.push(0)  # seat 2 passes: everybody passed on 7S, the table clears, seat 0 leads
    assert rnd.table_shape is None and rnd.turn == 0 and rnd.passed == 0
    assert rnd.steps[-1].cleared
    rnd.push(m("9S"))
    assert rnd.turn == 1  # seat 1 is back in


def test_table_clears_when_all_others_pass_and_last_player_leads() -> None:
    rnd = make_round("5S 6S", "4S 8H", "6C 9H", "3C KS")
    rnd.push(m("5S"))
    for _ in range(3):
        rnd.push(0)
    assert rnd.table_shape is None and rnd.turn == 0


def test_lead_after_going_out_passes_to_the_next_player_in_play() -> None:
    rnd = make_round("2H", "4S 8H", "6C 9H", "3C KS")
    rnd.push(m("2H"))  # seat 0 goes out with a 2
    assert rnd.finished == [0] and rnd.turn == 1
    rnd.push(0)
    rnd.push(0)
    rnd.push(0)
    assert rnd.table_shape is None and rnd.turn == 1


def test_lead_after_going_out_skips_players_already_out() -> None:
    rnd = make_round("5S 2H", "3S", "4C 9H", "3C KS")
    rnd.push(m("5S"))  # seat 0
    rnd.push(0)  # seat 1 passes (holds 3S)
    rnd.push(m("9H"))  # seat 2
    rnd.push(m("KS"))  # seat 3
    rnd.push(m("2H"))  # seat 0 goes out; seat 1 is locked out
    assert rnd.finished == [0] and rnd.turn == 2
    rnd.push(0)
    rnd.push(0)
    assert rnd.turn == 1 and rnd.table_shape is None  # the next seat in play after seat 0


def test_finishing_order_and_points() -> None:
    rnd = make_round("3S", "4S", "5S 7S", "6S 8S")
    for cards in ("3S", "4S", "5S", "6S", "7S"):
        rnd.push(m(cards))
    assert rnd.over and rnd.finished == [0, 1, 2, 3]
    assert rnd.points() == (3, 2, 1, 0)
    with pytest.raises(GameOver):
        rnd.check(3, m("8S"))


def _finish_round_in_order(match: Match) -> None:
    match.round = Round(match.round.number, [m("3S"), m("4S"), m("5S 7S"), m("6S 8S")], 0, match.rules, False)
    for cards in ("3S", "4S", "5S", "6S", "7S"):
        seat = match.turn
        assert seat is not None
        match.play(seat, parse_cards(cards))


def test_game_to_ten_points_single_winner() -> None:
    match = Match(9)
    match.scores = [8, 7, 0, 0]
    _finish_round_in_order(match)
    assert match.scores == [11, 9, 1, 0] and match.winners == (0,) and match.over


def test_tied_leaders_at_ten_play_on() -> None:
    match = Match(9)
    match.scores = [7, 8, 0, 0]
    _finish_round_in_order(match)
    assert match.scores == [10, 10, 1, 0] and not match.over
    assert match.round.number == 2 and match.round.turn == 0  # the round's winner leads the next
    assert match.round.must_include == 0  # no 3♠ rule after the first round
    assert match.results[-1].order == (0, 1, 2, 3)


def test_winners_rule() -> None:
    standard = Rules()
    assert winners_of([9, 9, 9, 9], standard) == ()
    assert winners_of([10, 9, 0, 0], standard) == (0,)
    assert winners_of([10, 11, 10, 0], standard) == (1,)
    assert winners_of([11, 11, 10, 0], standard) == ()
    assert winners_of([11, 11, 10, 0], Rules(single_winner=False)) == (0, 1)
    assert winners_of([5, 0, 0, 0], Rules(target_points=5)) == (0,)


def _quad_holder_passes(rules: Rules) -> Round:
    rnd = make_round("9S 2H", "4S 4C 4D 4H 8S", "TC 9H", "3C KS", rules=rules)
    rnd.push(m("9S"))
    rnd.push(0)  # seat 1 passes although it holds a quad
    rnd.push(m("TC"))
    rnd.push(m("KS"))
    rnd.push(m("2H"))  # seat 0 goes out with a 2
    return rnd


def test_a_passed_player_may_not_bomb_back_in() -> None:
    rnd = _quad_holder_passes(Rules())
    assert rnd.turn == 2
    with pytest.raises(IllegalMove) as caught:
        rnd.check(1, m("4S 4C 4D 4H"))
    assert caught.value.code == "locked_out_after_pass"


def test_bomb_after_pass_house_rule() -> None:
    rnd = _quad_holder_passes(Rules(bomb_after_pass=True))
    assert rnd.turn == 1
    with pytest.raises(IllegalMove) as caught:
        rnd.check(1, m("8S"))
    assert caught.value.code == "does_not_beat"
    assert rnd.legal_plays(1) == (m("4S 4C 4D 4H"),)
    rnd.push(m("4S 4C 4D 4H"))
    assert not rnd.passed & 2 and rnd.turn == 2


def test_replay_checks_every_move() -> None:
    match = Match(11)
    play_on(match, lambda: len(match.moves) >= 30)
    record = match.record()
    again = Match.replay(record.code, record.moves)
    assert again.view(0) == match.view(0)
    with pytest.raises(IllegalMove, match="move 1"):
        Match.replay(record.code, ["pass"])
    assert record.to_json()["moves"][0] == str(Move.parse(record.moves[0]))


DRAGON = "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S"


def test_no_instant_wins_by_default() -> None:
    rnd = make_round(DRAGON, "3C 4C", "5C 6C", "7C 8C", leader=None, opening=True)
    assert rnd.finished == [] and rnd.turn == 0


def test_instant_win_house_rule_dragon() -> None:
    rnd = make_round(
        "3C 4C", DRAGON, "5C 6C", "7C 8C", leader=None, opening=True, rules=Rules(instant_wins=True)
    )
    assert rnd.finished == [1] and rnd.hands[1] == 0 and rnd.turn == 2
    assert rnd.must_include == 0 and rnd.steps[0].mask == m(DRAGON) and rnd.steps[0].out


def test_instant_win_house_rule_four_twos_first_in_turn_order() -> None:
    rules = Rules(instant_wins=True)
    rnd = make_round(
        "2S 2C 2D 2H 3S", "3C 4C", "5C 6C", DRAGON.replace("3S", "3D").replace("2S", "4D"), rules=rules
    )
    # Seat 0 leads; seat 3 also holds a dragon, but seat 0 comes first from the leader.
    assert rnd.finished == [0] and rnd.turn == 1
    match = Match(4, rules)
    assert match.round.finished == []  # an ordinary deal has neither
