"""My clubs, a new club, and a club's settings (its home page is the league's: it shows evenings and seasons)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorebook.clubs.access import club_for_user
from scorebook.core.http import AuthenticatedHttpRequest

from .. import services
from ..forms import ClubForm
from ..models import Membership, Role

INVALID = 422


def _list_page(request: AuthenticatedHttpRequest, form: ClubForm | None = None, status: int = 200) -> HttpResponse:
    memberships = Membership.objects.filter(user=request.user).select_related("club").order_by("club__name")
    return render(
        request,
        "clubs/list.html",
        {"memberships": memberships, "form": form or ClubForm()},
        status=status,
    )


@login_required
def club_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _list_page(request)


@login_required
def club_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """GET: the form alone; POST: create the club, its creator as admin."""
    if request.method != "POST":
        return render(request, "clubs/form.html", {"form": ClubForm()})
    form = ClubForm(request.POST)
    if form.is_valid():
        try:
            club = services.create_club(
                name=form.cleaned_data["name"], slug=form.cleaned_data["slug"], user=request.user
            )
        except IntegrityError:  # the same short name taken at the same moment
            form.add_error(
                "slug", _("The short name “%(slug)s” is taken: choose another.") % {"slug": form.cleaned_data["slug"]}
            )
        else:
            messages.success(request, _("The club %(name)s is open: invite its members.") % {"name": club.name})
            return redirect(club)
    return render(request, "clubs/form.html", {"form": form}, status=INVALID)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def club_settings(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Admins rename the club; a new short name keeps the old address working (it redirects)."""
    club, _role = club_for_user(request, slug, Role.ADMIN)
    form = ClubForm(request.POST or None, club=club, initial={"name": club.name, "slug": club.slug})
    if request.method == "POST" and form.is_valid():
        try:
            club = services.rename_club(club, name=form.cleaned_data["name"], slug=form.cleaned_data["slug"])
        except (services.Refused, IntegrityError):  # the short name taken at the same moment
            form.add_error(
                "slug", _("The short name “%(slug)s” is taken: choose another.") % {"slug": form.cleaned_data["slug"]}
            )
        else:
            messages.success(request, _("The club's settings are saved."))
            return redirect(club)
    context = {"club": club, "form": form, "former": list(club.former_slugs.values_list("slug", flat=True))}
    return render(request, "clubs/form.html", context, status=INVALID if form.is_bound else 200)
