"""The club's roster: players, the accounts linked to them, and merging two records of one person."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError
from django.db.models import Count
from django.db.models.functions import Lower
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorebook.accounts.models import display_name
from scorebook.clubs import services
from scorebook.clubs.access import club_for_user
from scorebook.clubs.forms import LinkForm, MergeForm, PlayerForm
from scorebook.clubs.models import Membership, Player, Role
from scorebook.clubs.models.club import SCORING_ROLES

from .. import roster

INVALID = 422


def _row_id(player) -> str:
    return f"id_p{player.pk}_%s"


def _roster(club):
    return (
        Player.objects.filter(club=club)
        .annotate(evenings=Count("seats"))
        .select_related("user__profile")
        .order_by(Lower("name"), "pk")  # a grouped query drops the model's ordering
    )


def _members(club):
    members = list(Membership.objects.filter(club=club).select_related("user__profile"))
    members.sort(key=lambda m: display_name(m.user).casefold())
    return members


def _roster_page(request, club, role, *, add_form=None, failed=None, link_form=None, status=200):
    """The roster; ``failed`` is the player whose link was refused (its card shows the form with the error)."""
    is_admin = role == Role.ADMIN
    players = list(_roster(club))
    mine = next((p for p in players if p.user_id == request.user.pk), None)
    members = _members(club) if is_admin else []
    rows = []
    for p in players:
        row = {
            "player": p,
            "account": display_name(p.user) if p.user_id else "",
            "is_me": p.user_id == request.user.pk,
            "can_claim": p.user_id is None and mine is None,
            "error": "",
        }
        if failed is not None and p.pk == failed.pk:
            row["form"] = link_form
            row["error"] = " ".join(str(e) for e in link_form.errors.get("user", []))
        elif is_admin:
            row["form"] = LinkForm(initial={"user": p.user_id}, members=members, auto_id=_row_id(p))
        rows.append(row)
    context = {
        "club": club,
        "role": role,
        "is_admin": is_admin,
        "can_add": role in SCORING_ROLES,
        "rows": rows,
        "add_form": add_form or PlayerForm(club=club),
        "me": request.user,
    }
    return render(request, "league/players/list.html", context, status=status)


@login_required
def player_list(request, slug):
    """GET: the roster (members); POST: a new player (admins and scorers)."""
    if request.method != "POST":
        club, role = club_for_user(request, slug)
        return _roster_page(request, club, role)
    club, role = club_for_user(request, slug, *SCORING_ROLES)
    form = PlayerForm(request.POST, club=club)
    if form.is_valid():
        try:
            player = services.add_player(club, form.cleaned_data["name"], request.user)
        except IntegrityError:  # the same name added at the same moment
            form.add_error("name", _("%(name)s is already in the roster.") % {"name": form.cleaned_data["name"]})
        else:
            messages.success(request, _("%(name)s is in the roster.") % {"name": player.name})
            return redirect("club_players", club.slug)
    return _roster_page(request, club, role, add_form=form, status=INVALID)


@login_required
@require_POST
def player_link(request, slug, player):
    """Admins link any member's account (or none); a member links himself to an unlinked player, or unlinks himself."""
    club, role = club_for_user(request, slug)
    player = get_object_or_404(Player.objects.select_related("user"), pk=player, club=club)
    if role == Role.ADMIN:
        form = LinkForm(request.POST, members=_members(club), auto_id=_row_id(player))
    else:
        wanted = request.POST.get("user", "")
        if wanted not in ("", str(request.user.pk)):
            raise PermissionDenied("Only an admin links someone else's account")
        if wanted == "" and player.user_id != request.user.pk:
            raise PermissionDenied("Only an admin unlinks someone else's account")
        own = Membership.objects.filter(club=club, user=request.user).select_related("user")
        form = LinkForm(request.POST, members=own, auto_id=_row_id(player))
    if form.is_valid():
        user_id = form.cleaned_data["user"]
        if role != Role.ADMIN and user_id is not None and player.user_id not in (None, user_id):
            form.add_error("user", _("%(name)s is already linked to another account.") % {"name": player.name})
        else:
            user = next((m.user for m in _members(club) if m.user_id == user_id), None)
            try:
                services.link_player(player, user)
            except services.Refused as refused:
                form.add_error("user", refused.message)
            else:
                if user is None:
                    messages.success(request, _("%(name)s is no longer linked to an account.") % {"name": player.name})
                else:
                    messages.success(
                        request,
                        _("%(name)s is now linked to %(account)s.") % {"name": player.name, "account": display_name(user)},
                    )
                return redirect("club_players", club.slug)
    return _roster_page(request, club, role, failed=player, link_form=form, status=INVALID)


@login_required
def player_merge(request, slug, player):
    """Two records of the same person: pick the other one (?with=), then which one stays."""
    club, role = club_for_user(request, slug, Role.ADMIN)
    player = get_object_or_404(_roster(club), pk=player)
    others = list(_roster(club).exclude(pk=player.pk))
    context = {"club": club, "player": player, "others": others}
    if request.method == "POST":
        form = MergeForm(request.POST, player=player, others=others)
        if form.is_valid():
            other = form.cleaned_data["other_player"]
            keep, drop = (player, other) if form.cleaned_data["keep"] == player.pk else (other, player)
            try:
                moved = roster.merge_players(keep, drop)
            except services.Refused as refused:
                form.add_error(None, refused.message)
            else:
                messages.success(
                    request,
                    _("%(drop)s and %(keep)s are one player now: %(keep)s (%(count)s evenings moved).")
                    % {"drop": drop.name, "keep": keep.name, "count": moved},
                )
                return redirect("club_players", club.slug)
        context |= _pair(form.cleaned_data.get("other_player"), player)
        context["form"] = form
        return render(request, "league/players/merge.html", context, status=INVALID)
    other = next((p for p in others if str(p.pk) == request.GET.get("with", "")), None)
    if other is not None:
        context["form"] = MergeForm(initial={"other": other.pk, "keep": player.pk}, player=player, others=others)
        context |= _pair(other, player)
    return render(request, "league/players/merge.html", context)


def _pair(other, player) -> dict:
    """The two records side by side, and the evenings that forbid the merge."""
    if other is None:
        return {}
    clash = [roster.evening_label(e) for e in roster.shared_evenings(player, other)[:3]]
    return {
        "other": other,
        "pair": [
            {"player": p, "account": display_name(p.user) if p.user_id else ""} for p in (player, other)
        ],
        "clash": clash,
    }
