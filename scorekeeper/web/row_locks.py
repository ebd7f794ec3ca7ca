"""Row locks for writes that check something before they change it ("is this player free
tonight?", "was this import confirmed already?").

On PostgreSQL ``lock_row`` waits for and takes the row's lock (``SELECT ... FOR UPDATE``), so a
second phone doing the same thing waits until the first has committed. On SQLite a write
request already holds the database's one write lock from its first statement (see
``scorekeeper.web.transactions``), so the lock costs nothing there.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from scorekeeper.extensions import db


def lock_row(model: Any, row_id: int) -> None:
    """Lock one row of ``model`` for the rest of the transaction, then forget everything the
    session had read, so that what is read from here on is what the other phone committed.
    Call it before changing anything in the session."""
    db.session.execute(select(model.id).where(model.id == row_id).with_for_update())
    db.session.expire_all()
