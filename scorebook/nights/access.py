"""Who may run a night: the club's admins and scorers (its director). A night of a club the user
is not a member of answers 404; a member without that role gets 403. Who may read its ranking:
every member of the club, and whoever holds the ranking's link (found by its token's digest)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from scorebook.clubs.access import role_in
from scorebook.clubs.models.club import SCORING_ROLES, Role
from scorebook.evenings.models import link_token_hash

from .models import Night

MAX_ID = 2**63 - 1


def night_for_director(request: HttpRequest, pk: int) -> Night:
    night = Night.objects.select_related("club").filter(pk=pk).first() if 0 < pk <= MAX_ID else None
    if night is None:
        raise Http404("No such night")
    role = Role.ADMIN if request.user.is_authenticated and request.user.is_staff else role_in(request.user, night.club)
    if role is None:
        raise Http404("No such night")
    if role not in SCORING_ROLES:
        raise PermissionDenied("Only the club's admins and scorers run a night")
    return night


def ranking_lookup(token: str) -> dict | None:
    """The filter that finds the night of a ranking link by its token's digest (None: no token of the
    site's shape). A link replaced since finds nothing."""
    return {"ranking_hash": link_token_hash(token)} if 16 <= len(token) <= 100 else None


def night_for_member(request: HttpRequest, pk: int) -> Night:
    """The night, for a member of its club (any role; staff too); 404 for anyone else."""
    night = Night.objects.select_related("club").filter(pk=pk).first() if 0 < pk <= MAX_ID else None
    if night is None or (role_in(request.user, night.club) is None and not request.user.is_staff):
        raise Http404("No such night")
    return night
