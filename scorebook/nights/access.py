"""Who may run a night: the club's admins and scorers (its director). A night of a club the user
is not a member of answers 404; a member without that role gets 403."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from scorebook.clubs.access import role_in
from scorebook.clubs.models.club import SCORING_ROLES, Role

from .models import Night

MAX_ID = 2**63 - 1


def night_for_director(request, pk: int) -> Night:
    night = Night.objects.select_related("club").filter(pk=pk).first() if 0 < pk <= MAX_ID else None
    if night is None:
        raise Http404("No such night")
    role = Role.ADMIN if request.user.is_authenticated and request.user.is_staff else role_in(request.user, night.club)
    if role is None:
        raise Http404("No such night")
    if role not in SCORING_ROLES:
        raise PermissionDenied("Only the club's admins and scorers run a night")
    return night


def night_for_token(token: str) -> Night:
    night = Night.objects.select_related("club").filter(ranking_token=token).first() if len(token) < 100 else None
    if night is None:
        raise Http404("No such night")
    return night
