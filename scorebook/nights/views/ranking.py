"""The night's live ranking: one read-only link (and its QR) for the hall's screen and every
phone, provisional during a session and final once the last one is closed. The same pages are
reached by the club's members from the club's pages, without the link (``/nights/<id>/ranking/``).

The link's token is never stored (its digest finds the night), nor is it in anything the pages
show: they link to each other by relative addresses (``players/3/``, ``../../``).

The page polls ``ranking_live`` every few seconds, sending back the version of the region it shows
(``If-None-Match``): a key of what it was computed from and a fingerprint of what it shows
(``hall.py``). The answer: 304 when that is what it would be shown now; the rows that changed,
swapped out of band, when the page shows the ranking of the mark before; else the whole region; and
the whole final ranking once every session is closed, which stops the polling (286). Nothing is
kept between requests and a poll writes nothing: each one reads the tables' stored figures. Without
JavaScript, a reload shows the same region.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.http import parse_etags, quote_etag
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django_htmx.http import HttpResponseStopPolling, reswap

from scorebook.core import spreadsheet
from scorebook.core.http import HtmxHttpRequest, noindex

from .. import hall, ranking, results
from ..access import night_for_member, ranking_lookup
from ..models import Night


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


def region_context(night: Night, shown: hall.Shown, key: str, phase: int) -> dict[str, Any]:
    """What the live region's partials read: the rows as shown, the page's marks (``phase``) and
    the version it sends back (``key``: ``hall.state``'s, of what they were computed from)."""
    return {
        "night": night,
        "shown": shown,
        "session_numbers": range(1, night.sessions + 1),
        "poll": hall.POLL_SECONDS,
        "phase": phase,
        "asks": json.dumps({"If-None-Match": quote_etag(f"{key}.{shown.fingerprint}")}),
    }


def _state(way: Way, at: datetime) -> str:
    """``hall.state``'s key of the night at the mark ``at`` (read first: what is read after it is as new)."""
    found = hall.state(way.lookup, at)
    if found is None:
        raise Http404("No such night")
    return found[1]


@require_safe
@noindex
@cache_control(no_cache=True)
@reached
def ranking_page(request: HttpRequest, way: Way) -> HttpResponse:
    phase = hall.phase()  # its marks from now: it shows every deal recorded until now
    at = hall.marks(phase)
    key = _state(way, at[0])
    night = way.night()
    context = region_context(night, hall.Hall(night, at).now, key, phase) | {"member": way.member}
    return render(request, "nights/ranking.html", context)


def _phase(request: HttpRequest) -> int:
    """The polling page's marks (``?p=``, given by the page), 0 for anything else."""
    value = request.GET.get("p", "")
    return int(value) if re.fullmatch(r"[0-9]{1,2}", value) and int(value) < hall.TICK_SECONDS else 0


def _held(request: HttpRequest) -> tuple[str, str]:
    """The version the polling page shows (its ``If-None-Match``): (key, fingerprint), empty without one."""
    for etag in parse_etags(request.headers.get("If-None-Match", "")):
        key, _, fingerprint = etag.strip('"').partition(".")
        return key, fingerprint
    return "", ""


def _not_modified(key: str, fingerprint: str) -> HttpResponse:
    response = HttpResponseNotModified()
    response["ETag"] = quote_etag(f"{key}.{fingerprint}")
    return response


@require_safe
@noindex
@cache_control(no_cache=True)
@reached
def ranking_live(request: HtmxHttpRequest, way: Way) -> HttpResponse:
    """The live region for the page that polls: 304 when it shows it already (its key the night's:
    two queries; or its fingerprint, nothing it shows changed); the rows that changed when it shows
    the ranking of the mark before; else the whole region (final: 286, the polling stops)."""
    phase = _phase(request)
    at = hall.marks(phase)
    key = _state(way, at[0])
    held = _held(request)
    if held[0] == key:
        return _not_modified(*held)
    night = way.night()
    view = hall.Hall(night, at)
    now = view.now
    if held[1] == now.fingerprint:
        return _not_modified(key, now.fingerprint)
    context = region_context(night, now, key, phase)
    rows = hall.changed(view.before, now) if request.htmx and held[1] == view.before.fingerprint else None
    if rows is not None:
        context |= {"rows": rows, "status_changed": view.before.closed != now.closed}
        response = reswap(render(request, "nights/ranking.html#changes", context), "none")
    elif now.final:
        response = HttpResponseStopPolling(render_to_string("nights/ranking.html#live", context, request))
    else:
        response = render(request, "nights/ranking.html#live", context)
    response["ETag"] = quote_etag(f"{key}.{now.fingerprint}")
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
