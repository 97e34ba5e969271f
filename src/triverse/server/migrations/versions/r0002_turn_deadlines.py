"""Turn deadlines: ``matches.deadline``, when the current turn times out.

Set when a turn starts in a game with a time limit while a human is to move (``NULL``
otherwise); indexed for the deadline scheduler's start-up and periodic reads. Existing rows
start with ``NULL``: at start-up the server starts the clock of any timed match that lacks one.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the column and its index."""
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_matches_deadline", ["deadline"])


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_deadline")
        batch.drop_column("deadline")
