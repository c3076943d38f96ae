"""The director's pages: a new night, the night's page (every table's progress, closing and
reopening sessions, substitutes and late arrivals), the table cards and the plan.

Every write posts a form to its own view, which calls one service function and redirects
back to the night (post, redirect, get); an invalid form shows the night's page again with
the errors next to the field (422). The progress region follows the tables every few
seconds (htmx), answering 304 while nothing changed.
"""

from __future__ import annotations

import secrets
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import condition, require_http_methods, require_POST

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models.club import SCORING_ROLES
from scorebook.core.cleaning import whole_number
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.evenings import payments
from scorebook.evenings.models import Deal

from .. import results, services
from ..access import MAX_ID, night_for_director
from ..forms import CardsForm, EditForm, LateForm, NightForm, ReopenForm, SubstituteForm
from ..models import Night, NightSession, NightTable

INVALID = 422
QR_DARK, QR_LIGHT = "#111418", "#ffffff"


def qr_svg(url: str, title: str) -> str:
    return segno.make(url, error="m").svg_inline(
        scale=1, border=4, dark=QR_DARK, light=QR_LIGHT, omitsize=True, svgclass="qr-code", title=title
    )


@login_required
def night_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club, role = club_for_user(request, slug)
    nights = Night.objects.filter(club=club)
    return render(request, "nights/list.html", {"club": club, "nights": nights, "can_direct": role in SCORING_ROLES})


@login_required
def night_new(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club, _role = club_for_user(request, slug, *SCORING_ROLES)
    form = NightForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        c = form.cleaned_data
        night = services.create_night(
            club=club,
            user=request.user,
            name=c["name"],
            date=c["date"],
            ruleset=c["ruleset"],
            sessions=c["sessions"],
            deals_per_session=c["deals_per_session"],
            ranking=c["ranking"],
            place_points=c["place_points"],
            stake=c["stake"],
            currency=c["currency"],
            players=c["players"],
            seed=secrets.randbelow(2**31),
        )
        messages.success(request, _("The night is ready: print the table cards, then play."))
        return redirect(night)
    status = INVALID if form.is_bound else 200
    return render(request, "nights/new.html", {"club": club, "form": form}, status=status)


# --- the night's page ----------------------------------------------------------------------


def _progress(night: Night) -> dict:
    """Every table of every session: deals done and to play, last activity, late or not."""
    rows = (
        NightTable.objects.filter(session__night=night)
        .order_by("session__number", "number")
        .values_list(
            "pk",
            "session__number",
            "session__status",
            "number",
            "evening_id",
            "evening__summary",
            "evening__updated_at",
            "evening__status",
        )
    )
    sessions: dict[int, dict] = {}
    for pk, s, s_status, number, evening, summary, updated, status in rows:
        session = sessions.setdefault(s, {"number": s, "open": s_status == NightSession.Status.OPEN, "tables": []})
        summary = summary or {}
        session["tables"].append(
            {
                "pk": pk,
                "number": number,
                "evening": evening,
                "players": [p.get("name") for p in summary.get("players") or []],
                "deals": int(summary.get("deals") or 0),
                "updated": updated,
                "open": status == "open",
            }
        )
    target = night.deals_per_session
    for session in sessions.values():
        tables = session["tables"]
        leader = max((t["deals"] for t in tables), default=0)
        session["done"] = sum(t["deals"] for t in tables)
        session["finished"] = sum(1 for t in tables if target and t["deals"] >= target)
        for t in tables:
            behind = leader - t["deals"] >= 2
            others_done = target is not None and target != 0 and leader >= target and t["deals"] < target
            t["late"] = session["open"] and t["open"] and leader > 0 and (behind or others_done)
            t["to_play"] = max(target - t["deals"], 0) if target else None
        session["late"] = sum(1 for t in tables if t["late"])
        session["on_time"] = len(tables) - session["late"]
    current = next((s for s in sessions.values() if s["open"]), None)
    ordered = sorted(
        sessions.values(), key=lambda s: (current is None or s["number"] != current["number"], s["number"])
    )
    late = [
        {"session": s["number"], "number": t["number"], "pk": t["pk"]}
        for s in ordered
        for t in s["tables"]
        if t["late"]
    ]
    # the current session first (on a phone at 40 tables, what the director acts on), late tables named
    return {"sessions": ordered, "current": current["number"] if current else None, "late_tables": late}


def _night_context(request: HttpRequest, night: Night, **forms: Form) -> dict[str, Any]:
    participants = list(night.participants.all())
    playing = [p for p in participants if p.last_session is None]
    return {
        "night": night,
        "club": night.club,
        "participants": participants,
        "progress": _progress(night),
        "events": list(night.events.select_related("by")[:20]),
        "substitute_form": forms.get("substitute_form") or SubstituteForm(participants=playing),
        "late_form": forms.get("late_form") or LateForm(),
        "cards_form": CardsForm(sessions=night.sessions),
        "next_unplayed": services.next_unplayed(night),
        "reprint": services.to_reprint(night),
    }


@login_required
def night(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    night = night_for_director(request, pk)
    return render(request, "nights/night.html", _night_context(request, night))


def _progress_etag(request: HttpRequest, pk: int) -> str | None:
    """The progress's version, for its directors only: anyone else gets no tag, so never a 304 that
    would tell him the night exists (the view then answers 404 or 403)."""
    try:
        night_for_director(request, pk)
    except (Http404, PermissionDenied):
        return None
    tag = results.fingerprint(pk)
    return f"p-{tag}" if tag else None


@login_required
@never_cache
@condition(etag_func=_progress_etag)
def night_progress(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    night = night_for_director(request, pk)
    return render(request, "nights/night.html#progress", {"night": night, "progress": _progress(night)})


def _session_or_404(night: Night, number: int) -> NightSession:
    session = night.night_sessions.filter(number=number).first() if 0 < number <= 100 else None
    if session is None:
        raise Http404("No such session")
    return session


@login_required
@require_POST
def session_close(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    night = night_for_director(request, pk)
    _session_or_404(night, number)
    services.close_session(night, number, request.user)
    messages.success(request, _("Session %(n)s is closed: its tables can no longer change a deal.") % {"n": number})
    return redirect(night)


@login_required
def session_reopen(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    night = night_for_director(request, pk)
    session = _session_or_404(night, number)
    form = ReopenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.reopen_session(night, number, form.cleaned_data["reason"], request.user)
        messages.success(request, _("Session %(n)s is open again.") % {"n": number})
        return redirect(night)
    status = INVALID if form.is_bound else 200
    return render(request, "nights/reopen.html", {"night": night, "session": session, "form": form}, status=status)


@login_required
@require_POST
def night_substitute(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    night = night_for_director(request, pk)
    playing = [p for p in night.participants.all() if p.last_session is None]
    form = SubstituteForm(request.POST, participants=playing)
    if form.is_valid():
        leaving = next(p for p in playing if p.number == form.cleaned_data["leaving"])
        try:
            sub = services.substitute(night, leaving, form.cleaned_data["name"], request.user)
        except services.NightError as error:
            form.add_error("name", str(error))
        else:
            messages.success(
                request,
                _("%(sub)s takes the place of %(left)s (number %(n)s).")
                % {"sub": sub.name, "left": leaving.name, "n": sub.number},
            )
            return redirect(night)
    return render(request, "nights/night.html", _night_context(request, night, substitute_form=form), status=INVALID)


@login_required
@require_POST
def night_late(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    night = night_for_director(request, pk)
    form = LateForm(request.POST)
    if form.is_valid():
        try:
            late = services.late_arrival(night, form.cleaned_data["name"], request.user)
        except services.NightError as error:
            form.add_error("name", str(error))
        else:
            messages.success(
                request,
                _("%(name)s plays from session %(s)s with number %(n)s: the plan of the sessions left is redrawn.")
                % {"name": late.name, "s": late.first_session, "n": late.number},
            )
            return redirect(night)
    return render(request, "nights/night.html", _night_context(request, night, late_form=form), status=INVALID)


# --- table cards, links, the plan --------------------------------------------------------------


def _cards(request: HttpRequest, night: Night, tokens: dict[int, str]) -> HttpResponse:
    tables = NightTable.objects.filter(evening_id__in=list(tokens)).select_related("session", "evening")
    tables = tables.order_by("session__number", "number").prefetch_related("evening__seats")
    cards = []
    for t in tables:
        url = request.build_absolute_uri(reverse("scoring_link", args=[tokens[t.evening_id]]))
        cards.append(
            {
                "session": t.session.number,
                "table": t.number,
                "seats": [s.name for s in t.evening.seats.all()],
                "url": url,
                "qr": qr_svg(url, _("QR code of the table's scoring link")),
            }
        )
    response = render(request, "nights/cards.html", {"night": night, "cards": cards})
    response["Cache-Control"] = "no-store"  # the links are shown once
    response["Referrer-Policy"] = "no-referrer"
    return response


@login_required
@require_POST
def night_cards(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """New links for every table (of one session when asked) and their cards, to print.
    The cards printed before stop working."""
    night = night_for_director(request, pk)
    if request.POST.get("session") == "reprint":  # only the cards a redraw replaced, and the new tables'
        return _cards(request, night, services.reprint_links(night))
    session = whole_number(request.POST.get("session", ""), low=1, high=999)
    return _cards(request, night, services.table_links(night, session))


def _table_or_404(night: Night, table: int) -> NightTable:
    found = NightTable.objects.filter(pk=table, session__night=night).select_related("evening").first()
    if found is None or not 0 < table <= MAX_ID:
        raise Http404("No such table")
    return found


@login_required
@require_POST
def table_link(request: AuthenticatedHttpRequest, pk: int, table: int) -> HttpResponse:
    night = night_for_director(request, pk)
    t = _table_or_404(night, table)
    return _cards(request, night, {t.evening_id: services.table_link(t)})


@login_required
@require_POST
def table_revoke(request: AuthenticatedHttpRequest, pk: int, table: int) -> HttpResponse:
    night = night_for_director(request, pk)
    t = _table_or_404(night, table)
    services.revoke_table_link(t)
    messages.success(request, _("The link of table %(t)s is revoked: its phone can no longer score.") % {"t": t.number})
    return redirect(night)


@login_required
@require_POST
def ranking_link(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A new link to the live ranking, shown this once with its QR (the one before stops working)."""
    night = night_for_director(request, pk)
    token = services.new_ranking_link(night)
    url = request.build_absolute_uri(reverse("night_ranking", args=[token]))
    context = {"night": night, "url": url, "qr": qr_svg(url, _("QR code of the live ranking"))}
    response = render(request, "nights/ranking_link.html", context)
    response["Cache-Control"] = "no-store"  # the link is shown once
    response["Referrer-Policy"] = "no-referrer"
    return response


@login_required
def night_plan(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    night = night_for_director(request, pk)
    names = {p.number: p.name for p in night.participants.all()}
    sessions = [
        {"number": i, "tables": [[(n, names.get(n, "?")) for n in t] for t in s["tables"]]}
        for i, s in enumerate(night.plan.get("sessions", []), start=1)
    ]
    return render(request, "nights/plan.html", {"night": night, "sessions": sessions})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def night_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The night's name, date and deals per session, changed after it was made (in its log)."""
    night = night_for_director(request, pk)
    initial = {"name": night.name, "date": night.date, "deals_per_session": night.deals_per_session}
    form = EditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        c = form.cleaned_data
        try:
            services.edit_night(
                night, name=c["name"], date=c["date"], deals_per_session=c["deals_per_session"], user=request.user
            )
        except services.NightError as error:
            form.add_error("deals_per_session", str(error))
        else:
            messages.success(request, _("The night is saved."))
            return redirect(night)
    status = INVALID if form.is_bound else 200
    return render(request, "nights/edit.html", {"night": night, "form": form}, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def night_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """GET: what deleting the night does; POST: delete it, while no deal is recorded at its tables."""
    night = night_for_director(request, pk)
    played = Deal.objects.filter(evening__night_table__session__night=night).exists()
    records = services.payments_of(night)
    if request.method == "POST" and not played and not records:
        try:
            services.delete_night(night)
        except services.NightError:
            played = True  # a deal was recorded in the meantime
            records = services.payments_of(night)
        else:
            messages.success(request, _("The night “%(name)s” is deleted.") % {"name": night.name})
            return redirect("night_list", night.club.slug)
    context = {
        "title": _("Delete the night “%(name)s”?") % {"name": night.name},
        "eyebrow": night.club.name,
        "lines": [_("Its tables and their cards go with it; its players stay in the roster.")],
        "action": reverse("night_delete", args=[night.pk]),
        "button": _("Delete the night"),
        "cancel_url": reverse("night", args=[night.pk]),
    }
    if played:
        context |= {
            "title": _("This night cannot be deleted"),
            "lines": [],
            "refusal": _("A deal has been recorded at one of its tables: the night cannot be deleted."),
        }
    elif records:  # payments outlive everything: name them
        context |= {
            "title": _("This night cannot be deleted"),
            "lines": payments.sentences(records),
            "refusal": _(
                "Payments were recorded for it, and a payment is never deleted (one recorded by mistake is "
                "cancelled, and stays in the history): the night is kept."
            ),
        }
    refused = played or bool(records)
    return render(
        request, "core/confirm.html", context, status=INVALID if refused and request.method == "POST" else 200
    )
