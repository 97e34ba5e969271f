"""Commitments: each match keeps the salt of its shuffle commitment and the commitment itself.

- ``matches.salt``: the 128-bit salt (32 hex digits) drawn when the match is created, secret
  until the game ends, when the record reveals it (``docs/records.md``);
- ``matches.commitment``: the SHA-256 (64 hex digits) of the match's seed, options and deal
  under that salt (:func:`triverse.core.fairness.game_commitment`), shown to every seat and
  spectator from the first move.

Both are ``NULL`` for the matches made before: they have no commitment, and their records carry
none.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the two columns."""
    # Plain ADD COLUMNs, no batch: on SQLite a batch copies ``matches`` and drops the old
    # table, which with foreign keys on would delete every seat and move (CASCADE; see r0006).
    op.add_column("matches", sa.Column("salt", sa.String(32), nullable=True))
    op.add_column("matches", sa.Column("commitment", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop them (plain DROP COLUMNs, SQLite 3.35 and later, for the same reason)."""
    op.drop_column("matches", "commitment")
    op.drop_column("matches", "salt")
