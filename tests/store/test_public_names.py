"""Display names fit for a public place (issue 50): none passes for a computer player, a seat's
default name or the site; blocked words are found however they are spelt; a name changes at most once a
day; a reported name is queued for an operator, who renames, clears or blocks it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from click.testing import CliRunner

from parlour.cli import main
from parlour.errors import InvalidInput
from parlour.store import Store
from parlour.store import players as players_module
from parlour.store.names import check_public
from parlour.store.players import NameTooSoon

from .conftest import FreshDatabases


@pytest.mark.parametrize(
    "name",
    ["Computer 2", "computer (Strong)", "Ordinateur 1", "Gép", "कंप्यूटर 3", "Player 2", "Joueur", "Játékos 4",
     "Admin", "PARLOUR", "Expert", "Bot", "Ｃｏｍｐｕｔｅｒ"],
)  # fmt: skip
def test_names_that_pass_for_the_site_are_refused(name: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        check_public(name)
    assert refused.value.code == "name_reserved"


@pytest.mark.parametrize("name", ["fuck", "F.U.C.K", "fuckface", "Kurvaanyád", "Chutiya", "चूतिया", "geci"])
def test_blocked_words_are_found_however_spelt(name: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        check_public(name)
    assert refused.value.code == "name_blocked"


@pytest.mark.parametrize(
    "name", ["Ada", "Bình", "Nguyễn Thị Ánh", "गीता", "Éva Kovács", "Scunthorpe", "Dev", "Compton"]
)
def test_ordinary_names_pass(name: str) -> None:
    check_public(name)


def test_a_name_changes_once_a_day(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    player = store.create_player().player_id
    store.rename(player, "Ana")  # a first name is free
    store.rename(player, "Anna")
    with pytest.raises(NameTooSoon) as refused:
        store.rename(player, "Annie")
    assert refused.value.code == "name_too_soon"
    assert store.rename(player, "Anna").name == "Anna"  # the same name again is no change
    later = datetime.now(UTC) + timedelta(days=1, minutes=1)
    monkeypatch.setattr(players_module, "utcnow", lambda: later)
    assert store.rename(player, "Annie").name == "Annie"
    assert store.rename(player, "Zed", by_operator=True).name == "Zed"


def test_reserved_names_are_refused_when_made_and_renamed(store: Store) -> None:
    with pytest.raises(InvalidInput):
        store.create_player("Computer 1")
    player = store.create_player().player_id
    with pytest.raises(InvalidInput):
        store.rename(player, "Player 3")


def reported_table(store: Store, people: list[int]) -> str:
    seats: list[Any] = [
        {"kind": "person", "name": f"P{n}", "player": person, "token_hash": None, "strength": None}
        for n, person in enumerate(people)
    ] + [{"kind": "bot", "name": "", "player": None, "token_hash": None, "strength": "strong"}]
    return store.create_table("thirteen", people[0], {}, seats).table_id


def test_a_reported_name_is_queued_then_answered(fresh: FreshDatabases, backend: str) -> None:
    url = fresh.url(backend).render_as_string(hide_password=False)
    store = Store(url)
    store.upgrade()
    ana, rude, watcher = (store.create_player(name).player_id for name in ("Ana", "Rudey", "Wu"))
    table = reported_table(store, [ana, rude, watcher])
    assert store.report_name(ana, table, 1) == "Rudey"
    assert store.report_name(ana, table, 1) == "Rudey"  # twice counts once
    store.report_name(watcher, table, 1)
    for seat in (0, 3, 9, "1", True):  # oneself, a computer player, no seat, not a number
        with pytest.raises(InvalidInput):
            store.report_name(ana, table, seat)
    with pytest.raises(InvalidInput):
        store.report_name(ana, "../etc", 1)
    (entry,) = store.reported_names()
    assert (entry.player, entry.name, entry.reports) == (rude, "Rudey", 2)
    store.close()

    runner = CliRunner()
    listed = runner.invoke(main, ["players", "reported", "--json", "--database-url", url])
    assert json.loads(listed.output)["reported"][0]["player"] == rude
    blocked = runner.invoke(main, ["players", "block", str(rude), "--database-url", url])
    assert blocked.exit_code == 0 and "Rudey" in blocked.output
    assert "No reported name" in runner.invoke(main, ["players", "reported", "--database-url", url]).output
    store = Store(url)
    with pytest.raises(InvalidInput) as refused:
        store.create_player("rudey")  # blocked for everyone, in any spelling read the same
    assert refused.value.code == "name_blocked"
    assert store.player(rude).name is None
    store.close()
    renamed = runner.invoke(main, ["players", "rename", str(watcher), "Wei", "--database-url", url])
    assert renamed.exit_code == 0 and "Wei" in renamed.output
    bad = runner.invoke(main, ["players", "rename", str(watcher), "Computer", "--database-url", url])
    assert bad.exit_code != 0 and "computer" in bad.output.lower()
    cleared = runner.invoke(main, ["players", "clear", str(ana), "--database-url", url])
    assert cleared.exit_code == 0
