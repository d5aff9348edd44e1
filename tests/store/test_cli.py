"""``parlour db upgrade`` and ``parlour stats [--player NAME]``."""

from __future__ import annotations

import json

from click.testing import CliRunner
from rich.cells import cell_len

from parlour.cli import main
from parlour.store import Store

from .conftest import FreshDatabases
from .lines import code_of, winning_line


def test_db_upgrade_then_stats(fresh: FreshDatabases, backend: str) -> None:
    url = fresh.url(backend).render_as_string(hide_password=False)
    runner = CliRunner()
    upgraded = runner.invoke(main, ["db", "upgrade", "--database-url", url])
    assert upgraded.exit_code == 0, upgraded.output
    assert "is at revision head" in upgraded.output
    assert "No player yet" in runner.invoke(main, ["stats", "--database-url", url]).output

    store = Store(url)
    ada = store.create_player("Ada Lovelace")
    store.create_player()
    code = code_of(2)
    game_id = store.start_game(ada.player_id, "tripeaks", None, code, ["human"])
    store.append_moves(game_id, ada.player_id, 0, winning_line(code) or ())
    store.finish_game(game_id, ada.player_id)
    store.close()

    overview = runner.invoke(main, ["stats"], env={"PARLOUR_DATABASE_URL": url, "COLUMNS": "200"})
    assert overview.exit_code == 0, overview.output
    assert "Ada Lovelace" in overview.output and "player 2" in overview.output and "100%" in overview.output

    detail = runner.invoke(
        main, ["stats", "--player", "ada lovelace", "--database-url", url], env={"COLUMNS": "200"}
    )
    assert detail.exit_code == 0, detail.output
    assert "TriPeaks — Ada Lovelace" in detail.output and "Thirteen — Ada Lovelace" in detail.output
    assert "Easy" in detail.output and "Classic" not in detail.output

    # What the overview prints for a player without a name finds that player.
    unnamed = runner.invoke(main, ["stats", "--player", "player 2", "--database-url", url])
    assert unnamed.exit_code == 0 and "TriPeaks — player 2" in unnamed.output
    as_json = runner.invoke(main, ["stats", "--json", "--database-url", url])
    listing = json.loads(as_json.stdout)
    assert as_json.exit_code == 0 and [entry["name"] for entry in listing] == ["Ada Lovelace", None]
    assert listing[0]["tripeaks"]["all"]["won"] == 1 and listing[0]["thirteen"]["games"] == 0

    missing = runner.invoke(main, ["stats", "--player", "Nobody", "--database-url", url])
    assert missing.exit_code == 1 and "no player is called “Nobody”" in missing.output

    # In another language, and in an 80-column window: every heading whole, the figures turned on their
    # side when the rules' columns do not fit.
    hungarian = runner.invoke(main, ["stats", "--lang", "hu", "--database-url", url], env={"COLUMNS": "200"})
    assert "Játékosok" in hungarian.output and "nyerési arány" in hungarian.output
    for lang, words in (
        ("en", ("Win rate", "Best score", "Moves/win")),
        ("hi", ("जीत दर", "सबसे अच्छा स्कोर")),
    ):
        narrow = runner.invoke(
            main,
            ["stats", "--player", "Ada Lovelace", "--lang", lang, "--database-url", url],
            env={"COLUMNS": "80"},
        )
        assert narrow.exit_code == 0, narrow.output
        assert "…" not in narrow.output and max(cell_len(line) for line in narrow.output.splitlines()) <= 80
        assert all(word in narrow.output for word in words), narrow.output
    missing = runner.invoke(main, ["stats", "--player", "Nobody", "--lang", "fr", "--database-url", url])
    assert missing.exit_code == 1 and "aucun joueur ne s'appelle «\u00a0Nobody\u00a0»" in missing.output


def test_db_upgrade_reports_an_unreachable_database() -> None:
    result = CliRunner().invoke(
        main, ["db", "upgrade", "--database-url", "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"]
    )
    assert (
        result.exit_code == 1
        and "could not upgrade postgresql+psycopg://nobody@127.0.0.1:1/none" in result.output
    )
