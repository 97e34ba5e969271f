"""Players: seats that belong to accounts, open games, ratings and push notifications.

- ``seats.account_id``: the account that took the seat (``NULL``: a guest, a computer, or a
  deleted account); ``seats.deleted``: the seat's account was deleted, and the seat shows as
  "deleted player";
- ``seat_keys``: a seat token minted for one logged-in browser (so that an account's seats
  open on every device it logs in on); it ends with the session;
- ``matches.rated``: whether the match counts for ratings when it ends; ``matches.pace``:
  ``live`` or ``correspondence``, as an open game is listed in the lobby;
- ``ratings`` and ``rating_changes``: an account's OpenSkill rating per game and player count,
  and what each rated match changed (one row a seat, written once);
- ``push_subscriptions`` and ``push_queue``: an account's Web Push subscriptions, and the
  notifications waiting to be sent (or sent, or failed);
- ``server_secrets``: values every server process shares (the VAPID key pair).

Existing matches stay unrated, their seats guests'. An open game is a match whose
``status`` is ``open`` until its last free seat is taken.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the columns and the tables."""
    _add_columns()
    _seat_keys()
    _ratings()
    _push()
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )


def _add_columns() -> None:
    # Plain ADD COLUMNs, no batch: on SQLite a batch copies a table and drops the old one,
    # and dropping ``matches`` with foreign keys on would delete every seat and move (CASCADE).
    # SQLite adds a column with a reference (and no default) but no constraint to a table;
    # SQLAlchemy does not read back the ON DELETE of such an inline reference, which holds.
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE seats ADD COLUMN account_id VARCHAR(32) "
                   "REFERENCES accounts (id) ON DELETE SET NULL")
    else:
        op.add_column("seats", sa.Column("account_id", sa.String(32), nullable=True))
        op.create_foreign_key("fk_seats_account_id", "seats", "accounts", ["account_id"],
                              ["id"], ondelete="SET NULL")
    op.add_column("seats", sa.Column("deleted", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.add_column("matches", sa.Column("rated", sa.Boolean(), nullable=False,
                                       server_default=sa.false()))
    op.add_column("matches", sa.Column("pace", sa.String(16), nullable=True))


def _seat_keys() -> None:
    op.create_table(
        "seat_keys",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("session_hash", sa.String(64),
                  sa.ForeignKey("sessions.token_hash", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id", "seat"], ["seats.match_id", "seats.seat"],
                                ondelete="CASCADE"),
    )


def _ratings() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("players", sa.Integer(), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "players", "mu"])
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.String(32),
                  sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True,
                  index=True),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def _push() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("endpoint_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(255), nullable=False),
        sa.Column("auth", sa.String(255), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "push_queue",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("subscription_id", sa.String(32),
                  sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("error", sa.Text(), nullable=True),
    )


def downgrade() -> None:
    """Drop them."""
    for table in ("server_secrets", "push_queue", "push_subscriptions", "rating_changes"):
        op.drop_table(table)
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
    op.drop_table("seat_keys")
    # Plain DROP COLUMNs (SQLite 3.35 and later), for the same reason as the upgrade's.
    op.drop_column("matches", "pace")
    op.drop_column("matches", "rated")
    op.drop_index("ix_seats_account_id", "seats")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("fk_seats_account_id", "seats", type_="foreignkey")
    op.drop_column("seats", "deleted")
    op.drop_column("seats", "account_id")
