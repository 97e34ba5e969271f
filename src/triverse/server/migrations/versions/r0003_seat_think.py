"""Thinking time per seat: ``seats.think``, the seconds a computer seat that searches (the
veteran) may think about each move.

Set when the match is created with a thinking time for the seat (``SeatSpec.think``);
``NULL`` otherwise: the game's default budget. Existing rows keep ``NULL``, which is what they
played with.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the column."""
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("think", sa.Float(), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("think")
