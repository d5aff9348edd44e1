"""Pebbles' numbered deals, from its definition alone: played alone against the computer, their results
enter records of the game's own standing, beside TriPeaks' and apart from them, on the numbered games'
pages, in their JSON and in the navigation."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from parlour.errors import InvalidInput
from parlour.games.registry import default_registry
from parlour.server.app import create_app
from parlour.store import Outcome, Store

GAMES = Path(__file__).resolve().parent
sys.path.insert(0, str(GAMES))
from pebbles.game import DEFINITION, PebblesMatch  # noqa: E402

NUMBER = 7


def play(store: Store, player_id: int, count: int) -> tuple[Outcome, tuple[int, int]]:
    """Play numbered deal NUMBER, taking ``count`` counters each turn (fewer when fewer are left);
    return the outcome and the standing the person's play earned (points short, takes)."""
    new = DEFINITION.new({"rules": "standard", "number": NUMBER})
    assert new.spec is not None and new.spec.numbered == NUMBER and new.spec.code == str(NUMBER)
    game_id = store.record_game(player_id, DEFINITION, new.spec)
    match = new.game
    assert isinstance(match, PebblesMatch)
    moves: list[str] = []
    takes = 0
    for _ in range(500):
        if match.finished:
            break
        if match.between_rounds:
            change = match.act(0, {"type": "continue"})
        elif match.turn == 1:
            auto = match.auto()
            assert auto is not None
            change = auto
        else:
            change = match.act(0, {"type": "take", "count": min(count, match.pebbles.pile)})
            takes += 1
        moves.extend(change.moves)
    assert match.finished
    store.append_moves(game_id, player_id, 0, moves)
    short = match.pebbles.rules.target_points - match.pebbles.scores[0]
    return store.finish_game(game_id, player_id), (short, takes)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    made = Store(f"sqlite:///{tmp_path / 'pebbles.db'}", games=default_registry().with_games(DEFINITION))
    made.upgrade()
    return made


def test_numbered_pebbles_deals_keep_records_of_pebbles_own_standing(store: Store) -> None:
    ada, bob = store.create_player("Ada"), store.create_player("Bob")
    first, ada_standing = play(store, ada.player_id, 1)
    assert first.numbered == NUMBER and first.rules_key == "standard" and first.standing == ada_standing
    assert first.holds_record and first.personal_best and first.first_win == (ada_standing[0] == 0)
    second, bob_standing = play(store, bob.player_id, 3)
    record = store.numbered_record("pebbles", "standard", NUMBER)
    assert record is not None and record.plays == 2
    assert record.standing == min(ada_standing, bob_standing)
    assert record.holder.name == ("Bob" if bob_standing < ada_standing else "Ada")
    assert second.record_broken == (bob_standing < ada_standing)
    assert record.best == {"best_short": record.standing[0], "best_takes": record.standing[1]}
    assert record.won == (record.standing[0] == 0)
    # TriPeaks' deal of the same number under its own rules is another record altogether.
    assert store.numbered_record("tripeaks", "easy", NUMBER) is None
    [entry] = store.numbered_page("pebbles", "standard", ada.player_id, NUMBER - 1, 1)
    assert entry.mine is not None and entry.mine.standing == ada_standing and entry.winnable is None
    with pytest.raises(InvalidInput):
        store.numbered_record("pebbles", "easy", NUMBER)
    with pytest.raises(InvalidInput):
        store.numbered_record("pebbles", "standard", 101)
    with pytest.raises(InvalidInput):
        DEFINITION.new({"rules": "standard", "number": 101})


def test_the_numbered_pages_show_pebbles_records_in_its_own_words(store: Store) -> None:
    ada = store.create_player("Ada")
    _, standing = play(store, ada.player_id, 2)
    registry = store.games
    with TestClient(create_app(store, games=registry)) as client:
        page = client.get("/pebbles/numbered", params={"game": NUMBER})
        assert page.status_code == 200
        assert "Fewest points short of the target, then fewest takes." in page.text
        assert "Numbered games: Pebbles" in page.text and "Numbered games: TriPeaks" in page.text
        row = re.search(rf'<tr id="game-{NUMBER}" class="highlight">(.*?)</tr>', page.text, re.S)
        assert row is not None and f"{standing[0]} points short, {standing[1]} takes" in row.group(1)
        assert "Ada" in row.group(1)
        assert 'id="game-50"' in page.text and 'id="game-51"' not in page.text
        last = client.get("/pebbles/numbered", params={"page": 9}).text
        assert 'id="game-100"' in last and 'id="game-101"' not in last and "Page 2 of 2" in last
        assert 'action="/pebbles/numbered/play"' in page.text  # Pebbles' own page plays it (its folder's)
        body = client.get(f"/api/numbered/pebbles/standard/{NUMBER}").json()
        assert body["record"]["best_short"] == standing[0] and body["record"]["best_takes"] == standing[1]
        assert body["record"]["holder"] == "Ada" and body["winnable"] is None
        assert client.get("/api/numbered/pebbles/standard/101").status_code == 404
        tripeaks = client.get("/tripeaks/numbered", params={"game": NUMBER})
        assert tripeaks.status_code == 200 and "Ada" not in tripeaks.text
