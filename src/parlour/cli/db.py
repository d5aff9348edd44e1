"""``parlour db``: the database's schema (``parlour db upgrade``) and where it lives."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import click
from rich.console import Console
from sqlalchemy.engine import URL

from parlour.store import Store, StoreUnavailable
from parlour.store.database import ENV_URL, resolve_url

DATABASE_URL_HELP = (
    "SQLAlchemy URL of the database, e.g. postgresql://user@host/db "
    f"[default: ${ENV_URL}, else an SQLite file in your data directory]"
)


def database_url_option(function: click.decorators.FC) -> click.decorators.FC:
    """Add the ``--database-url`` option (also read from ``PARLOUR_DATABASE_URL``)."""
    return click.option("--database-url", envvar=ENV_URL, default=None, help=DATABASE_URL_HELP)(function)


@contextlib.contextmanager
def opened_store(database_url: str | None) -> Iterator[Store]:
    """Open the store of ``database_url`` (migrated to the newest schema) for one command, and close it
    after; a store error becomes the command's one-line error.

    Raises:
        click.ClickException: the database cannot be reached, or failed during the command.
    """
    try:
        store = Store(database_url)
        store.upgrade()
    except (StoreUnavailable, ValueError) as error:
        raise click.ClickException(f"the database is not available: {error}") from error
    try:
        yield store
    except StoreUnavailable as error:
        raise click.ClickException(str(error)) from error
    finally:
        store.close()


def url_of(database_url: str | None) -> URL:
    """Return the database URL to use, read as :func:`resolve_url` reads it.

    Raises:
        click.ClickException: the URL is malformed or of an unsupported database (one line).
    """
    try:
        return resolve_url(database_url)
    except ValueError as error:
        raise click.ClickException(f"the database is not available: {error}") from error


@click.group()
def db() -> None:
    """The database: apply migrations, show where it is."""


@db.command()
@database_url_option
@click.option("--revision", default="head", show_default=True, help="Alembic revision to reach.")
def upgrade(database_url: str | None, revision: str) -> None:
    """Create or update the database's tables (apply every migration)."""
    from parlour.store.database import make_engine
    from parlour.store.database import upgrade as apply_migrations

    url = url_of(database_url)
    try:
        engine = make_engine(url)
    except OSError as error:
        raise click.ClickException(f"the database is not available: {error}") from error
    try:
        apply_migrations(engine, revision)
    except Exception as error:  # a connection or migration failure: say what and where, no traceback
        raise click.ClickException(
            f"could not upgrade {url.render_as_string(hide_password=True)}: {error}"
        ) from error
    finally:
        engine.dispose()
    Console().print(f"Database {url.render_as_string(hide_password=True)} is at revision {revision}.")


@db.command()
@database_url_option
def where(database_url: str | None) -> None:
    """Print the URL of the database Parlour uses (the password hidden)."""
    click.echo(url_of(database_url).render_as_string(hide_password=True))
