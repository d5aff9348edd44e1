"""Properties: a numbered game's record is the best of all results whatever their order; codes round-trip."""

from __future__ import annotations

import itertools
import secrets
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session

from parlour.store import Store
from parlour.store.records import NumberedEntry, apply_result
from parlour.store.secrets import new_recovery_code, normalize_recovery_code

results = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 28), st.integers(28, 120)), min_size=1, max_size=12
)


@pytest.fixture(scope="module")
def sqlite_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('properties') / 'records.sqlite3'}")
    store.upgrade()
    return store


_numbers = itertools.count(1)


@settings(max_examples=40, deadline=None)
@given(plays=results)
def test_the_record_is_the_best_result_and_the_first_win_is_the_first(
    sqlite_store: Store, plays: list[tuple[int, int, int]]
) -> None:
    store = sqlite_store
    run = secrets.token_hex(4)  # the store outlives one example: names of its own each time
    players = [store.create_player(f"P{index} {run}").player_id for index in range(4)]
    number = next(_numbers)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    news = []
    with Session(store._writer) as session, session.begin():  # the store's own write path
        for step, (who, left, moves) in enumerate(plays):
            result = NumberedEntry("tripeaks", "easy", number, (left, moves), left == 0)
            news.append(apply_result(session, result, players[who], start + timedelta(seconds=step)))
    record = store.numbered_record("tripeaks", "easy", number)
    assert record is not None and record.plays == len(plays)
    best = min((left, moves) for _who, left, moves in plays)
    assert record.standing == best
    first_best = next(step for step, (_w, left, moves) in enumerate(plays) if (left, moves) == best)
    assert record.holder.player_id == players[plays[first_best][0]]
    wins = [step for step, (_w, left, _m) in enumerate(plays) if left == 0]
    assert [step for step, change in enumerate(news) if change.first_win] == wins[:1]
    if wins:
        assert record.first_winner is not None and record.first_winner.player_id == players[plays[wins[0]][0]]
    else:
        assert record.first_winner is None
    for step, change in enumerate(news):
        earlier = [(left, moves) for _w, left, moves in plays[:step]]
        assert change.record_broken == (bool(earlier) and plays[step][1:] < min(earlier))
    page = store.numbered_page("tripeaks", "easy", players[0], number - 1, 1)[0]
    mine = [(left, moves) for who, left, moves in plays if who == 0]
    assert (page.mine is None) == (not mine)
    if page.mine is not None:
        assert page.mine.standing == min(mine)


@given(st.data())
def test_recovery_codes_survive_retyping(data: st.DataObject) -> None:
    code = new_recovery_code()
    retyped = "".join(
        data.draw(st.sampled_from([char, char.lower()])) + data.draw(st.sampled_from(["", " ", "-"]))
        for char in code.replace("-", "")
    )
    assert normalize_recovery_code(retyped) == code
