"""A season made, changed, deleted or archived by the club's admins (its standings: ``seasons.py``).
The writes are the club's services (``clubs.services``: under the club's lock); a change made in the
meantime answers 409 with the form checked again."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from scorebook.clubs import services as club_services
from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Club, Role, Season
from scorebook.clubs.season_forms import SeasonForm
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.evenings.models import Evening, usual_variant

from .seasons import evening_count, season_evenings, season_for

INVALID = 422
CONFLICT = 409


def _season_form_page(
    request: HttpRequest,
    club: Club,
    role: Role,
    form: SeasonForm,
    season: Season | None = None,
    status: int | None = None,
) -> HttpResponse:
    status = status or (INVALID if form.is_bound else 200)
    return render(
        request,
        "league/seasons/form.html",
        {"club": club, "role": role, "form": form, "season": season},
        status=status,
    )


def _new_season(club: Club) -> dict[str, Any]:
    """What a new season's form proposes: the club's usual variant; a year from the day after its
    latest season ends (the first season: from the club's first evening of that variant, or from
    the first of this month); named by its years."""
    ruleset = usual_variant(club) or "kleurenwiezen"
    last = club.seasons.order_by("-end").values_list("end", flat=True).first()
    if last is not None:
        start = last + timedelta(days=1)
    else:
        first = Evening.objects.filter(club=club, ruleset=ruleset).order_by("date").values_list("date", flat=True)
        start = first.first() or timezone.localdate().replace(day=1)
    try:
        end = start.replace(year=start.year + 1) - timedelta(days=1)
    except ValueError:  # 29 February
        end = start.replace(year=start.year + 1, day=28)
    name = f"{start.year}–{end.year}" if end.year != start.year else str(start.year)
    return {"ruleset": ruleset, "start": start, "end": end, "name": name}


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def season_new(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club, role = club_for_user(request, slug, Role.ADMIN)
    form = SeasonForm(request.POST or None, instance=Season(club=club), initial=_new_season(club))
    if request.method == "POST" and form.is_valid():
        try:
            season = _save_season(form)
        except club_services.Conflict as conflict:  # the same season saved in the meantime
            return _refused_again(request, club, role, conflict, Season(club=club))
        messages.success(request, _("The season “%(name)s” is created.") % {"name": season.name})
        return redirect("season", club.slug, season.pk)
    return _season_form_page(request, club, role, form)


def _save_season(form: SeasonForm) -> Season:
    return club_services.save_season(
        form.save(commit=False), overlap_confirmed=bool(form.cleaned_data.get("confirm_overlap"))
    )


def _refused_again(
    request: HttpRequest,
    club: Club,
    role: Role,
    conflict: club_services.Conflict,
    instance: Season,
    shown: Season | None = None,
) -> HttpResponse:
    """The form, checked again after a change in the meantime, says why nothing was saved (409)."""
    form = SeasonForm(request.POST, instance=instance)
    if form.is_valid():  # what changed is nothing the form checks (the season was deleted): said above it
        form.add_error(None, conflict.message)
    return _season_form_page(request, club, role, form, shown, status=CONFLICT)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def season_edit(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    club, role = club_for_user(request, slug, Role.ADMIN)
    season = season_for(club, pk)
    shown = Season(pk=season.pk, club=club, name=season.name, archived=season.archived)  # the form changes its instance
    form = SeasonForm(request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        try:
            _save_season(form)
        except club_services.Conflict as conflict:  # deleted, or another season saved, in the meantime
            instance = Season.objects.filter(pk=shown.pk).first() or Season(pk=shown.pk, club=club)
            return _refused_again(request, club, role, conflict, instance, shown)
        messages.success(request, _("The season is saved."))
        return redirect("season", club.slug, season.pk)
    return _season_form_page(request, club, role, form, shown)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def season_delete(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """GET: what deleting the season does (and does not); POST: delete it. Its evenings stay."""
    club, _role = club_for_user(request, slug, Role.ADMIN)
    season = season_for(club, pk)
    if request.method == "POST":
        if club_services.delete_season(season):
            messages.success(request, _("The season “%(name)s” is deleted; its evenings stay.") % {"name": season.name})
        else:  # another request deleted it a moment before
            messages.info(request, _("The season “%(name)s” was already deleted.") % {"name": season.name})
        return redirect(club)
    count, _nights, _tables = evening_count(season_evenings(season))
    context = {
        "title": _("Delete the season “%(name)s”?") % {"name": season.name},
        "eyebrow": club.name,
        "lines": [
            ngettext(
                "Its standings go; its %(n)s evening stays in the club, with its deals and money.",
                "Its standings go; its %(n)s evenings stay in the club, with their deals and money.",
                count,
            )
            % {"n": count},
            _("To keep it without showing it, archive it instead."),
        ],
        "action": reverse("season_delete", args=[club.slug, season.pk]),
        "button": _("Delete the season"),
        "cancel_url": reverse("season", args=[club.slug, season.pk]),
    }
    return render(request, "core/confirm.html", context)


@require_POST
@login_required
def season_archive(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Archive a season out of the club's lists (``archived`` = 1), or bring it back (0)."""
    club, _role = club_for_user(request, slug, Role.ADMIN)
    season = season_for(club, pk)
    archived = request.POST.get("archived", "1") != "0"
    try:
        club_services.archive_season(season, archived)
    except club_services.Conflict as conflict:  # deleted in the meantime
        messages.error(request, conflict.message)
        return redirect(club)
    if archived:
        messages.success(
            request, _("“%(name)s” is archived: it is kept, out of the club's lists.") % {"name": season.name}
        )
    else:
        messages.success(request, _("“%(name)s” is back in the club's lists.") % {"name": season.name})
    return redirect("season", club.slug, season.pk)
