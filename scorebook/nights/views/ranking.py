"""The night's live ranking: one read-only link (and its QR) for the hall's screen and every
phone, provisional during a session and final once the last one is closed. The same pages are
reached by the club's members from the club's pages, without the link (``/nights/<id>/ranking/``).

The link's token is never stored (its digest finds the night), nor is it in anything kept: the
pages link to each other by relative addresses (``players/3/``, ``../../``), so one render of the
live region serves both ways in and holds no token when it is kept in the cache (the database).

The live region polls ``ranking_live``. Its ETag is the night's version (``results.version``: one
aggregate query over what the writes store, never a summary read), so a follower whose copy is
current gets 304 at that cost. Otherwise the region is served as rendered for the night (in the
active language) and kept in the cache (settings.CACHES: the database by default, shared by every
instance), for every follower: rendered again only when the night changed AND the kept render is
more than ``FRESH_SECONDS`` old. On a busy night (tables recording a deal every few seconds in all)
a render thus serves the whole hall for those seconds instead of one poll; a follower sees a change
within ``FRESH_SECONDS`` plus his poll. The ranking page itself shows the same kept region.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django_htmx.http import HttpResponseStopPolling

from scorebook.core import spreadsheet
from scorebook.core.http import noindex

from .. import ranking, results
from ..access import night_for_member, ranking_lookup
from ..models import Night

POLL_SECONDS = 4
FRESH_SECONDS = 2  # a kept render of an older state still serves the followers for this long


@dataclass(frozen=True)
class Way:
    """How a ranking page was reached: ``lookup`` finds its night (the link's digest, or its id for a
    member, checked already); ``night`` loads it (once)."""

    lookup: dict[str, Any]
    member: bool  # reached from the club's pages (not by the link)

    def night(self) -> Night:
        found = Night.objects.select_related("club").filter(**self.lookup).first()
        if found is None:
            raise Http404("No such night")
        return found


def reached(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A ranking view reached by the night's link (``token``: whoever holds it) or from the club's
    pages (``pk``: a logged-in member of the club; 404 for anyone else)."""

    @wraps(view)
    def wrapped(
        request: HttpRequest, *args: Any, token: str | None = None, pk: int | None = None, **kwargs: Any
    ) -> HttpResponse:
        if token is not None:
            lookup = ranking_lookup(token)
            if lookup is None:
                raise Http404("No such night")
            way = Way(lookup, member=False)
        else:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if pk is None:  # (its URL gives the link or the night)
                raise Http404("No such night")
            way = Way({"pk": night_for_member(request, pk).pk}, member=True)
        return view(request, way, *args, **kwargs)

    return wrapped


def live_context(night: Night) -> dict:
    """What the live region shows: the ranking, from the tables' stored summaries."""
    r = results.results(night)
    return {
        "night": night,
        "results": r,
        "rows": [(row, [row.lines.get(s) for s in range(1, night.sessions + 1)]) for row in r.rows],
        "session_numbers": list(range(1, night.sessions + 1)),
        "places": night.ranking == Night.Ranking.PLACES,
    }


@dataclass(frozen=True)
class Live:
    """The live region as rendered for one state of the night, in one language."""

    version: str
    html: str
    final: bool
    made: float  # time.time() when rendered: instances on several machines compare it

    @property
    def etag(self) -> str:
        return _etag(self.version)


def _etag(version: str) -> str:
    return quote_etag(f"{version}-{translation.get_language()}")


def _not_modified(request: HttpRequest, etag: str) -> HttpResponse | None:
    """304 (with its ETag) when the follower's copy has ``etag``, else None."""
    response = get_conditional_response(request, etag=etag)
    if response is not None:
        response["ETag"] = etag
    return response


def _rendered(night_pk: int, version: str, way: Way) -> Live:
    key = f"night-live:{night_pk}:{translation.get_language()}"
    kept = cache.get(key)
    if kept is not None and (kept.version == version or time.time() - kept.made < FRESH_SECONDS):
        return kept
    context = live_context(way.night())
    live = Live(version, render_to_string("nights/ranking.html#live", context), context["results"].final, time.time())
    cache.set(key, live, timeout=3600)
    return live


def _version(way: Way) -> tuple[int, str]:
    found = results.version(**way.lookup)
    if found is None:
        raise Http404("No such night")
    return found


@require_safe
@noindex
@cache_control(no_cache=True)
@reached
def ranking_page(request: HttpRequest, way: Way) -> HttpResponse:
    night = way.night()
    pk, version = _version(way)
    live = _rendered(pk, version, way)
    context = {
        "night": night,
        "live": mark_safe(live.html),  # rendered by the template's own partial
        "session_numbers": list(range(1, night.sessions + 1)),
        "poll": POLL_SECONDS,
        "member": way.member,
    }
    return render(request, "nights/ranking.html", context)


@require_safe
@noindex
@cache_control(no_cache=True)
@reached
def ranking_live(request: HttpRequest, way: Way) -> HttpResponse:
    """The ranking region, or 304 when the follower has what would be served."""
    pk, version = _version(way)
    if (unchanged := _not_modified(request, _etag(version))) is not None:
        return unchanged  # his copy is of the night as it is now: one query
    live = _rendered(pk, version, way)
    if (unchanged := _not_modified(request, live.etag)) is not None:
        return unchanged  # his copy is the render every follower is served for these few seconds
    response = HttpResponseStopPolling(live.html) if live.final else HttpResponse(live.html)
    response["ETag"] = live.etag
    return response


@require_safe
@noindex
@cache_control(no_cache=True)
@reached
def night_line(request: HttpRequest, way: Way, number: int) -> HttpResponse:
    """One player's night: per session his table, his opponents, his points."""
    night = way.night()
    r = results.results(night)
    row = next((row for row in r.rows if row.number == number), None)
    if row is None:
        raise Http404("No such player")
    people = list(night.participants.values_list("number", "player_id", "name"))
    plan = night.plan.get("sessions") or []
    sessions = []
    for s in range(1, night.sessions + 1):
        line = row.lines.get(s)
        seat = None
        for table in plan[s - 1]["tables"] if s <= len(plan) else ():
            if number in table:
                seat = table.index(number) + 1
        played = [t for t in r.tables if t.session <= s]
        begun = any(t.deals for t in r.tables if t.session == s)
        # his place in the night's ranking once this session's deals are counted (rules of the night)
        place = None
        if begun and line is not None:
            place = next(x.rank for x in ranking.rank(people, played, row.places) if x.number == number)
        sessions.append({"number": s, "line": line, "seat": seat, "place": place, "begun": begun})
    context = {"night": night, "row": row, "sessions": sessions, "places": r.rows and row.places}
    return render(request, "nights/line.html", context)


@require_safe
@noindex
@cache_control(no_cache=True)
@reached
def session_results(request: HttpRequest, way: Way, number: int) -> HttpResponse:
    """Every table of one session, its players by points (and places)."""
    night = way.night()
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
@reached
def ranking_csv(request: HttpRequest, way: Way) -> HttpResponse:
    """The ranking for a spreadsheet, like the club's other CSV files: the reader's separators and
    decimals (``;`` and ``1,50`` in French and Dutch), a translated header, never a formula."""
    night = way.night()
    r = results.results(night)
    fmt = spreadsheet.local_format()
    sessions = range(1, night.sessions + 1)
    places = night.ranking == Night.Ranking.PLACES
    header = [
        _("Rank"),
        _("Number"),
        _("Player"),
        *[_("Session %(n)s") % {"n": s} for s in sessions],
        _("Points"),
        *([_("Place points")] if places else []),
    ]

    def figure(value: Decimal | int | None) -> str:
        """Every figure one way, as the page shows it: a whole number without decimals, a shared
        place's points with two (never "10.0" beside "12"); nothing for a table not played yet."""
        if value is None:
            return ""
        value = round(Decimal(value), 2)
        return str(int(value)) if value == value.to_integral_value() else spreadsheet.number(value, 2, fmt)

    def cell(line: ranking.SessionLine | None) -> str:
        if line is None:
            return ""
        return figure(line.place_points) if places else figure(line.points)

    rows = (
        [
            str(row.rank),
            str(row.number),
            row.name,
            *[cell(row.lines.get(s)) for s in sessions],
            figure(row.points),
            *([figure(row.place_points)] if places else []),
        ]
        for row in r.rows
    )
    filename = spreadsheet.file_name(night.name, str(night.date), pgettext("file name", "ranking"))
    return spreadsheet.csv_download(filename, header, rows, fmt)
