"""Alembic's environment: migrate the connection the server hands over.

:func:`triverse.server.db.migrate` passes an open connection in ``config.attributes``. From the
``alembic`` command line, ``-x url=...`` names the database instead. Importing this module
outside Alembic (doctest collection, say) does nothing.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from triverse.server.db import Base


def _migrate(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    """Run the migrations Alembic asked for (online mode only)."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("give the database with: alembic -x url=SQLALCHEMY_URL ...")
    engine = create_engine(url)
    with engine.begin() as own_connection:
        _migrate(own_connection)
    engine.dispose()


if hasattr(context, "config"):  # only when Alembic runs this file
    run()
