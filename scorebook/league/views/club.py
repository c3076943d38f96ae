"""A club's home page: its latest evenings and its seasons (archived ones are left out of both)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import PlayerClaim, Role
from scorebook.clubs.models.club import SCORING_ROLES
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.evenings import listing

LATEST_EVENINGS = 8


@login_required
def club(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club, role = club_for_user(request, slug)
    is_admin = role == Role.ADMIN
    # a club night is one line (its tables behind it, on its page)
    evenings = list(listing.listed(club.evenings.filter(archived=False)).prefetch_related("seats")[:LATEST_EVENINGS])
    lines = listing.lines(evenings, request.user)
    rows = [(e, lines.get(e.pk)) for e in evenings]  # a club night: its line, else none
    seasons = list(club.seasons.all())
    context = {
        "club": club,
        "role": role,
        "is_admin": is_admin,
        "can_score": role in SCORING_ROLES,
        "evenings": evenings,
        "rows": rows,
        "seasons": [s for s in seasons if not s.archived],
        "archived_seasons": [s for s in seasons if s.archived],
        "member_count": club.memberships.count(),
        "pending_claims": PlayerClaim.objects.filter(player__club=club).count() if is_admin else 0,
    }
    return render(request, "league/club.html", context)
