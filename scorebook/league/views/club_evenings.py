"""The club's past evenings: a page at a time, filtered by season, player and dates; a club night
is one line (its ranking's winners), its tables behind it."""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Player, Role
from scorebook.clubs.season_forms import EveningFilterForm
from scorebook.core.collation import by_name
from scorebook.core.formatting import signed_points, tone
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.evenings.models import Evening, Seat
from scorebook.ledger.books import variant_name
from scorebook.nights import results as night_results

from .. import standings as st
from .seasons import season_evenings

INVALID = 422
PER_PAGE = 30


def _evening_row(pk: int, day: date, ruleset: str, status: str, summary: dict[str, Any] | None) -> dict[str, Any]:
    summary = summary or {}
    seats = summary.get("players") or ()
    # a player who took no part did not play the evening: no total, never a 0 among the others
    entries = [(e.get("name", ""), int(e.get("points") or 0)) for e in seats if st.took_part(e)]
    deals = int(summary.get("deals") or 0)
    top = max((points for _name, points in entries), default=0)
    winners = [name for name, points in entries if points == top] if deals else []
    ranked = sorted(entries, key=lambda e: -e[1])  # stable: equal points keep the seat order
    return {
        "pk": pk,
        "url": reverse("evening", args=[pk]),
        "night": "",
        "tables": [],
        "date": day,
        "variant": variant_name(ruleset),
        "open": status == Evening.Status.OPEN,
        "deals": deals,
        "players": [name for name, _points in entries],
        # nobody "did not play" a table where no deal was played yet
        "absent": [e.get("name", "") for e in seats if not st.took_part(e)] if deals else [],
        "winners": winners,
        "totals": [
            {"name": name, "text": signed_points(points), "tone": tone(points), "winner": name in winners}
            for name, points in ranked
        ],
    }


def lines_of(evenings: QuerySet[Evening]) -> QuerySet[Evening]:
    """``evenings`` (a queryset) as the lines of a list: a club night is one line (docs/rules/club-nights.md),
    stood for by the first of its tables' evenings; every other evening is a line of its own."""
    first = Evening.objects.filter(night_table__session__night=OuterRef("night_table__session__night")).order_by("pk")
    return evenings.filter(Q(night_table__isnull=True) | Q(pk=Subquery(first.values("pk")[:1])))


def _night_row(outcome: night_results.Outcome) -> dict[str, Any]:
    """A club night's line: its own ranking's winners and totals, its tables behind it on tap."""
    row = _evening_row(outcome.evening, outcome.date, outcome.ruleset, "", outcome.summary)
    entries = [e for e in outcome.summary.get("players") or () if e.get("night_place") is not None]
    entries.sort(key=lambda e: (e["night_place"], str(e.get("name", "")).casefold()))
    winners = [e.get("name", "") for e in entries if e["night_place"] == 1]
    row.update(
        night=outcome.name,
        url=reverse("night_results", args=[outcome.pk]),
        open=any(status == Evening.Status.OPEN for *_rest, status in outcome.evenings),
        winners=winners,
        totals=[
            {
                "name": e.get("name", ""),
                "text": signed_points(int(e.get("points") or 0)),
                "tone": tone(int(e.get("points") or 0)),
                "winner": e["night_place"] == 1,
                "place": e["night_place"],
            }
            for e in entries
        ],
        tables=[
            {"session": session, "table": table, "pk": pk, "url": reverse("evening", args=[pk])}
            for session, table, pk, _status in outcome.evenings
        ],
    )
    return row


@require_safe
@login_required
def club_evenings(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club, role = club_for_user(request, slug)
    seasons = list(club.seasons.all())
    players = by_name(Player.objects.filter(club=club).values("id", "name"), lambda p: p["name"])
    params = {k: v for k, v in request.GET.items() if k != "page" and v}
    form = EveningFilterForm(params or None, seasons=seasons, players=players)
    valid = form.is_valid() if form.is_bound else True
    data = form.cleaned_data if form.is_bound else {}
    archived = bool(data.get("archived"))
    evenings = Evening.objects.filter(club=club)
    chosen_season = next((s for s in seasons if s.pk == data.get("season")), None)
    if chosen_season is not None:
        evenings = season_evenings(chosen_season)
    if data.get("player"):  # his evenings only; a night when he took part at one of its tables
        his = Seat.objects.filter(player_id=data["player"], took_part=True, evening__club=club)
        evenings = evenings.filter(
            Q(pk__in=his.values("evening_id"))
            | Q(night_table__session__night__in=his.values("evening__night_table__session__night_id"))
        )
    if data.get("date_from"):
        evenings = evenings.filter(date__gte=data["date_from"])
    if data.get("date_to"):
        evenings = evenings.filter(date__lte=data["date_to"])
    archived_count = 0 if archived else lines_of(evenings.filter(archived=True)).count()
    listed = (
        lines_of(evenings.filter(archived=archived))
        .order_by("-date", "-created_at", "-pk")
        .values_list("id", "date", "ruleset", "status", "summary", "night_table__session__night_id")
    )
    count = listed.count()
    count_text = ngettext("%(n)s evening", "%(n)s evenings", count) % {"n": count}
    page = Paginator(listed, PER_PAGE).get_page(request.GET.get("page"))
    nights = night_results.outcomes(values[5] for values in page.object_list if values[5] is not None)
    query = urlencode({k: v for k, v in params.items() if k in form.fields})
    context = {
        "club": club,
        "role": role,
        "form": form,
        "filtered": bool(params) and valid,
        "page": page,
        "rows": [
            _night_row(nights[values[5]]) if values[5] is not None else _evening_row(*values[:5])
            for values in page.object_list
        ],
        "count_text": count_text,
        "query": query,
        "seasons": [s for s in seasons if not s.archived],
        "can_score": role in (Role.ADMIN, Role.SCORER),
        "archived": archived,
        "archived_count": archived_count,
        "archived_query": urlencode({k: v for k, v in params.items() if k in form.fields} | {"archived": "1"}),
    }
    return render(request, "league/evenings.html", context, status=200 if valid else INVALID)
