"""Contests: a host's contest, its entrants, its boards (one match each) and its announcements.

- ``contests``: the game and options, the board size, the time per turn, the close of
  sign-up, the status (``signup``, ``closing``, ``running``, ``finished``, ``cancelled``),
  the place rewards, the host, and the draw's seed, salt and commitment (the seed and salt
  are shown once the draw is made);
- ``contest_entries``: an entrant (a human account or guest, or a computer level), numbered
  in sign-up order within its contest, with the sha256 of a human's secret, whether the host
  removed them, and their board and seat once drawn;
- ``contest_boards``: a board of a contest and its match;
- ``contest_announcements``: the host's messages, oldest first.

Plain ``CREATE TABLE``s: no existing table changes.

Revision ID: 0008
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the tables."""
    _contests()
    _entries()
    _boards_and_announcements()


def _contests() -> None:
    op.create_table(
        "contests",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(80), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players_per_board", sa.Integer(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=True),
        sa.Column("signup_closes", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("cancel_reason", sa.Text(), nullable=True),
        sa.Column("host_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="SET NULL"),
                  nullable=True, index=True),
        sa.Column("host_name", sa.String(64), nullable=False),
        sa.Column("rewards", sa.JSON(), nullable=False),
        sa.Column("reward_name", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("entries_made", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("announcements_made", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )


def _entries() -> None:
    op.create_table(
        "contest_entries",
        sa.Column("contest_id", sa.String(32),
                  sa.ForeignKey("contests.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("entry", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True,
                  index=True),
        sa.Column("secret_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("removed", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("board", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("contest_id", "account_id", name="uq_contest_entries_account"),
    )


def _boards_and_announcements() -> None:
    op.create_table(
        "contest_boards",
        sa.Column("contest_id", sa.String(32),
                  sa.ForeignKey("contests.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"),
                  nullable=False, unique=True),
    )
    op.create_table(
        "contest_announcements",
        sa.Column("contest_id", sa.String(32),
                  sa.ForeignKey("contests.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    for table in ("contest_announcements", "contest_boards", "contest_entries", "contests"):
        op.drop_table(table)
