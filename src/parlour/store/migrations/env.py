"""Alembic's environment: migrations run on the connection that ``parlour.store`` hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from parlour.store.database import resolve_url
from parlour.store.models import Base

config = context.config
connection = config.attributes.get("connection")


def run(conn: Connection) -> None:
    context.configure(
        connection=conn,
        target_metadata=Base.metadata,
        compare_type=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    run(connection)
else:  # the ``alembic`` command line itself, pointed at PARLOUR_DATABASE_URL or the default file
    with create_engine(resolve_url()).begin() as conn:
        run(conn)
