"""``parlour ratings`` and ``parlour ratings export --json`` after rated matches: the exported rounds,
replayed with the ``openskill`` package alone and the exported settings, give every rating the
database holds (to 1e-6), and the leaderboard shows the people."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce

from parlour.cli import main
from parlour.games.tables import FriendsTable, Seat, TableSettings
from parlour.store import Store
from parlour.store.ratings import RoundSeat
from parlour.thirteen.definition import ThirteenDefinition

from .conftest import FreshDatabases

THIRTEEN = ThirteenDefinition()
GAME = THIRTEEN.seated
assert GAME is not None


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def play_rated_matches(store: Store, people: list[int], matches: int) -> None:
    """Play rated matches to 10 points at public tables of the people and computer players (the
    people's moves made for them by their turn timers), one person leaving during the second match;
    keep every rated round as the server's owner does."""
    for number in range(matches):
        clock = Clock()
        settings = TableSettings.for_quick_play(GAME, GAME.rules({"target_points": 10}), "strong", rated=True)
        seats = [Seat("person", f"P{p}", p) for p in people[:3]] + [Seat("bot", "", None, None, "strong")]
        table = FriendsTable(THIRTEEN, f"t{number}", "QQQQQQ", people[0], settings, seats, clock=clock)
        table.set_connected({0, 1, 2})
        for step in range(20000):
            if table.phase == "over":
                break
            if number == 1 and step == 30 and 2 not in table.gone:
                table.act(2, {"type": "leave", "_player": people[2]})
            delay = table.next_auto()
            assert delay is not None
            clock.now += delay + 0.01
            table.auto()
            for rated in table.rated_rounds:
                order = [RoundSeat(player, computer) for player, computer in rated.order]
                store.record_round(
                    "thirteen", f"match{number}", rated.round, order, dict(GAME.computer_ratings)
                )
            table.rated_rounds.clear()
        assert table.phase == "over"


@pytest.mark.timeout(120)
def test_the_export_recomputes_to_the_kept_ratings(fresh: FreshDatabases, backend: str) -> None:
    url = fresh.url(backend).render_as_string(hide_password=False)
    store = Store(url)
    store.upgrade()
    people = [store.create_player(name).player_id for name in ("Ana", "Bình", "Csaba")]
    play_rated_matches(store, people, 2)
    kept = {person: store.rating("thirteen", person) for person in people}
    store.close()
    runner = CliRunner()
    exported = runner.invoke(main, ["ratings", "export", "--json", "--database-url", url])
    assert exported.exit_code == 0, exported.output
    data = json.loads(exported.output)
    settings = data["settings"]
    assert settings["model"] == "PlackettLuce"
    model = PlackettLuce(
        mu=settings["mu"], sigma=settings["sigma"], beta=settings["beta"], tau=settings["tau"],
        kappa=settings["kappa"], limit_sigma=settings["limit_sigma"], balance=settings["balance"],
    )  # fmt: skip
    ratings: dict[int, Any] = {}
    for kept_round in data["rounds"]:
        teams = []
        for entry in kept_round["order"]:
            if "computer" in entry:
                teams.append([model.rating(mu=entry["mu"], sigma=entry["sigma"])])
            else:
                teams.append([ratings.get(entry["player"], model.rating())])
        after = model.rate(teams, ranks=list(range(1, len(teams) + 1)))
        for entry, team in zip(kept_round["order"], after, strict=True):
            if "player" in entry:
                ratings[entry["player"]] = team[0]
    assert set(ratings) == set(people)
    for person in people:
        rating = kept[person]
        assert rating is not None
        assert abs(ratings[person].mu - rating.mu) < 1e-6
        assert abs(ratings[person].sigma - rating.sigma) < 1e-6
    final = {entry["player"]: entry for entry in data["ratings"]}
    assert final[people[0]]["rounds"] == kept[people[0]].rounds  # type: ignore[union-attr]
    # The leaver is last in the round they left, and the computer's later rounds are not theirs.
    assert kept[people[2]].rounds < kept[people[0]].rounds  # type: ignore[union-attr]

    board = runner.invoke(
        main, ["ratings", "--min-rounds", "1", "--database-url", url], env={"COLUMNS": "200"}
    )
    assert board.exit_code == 0, board.output
    assert all(f"P{person}" not in board.output for person in people)  # display names, not seat names
    assert "Ana" in board.output and "Bình" in board.output
    as_json = json.loads(
        runner.invoke(main, ["ratings", "--json", "--min-rounds", "1", "--database-url", url]).output
    )
    assert {line["name"] for line in as_json["people"]} == {"Ana", "Bình", "Csaba"}
    summary = runner.invoke(main, ["ratings", "export", "--database-url", url, "--lang", "hu"])
    assert "értékelt kör" in summary.output
