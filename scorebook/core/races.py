"""A write that loses a race inside the database is tried once more, or told in words: never a 500.

Every write locks what it depends on first (the evening, the club, the night), so two writes of one
thing queue. Two writes that lock different things and then meet on a third (a payment's request
key posted to the evening's form and to the club's ledger at once: one holds the evening and waits
for the key, the other holds the club and the key) can still deadlock on PostgreSQL, which then
aborts one of them; a serializable transaction can fail to serialize; and a write that finds the
row of a unique key taken by one that committed a moment before fails on that key. The database
rolled back the loser's transaction whole, so its view can simply run again: it re-reads, finds
what the winner wrote, and answers as a repeated request does. ``RetryLostRaces`` does that once
for any view; a view that loses twice (or waited its whole busy timeout on SQLite, where another
wait would outlast the worker's timeout) is answered 409 with the sentence of ``409.html``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import IntegrityError, OperationalError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import reswap, retarget

logger = logging.getLogger(__name__)

DEADLOCK, SERIALIZATION, UNIQUE = "40P01", "40001", "23505"


def _sqlstate(error: BaseException) -> str | None:
    cause = error.__cause__
    return getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)


def lost(error: BaseException) -> bool:
    """The database aborted the write for another one: a deadlock or a serialization failure
    (PostgreSQL), the lock still held after the busy timeout (SQLite)."""
    if not isinstance(error, OperationalError):
        return False
    return _sqlstate(error) in (DEADLOCK, SERIALIZATION) or waited_in_vain(error)


def waited_in_vain(error: BaseException) -> bool:
    """SQLite's lock was still held when the busy timeout ran out."""
    return isinstance(error, OperationalError) and connection.vendor == "sqlite" and "database is locked" in str(error)


def taken(error: BaseException) -> bool:
    """A unique key (a request key) written by another transaction that committed first."""
    if not isinstance(error, IntegrityError):
        return False
    return _sqlstate(error) == UNIQUE or (connection.vendor == "sqlite" and "UNIQUE constraint" in str(error))


def answer(request: HttpRequest, status: int = 409) -> HttpResponse:
    """The sentence of a write that could not be saved: in the page's notices for htmx, else a page."""
    if getattr(request, "htmx", False):
        response = render(request, "409.html#notice", status=status)
        return reswap(retarget(response, "#notices"), "innerHTML")
    back = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = ""
    return render(request, "409.html", {"back": back}, status=status)


class RetryLostRaces:
    """Middleware: a view whose write lost a race in the database (``lost``, ``taken``) runs once
    more; losing again, it is answered 409 in words (a key taken twice is a fault of the site, and
    stays a 500). Inside a transaction the request opened itself nothing can run again: 409."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not (lost(exception) or taken(exception)):
            return None
        what = f"{request.method} {request.path}"
        if connection.in_atomic_block or waited_in_vain(exception):
            logger.warning("Not saved (%s): %s", exception, what)
            return answer(request)
        match = request.resolver_match
        if match is None:  # no view to run again (a view raised, so there is one)
            return None
        logger.info("Tried again after losing a race (%s): %s", exception, what)
        try:
            return match.func(request, *match.args, **match.kwargs)
        except (OperationalError, IntegrityError) as again:
            if not lost(again):
                raise
            logger.warning("Not saved, lost twice (%s): %s", again, what)
            return answer(request)
