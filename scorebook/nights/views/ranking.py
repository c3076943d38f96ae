"""The night's live ranking: one read-only link (and its QR) for the hall's screen and every
phone, provisional during a session and final once the last one is closed.

The live region polls ``ranking_live``, which answers 304 from one aggregate query while no
table changed, reads the tables' stored summaries when one did (never their deals), and
tells the page to stop polling once the ranking is final. The same page prints.
"""

from __future__ import annotations

import csv

from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_safe
from django_htmx.http import HttpResponseStopPolling

from scorebook.core.http import noindex

from .. import results
from ..access import night_for_token
from ..models import Night

POLL_SECONDS = 4


def _context(night: Night) -> dict:
    r = results.results(night)
    return {
        "night": night,
        "results": r,
        "rows": [(row, [row.lines.get(s) for s in range(1, night.sessions + 1)]) for row in r.rows],
        "session_numbers": list(range(1, night.sessions + 1)),
        "places": night.ranking == Night.Ranking.PLACES,
        "poll": POLL_SECONDS,
    }


@require_safe
@noindex
@cache_control(no_cache=True)
def ranking_page(request, token):
    night = night_for_token(token)
    return render(request, "nights/ranking.html", _context(night))


def _live_key(token) -> str | None:
    pk = Night.objects.filter(ranking_token=token).values_list("pk", flat=True).first() if len(token) < 100 else None
    tag = results.fingerprint(pk) if pk else None
    return f"r-{tag}-{translation.get_language()}" if tag else None


def _live_etag(request, token):
    request.live_key = _live_key(token)  # the view serves what was rendered for the same state
    return request.live_key


@require_safe
@noindex
@cache_control(no_cache=True)
@condition(etag_func=_live_etag)
def ranking_live(request, token):
    """The ranking region: rendered once per state of the tables and language, and kept in the
    cache (settings.CACHES, shared by every instance) for every other follower asking for the same
    state; the key holds the tables' fingerprint, so an entry is never stale."""
    key = getattr(request, "live_key", None)
    kept = cache.get(f"night-ranking:{token}:{key}") if key else None
    if kept is not None:
        html, final = kept
    else:
        night = night_for_token(token)
        context = _context(night)
        html = render_to_string("nights/ranking.html#live", context, request)
        final = context["results"].final
        if key:
            cache.set(f"night-ranking:{token}:{key}", (html, final), timeout=3600)
    if final:
        return HttpResponseStopPolling(html)
    return HttpResponse(html)


@require_safe
@noindex
@cache_control(no_cache=True)
def night_line(request, token, number):
    """One player's night: per session his table, his opponents, his points."""
    night = night_for_token(token)
    r = results.results(night)
    row = next((row for row in r.rows if row.number == number), None)
    if row is None:
        raise Http404("No such player")
    lines = [row.lines.get(s) for s in range(1, night.sessions + 1)]
    context = {"night": night, "row": row, "lines": list(enumerate(lines, start=1)), "places": r.rows and row.places}
    return render(request, "nights/line.html", context)


@require_safe
@noindex
@cache_control(no_cache=True)
def session_results(request, token, number):
    """Every table of one session, its players by points (and places)."""
    night = night_for_token(token)
    if not 0 < number <= night.sessions:
        raise Http404("No such session")
    r = results.results(night)
    context = {
        "night": night,
        "number": number,
        "tables": r.session_tables(number),
        "places": r.rows and r.rows[0].places,
    }
    return render(request, "nights/session.html", context)


@require_safe
@noindex
def ranking_csv(request, token):
    night = night_for_token(token)
    r = results.results(night)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="night-{night.pk}-ranking.csv"'
    writer = csv.writer(response)
    sessions = range(1, night.sessions + 1)
    places = night.ranking == Night.Ranking.PLACES
    writer.writerow(
        ["rank", "number", "name", *[f"session {s}" for s in sessions], "points", *(["place points"] if places else [])]
    )
    for row in r.rows:
        per = [
            row.lines[s].place_points if places and s in row.lines else (row.lines[s].points if s in row.lines else "")
            for s in sessions
        ]
        writer.writerow([row.rank, row.number, row.name, *per, row.points, *([row.place_points] if places else [])])
    return response
