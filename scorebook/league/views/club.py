"""A club's home page: its latest evenings and its seasons."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Role
from scorebook.clubs.models.club import SCORING_ROLES

LATEST_EVENINGS = 8


@login_required
def club(request, slug):
    club, role = club_for_user(request, slug)
    evenings = club.evenings.prefetch_related("seats")[:LATEST_EVENINGS]
    context = {
        "club": club,
        "role": role,
        "is_admin": role == Role.ADMIN,
        "can_score": role in SCORING_ROLES,
        "evenings": evenings,
        "seasons": club.seasons.all(),
        "member_count": club.memberships.count(),
    }
    return render(request, "league/club.html", context)

