"""The evening's row read under its lock, and what a write changed put back on the caller's copy.

A write is given the evening (read again here, under its lock, in the write's own transaction) or
the access a view read it through (``access.EveningAccess``): one read under its lock in the
transaction the view holds open (``evening_for_user(..., locked=True)``) is decided on as it is, in
that transaction; any other is read again."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from ..access import EveningAccess, lock
from ..models import Evening
from .refusals import EveningClosed, EveningGone


def evening_of(at: Evening | EveningAccess) -> Evening:
    """The evening a write is given, or the one its access holds."""
    return at.evening if isinstance(at, EveningAccess) else at


def held_locked(at: Evening | EveningAccess) -> bool:
    """Whether the caller read the evening under its lock in the transaction it holds open (an access
    read with ``locked=True``): the write decides on that read and runs in that transaction."""
    return isinstance(at, EveningAccess) and at.locked


def read_locked(at: Evening | EveningAccess, *, open_only: bool = True) -> Evening:
    """The evening's row locked until the end of the transaction, with its seats: the access's own
    read when it was read so (``held_locked``), else read again; ``EveningGone`` when it was deleted,
    ``EveningClosed`` when ``open_only`` and it is closed."""
    locked = evening_of(at) if held_locked(at) else lock(Evening.objects.all(), evening_of(at).pk)
    if locked is None:
        raise EveningGone()
    if open_only and not locked.is_open:
        raise EveningClosed()
    return locked


def sync(target: Evening, source: Evening) -> None:
    """What a write changed on the locked copy, onto the evening the view holds."""
    target.version, target.updated_at = source.version, source.updated_at
    target.summary, target.state, target.status = source.summary, source.state, source.status


def author(user: User | AnonymousUser | None) -> User | None:
    """Who a write is recorded as made by: the user, None for a table's phone (a link, no account)."""
    return user if user is not None and user.is_authenticated else None
