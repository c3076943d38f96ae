"""A season's prizes from the club's kitty (docs/rules/money.md): chosen on the season (``Season.prizes``), shown
with its standings, and awarded by an admin once the season is over, from its final standings: each
becomes what the kitty owes the player (``ledger.services.award_prizes``), in his balance until paid."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Player, Role, Season
from scorebook.core.formatting import money_text
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.ledger import books, services
from scorebook.ledger.models import Prize

from .. import standings as st


def awards(season: Season, table: st.Standings) -> list[tuple[Player | None, int, Decimal]]:
    """What the final standings give each player: (player, place, amount), 1st first."""
    shares = books.prize_shares(table.ranked, [Decimal(p) for p in season.prizes or ()])
    players = {
        p.pk: p
        for p in Player.objects.filter(club=season.club, pk__in=[k for k, _p, _a in shares if isinstance(k, int)])
    }
    return [(players.get(key) if isinstance(key, int) else None, place, amount) for key, place, amount in shares]


def context(season: Season, table: st.Standings, role: Role) -> dict[str, Any]:
    """The season page's prizes: the amounts, and either the prizes awarded or, once the season is over,
    who the standings give them to (an admin awards them)."""
    if not season.prizes:
        return {}
    currency = books.club_currency(season.club)
    awarded = list(Prize.objects.active().filter(season=season).select_related("player").order_by("place", "pk"))
    over = season.end < timezone.localdate()
    proposed = awards(season, table) if over and not awarded else []
    return {
        "prizes": [
            {"place": n, "text": money_text(Decimal(amount), currency)}
            for n, amount in enumerate(season.prizes, start=1)
        ],
        "prizes_awarded": [
            {"place": p.place, "name": p.player.name, "text": money_text(p.amount, p.currency)} for p in awarded
        ],
        "prizes_proposed": [
            {"place": place, "name": player.name if player else "?", "text": money_text(amount, currency)}
            for player, place, amount in proposed
        ],
        "prizes_over": over,
        "may_award": role == Role.ADMIN and over and not awarded and bool(proposed),
    }


@require_POST
@login_required
def season_prizes(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Award the season's prizes from its final standings (admins, once the season is over). A second
    tap is told they were awarded already."""
    from .seasons import season_table

    club, _role = club_for_user(request, slug, Role.ADMIN)
    season = get_object_or_404(Season, pk=pk, club=club)
    season.club = club
    back = reverse("season", args=[club.slug, season.pk]) + "#prizes"
    if season.end >= timezone.localdate() or not season.prizes:
        messages.warning(request, _("The prizes are awarded once the season is over."))
        return redirect(back)
    given = [
        services.Award(place, player, amount)
        for player, place, amount in awards(season, season_table(season))
        if player
    ]
    try:
        services.award_prizes(season, given, books.club_currency(club), request.user)
    except services.AlreadyAwarded:
        messages.info(request, _("The season's prizes were awarded already."))
    else:
        messages.success(request, _("The prizes are awarded: the kitty owes each winner his prize, in the ledger."))
    return redirect(back)
