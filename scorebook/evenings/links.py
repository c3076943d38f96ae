"""Scoring links: a table scored by whoever holds the link, without an account.

A link grants one thing: recording and correcting the deals of one evening while it is
open. Opening it (``/t/<token>/``) remembers the grant in the holder's session and leads
to the evening's scoring page; the scoring views then accept the grant in place of a
login (``login_or_link``), and ``evening_for_user`` lets the holder see and score that
evening only. Every request checks the link again, so revoking it stops the phone at once.
Nothing else of the club answers to it. Only a hash of the token is stored; the token is
shown once, when it is made. Guessing is limited: an address that tried too many
unknown links is refused for a while.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from .models import Evening, LinkAttempt, ScoringLink, link_token_hash, new_link_token

SESSION_KEY = "scoring_links"  # {evening pk: link pk}
ATTEMPTS = 20  # unknown links tried from one address ...
WINDOW = timedelta(minutes=10)  # ... within this time: refused until the oldest leaves the window


def issue(evening: Evening) -> str:
    """A new link for ``evening`` (its earlier links are revoked): the token, shown once."""
    token = new_link_token()
    with transaction.atomic():
        Evening.objects.select_for_update().filter(pk=evening.pk).first()
        ScoringLink.objects.active().filter(evening=evening).update(revoked_at=timezone.now())
        ScoringLink.objects.create(evening=evening, token_hash=link_token_hash(token))
    return token


def issue_many(evenings: list[Evening]) -> dict[int, str]:
    """New links for several evenings at once (their earlier links revoked): {evening pk: token}."""
    tokens = {e.pk: new_link_token() for e in evenings}
    with transaction.atomic():
        # the evenings locked first, in order: two prints at once give each table ONE live link
        list(Evening.objects.select_for_update().filter(pk__in=list(tokens)).order_by("pk").values_list("pk"))
        ScoringLink.objects.active().filter(evening__in=list(tokens)).update(revoked_at=timezone.now())
        ScoringLink.objects.bulk_create(
            ScoringLink(evening_id=pk, token_hash=link_token_hash(token)) for pk, token in tokens.items()
        )
    return tokens


def revoke(evening: Evening, *, replaced: bool = False) -> int:
    """Every link of ``evening`` stops working; how many were active. ``replaced``: its table was
    seated again, and the page of its old card says to ask for the new one."""
    return ScoringLink.objects.active().filter(evening=evening).update(revoked_at=timezone.now(), replaced=replaced)


def revoke_many(evenings: list[Evening], *, replaced: bool = False) -> int:
    """``revoke`` for several evenings at once (a club night's tables seated again): one query."""
    return (
        ScoringLink.objects.active()
        .filter(evening__in=[e.pk for e in evenings])
        .update(revoked_at=timezone.now(), replaced=replaced)
    )


def was_replaced(token: str) -> bool:
    """The token is a link revoked because its table was seated again (its card was replaced)."""
    if not 16 <= len(token) <= 100:
        return False
    return ScoringLink.objects.filter(token_hash=link_token_hash(token), replaced=True).exists()


def limited(address: str) -> bool:
    """Too many unknown links were tried from this address lately."""
    return LinkAttempt.objects.filter(address=address, at__gte=timezone.now() - WINDOW).count() >= ATTEMPTS


def find(token: str) -> ScoringLink | None:
    """The active link of this token (None: unknown or revoked); nothing is counted."""
    if not 16 <= len(token) <= 100:
        return None
    return ScoringLink.objects.active().filter(token_hash=link_token_hash(token)).first()


def count_unknown(address: str) -> None:
    """An unknown or revoked link was tried from ``address`` (the limit on guessing)."""
    LinkAttempt.objects.filter(at__lt=timezone.now() - WINDOW).delete()
    LinkAttempt.objects.create(address=address[:45])


def remember(request: HttpRequest, link: ScoringLink) -> None:
    """The session may score the link's evening from now on (until the link is revoked)."""
    granted = dict(request.session.get(SESSION_KEY) or {})
    granted[str(link.evening_id)] = link.pk
    request.session[SESSION_KEY] = granted


def holds_link(request: HttpRequest, evening_pk: int) -> bool:
    """This session holds an active link of that evening (one query, only for link holders)."""
    link_pk = (request.session.get(SESSION_KEY) or {}).get(str(evening_pk))
    if not link_pk:
        return False
    return ScoringLink.objects.active().filter(pk=link_pk, evening_id=evening_pk).exists()


def held_once(request: HttpRequest, evening_pk: int) -> bool:
    """This session held a link of that evening (revoked since, or its card replaced)."""
    return bool((request.session.get(SESSION_KEY) or {}).get(str(evening_pk)))


LOGGED_OUT = 401  # to htmx and to a phone sending its waiting deals: log in, the page stays


def login_or_link(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``login_required`` that also lets in a session holding a scoring link (the view then asks
    ``evening_for_user``, which checks that the link is this evening's and still active). A request
    of the page's own script (htmx, or the waiting deals sent: ``HX-Request``) is answered 401 with
    ``X-Refused: login`` rather than the login page, which would land inside the board: the phone
    keeps the deal and says to log in."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated or request.session.get(SESSION_KEY):
            return view(request, *args, **kwargs)
        if request.headers.get("HX-Request") == "true":
            response = HttpResponse(status=LOGGED_OUT)
            response["X-Refused"] = "login"
            response["WWW-Authenticate"] = 'Session realm="Scorebook"'
            return response
        return redirect_to_login(request.get_full_path())

    return wrapped
