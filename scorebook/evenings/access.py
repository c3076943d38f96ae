"""Who may see and change an evening. Every evening view goes through these helpers.

A club's evenings are seen by its members and scored by its scorers and admins; a
private evening (no club) belongs to its owner. Anything the user may not see answers
404, so that nothing leaks; a member lacking the role gets 403.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from scorebook.clubs.models import Membership, Role
from scorebook.clubs.models.club import SCORING_ROLES
from scorebook.core.http import Gone, Refusal

from . import links
from .models import Evening, link_token_hash

if TYPE_CHECKING:  # an evening read ``with_role`` (django-stubs' annotated model: a type only)
    from django_stubs_ext import WithAnnotations

    class _Role(TypedDict):
        my_role: str | None

    RoledEvening = WithAnnotations[Evening, _Role]

# Ids beyond a 64-bit integer are no evening's (and SQLite would fail on them).
MAX_ID = 2**63 - 1


def with_role(evenings: QuerySet[Evening], user: User | AnonymousUser) -> QuerySet[RoledEvening]:
    """``evenings`` with ``my_role``: the user's role in each one's club (None: not a member)."""
    role = Membership.objects.filter(club=OuterRef("club"), user=user.pk if user.is_authenticated else None)
    return evenings.annotate(my_role=Subquery(role.values("role")[:1]))


def evening_rights(user: User | AnonymousUser, evening: RoledEvening) -> tuple[bool, bool]:
    """(may see it, may record its deals), for an evening read ``with_role``."""
    if not user.is_authenticated:
        return False, False
    if user.is_staff:
        return True, True
    if evening.club_id is None:
        mine = evening.owner_id == user.pk
        return mine, mine
    role = Role(evening.my_role) if evening.my_role else None
    return role is not None, role in SCORING_ROLES


def evening_admin(user: User | AnonymousUser, evening: RoledEvening) -> bool:
    """Whether the user is an admin of the evening's club (a private evening: its owner; staff too),
    for an evening read ``with_role``: what closing and reopening it asks (``Evening.reopenable``)."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    if evening.club_id is None:
        return evening.owner_id == user.pk
    return evening.my_role == Role.ADMIN


@dataclass(frozen=True)
class EveningAccess:
    """One way into an evening (``evening_for_user``): the evening, what this user may do with it, and
    whether it was read under its lock. The evening's writes take it as it is (``services``): nothing
    is patched onto the evening, and a write never looks at the transaction to guess how it was read."""

    evening: Evening
    may_score: bool  # may record its deals (a scorer or admin of its club, a private evening's owner, a link)
    by_link: bool = False  # scored through a table's link: this page only; the director does the rest
    as_admin: bool = False  # an admin of its club (a private evening's owner; staff): closes for admins only
    # read under its lock (``lock``) in the transaction the caller holds open: the write it is given in
    # that transaction decides on this read and runs in that transaction (a refusal rolls it back)
    locked: bool = False

    @property
    def may_reopen(self) -> bool:
        """Whether this user may reopen it (closed): never through a table's link."""
        return self.may_score and not self.by_link and self.evening.reopenable(admin=self.as_admin)

    @property
    def may_pay(self) -> bool:
        """Whether this user may record, mark and cancel its payments: money rights come from the user's
        role (a scorer or admin of its club, a private evening's owner), never from a table's link."""
        return self.may_score and not self.by_link


def lock[E: Evening](evenings: QuerySet[E], pk: int) -> E | None:
    """The evening ``pk`` of ``evenings`` with its seats, read and locked until the end of the
    transaction this runs in (``select_for_update`` on PostgreSQL; SQLite's transaction holds the
    lock from its start); None when there is none."""
    return evenings.select_for_update(of=("self",)).prefetch_related("seats").filter(pk=pk).first()


def evening_for_user(request: HttpRequest, pk: int, *, write: bool = False, locked: bool = False) -> EveningAccess:
    """The evening and this user's rights on it if he may see it (and score it when ``write``);
    otherwise 404 or 403. Two queries: the evening with its club and the user's role in it, and its
    seats; ``locked`` (in a transaction): the evening read under its lock (``lock``), so that the
    write the access is given to in the same transaction does not read it again."""
    if not 0 < pk <= MAX_ID:
        raise Http404("No such evening")
    evenings = with_role(Evening.objects.select_related("club"), request.user)
    if locked:
        evening = lock(evenings, pk)
    else:
        evening = evenings.prefetch_related("seats").filter(pk=pk).first()
    if evening is None or not evening.seats.all():  # no seats: deleted between the two queries
        raise Http404("No such evening")
    may_view, may_score = evening_rights(request.user, evening)
    by_link = False
    if not may_score and links.holds_link(request, evening.pk):  # a scoring link: this evening only
        may_view = may_score = by_link = True
    if not may_view and not request.user.is_authenticated and links.held_once(request, evening.pk):
        # a table's phone whose link was revoked (or its card replaced): say so, not "not found"
        raise Gone(
            _(
                "This phone no longer scores this table: its link was withdrawn, or its card replaced. The deals "
                "waiting here stay until you discard them; ask the director for the table's new card."
            )
        )
    if not may_view:
        raise Http404("No such evening")
    if write and not may_score:
        raise PermissionDenied("Only the club's scorers record deals")
    return EveningAccess(evening, may_score, by_link, evening_admin(request.user, evening), locked)


def evening_for_money(request: HttpRequest, pk: int, *, write: bool = False) -> EveningAccess:
    """The evening for its money pages and writes: as ``evening_for_user``; a write by someone
    without money rights (``EveningAccess.may_pay``: a table's link gives none) answers 403."""
    access = evening_for_user(request, pk)
    if write and not access.may_pay:
        raise PermissionDenied("Only the club's scorers and admins record payments")
    return access


def evening_for_token(token: str) -> Evening:
    """The read-only link: the token is the only key, and it never allows writing.
    ``<share_id>.<secret>``: the id finds the evening, the secret must match its stored digest."""
    share_id, _dot, secret = token.partition(".")
    found = Evening.objects.filter(share_id=share_id) if share_id and secret and len(token) <= 100 else None
    evening = found.prefetch_related("seats").first() if found is not None else None
    if evening is None or not hmac.compare_digest(evening.share_hash, link_token_hash(secret)):
        raise Http404("No such link")
    if not evening.seats.all():  # deleted between the two queries
        raise Http404("No such link")
    return evening


def visible_evenings(user: User) -> QuerySet[Evening]:
    """Every evening this user may see: his private ones and his clubs'."""
    if user.is_staff:
        return Evening.objects.all()
    return Evening.objects.filter(Q(club__isnull=True, owner=user) | Q(club__memberships__user=user)).distinct()


def refuse_if_managed(evening: Evening) -> None:
    """A club night's table (``Evening.managed``) is closed, reopened, deleted, archived and shared
    only through its night: this view answers 403, saying so (its buttons are not shown)."""
    if evening.managed:
        from .services import Managed  # the refusal's sentence, kept with the services that enforce it

        raise Refusal(Managed(evening).message)
