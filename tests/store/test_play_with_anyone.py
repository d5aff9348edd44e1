"""Seat claims and people's ratings in the database (issue 50, decision 0062): many people pressing
Play now at once on several connections never share a seat, never hold two, never over-fill a table;
a kept round is rated once; and the export recomputes to the same ratings with the ``openskill``
package alone."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from openskill.models import PlackettLuce

from parlour.errors import IllegalMove
from parlour.games.ratings import MODEL_SETTINGS, Skill
from parlour.games.tables import GATHERING, TableRecord, TableSettings
from parlour.store import Store
from parlour.store.ratings import RoundSeat
from parlour.store.tables import UnknownTable
from parlour.thirteen.definition import ThirteenDefinition

THIRTEEN = ThirteenDefinition()
GAME = THIRTEEN.seated
assert GAME is not None
SETTINGS = TableSettings.for_quick_play(GAME, GAME.rules(None), "greedy", rated=False)
COMPUTERS = dict(GAME.computer_ratings)


def new_table_seats(player: int, name: str) -> list[Any]:
    person = {"kind": "person", "name": name, "player": player, "token_hash": None, "strength": None}
    bot = {"kind": "bot", "name": "", "player": None, "token_hash": None, "strength": "greedy"}
    return [person, bot, bot, bot]


def play_now(store: Store, player: int) -> Any:
    return store.play_now(
        "thirteen", player, f"P{player}", SETTINGS.quick_key(), SETTINGS.to_json(),
        new_table_seats(player, f"P{player}"), rated=False,
    )  # fmt: skip


def test_the_first_person_makes_a_table_and_the_next_take_its_computer_seats(store: Store) -> None:
    people = [store.create_player(f"P{n}").player_id for n in range(5)]
    first = play_now(store, people[0])
    assert first.new_table and first.seated and first.seat == 0
    others = [play_now(store, person) for person in people[1:4]]
    assert {claim.table_id for claim in others} == {first.table_id}
    assert sorted(claim.seat for claim in others) == [1, 2, 3]
    assert not any(claim.seated for claim in others)  # theirs from the next round
    fifth = play_now(store, people[4])
    assert fifth.new_table and fifth.table_id != first.table_id
    assert play_now(store, people[1]) == others[0]  # pressing again finds the same seat
    pending = store.pending_claims(first.table_id)
    assert [(claim.player, claim.seat) for claim in pending] == [
        (p, c.seat) for p, c in zip(people[1:4], others, strict=True)
    ]


def test_saving_the_table_settles_its_claims(store: Store) -> None:
    first, second = (store.create_player(name).player_id for name in ("A", "B"))
    claim = play_now(store, first)
    joined = play_now(store, second)
    record = store.table(claim.table_id)
    seats = list(record.seats)
    seats[joined.seat] = {
        "kind": "person",
        "name": "B",
        "player": second,
        "token_hash": None,
        "strength": None,
    }
    store.save_table(_with(record, seats=seats, honoured=(second,)))
    assert store.claim_of(second) is not None and store.claim_of(second).seated  # type: ignore[union-attr]
    assert store.pending_claims(claim.table_id) == []
    store.save_table(_with(record, seats=seats, released=(first,)))
    assert store.claim_of(first) is None


def test_a_watcher_claims_a_computer_seat_of_one_table(store: Store) -> None:
    first, watcher, third = (store.create_player(name).player_id for name in ("A", "W", "T"))
    claim = play_now(store, first)
    taken = store.claim_seat(claim.table_id, watcher, "W", 2)
    assert (taken.seat, taken.seated) == (2, False)
    with pytest.raises(IllegalMove) as refused:
        store.claim_seat(claim.table_id, third, "T", 2)
    assert refused.value.code == "seat_taken"
    with pytest.raises(IllegalMove) as refused:
        store.claim_seat(claim.table_id, third, "T", 0)  # a person's seat
    assert refused.value.code == "seat_taken"
    with pytest.raises(UnknownTable):
        store.claim_seat("no-such-table", third, "T")
    store.leave_claim(watcher)
    assert store.claim_of(watcher) is None


@pytest.mark.timeout(120)
def test_people_pressing_play_now_at_once_never_share_or_overfill(make_store: Callable[[], Store]) -> None:
    stores = [make_store() for _ in range(4)]
    people = [stores[0].create_player(f"P{n}").player_id for n in range(40)]
    claims: dict[int, Any] = {}
    failures: list[BaseException] = []
    start = threading.Barrier(8)

    def press(worker: int) -> None:
        store = stores[worker % len(stores)]
        try:
            start.wait(timeout=30)
            for person in people[worker::8]:
                claims[person] = play_now(store, person)
        except BaseException as error:  # reported below, with the others'
            failures.append(error)

    threads = [threading.Thread(target=press, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    assert not failures, failures
    assert len(claims) == len(people)
    seats = [(claim.table_id, claim.seat) for claim in claims.values()]
    assert len(set(seats)) == len(seats)  # nobody shares a seat
    per_table: dict[str, int] = {}
    for table_id, _ in seats:
        per_table[table_id] = per_table.get(table_id, 0) + 1
    assert max(per_table.values()) <= 4
    for person, claim in claims.items():  # one claim each, the one they were given
        assert stores[0].claim_of(person) == type(claim)(claim.table_id, claim.seat, claim.seated)


def test_a_round_is_rated_once_and_the_export_recomputes(store: Store) -> None:
    people = [store.create_player(f"P{n}").player_id for n in range(3)]
    rounds = [
        [RoundSeat(people[0]), RoundSeat(computer="strong"), RoundSeat(people[1]), RoundSeat(people[2])],
        [RoundSeat(people[2]), RoundSeat(people[0]), RoundSeat(computer="greedy"), RoundSeat(people[1])],
        [
            RoundSeat(computer="expert"),
            RoundSeat(people[1]),
            RoundSeat(people[0]),
            RoundSeat(computer="random"),
        ],
    ]
    for number, order in enumerate(rounds):
        store.record_round("thirteen", "match1", number, order, COMPUTERS)
    again = store.record_round("thirteen", "match1", 0, rounds[0], COMPUTERS)  # an owner's retry
    assert set(again) == {people[0], people[1], people[2]}
    assert store.rating("thirteen", people[0]).rounds == 3  # type: ignore[union-attr]
    exported = store.rated_rounds("thirteen")
    assert len(exported) == 3
    model = PlackettLuce(**{k: MODEL_SETTINGS[k] for k in ("mu", "sigma", "beta", "tau", "kappa")})
    ratings: dict[str, Any] = {}
    for kept in exported:
        teams = []
        for entry in kept["order"]:
            if "computer" in entry:
                teams.append([model.rating(mu=entry["mu"], sigma=entry["sigma"])])
            else:
                teams.append([ratings.get(str(entry["player"]), model.rating())])
        updated = model.rate(teams, ranks=list(range(1, len(teams) + 1)))
        for entry, team in zip(kept["order"], updated, strict=True):
            if "player" in entry:
                ratings[str(entry["player"])] = team[0]
        for player, after in kept["after"].items():
            assert ratings[player].mu == pytest.approx(after["mu"], abs=1e-6)
            assert ratings[player].sigma == pytest.approx(after["sigma"], abs=1e-6)
    for person in people:
        kept_rating = store.rating("thirteen", person)
        assert kept_rating is not None
        assert kept_rating.mu == pytest.approx(ratings[str(person)].mu, abs=1e-6)


def test_leaderboards_count_rounds_and_rank_by_the_lower_bound(store: Store) -> None:
    people = [store.create_player(f"P{n}").player_id for n in range(2)]
    for number in range(12):
        order = [RoundSeat(people[0]), RoundSeat(computer="greedy"), RoundSeat(computer="greedy"),
                 RoundSeat(people[1])]  # fmt: skip
        store.record_round("thirteen", "m", number, order, COMPUTERS)
    board = store.leaderboard("thirteen")
    assert [line.player for line in board] == people
    assert board[0].skill.mu > Skill().mu > board[1].skill.mu
    week = store.leaderboard("thirteen", week=True)
    assert [line.rounds for line in week] == [12, 12]
    assert store.leaderboard("thirteen", min_rounds=13) == []
    history = store.rating_history("thirteen", people[0])
    assert len(history) == 12 and history[-1][1].mu == pytest.approx(board[0].skill.mu)


def _with(record: TableRecord, **changes: Any) -> TableRecord:
    from dataclasses import replace

    return replace(record, phase=record.phase or GATHERING, **changes)
