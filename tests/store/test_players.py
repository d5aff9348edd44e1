"""Players: tokens, names, recovery codes, preferences; only hashes of secrets are stored."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from parlour.errors import InvalidInput
from parlour.store import InvalidPreference, InvalidRecoveryCode, Store, UnknownPlayer
from parlour.store.secrets import digest, normalize_recovery_code


def test_a_new_player_is_found_by_their_token(store: Store) -> None:
    new = store.create_player("Ada")
    player = store.player_by_token(new.token)
    assert player is not None
    assert (player.player_id, player.name) == (new.player_id, "Ada")


@pytest.mark.parametrize(
    "token", [None, "", "x", "a" * 43, "'; DROP TABLE players; --", "é" * 43, "a" * 4000]
)
def test_a_bad_or_foreign_token_gets_nobody(store: Store, token: str | None) -> None:
    store.create_player("Ada")
    assert store.player_by_token(token) is None


def test_only_hashes_of_secrets_are_stored(store: Store) -> None:
    new = store.create_player()
    with store.engine.connect() as connection:
        dump = " ".join(
            str(row)
            for table in ("players", "player_tokens")
            for row in connection.execute(text(f"select * from {table}"))
        )
    assert new.token not in dump and new.recovery_code not in dump
    assert digest(new.token) in dump and digest(new.recovery_code) in dump


def test_recovery_code_gives_a_second_browser_the_same_player(store: Store) -> None:
    new = store.create_player("Béla")
    other = store.create_player("Other")
    token = store.recover(new.recovery_code.lower().replace("-", " "))
    assert token != new.token
    again = store.player_by_token(token)
    assert again is not None and again.player_id == new.player_id
    first = store.player_by_token(new.token)
    assert first is not None and first.player_id == new.player_id
    assert store.player_by_token(other.token) != again


def test_a_new_recovery_code_retires_the_old_one(store: Store) -> None:
    new = store.create_player()
    fresh_code = store.new_recovery_code(new.player_id)
    with pytest.raises(InvalidRecoveryCode):
        store.recover(new.recovery_code)
    assert store.player_by_token(store.recover(fresh_code)).player_id == new.player_id  # type: ignore[union-attr]


@pytest.mark.parametrize("code", ["", "hello", "AAAAA-AAAAA-AAAAA-AAAA", "AAAAA-AAAAA-AAAAA-AAAAA"])
def test_a_wrong_recovery_code_is_refused(store: Store, code: str) -> None:
    store.create_player()
    with pytest.raises(InvalidRecoveryCode, match="recovery code"):
        store.recover(code)


def test_recovery_codes_forgive_case_and_confusable_letters() -> None:
    assert normalize_recovery_code("k7qx2 9mztb 4hrwd pe8na") == "K7QX2-9MZTB-4HRWD-PE8NA"
    assert normalize_recovery_code("O0000-11111-22222-33333") == "00000-11111-22222-33333"
    assert normalize_recovery_code("K7QX2-9MZTB-4HRWD-PE8N") is None
    assert normalize_recovery_code("UUUUU-11111-22222-33333") is None


def test_rename_checks_the_name(store: Store) -> None:
    new = store.create_player()
    assert store.player(new.player_id).name is None
    assert store.rename(new.player_id, "  Marie   Curie ").name == "Marie Curie"
    for bad in ["", "   ", "x" * 41, "a\x00b"]:
        with pytest.raises(InvalidInput, match="display name"):
            store.rename(new.player_id, bad)
    assert store.player(new.player_id).name == "Marie Curie"
    assert [p.player_id for p in store.players_named("marie curie")] == [new.player_id]


def test_unknown_player(store: Store) -> None:
    with pytest.raises(UnknownPlayer):
        store.rename(12345, "Nobody")
    with pytest.raises(UnknownPlayer):
        store.preferences(12345)


def test_preferences_have_defaults_and_are_per_player(store: Store) -> None:
    ada, bob = store.create_player("Ada"), store.create_player("Bob")
    assert store.preferences(ada.player_id) == {
        "lang": None,
        "error_help": True,
        "sound": True,
        "screen_reader": False,
        "felt": "green",
        "card_back": "red",
        "theme": "auto",
        "deck": "two_colour",
        "card_size": "normal",
        "bot_speed": "normal",
        "bot_strength": "strong",
        "hint_strength": "fair",
    }
    store.set_preferences(ada.player_id, lang="hu", error_help=False, bot_speed="fast")
    assert store.preferences(ada.player_id)["lang"] == "hu"
    assert store.preferences(ada.player_id)["error_help"] is False
    assert store.preferences(bob.player_id)["lang"] is None


@pytest.mark.parametrize(
    "changes",
    [
        {"lang": "de"},
        {"error_help": "yes"},
        {"bot_speed": "warp"},
        {"bot_strength": 3},
        {"colour": "red"},
        {"felt": "purple"},
        {"card_back": ["red"]},
        {"sound": "loud"},
        {"hint_strength": "expert"},
        {"theme": "light"},
        {"deck": "four"},
        {"card_size": 2},
    ],
)
def test_bad_preferences_change_nothing(store: Store, changes: dict[str, object]) -> None:
    ada = store.create_player("Ada")
    store.set_preferences(ada.player_id, bot_speed="slow")
    with pytest.raises(InvalidPreference):
        store.set_preferences(ada.player_id, **{"bot_strength": "greedy", **changes})
    assert store.preferences(ada.player_id) == {
        "lang": None,
        "error_help": True,
        "sound": True,
        "screen_reader": False,
        "felt": "green",
        "card_back": "red",
        "theme": "auto",
        "deck": "two_colour",
        "card_size": "normal",
        "bot_speed": "slow",
        "bot_strength": "strong",
        "hint_strength": "fair",
    }
