"""Display names that cannot pass for one another (issue 48, ``parlour.store.names``): one alphabet a
name, and no two players holding names of the same skeleton."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from parlour.errors import InvalidInput
from parlour.server.app import create_app
from parlour.store import Store
from parlour.store.database import alembic_config
from parlour.store.names import skeleton
from parlour.store.players import NameTaken, clean_name

from .test_challenges import csrf_of
from .test_pages import me


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as test_client:
        yield test_client


@pytest.mark.parametrize(
    "name",
    [
        "\u0410da",
        "Ad\u0430",
        "P\u0430ul",
        "Ma\u200bx",
        "\u0391lexis \u0434",
    ],  # Cyrillic А, а; a zero-width space
)
def test_a_name_mixing_alphabets_or_hiding_a_character_is_refused(name: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        clean_name(name)
    assert refused.value.code == "mixed_scripts"


@pytest.mark.parametrize("name", ["Ada", "Ада", "Ἀλέξης", "आदित्य", "अर्जुन\u200d", "Zoë 2", "O'Brien-Smith"])
def test_a_name_in_one_alphabet_is_welcome(name: str) -> None:
    assert clean_name(name)


def test_names_read_the_same_share_a_skeleton() -> None:
    same = ["Ada", "ADA", " ada ", "Ádá", "\u0410\u0434\u0430".replace("\u0434", "d"), "ＡＤＡ"]
    assert {skeleton(name) for name in same} == {"ada"}
    assert skeleton("\u0421\u043e\u0441\u043e") == skeleton("Coco")  # Cyrillic С, о, с, о
    assert skeleton("Ann") != skeleton("Anna")


@given(st.text(min_size=1, max_size=40))
def test_the_skeleton_is_stable_and_ignores_case(name: str) -> None:
    assert skeleton(skeleton(name)) == skeleton(name)
    assert skeleton(name.upper()) == skeleton(name.lower()) or not name.isascii()


def test_two_players_cannot_hold_names_read_the_same(store: Store) -> None:
    ada = store.create_player("Ada")
    other = store.create_player()
    for taken in ("ada", "ADA", "Ádá", "ＡＤＡ"):
        with pytest.raises(NameTaken):
            store.rename(other.player_id, taken)
    with pytest.raises(NameTaken):
        store.create_player("Ada")
    assert store.player(other.player_id).name is None
    assert store.rename(ada.player_id, "ADA").name == "ADA"  # one's own name in another case is fine
    assert store.rename(other.player_id, "Ada Lovelace").name == "Ada Lovelace"


def test_the_player_page_says_why_a_name_is_refused(client: TestClient, store: Store) -> None:
    store.create_player("Ada")
    me(client, store)
    page = client.get("/player", headers={"Accept-Language": "fr"})
    for name, said in (
        ("ada", "Un autre joueur porte ce nom"),
        ("\u0410da", "Un nom s'écrit dans un seul alphabet"),
    ):
        answer = client.post(
            "/player/name", data={"csrf": csrf_of(page.text), "name": name}, headers={"Accept-Language": "fr"}
        )
        assert answer.status_code == 400 and said in answer.text.replace("&#39;", "'"), answer.text[:500]


def test_the_migration_keys_the_names_already_taken_oldest_first(fresh: Any, backend: str) -> None:
    """Players named alike before names had keys keep their names; the oldest holds the key, so the
    others are asked for another name only when they next rename."""
    store = Store(fresh.url(backend))
    try:
        with store.engine.begin() as connection:
            command.upgrade(alembic_config(connection), "0012")
            for player_id, name in ((1, "Ada"), (2, "ADA"), (3, "Bea")):
                connection.execute(
                    text(
                        "INSERT INTO players (id, name, recovery_hash, preferences, created_at)"
                        " VALUES (:id, :name, :hash, '{}', :at)"
                    ),
                    {
                        "id": player_id,
                        "name": name,
                        "hash": f"h{player_id}",
                        "at": datetime(2026, 5, 1, tzinfo=UTC),
                    },
                )
        store.upgrade()
        assert [store.player(n).name for n in (1, 2, 3)] == ["Ada", "ADA", "Bea"]
        with store.engine.begin() as connection:
            keys = connection.execute(text("SELECT id, name_key FROM players ORDER BY id")).all()
        assert [tuple(row) for row in keys] == [(1, "ada"), (2, None), (3, "bea")]
        with pytest.raises(NameTaken):
            store.rename(2, "Ada")
        assert store.rename(2, "Ada Two").name == "Ada Two"
    finally:
        store.engine.dispose()
