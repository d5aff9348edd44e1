"""The daily deal (decision 0050): one secret deal a day per rule set, drawn once and committed to in
advance; the first attempt of a player to end counts, from its replayed moves; the code stays out of
every page and frame until the player's attempt is over or the day is."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator
from datetime import UTC, date, timedelta
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import update

from parlour.cli import main
from parlour.server.app import create_app
from parlour.server.pages.players import StoreTexts
from parlour.store import Store
from parlour.store.daily import today
from parlour.store.messages import record_messages
from parlour.store.models import GameRow
from parlour.tripeaks import DealCode, Game
from parlour.tripeaks.definition import TriPeaksDefinition
from parlour.tripeaks.fairness import verify
from parlour.tripeaks.solver.solve import solve

from .lines import stuck_line
from .test_pages import me

TRIPEAKS = TriPeaksDefinition()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as test_client:
        yield test_client


def attempt(store: Store, player_id: int, moves: list[str] | tuple[str, ...], day: date | None = None) -> str:
    """Play an attempt at the day's Easy deal with ``moves`` and end it; return its record's id."""
    day = day or today()
    deal = store.daily_deal("tripeaks", "easy", day)
    new = TRIPEAKS.ranked(deal.code, {"daily": day.isoformat()})
    assert new.spec is not None
    game_id = store.record_game(player_id, TRIPEAKS, new.spec)
    if moves:
        store.append_moves(game_id, player_id, 0, list(moves))
    store.finish_game(game_id, player_id)
    return game_id


def first_moves(code: str, count: int) -> list[str]:
    """The first ``count`` moves of a line that clears as many cards as the solver can."""
    line: list[str] = list(solve(Game.from_code(code)).line or [])
    return list(line[:count])


def test_a_days_deal_is_drawn_once_and_committed_to(make_store: Callable[[], Store]) -> None:
    first, second = make_store(), make_store()
    day = today()
    deal = first.daily_deal("tripeaks", "easy", day)
    assert second.daily_deal("tripeaks", "easy", day) == deal  # another process reads the same row
    assert verify(deal.code, deal.salt, deal.commitment)
    assert DealCode.parse(deal.code).rules.name == "easy" and DealCode.parse(deal.code).number > 50_000
    others = {
        first.daily_deal("tripeaks", "classic", day).code,
        first.daily_deal("tripeaks", "easy", day - timedelta(days=1)).code,
    }
    assert deal.code not in others and len(others) == 2
    assert not deal.revealed(datetime_at(day, 23)) and deal.revealed(datetime_at(day + timedelta(days=1), 0))


def datetime_at(day: date, hour: int) -> Any:
    from datetime import datetime, time

    return datetime.combine(day, time(hour), tzinfo=UTC)


def test_the_first_attempt_to_end_counts_from_its_replayed_moves(store: Store) -> None:
    ada = store.create_player("Ada").player_id
    deal = store.daily_deal("tripeaks", "easy", today())
    few = first_moves(deal.code, 3)
    counted = attempt(store, ada, few)
    entry = store.daily_entry("tripeaks", "easy", today(), ada)
    assert entry is not None and entry.game_id == counted and entry.place == 1
    assert entry.result["moves"] == len(few)
    practice = attempt(store, ada, first_moves(deal.code, 20))  # a better second attempt is practice
    first, second = store.game_outcome(counted, ada), store.game_outcome(practice, ada)
    assert (
        first is not None and first.daily == "counted" and second is not None and second.daily == "practice"
    )
    assert record_messages(first, "en") == ["This attempt counts for the day's leaderboard."]
    assert record_messages(second, "fr")[0].startswith("Entraînement")
    again = store.daily_entry("tripeaks", "easy", today(), ada)
    assert again is not None and again.game_id == counted and again.result == entry.result
    assert store.daily_board("tripeaks", "easy", today())[1] == 1


def test_an_attempt_left_before_its_first_move_counts_for_nothing(store: Store) -> None:
    ada = store.create_player("Ada").player_id
    attempt(store, ada, [])
    assert store.daily_entry("tripeaks", "easy", today(), ada) is None


def test_a_forged_result_is_not_believed(store: Store) -> None:
    ada = store.create_player("Ada").player_id
    deal = store.daily_deal("tripeaks", "easy", today())
    new = TRIPEAKS.ranked(deal.code, {"daily": today().isoformat()})
    assert new.spec is not None
    game_id = store.record_game(ada, TRIPEAKS, new.spec)
    store.append_moves(game_id, ada, 0, ["draw"])
    with store.engine.begin() as connection:  # a won result written straight into the database
        connection.execute(
            update(GameRow)
            .where(GameRow.id == game_id)
            .values(result={"won": True, "left": 0, "score": 9999})
        )
    store.finish_game(game_id, ada)
    entry = store.daily_entry("tripeaks", "easy", today(), ada)
    assert entry is not None and not entry.result["won"] and entry.result["moves"] == 1
    assert entry.result["left"] > 0 and entry.result["score"] != 9999


def test_an_attempt_at_a_day_that_is_over_counts_for_nothing(store: Store) -> None:
    ada = store.create_player("Ada").player_id
    yesterday = today() - timedelta(days=1)
    attempt(store, ada, ["draw"], day=yesterday)
    assert store.daily_entry("tripeaks", "easy", yesterday, ada) is None


def test_the_leaderboard_ranks_cards_cleared_then_score_then_moves(store: Store) -> None:
    deal = store.daily_deal("tripeaks", "easy", today())
    results = {}
    for name, moves in (("Few", 2), ("Most", 25), ("Draws", 0), ("Some", 8)):
        player = store.create_player(name).player_id
        line = first_moves(deal.code, moves) if moves else list(stuck_line(deal.code)[:3])
        attempt(store, player, line)
        results[name] = line
    board, total, _ = store.daily_board("tripeaks", "easy", today())
    assert total == 4
    standings = [entry.standing for entry in board]
    assert standings == sorted(standings)  # cards left, -score, moves, seconds: lower first
    assert [entry.place for entry in board] == [1, 2, 3, 4]
    assert board[0].name == "Most" and board[-1].name == "Draws"


def hidden_code_texts(code: str) -> list[str]:
    """The texts that would give a deal away: its code and its number's letters."""
    return [code, code.split("-")[-1]]


def test_the_daily_page_frames_and_review_hold_no_code_until_the_day_is_over(
    client: TestClient, store: Store
) -> None:
    page = client.get("/tripeaks/daily")
    assert page.status_code == 200
    deal = store.daily_deal("tripeaks", "easy", today())
    assert deal.commitment in page.text and not any(
        text in page.text for text in hidden_code_texts(deal.code)
    )
    player_id = me(client, store)
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/tripeaks/daily").text)
    assert csrf is not None
    played = client.post(
        "/tripeaks/daily/play", data={"csrf": csrf.group(1), "rules": "easy"}, follow_redirects=False
    )
    assert played.status_code == 303 and played.headers["location"] == "/tripeaks"
    [record] = store.open_games(player_id, "tripeaks")
    assert record.code == deal.code and record.secret == {"daily": today().isoformat()}
    board_page = client.get("/tripeaks")
    assert not any(text in board_page.text for text in hidden_code_texts(deal.code))
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{record.id}") as socket:
        socket.send_json({"type": "hello", "v": None})
        seen.append(socket.receive_json())
        for ref, move in enumerate(first_moves(deal.code, 6), start=1):
            socket.send_json({"type": "action", "action": {"move": move}, "ref": ref})
            while (message := socket.receive_json())["type"] != "ack":
                seen.append(message)
    frames = json.dumps(seen)
    assert not any(text in frames for text in hidden_code_texts(deal.code))
    api = client.get(f"/api/daily/tripeaks/easy/{today().isoformat()}").json()
    assert "code" not in api["deal"] and api["you"] is None
    store.finish_game(
        record.id, player_id
    )  # the attempt ends and counts: the code still waits for the day's end
    api = client.get(f"/api/daily/tripeaks/easy/{today().isoformat()}").json()
    assert "code" not in api["deal"] and api["you"]["place"] == 1 and api["total"] == 1
    assert not any(text in client.get("/tripeaks/daily").text for text in hidden_code_texts(deal.code))
    refused = client.get(f"/api/games/{record.id}/review")
    assert refused.status_code == 409 and refused.json()["code"] == "ranked_open"
    stranger = TestClient(client.app)
    assert "code" not in stranger.get(f"/api/daily/tripeaks/easy/{today().isoformat()}").json()["deal"]
    assert deal.code not in stranger.get("/tripeaks/daily").text


def test_a_past_day_shows_its_code_and_is_played_as_practice(client: TestClient, store: Store) -> None:
    yesterday = today() - timedelta(days=1)
    page = client.get(f"/tripeaks/daily/{yesterday.isoformat()}?rules=classic")
    deal = store.daily_deal("tripeaks", "classic", yesterday)
    assert page.status_code == 200 and deal.code in page.text and deal.salt in page.text
    assert client.get(f"/tripeaks/daily/{today().isoformat()}", follow_redirects=False).status_code == 307
    for bad in ("2020-01-01", (today() + timedelta(days=1)).isoformat(), "yesterday"):
        assert client.get(f"/tripeaks/daily/{bad}").status_code == 404
        assert client.get(f"/api/daily/tripeaks/easy/{bad}").json()["code"] == "no_such_daily_deal"
    assert client.get("/nosuchgame/daily").status_code == 404
    player_id = me(client, store)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text) or re.search(
        r'name="csrf" value="([^"]+)"', client.get(f"/tripeaks/daily/{yesterday.isoformat()}").text
    )
    assert csrf is not None
    form = {"csrf": csrf.group(1), "rules": "classic", "day": yesterday.isoformat()}
    assert client.post("/tripeaks/daily/play", data=form, follow_redirects=False).status_code == 303
    [record] = store.open_games(player_id, "tripeaks")
    assert record.code == deal.code and not record.secret  # public: an ordinary game


def test_the_command_line_prints_the_days_commitment_and_only_a_past_days_code(store: Store) -> None:
    url = store.url.render_as_string(hide_password=False)
    args = ["tripeaks", "daily", "--database-url", url, "--json"]
    now = json.loads(CliRunner().invoke(main, args).stdout)
    assert now == json.loads(CliRunner().invoke(main, args).stdout)  # the same every time
    assert "code" not in now and now["date"] == today().isoformat() and now["rules"] == "easy"
    assert now["commitment"] == store.daily_deal("tripeaks", "easy", today()).commitment
    codes = set()
    for back in (1, 2):
        for rules in ("easy", "classic"):
            day = (today() - timedelta(days=back)).isoformat()
            said = json.loads(CliRunner().invoke(main, [*args, "--date", day, "--rules", rules]).stdout)
            assert verify(said["code"], said["salt"], said["commitment"])
            assert said["code"].startswith(f"TP2-{rules[0].upper()}-")  # a secret deal (decision 0059)
            codes.add(said["code"])
    assert len(codes) == 4
    future = CliRunner().invoke(main, [*args, "--date", (today() + timedelta(days=1)).isoformat()])
    assert future.exit_code == 2 and "has not begun" in future.output


def test_streaks_count_days_in_a_row_played_and_won() -> None:
    from parlour.store.daily import streaks

    now = date(2026, 12, 3)  # a Thursday
    days = {now - timedelta(days=back): won for back, won in ((1, True), (2, False), (3, True), (5, True))}
    found = streaks(days, now)
    assert (found.current_played, found.best_played) == (3, 3)  # today still to play: up to yesterday
    assert (found.current_won, found.best_won) == (1, 1)
    found = streaks({**days, now: True}, now)
    assert (found.current_played, found.current_won) == (4, 2) and found.best_played == 4
    assert streaks({now - timedelta(days=2): True}, now).current_played == 0  # yesterday was missed
    calendar = found.calendar
    assert len(calendar) == 4 and all(len(week) == 7 for week in calendar)
    assert calendar[0][0][0].weekday() == 0 and calendar[-1][3] == (now, "won")
    assert (
        calendar[-1][4][1] == "later"
        and dict(day for week in calendar for day in week)[now - timedelta(days=2)] == "played"
    )


def test_the_player_page_shows_the_streak_and_its_calendar(client: TestClient, store: Store) -> None:
    player_id = me(client, store)
    attempt(store, player_id, ["draw"])
    page = client.get("/player", headers={"Accept-Language": "hu"})
    assert page.status_code == 200 and "Egymás utáni játszott napok" in page.text
    assert (
        page.text.count('class="day-played"') == 1
        and store.daily_streaks("tripeaks", player_id).current_played == 1
    )


def test_numbered_leaderboards_count_first_wins_and_records_this_week_and_ever(
    client: TestClient, store: Store
) -> None:
    from .lines import code_of, winning_line
    from .test_pages import finish

    won = [n for n in range(2, 40) if winning_line(code_of(n))][:3]
    assert len(won) == 3
    ada = me(client, store)
    bea = store.create_player("Bea").player_id
    finish(store, ada, won[0], winning_line(code_of(won[0])) or ())
    finish(store, ada, won[1], winning_line(code_of(won[1])) or ())
    finish(store, bea, won[2], winning_line(code_of(won[2])) or ())
    boards = store.numbered_leaders("tripeaks", "easy")
    assert [(leader.player_id, leader.count) for leader in boards["first_wins"]] == [(ada, 2), (bea, 1)]
    assert [(leader.player_id, leader.count) for leader in boards["records"]] == [(ada, 2), (bea, 1)]
    assert boards["first_wins"][0].latest in won[:2] and boards["first_wins"][1].latest == won[2]
    from parlour.store.models import NumberedRecordRow

    with store.engine.begin() as connection:  # Ada's first wins were a month ago
        month_ago = datetime_at(today() - timedelta(days=31), 12)
        connection.execute(
            update(NumberedRecordRow)
            .where(NumberedRecordRow.first_winner_id == ada)
            .values(first_won_at=month_ago, set_at=month_ago)
        )
    week = store.numbered_leaders("tripeaks", "easy", since=datetime_at(today() - timedelta(days=7), 0))
    assert [(leader.player_id, leader.count) for leader in week["first_wins"]] == [(bea, 1)]
    assert store.numbered_leaders("tripeaks", "classic") == {"first_wins": [], "records": []}
    page = client.get("/tripeaks/numbered/leaders?rules=easy", headers={"Accept-Language": "fr"})
    assert page.status_code == 200 and "Le plus de premières victoires" in page.text
    assert f"game={won[2]}" in page.text and "Bea" in page.text
    assert client.get("/tripeaks/numbered").text.count("/tripeaks/numbered/leaders") == 1


def test_daily_thirteen_is_todays_match_against_three_experts(client: TestClient, store: Store) -> None:
    from parlour.thirteen import Match

    page = client.get("/thirteen/daily")
    assert page.status_code == 200 and "Thirteen" in page.text
    deal = store.daily_deal("thirteen", "standard", today())
    assert deal.code.startswith("TH2-") and deal.code not in page.text
    player_id = me(client, store)
    form = {"csrf": csrf_of(client.get("/thirteen/daily").text), "rules": "standard"}
    played = client.post("/thirteen/daily/play", data=form, follow_redirects=False)
    assert played.status_code == 303 and played.headers["location"] == "/thirteen"
    [record] = store.open_games(player_id, "thirteen")
    assert record.code == deal.code and record.secret is not None
    assert record.secret["daily"] == today().isoformat() and {"salt", "bot_seed"} <= set(record.secret)
    assert [seat.get("strength") for seat in record.seats[1:]] == ["expert"] * 3
    assert deal.code not in client.get("/thirteen").text
    match, moves = Match.from_code(deal.code), list[str]()
    while len(moves) < 12 or match.turn != 0:  # some moves, the person's among them
        seat = match.turn
        assert seat is not None
        move = match.legal_moves(seat)[0]
        match.apply(seat, move)
        moves.append(str(move))
    store.append_moves(record.id, player_id, 0, moves)
    store.finish_game(record.id, player_id)  # left: it counts as it stands
    entry = store.daily_entry("thirteen", "standard", today(), player_id)
    assert entry is not None and entry.place == 1 and not entry.result["won"]
    assert store.daily_streaks("thirteen", player_id).current_played == 1
    shared = client.get("/thirteen/daily").text  # its result can be shared, as TriPeaks' can
    assert f"Parlour · Daily deal · Thirteen · {today().isoformat()} · " in shared
    assert "Thirteen" in client.get("/player").text


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


class Attempt:
    """One page's socket on a TriPeaks game: its view, and each action's answer."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        socket.send_json({"type": "hello", "v": None})
        self.view: dict[str, Any] = socket.receive_json()["view"]

    def move(self, text: str) -> dict[str, Any]:
        self.socket.send_json({"type": "action", "action": {"move": text}, "ref": 1})
        answer: dict[str, Any] = self.socket.receive_json()
        if answer["type"] == "event":
            self.view = answer["view"]
            assert self.socket.receive_json()["type"] == "ack"
        return answer


def test_undo_in_todays_attempt_never_hides_a_card_seen(client: TestClient, store: Store) -> None:
    note = TRIPEAKS.ranked_note
    assert note in client.get("/tripeaks/daily").text
    player_id = me(client, store)
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/tripeaks/daily").text)
    assert csrf is not None
    client.post("/tripeaks/daily/play", data={"csrf": csrf.group(1), "rules": "easy"})
    [dealt] = store.open_games(player_id, "tripeaks")
    assert note in client.get("/tripeaks").text  # the page says why undo may be greyed
    with client.websocket_connect(f"/ws/{dealt.id}") as socket:
        attempt = Attempt(socket)
        assert attempt.view["ranked"] and not attempt.view["can_undo"]
        attempt.move("draw")
        assert not attempt.view["can_undo"]
        refusal = attempt.move("undo")
        assert (refusal["type"], refusal["code"]) == ("error", "undo_ranked")
        assert refusal["message"] == "In a ranked game, undo cannot hide a card you have seen"
        assert Attempt(socket).view == attempt.view
    assert store.game_record(dealt.id, player_id).moves == ["draw"]
    store.finish_game(dealt.id, player_id)

    # A record restored after a restart is ranked too: only a removal that turned nothing up comes back.
    new = TRIPEAKS.ranked("TP1-E-AAAAAAB", {"daily": today().isoformat()})
    assert new.spec is not None
    game_id = store.record_game(player_id, TRIPEAKS, new.spec)
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        attempt = Attempt(socket)
        assert attempt.view["ranked"] and attempt.view["code"] is None
        attempt.move("KC")  # turns nothing up
        assert attempt.view["can_undo"]
        assert attempt.move("undo")["name"] == "undo" and attempt.view["discard"] == ["QC"]
        for move in ("KC", "AD", "2C"):  # the 2 of clubs turns up the jack of clubs
            attempt.move(move)
        assert attempt.view["tableau"][9]["card"] == "JC" and not attempt.view["can_undo"]
        assert attempt.move("undo")["code"] == "undo_ranked"
    assert store.game_record(game_id, player_id).moves == ["KC", "undo", "KC", "AD", "2C"]


def test_a_counted_attempt_can_be_shared_without_its_deal(client: TestClient, store: Store) -> None:
    assert 'id="share-text"' not in client.get("/tripeaks/daily").text  # nothing to share yet
    deal = store.daily_deal("tripeaks", "easy", today())
    player_id = me(client, store)
    attempt(store, player_id, first_moves(deal.code, 5))
    client.get("/language/fr")
    page = client.get("/tripeaks/daily").text
    found = re.search(r'<p class="daily-share-text" id="share-text" data-path="([^"]+)">([^<]+)</p>', page)
    assert found is not None
    path, text = html.unescape(found.group(1)), html.unescape(found.group(2))
    assert path == "/tripeaks/daily?rules=easy"
    assert text.splitlines() == [
        f"Parlour · Donne du jour · TriPeaks · {today().isoformat()} · Facile",
        text.splitlines()[1],
    ]
    said = StoreTexts("fr")
    entry = store.daily_entry("tripeaks", "easy", today(), player_id)
    assert entry is not None
    result = TRIPEAKS.daily.describe(entry.result, said) if TRIPEAKS.daily else ""
    assert text.splitlines()[1] == f"{result} · {said('Place {place} of {total}.', place=1, total=1)}"
    assert not any(secret in text for secret in hidden_code_texts(deal.code))
