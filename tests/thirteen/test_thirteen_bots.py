"""Computer players: one interface, seeded, legal moves only, and the habits each one promises."""

from __future__ import annotations

import pytest
from thirteen_helpers import m, make_view

from parlour.errors import InvalidInput
from parlour.thirteen import Match
from parlour.thirteen.bots import (
    BOTS,
    PLAYERS,
    EagerKeeperBot,
    GreedyBot,
    HeuristicBot,
    KeeperBot,
    PatientKeeperBot,
    RandomBot,
    StrongBot,
    make_bot,
)
from parlour.thirteen.bots.heuristic import hand_cost
from parlour.thirteen.simulate import game_number, play_match, simulate


@pytest.mark.parametrize("name", list(PLAYERS))
def test_bots_play_legal_moves_and_are_reproducible(name: str) -> None:
    def moves_of(seed: int) -> list[str]:
        bots = [make_bot(name, seed + seat) for seat in range(4)]
        match = Match(31)
        played: list[str] = []
        while not match.over and len(played) < 120:
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            move = bots[seat].choose(view)
            assert move in view.legal_moves()
            match.apply(seat, move)
            played.append(str(move))
        return played

    assert moves_of(5) == moves_of(5)


def test_bots_refuse_a_view_whose_seat_is_not_to_move() -> None:
    match = Match(2)
    seat = match.turn
    assert seat is not None
    with pytest.raises(ValueError, match="not to move"):
        GreedyBot().choose(match.view((seat + 1) % 4))


def test_make_bot_names() -> None:
    assert isinstance(make_bot(" Heuristic "), HeuristicBot)
    with pytest.raises(InvalidInput, match="'smart'"):
        make_bot("smart")


def test_random_bot_uses_its_seed() -> None:
    view = make_view("3S 4C 5D 6H 7S 8C 9D TH", "")
    first = [RandomBot(1).choose(view) for _ in range(3)]
    assert first == [RandomBot(1).choose(view) for _ in range(3)]
    assert len({str(RandomBot(seed).choose(view)) for seed in range(30)}) > 3


def test_greedy_plays_its_lowest_play_and_passes_only_when_nothing_fits() -> None:
    assert str(GreedyBot().choose(make_view("9C 5H KS", "4S"))) == "5H"
    assert str(GreedyBot().choose(make_view("3S 9C 5H 5S", ""))) == "3S"
    assert str(GreedyBot().choose(make_view("9C 5H KS 2S", "2H"))) == "pass"
    assert str(GreedyBot().choose(make_view("9C 9H KS KD", "8S 8H"))) == "9C 9H"


def test_heuristic_keeps_pairs_and_sequences_together() -> None:
    assert str(HeuristicBot().choose(make_view("5S 5H 9C JD JH", "4S"))) == "9C"
    assert str(HeuristicBot().choose(make_view("4S 5C 6D 9C QD QH", "3H"))) == "9C"


def test_heuristic_saves_its_2_and_its_pairs_early() -> None:
    assert str(HeuristicBot().choose(make_view("6S 6C 2H 9S 9H", "5D"))) == "pass"


def test_heuristic_plays_to_go_out() -> None:
    assert str(HeuristicBot().choose(make_view("9S 9C", "8S 8H"))) == "9S 9C"
    assert str(HeuristicBot().choose(make_view("3S 4C 5D", ""))) == "3S 4C 5D"


def test_heuristic_blocks_an_opponent_on_a_last_card() -> None:
    view = make_view("3S 7C KD AH", "", counts=(4, 1, 9, 9))
    assert str(HeuristicBot().choose(view)) != "3S"
    assert str(HeuristicBot().choose(make_view("5C 9D AH", "4S", counts=(3, 1, 9, 9)))) == "AH"


def test_the_keeper_is_a_baseline_never_offered_to_people() -> None:
    assert isinstance(make_bot("keeper"), KeeperBot)
    assert "keeper" not in BOTS  # the strengths a table or a match offers


def test_the_keeper_plays_its_lowest_unit_and_keeps_pairs_triples_and_sequences() -> None:
    assert str(KeeperBot().choose(make_view("5S 5H 9C JD JH", "4S"))) == "9C"
    assert str(KeeperBot().choose(make_view("3S 4C 5D 9C QD QH", ""))) == "3S 4C 5D"
    assert str(KeeperBot().choose(make_view("6S 6C 6H 9S 9H", "5D 5H"))) == "9S 9H"


def test_the_keeper_spends_a_2_before_it_breaks_a_unit_and_breaks_one_rather_than_pass() -> None:
    assert str(KeeperBot().choose(make_view("5S 5H 2C", "4S"))) == "2C"  # the pair stays whole
    assert str(KeeperBot().choose(make_view("5S 5H 9C 9D", "4S"))) == "5S"  # no unit fits: a pair broken


def test_the_keeper_passes_only_on_a_2_or_a_bomb() -> None:
    assert str(KeeperBot().choose(make_view("9S 9H KD", "2S"))) == "pass"
    assert str(KeeperBot().choose(make_view("3S 4C 5D 6H 7S 8C 9D", "2S"))) == "pass"
    assert str(KeeperBot().choose(make_view("9S 9C", "8S 8H"))) == "9S 9C"  # goes out


def test_the_keeper_variants_are_baselines_by_name() -> None:
    assert isinstance(make_bot("keeper-patient"), PatientKeeperBot)
    assert isinstance(make_bot("Keeper-Eager"), EagerKeeperBot)
    assert not {"keeper-patient", "keeper-eager"} & set(BOTS)


def test_the_patient_keeper_passes_rather_than_break_a_unit() -> None:
    patient = PatientKeeperBot()
    assert str(patient.choose(make_view("5S 5H 9C 9D", "4S"))) == "pass"  # the keeper breaks a pair
    assert str(patient.choose(make_view("5S 5H 9C JD JH", "4S"))) == "9C"  # a unit fits: plays it
    # An opponent on two cards: it breaks the pair rather than let them lead.
    assert str(patient.choose(make_view("5S 5H 9C 9D", "4S", counts=(4, 2, 9, 9)))) == "5S"


def test_the_patient_keeper_keeps_its_2s_for_the_end() -> None:
    patient = PatientKeeperBot()
    assert str(patient.choose(make_view("5S 5H 2C 9D", "4S"))) == "9D"
    assert str(patient.choose(make_view("5S 5H 2C 7D 7H", "KS"))) == "pass"  # the keeper spends the 2
    assert str(patient.choose(make_view("5S 5H 2C 7D 7H", "KS", counts=(5, 3, 9, 9)))) == "2C"
    assert str(patient.choose(make_view("5S 5H 2C", "KS"))) == "2C"  # then the pair goes out


def test_the_eager_keeper_leads_its_longest_unit_and_rarely_passes() -> None:
    eager = EagerKeeperBot()
    assert str(eager.choose(make_view("3S 4C 5D 6H 9C 9D 9H JD", ""))) == "3S 4C 5D 6H"
    assert str(eager.choose(make_view("3S 9C 9D 9H JD", ""))) == "9C 9D 9H"
    assert str(eager.choose(make_view("3S 2H", ""))) == "3S"  # the 2 last
    assert str(eager.choose(make_view("5S 5H 9C 9D", "4S"))) == "5S"  # breaks a pair rather than pass
    # On a 2 with no unit that fits, it breaks its pair of 2s where the keeper passes.
    assert str(eager.choose(make_view("9S 9H KD 2C 2D", "2S"))) == "2C"
    assert str(KeeperBot().choose(make_view("9S 9H KD 2C 2D", "2S"))) == "pass"


def test_hand_cost_counts_combinations() -> None:
    assert hand_cost(0) == 0
    assert hand_cost(m("5S 5H")) == 1
    assert hand_cost(m("3S 4C 5D 6H")) == 1
    assert hand_cost(m("3S 4C 5D 9H")) == 2
    assert hand_cost(m("2H")) < hand_cost(m("AH")) < hand_cost(m("9H"))


def test_simulation_counts_every_round_and_rotates_seats() -> None:
    result = simulate(["greedy", "random", "random", "random"], 8, seed=3)
    assert sum(p.firsts for p in result.players) == result.rounds
    assert all(p.rounds == result.rounds and p.games == 8 for p in result.players)
    assert sum(p.games_won for p in result.players) == 8
    assert sum(p.points for p in result.players) == 6 * result.rounds
    again = simulate(["greedy", "random", "random", "random"], 8, seed=3)
    assert again.to_json() == result.to_json()
    assert game_number(3, 0) != game_number(3, 1)
    match = play_match([make_bot("greedy", s) for s in range(4)], 7)
    assert match.over
    with pytest.raises(ValueError):
        simulate(["greedy"], 1)


def test_heuristic_counts_cards_to_finish_with_a_chain_of_leads() -> None:
    # Every 2 is gone: the A♥ cannot be answered, so leading it keeps the lead for the last pair.
    view = make_view("7S 7C AH", "", played="2S 2C 2D 2H")
    assert str(HeuristicBot().choose(view)) == "AH"
    # While a 2 is unseen the A♥ may be beaten: the heuristic leads its low pair instead.
    assert str(HeuristicBot().choose(make_view("7S 7C AH", "", played="2S 2C 2D"))) == "7S 7C"


def test_shares_of_first_places_have_wilson_intervals() -> None:
    from parlour.intervals import wilson as wilson_interval

    low, high = wilson_interval(81, 263)  # a published example: 0.2553 to 0.3662
    assert round(low, 4) == 0.2553 and round(high, 4) == 0.3662
    assert wilson_interval(0, 10)[0] == 0.0 and 0.27 < wilson_interval(0, 10)[1] < 0.28  # not "0% ± 0%"
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0) and wilson_interval(0, 0) == (0.0, 1.0)


def test_strong_follows_with_its_lowest_unit_and_keeps_pairs_and_sequences() -> None:
    assert str(StrongBot().choose(make_view("5S 5H 9C JD JH", "4S"))) == "9C"
    assert str(StrongBot().choose(make_view("4S 5C 6D 9C QD QH", "3H"))) == "9C"


def test_strong_leads_its_lowest_unit_whole() -> None:
    assert str(StrongBot().choose(make_view("3S 4C 5D 9C QD QH", ""))) == "3S 4C 5D"


def test_strong_saves_its_2_until_the_end_is_near() -> None:
    assert str(StrongBot().choose(make_view("6S 7C 9H JD 2H", "KS"))) == "pass"
    assert str(StrongBot().choose(make_view("9H 2H", "KS"))) == "2H"
    # An opponent about to go out: the 2 is spent to stop them.
    assert str(StrongBot().choose(make_view("6S 7C 9H JD 2H", "KS", counts=(5, 3, 9, 9)))) == "2H"


def test_strong_leads_no_single_into_a_last_card() -> None:
    assert str(StrongBot().choose(make_view("3S 7C 8C 8D KD", "", counts=(5, 1, 9, 9)))) == "8C 8D"
    # Nothing but singles: the highest.
    assert str(StrongBot().choose(make_view("3S 7C KD", "", counts=(3, 1, 9, 9)))) == "KD"


def test_strong_breaks_a_unit_when_it_costs_nothing_or_an_opponent_is_near_the_end() -> None:
    # A pair of queens split on a ten leaves two turns' work, as before.
    assert str(StrongBot().choose(make_view("9S 9H QC QD", "TS"))) == "QC"
    # A sequence broken would leave two singles for one sequence: it passes.
    assert str(StrongBot().choose(make_view("9S TC JD", "8H"))) == "pass"
    assert str(StrongBot().choose(make_view("9S TC JD", "8H", counts=(3, 2, 9, 9)))) == "9S"
    view = make_view("9S 9H QC QD", "TS", counts=(4, 2, 9, 9))
    assert str(StrongBot().choose(view)) in ("QC", "QD")
