"""Tri-ominoes' rules version: every Tri-ominoes match stored before gets the option
``rules_version`` 1 in ``matches.options``.

Since rules version 2 a blocked round of the seed rules keeps the scores; the matches stored
before were played under version 1, which settled it as Pressman's rules do
(``docs/rules/triominoes.md``, D11). ``options`` holds every option resolved when the match was
created, so a Tri-ominoes row without ``rules_version`` is one of those: with 1 written in,
its moves replay to the scores it was played with, finished or not, and an unfinished match
goes on under the rules it started with. The schema does not change.

The downgrade takes the option out again (the code before it refuses an unknown option); a
match created since under version 2 then replays under version 1's settlement.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

_MATCHES = sa.table("matches", sa.column("id", sa.String), sa.column("game", sa.String),
                    sa.column("options", sa.JSON))


def _rewrite(change: Callable[[dict[str, Any]], dict[str, Any] | None]) -> None:
    """Apply ``change`` (options -> new options, or ``None`` to leave the row) to every
    Tri-ominoes match."""
    connection = op.get_bind()
    rows = connection.execute(sa.select(_MATCHES.c.id, _MATCHES.c.options)
                              .where(_MATCHES.c.game == "triominoes")).all()
    for match_id, options in rows:
        new = change(dict(options or {}))
        if new is not None:
            connection.execute(sa.update(_MATCHES).where(_MATCHES.c.id == match_id)
                               .values(options=new))


def upgrade() -> None:
    """Name rules version 1 in the Tri-ominoes matches that predate the option."""
    _rewrite(lambda options: None if "rules_version" in options
             else {**options, "rules_version": 1})


def downgrade() -> None:
    """Take the option out again."""
    _rewrite(lambda options: {k: v for k, v in options.items() if k != "rules_version"}
             if "rules_version" in options else None)
