"""Where the database is: the default SQLite file (WAL), URLs from the option or the environment."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from parlour.store import Store
from parlour.store.database import ENV_URL, resolve_url


def test_no_url_means_an_sqlite_file_in_the_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(ENV_URL, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = resolve_url()
    assert url.get_backend_name() == "sqlite"
    assert Path(url.database or "") == tmp_path / "parlour" / "parlour.sqlite3"
    store = Store()
    store.upgrade()
    with store.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
    store.close()
    assert (tmp_path / "parlour" / "parlour.sqlite3").exists()


def test_the_environment_and_postgres_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_URL, "postgres://someone@db.example/parlour")
    assert resolve_url().render_as_string() == "postgresql+psycopg://someone@db.example/parlour"
    assert resolve_url("postgresql://a@b/c").drivername == "postgresql+psycopg"
    assert resolve_url("sqlite:////tmp/x.sqlite3").database == "/tmp/x.sqlite3"
