"""Who may see and change what. Every view goes through these helpers.

A club's evenings, players, standings are seen by its members; deals are recorded
by its scorers and admins; members, rules and seasons are managed by its admins.
A private evening (no club) belongs to its owner. Anything the user may not see
answers 404, so that nothing leaks; a member lacking the role gets 403.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from scorebook.clubs.models import Club, Membership, Role
from scorebook.clubs.models.club import SCORING_ROLES

from . import statements
from .models import Evening


def role_in(user, club) -> Role | None:
    if not user.is_authenticated or club is None:
        return None
    role = Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
    return Role(role) if role else None


def evening_rights(user, evening: Evening) -> tuple[bool, bool]:
    """(may see it, may record its deals), for an evening read with the user's role in its
    club (``my_role``, as ``statements.evening_and_role`` reads it)."""
    if not user.is_authenticated:
        return False, False
    if user.is_staff:
        return True, True
    if evening.club_id is None:
        mine = evening.owner_id == user.pk
        return mine, mine
    role = Role(evening.my_role) if evening.my_role else None
    return role is not None, role in SCORING_ROLES


def _get_evening_for_user(request, pk: int, *, write: bool = False) -> Evening:
    """The evening if this user may see it (and score it when ``write``); otherwise 404 or 403.

    One query: the evening and the user's role in its club. The copy of the rules (the
    largest field) is read only if asked for: the scored state is usually remembered.
    """
    evening = statements.evening_and_role(pk, request.user.pk if request.user.is_authenticated else None)
    if evening is None:
        raise Http404("No such evening")
    may_view, may_score = evening_rights(request.user, evening)
    if not may_view:
        raise Http404("No such evening")
    if write and not may_score:
        raise PermissionDenied("Only the club's scorers record deals")
    return evening


def _get_evening_for_token(token: str) -> Evening:
    """The read-only link: the token is the only key, and it never allows writing."""
    return get_object_or_404(Evening, share_token=token)


def _get_club_for_user(request, slug: str, *roles: Role) -> tuple[Club, Role]:
    """The club if the user is a member (404 otherwise), with one of ``roles`` when given (403 otherwise)."""
    club = get_object_or_404(Club, slug=slug)
    role = role_in(request.user, club)
    if role is None and not (request.user.is_authenticated and request.user.is_staff):
        raise Http404("No such club")
    role = role or Role.ADMIN  # staff act as admins
    if roles and role not in roles:
        raise PermissionDenied("Your role in this club does not allow this")
    return club, role


def visible_evenings(user):
    """Every evening this user may see: his private ones and his clubs'."""
    if user.is_staff:
        return Evening.objects.all()
    return Evening.objects.filter(Q(club__isnull=True, owner=user) | Q(club__memberships__user=user)).distinct()
