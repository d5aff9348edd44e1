"""A player's data as a whole (decision 0064): the download holds every row that names the player,
"Delete me" leaves no row naming them while the boards still add up, and merging two players keeps one
counted attempt a day and the right records."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import insert, select, update

from parlour.games.ratings import Skill
from parlour.store import Store, UnknownPlayer
from parlour.store.daily import today
from parlour.store.models import Base, DailyResultRow
from parlour.store.player_data import ERASED_WITH_PLAYER, KEPT_AS_RESULTS, player_columns
from parlour.store.ratings import RoundSeat

from .lines import code_of
from .test_daily import attempt, first_moves
from .test_records import NUMBER, play, win


def naming(store: Store, player_id: int) -> dict[str, list[dict[str, Any]]]:
    """Every row of the database that names ``player_id``, read straight from the tables: a column
    that refers to players, or a JSON list of seats holding ``{"player": id}``."""
    found: dict[str, list[dict[str, Any]]] = {}
    with store.engine.connect() as connection:
        for table in Base.metadata.sorted_tables:
            for row in connection.execute(select(table)).mappings():
                refers = any(
                    row[column.name] == player_id
                    for column in table.columns
                    if column.foreign_keys
                    and any(k.column.table.name == "players" for k in column.foreign_keys)
                )
                seats = [value for value in row.values() if isinstance(value, list)]
                in_seats = any(
                    isinstance(seat, dict) and seat.get("player") == player_id
                    for value in seats
                    for seat in value
                )
                if refers or in_seats or (table.name == "players" and row["id"] == player_id):
                    found.setdefault(table.name, []).append(dict(row))
    return found


def test_every_column_naming_a_player_is_erased_or_kept() -> None:
    columns = {(table.name, column.name) for table, column in player_columns()}
    assert columns == ERASED_WITH_PLAYER | KEPT_AS_RESULTS
    assert not ERASED_WITH_PLAYER & KEPT_AS_RESULTS


def test_merging_keeps_one_counted_attempt_a_day_and_the_records(store: Store) -> None:
    phone = store.create_player("Ada")
    laptop = store.create_player()
    deal = store.daily_deal("tripeaks", "easy", today())
    early = attempt(store, laptop.player_id, first_moves(deal.code, 2))  # the laptop played first
    attempt(store, phone.player_id, first_moves(deal.code, 25))
    with store.engine.begin() as connection:  # the phone's attempt is made to come later
        connection.execute(
            update(DailyResultRow)
            .where(DailyResultRow.player_id == phone.player_id)
            .values(made_at=store_now() + timedelta(minutes=5))
        )
    yesterday = today() - timedelta(days=1)
    with store.engine.begin() as connection:
        connection.execute(
            insert(DailyResultRow).values(
                game="tripeaks", rules_key="easy", day=yesterday, player_id=laptop.player_id,
                game_id=early, standing=[5], result={"won": False}, made_at=store_now(),
            )
        )  # fmt: skip
    play(store, laptop.player_id, win())  # the laptop holds numbered deal 6's record and first win
    play(store, phone.player_id, win(extra=2))
    before_games = len(store.finished_games(phone.player_id, 100)) + len(
        store.finished_games(laptop.player_id, 100)
    )

    summary = store.merge_players(laptop.player_id, phone.player_id)

    assert summary.player_id == phone.player_id and summary.dropped_attempts == 1
    with pytest.raises(UnknownPlayer):
        store.player(laptop.player_id)
    assert store.player_by_token(laptop.token) == store.player(phone.player_id)  # the laptop stays signed in
    entry = store.daily_entry("tripeaks", "easy", today(), phone.player_id)
    assert entry is not None and entry.game_id == early  # the earlier attempt is the one that counts
    assert store.daily_board("tripeaks", "easy", today())[1] == 1
    assert store.daily_entry("tripeaks", "easy", yesterday, phone.player_id) is not None
    streaks = store.daily_streaks("tripeaks", phone.player_id)
    assert streaks.current_played == 2
    record = store.numbered_record("tripeaks", "easy", NUMBER)
    assert record is not None and record.holder.player_id == phone.player_id
    assert record.first_winner is not None and record.first_winner.player_id == phone.player_id
    assert len(store.finished_games(phone.player_id, 100)) == before_games
    assert store.statistics(phone.player_id)["tripeaks"].played == before_games
    assert naming(store, laptop.player_id) == {}


def store_now() -> Any:
    from parlour.store.rows import utcnow

    return utcnow()


def test_merging_plays_the_ratings_again_through_both_histories(store: Store) -> None:
    ada, ada_again, bob = (store.create_player(name).player_id for name in ("Ada", None, "Bob"))
    computers = {"strong": Skill(30.0, 2.0)}
    for number, first in enumerate((ada, bob, ada_again, ada_again)):
        other = bob if first != bob else ada
        store.record_round(
            "thirteen",
            f"m{number}",
            1,
            [RoundSeat(first), RoundSeat(other), RoundSeat(computer="strong")],
            computers,
        )
    store.merge_players(ada_again, ada)
    rating = store.rating("thirteen", ada)
    assert rating is not None and rating.rounds == 4
    history = store.rating_history("thirteen", ada)
    assert len(history) == 4 and history[-1][1].mu == pytest.approx(rating.mu)
    assert store.rating("thirteen", bob) is not None
    assert naming(store, ada_again) == {}


def test_the_download_holds_every_row_that_names_the_player(store: Store) -> None:
    ada = store.create_player("Ada")
    bob = store.create_player("Bob")
    attempt(store, ada.player_id, first_moves(store.daily_deal("tripeaks", "easy", today()).code, 3))
    play(store, ada.player_id, win())
    store.record_round("thirteen", "m1", 1, [RoundSeat(ada.player_id), RoundSeat(bob.player_id)], {})
    store.new_link_code(ada.player_id)
    data = store.player_data(ada.player_id)
    for table, rows in naming(store, ada.player_id).items():
        exported = data["rows"][table]
        for row in rows:
            key = {
                name: value
                for name, value in row.items()
                if isinstance(value, int | str) and not isinstance(value, bool)
            }
            assert any(all(other.get(name) == value for name, value in key.items()) for other in exported), (
                table,
                row,
            )
    assert data["rows"]["game_moves"]  # the moves of the player's games come with them


def test_after_delete_me_no_row_names_the_player_and_the_boards_add_up(store: Store) -> None:
    ada = store.create_player("Ada")
    bob = store.create_player("Bob")
    deal = store.daily_deal("tripeaks", "easy", today())
    attempt(store, ada.player_id, first_moves(deal.code, 3))
    attempt(store, bob.player_id, first_moves(deal.code, 2))
    play(store, ada.player_id, win())
    practice = store.start_game(ada.player_id, "tripeaks", "easy", code_of(7), ["human"])
    store.record_round("thirteen", "m1", 1, [RoundSeat(ada.player_id), RoundSeat(bob.player_id)], {})
    board_before = store.daily_board("tripeaks", "easy", today())
    leaders_before = store.numbered_leaders("tripeaks", "easy")

    erased = store.erase_player(ada.player_id)

    assert naming(store, ada.player_id) == {}
    assert store.player_by_token(ada.token) is None
    board = store.daily_board("tripeaks", "easy", today())
    assert board[1] == board_before[1] == 2
    assert {entry.player_id for entry in board[0]} == {erased, bob.player_id}
    assert all(entry.name is None for entry in board[0] if entry.player_id == erased)
    leaders = store.numbered_leaders("tripeaks", "easy")
    assert [leader.count for leader in leaders["records"]] == [
        leader.count for leader in leaders_before["records"]
    ]
    assert (
        store.rating("thirteen", erased) is not None and store.rating("thirteen", bob.player_id) is not None
    )
    with pytest.raises(Exception):  # noqa: B017 - the unranked practice game went with the player
        store.game_outcome(practice, erased)
    with pytest.raises(UnknownPlayer):
        store.erase_player(ada.player_id)


def test_an_operator_shows_and_deletes_a_player(store: Store) -> None:
    from click.testing import CliRunner

    from parlour.cli import main

    ada = store.create_player("Ada", agent="Firefox|Android")
    url = store.url.render_as_string(hide_password=False)
    runner = CliRunner()
    shown = runner.invoke(main, ["players", "show", str(ada.player_id), "--database-url", url])
    assert shown.exit_code == 0, shown.output
    assert "Ada" in shown.output and "Firefox on Android" in shown.output and "player_tokens" in shown.output
    as_json = runner.invoke(main, ["players", "show", str(ada.player_id), "--json", "--database-url", url])
    assert json.loads(as_json.output)["rows"]["players"][0]["name"] == "Ada"
    kept = runner.invoke(main, ["players", "delete", str(ada.player_id), "--database-url", url], input="n\n")
    assert kept.exit_code == 1 and store.player(ada.player_id).name == "Ada"
    gone = runner.invoke(main, ["players", "delete", str(ada.player_id), "--yes", "--database-url", url])
    assert gone.exit_code == 0 and "is deleted" in gone.output
    assert naming(store, ada.player_id) == {}
    again = runner.invoke(main, ["players", "show", str(ada.player_id), "--database-url", url])
    assert again.exit_code == 1 and "no player" in again.output
