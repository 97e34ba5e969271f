"""Alembic migrations of the server's database, run by :func:`triverse.server.db.migrate`.

To add one after changing :mod:`triverse.server.db`::

    .venv/bin/alembic -c src/triverse/server/migrations/alembic.ini \\
        -x url=sqlite:///scratch.sqlite3 revision --autogenerate -m "what changed"

and rename the new file ``rNNNN_what_changed.py`` (module names must be valid for mypy).
"""
