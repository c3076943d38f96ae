"""The evening's row read under its lock, and what a write changed put back on the caller's copy."""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet

from ..models import Evening
from .refusals import EveningClosed, EveningGone


def lock(evenings: QuerySet[Evening], pk: int) -> Evening | None:
    """The evening ``pk`` of ``evenings`` with its seats, read and locked until the end of the
    transaction this runs in (``select_for_update`` on PostgreSQL; SQLite's transaction holds the
    lock from its start); None when there is none. A write given it in the same transaction does
    not read it again (``read_locked``): a view reads the evening it checks the user's rights on under
    the lock (``access.evening_for_user(..., locked=True)``), and the service decides on that read."""
    evening = evenings.select_for_update(of=("self",)).prefetch_related("seats").filter(pk=pk).first()
    if evening is not None:
        evening.locked_in = _transaction()
    return evening


def _transaction():
    """The transaction this runs in (its outermost ``atomic`` block), None outside one."""
    connection = transaction.get_connection()
    return connection.atomic_blocks[0] if connection.in_atomic_block else None


def locked_here(evening: Evening) -> bool:
    """``evening`` was read under its lock (``lock``) in the transaction this runs in."""
    return getattr(evening, "locked_in", None) is not None and evening.locked_in is _transaction()


def read_locked(evening: Evening, *, open_only: bool = True) -> Evening:
    """The evening's row, read again and locked until the end of the transaction, with its seats
    (the evening itself when it was read so in this transaction: ``lock``); ``EveningGone`` when it
    was deleted, ``EveningClosed`` when ``open_only`` and it is closed."""
    locked = evening if locked_here(evening) else lock(Evening.objects.all(), evening.pk)
    if locked is None:
        raise EveningGone()
    if open_only and not locked.is_open:
        raise EveningClosed()
    return locked


def sync(target: Evening, source: Evening) -> None:
    """What a write changed on the locked copy, onto the evening the view holds."""
    target.version, target.updated_at = source.version, source.updated_at
    target.summary, target.state, target.status = source.summary, source.state, source.status


def author(user):
    """Who a write is recorded as made by: the user, None for a table's phone (a link, no account)."""
    return user if user is not None and user.is_authenticated else None
