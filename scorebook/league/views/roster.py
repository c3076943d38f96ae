"""The club's roster: players, the accounts linked to them, renaming a player, and merging two records.

A member who says a roster entry is him sends a claim; the club's admins approve or refuse it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.http import HttpRequest

from scorebook.clubs.models import Club

if TYPE_CHECKING:
    from scorebook.clubs.forms import PlayedPlayer

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError
from django.db.models import Count, F, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scorebook.accounts.models import display_name
from scorebook.clubs import services
from scorebook.clubs.access import club_for_user
from scorebook.clubs.forms import ClaimAnswerForm, LinkForm, MergeForm, PlayerForm
from scorebook.clubs.models import Membership, Player, PlayerClaim, Role
from scorebook.clubs.models.club import SCORING_ROLES
from scorebook.core import cleaning
from scorebook.core.collation import by_name
from scorebook.core.http import AuthenticatedHttpRequest

from .. import roster

INVALID = 422
CONFLICT = 409


def _row_id(player: Player) -> str:
    return f"id_p{player.pk}_%s"


def _players(club: Club) -> QuerySet[PlayedPlayer]:
    return (
        Player.objects.filter(club=club)
        .annotate(
            # his evenings (he took part: docs/rules/money.md), a club night once however many tables
            # (docs/rules/club-nights.md)
            alone=Count("seats", filter=Q(seats__place__isnull=False, seats__evening__night_table__isnull=True)),
            nights=Count(
                "seats__evening__night_table__session__night",
                filter=Q(seats__place__isnull=False),
                distinct=True,
            ),
            evenings=F("alone") + F("nights"),
        )
        .select_related("user__profile")
    )


def _roster(club: Club, *, exclude: Player | None = None) -> list[PlayedPlayer]:
    """The club's players in the reader's order (the database's own order differs between databases)."""
    players = _players(club)
    if exclude is not None:
        players = players.exclude(pk=exclude.pk)
    return by_name(players, lambda p: p.name)


def roster_rows(club: Club) -> list[list[Any]]:
    """The roster for a spreadsheet: [name, linked account, evenings played] (two queries)."""
    return [[p.name, display_name(p.user) if p.user_id else "", p.evenings] for p in _roster(club)]


def _members(club: Club) -> list[Membership]:
    members = Membership.objects.filter(club=club).select_related("user__profile")
    return by_name(members, lambda m: display_name(m.user))


def _roster_page(
    request: AuthenticatedHttpRequest,
    club: Club,
    role: Role,
    *,
    add_form: PlayerForm | None = None,
    failed: Player | None = None,
    link_form: LinkForm | None = None,
    rename_form: PlayerForm | None = None,
    paste_error: str = "",
    paste_text: str = "",
    status: int = 200,
) -> HttpResponse:
    """The roster; ``failed`` is the player whose link or new name was refused (its card shows why)."""
    is_admin = role == Role.ADMIN
    may_rename = role in SCORING_ROLES
    players = _roster(club)
    mine = next((p for p in players if p.user_id == request.user.pk), None)
    members = _members(club) if is_admin else []
    claims = list(PlayerClaim.objects.filter(player__club=club).select_related("player", "user__profile"))
    my_claim = next((c.player_id for c in claims if c.user_id == request.user.pk), None)
    rows = []
    for p in players:
        is_failed = failed is not None and p.pk == failed.pk
        row = {
            "player": p,
            "account": display_name(p.user) if p.user_id else "",
            "is_me": p.user_id == request.user.pk,
            "claimed": my_claim == p.pk,
            "can_claim": p.user_id is None and mine is None and my_claim is None,
            "error": "",
        }
        if is_failed and link_form is not None:
            row["form"] = link_form
            row["error"] = " ".join(str(e) for e in link_form.errors.get("user", []))
        elif is_admin:
            row["form"] = LinkForm(initial={"user": p.user_id}, members=members, player=p, auto_id=_row_id(p))
        if may_rename:
            row["rename_form"] = (
                rename_form
                if is_failed and rename_form is not None
                else PlayerForm(initial={"name": p.name}, club=club, player=p, auto_id=f"id_r{p.pk}_%s")
            )
        rows.append(row)
    context = {
        "club": club,
        "role": role,
        "is_admin": is_admin,
        "can_add": role in SCORING_ROLES,
        "may_rename": may_rename,
        "rows": rows,
        "claims": [{"claim": c, "name": display_name(c.user)} for c in claims] if is_admin else [],
        "my_claim": my_claim,
        "add_form": add_form or PlayerForm(club=club),
        "paste_error": paste_error,
        "paste_text": paste_text,
        "me": request.user,
    }
    return render(request, "league/players/list.html", context, status=status)


def _lost(request: AuthenticatedHttpRequest, club: Club, role: Role, conflict: services.Conflict) -> HttpResponse:
    """The roster again, saying why nothing was done: the player or claim changed in the meantime."""
    messages.error(request, conflict.message)
    return _roster_page(request, club, role, status=CONFLICT)


@login_required
def player_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """GET: the roster (members); POST: a new player (admins and scorers)."""
    if request.method != "POST":
        club, role = club_for_user(request, slug)
        return _roster_page(request, club, role)
    club, role = club_for_user(request, slug, *SCORING_ROLES)
    form = PlayerForm(request.POST, club=club)
    if form.is_valid():
        try:
            player = services.add_player(club, form.cleaned_data["name"], request.user)
        except services.Refused as refused:  # the same name added in the meantime
            form.add_error("name", refused.message)
        else:
            messages.success(request, _("%(name)s is in the roster.") % {"name": player.name})
            return redirect("club_players", club.slug)
    return _roster_page(request, club, role, add_form=form, status=INVALID)


MAX_PASTE_BYTES = 200_000


def _pasted(request: HttpRequest) -> tuple[list[str], str]:
    """The names of the pasted list and of the CSV file sent, and what is wrong with them ("" if nothing)."""
    names = cleaning.pasted_names(request.POST.get("names") or "")
    upload = request.FILES.get("file")
    if upload is not None:
        if (upload.size or 0) > MAX_PASTE_BYTES:
            return [], _("This file is too large for a list of players: at most 200 kB.")
        try:
            names += cleaning.csv_names(upload.read().decode("utf-8-sig"))
        except UnicodeDecodeError:
            return [], _("This file is not a text file in UTF-8: save it from the spreadsheet as “CSV UTF-8”.")
    if not names:
        return [], _("Paste or type at least one name, one a line.")
    if len(names) > services.MAX_PASTED:
        return [], _("At most %(max)s names at once.") % {"max": services.MAX_PASTED}
    return names, ""


@login_required
@require_POST
def player_paste(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Several players at once (admins and scorers): the list pasted (or a CSV file) is checked
    first, name by name (``check``: nothing is written); the names kept are then added in one go."""
    club, role = club_for_user(request, slug, *SCORING_ROLES)
    if request.POST.get("step") == "add":
        chosen = request.POST.getlist("add")
        if not chosen:
            names, _error = _pasted(request)
            return _paste_page(request, club, names, _("Tick at least one name to add."))
        added, skipped = services.add_players(club, chosen, request.user)
        text = ngettext("%(count)s player added to the roster.", "%(count)s players added to the roster.", len(added))
        messages.success(request, text % {"count": len(added)})
        if skipped:
            messages.warning(
                request, _("Already in the roster, not added again: %(names)s.") % {"names": ", ".join(skipped)}
            )
        return redirect("club_players", club.slug)
    names, error = _pasted(request)
    if error:
        return _roster_page(
            request, club, role, paste_error=error, paste_text=request.POST.get("names", ""), status=INVALID
        )
    return _paste_page(request, club, names)


def _paste_page(request: HttpRequest, club: Club, names: list[str], error: str = "") -> HttpResponse:
    lines = services.check_names(club, names)
    context = {
        "club": club,
        "lines": lines,
        "text": "\n".join(line.typed for line in lines),
        "adding": sum(1 for line in lines if line.status == "new"),
        "error": error,
    }
    return render(request, "league/players/paste.html", context, status=INVALID if error else 200)


@login_required
@require_POST
def player_link(request: AuthenticatedHttpRequest, slug: str, player: int) -> HttpResponse:
    """Admins link any member's account (or none); a member links himself to an unlinked player, or unlinks himself."""
    club, role = club_for_user(request, slug)
    person = get_object_or_404(Player.objects.select_related("user"), pk=player, club=club)
    if role == Role.ADMIN:
        form = LinkForm(request.POST, members=_members(club), player=person, auto_id=_row_id(person))
    else:
        wanted = request.POST.get("user", "")
        if wanted not in ("", str(request.user.pk)):
            raise PermissionDenied("Only an admin links someone else's account")
        if wanted == "" and person.user_id != request.user.pk:
            raise PermissionDenied("Only an admin unlinks someone else's account")
        own = Membership.objects.filter(club=club, user=request.user).select_related("user")
        form = LinkForm(request.POST, members=own, player=person, auto_id=_row_id(person))
    if form.is_valid():
        user_id = form.cleaned_data["user"]
        if role != Role.ADMIN and user_id is not None:  # "this is me": a claim the admins answer
            try:
                services.claim_player(person, request.user)
            except services.Conflict as conflict:
                return _lost(request, club, role, conflict)
            except services.Refused as refused:
                form.add_error("user", refused.message)
            else:
                messages.success(
                    request,
                    _("Your claim is sent: an admin of the club will link you to %(name)s.") % {"name": person.name},
                )
                return redirect("club_players", club.slug)
        else:
            user = next((m.user for m in _members(club) if m.user_id == user_id), None)
            try:
                services.link_player(person, user)
            except services.Conflict as conflict:
                return _lost(request, club, role, conflict)
            except services.Refused as refused:
                form.add_error("user", refused.message)
            else:
                if user is None:
                    messages.success(request, _("%(name)s is no longer linked to an account.") % {"name": person.name})
                else:
                    messages.success(
                        request,
                        _("%(name)s is now linked to %(account)s.")
                        % {"name": person.name, "account": display_name(user)},
                    )
                return redirect("club_players", club.slug)
    return _roster_page(request, club, role, failed=person, link_form=form, status=INVALID)


@login_required
@require_POST
def player_claim_withdraw(request: AuthenticatedHttpRequest, slug: str, player: int) -> HttpResponse:
    """A member takes back his claim on a roster entry."""
    club, _role = club_for_user(request, slug)
    person = get_object_or_404(Player, pk=player, club=club)
    services.withdraw_claim(person, request.user)
    messages.success(request, _("Your claim on %(name)s is withdrawn.") % {"name": person.name})
    return redirect("club_players", club.slug)


@login_required
@require_POST
def claim_answer(request: AuthenticatedHttpRequest, slug: str, claim: int) -> HttpResponse:
    """An admin approves a claim (the member's account is linked to the player) or refuses it."""
    club, _role = club_for_user(request, slug, Role.ADMIN)
    answered = PlayerClaim.objects.select_related("player", "user").filter(pk=claim, player__club=club).first()
    if answered is None:  # approved or refused by another admin (or withdrawn) in the meantime
        messages.error(request, _("This claim was already answered."))
        return redirect(reverse("club_players", args=[club.slug]) + "#claims")
    form = ClaimAnswerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose to approve or to refuse the claim."))
        return redirect(reverse("club_players", args=[club.slug]) + "#claims")
    approve = form.cleaned_data["answer"] == "approve"
    who, name = display_name(answered.user), answered.player.name
    try:
        services.decide_claim(answered, approve)
    except services.Refused as refused:
        messages.error(request, refused.message)
    else:
        if approve:
            messages.success(request, _("%(name)s is now linked to %(account)s.") % {"name": name, "account": who})
        else:
            messages.success(
                request, _("The claim of %(account)s on %(name)s is refused.") % {"name": name, "account": who}
            )
    return redirect(reverse("club_players", args=[club.slug]) + "#claims")


@login_required
@require_POST
def player_rename(request: AuthenticatedHttpRequest, slug: str, player: int) -> HttpResponse:
    """A new name for a roster entry (admins and scorers); each past evening keeps the name used that evening."""
    club, role = club_for_user(request, slug, *SCORING_ROLES)
    person = get_object_or_404(Player, pk=player, club=club)
    old = person.name
    form = PlayerForm(request.POST, club=club, player=person, auto_id=f"id_r{person.pk}_%s")
    if form.is_valid():
        try:
            person = services.rename_player(person, form.cleaned_data["name"])
        except services.Conflict as conflict:
            return _lost(request, club, role, conflict)
        except (services.Refused, IntegrityError) as refused:
            form.add_error(
                "name",
                getattr(refused, "message", "")
                or _("%(name)s is already in the roster.") % {"name": form.cleaned_data["name"]},
            )
        else:
            messages.success(request, _("%(old)s is now called %(name)s.") % {"old": old, "name": person.name})
            return redirect("club_players", club.slug)
    return _roster_page(request, club, role, failed=person, rename_form=form, status=INVALID)


@login_required
def player_merge(request: AuthenticatedHttpRequest, slug: str, player: int) -> HttpResponse:
    """Two records of the same person: pick the other one (?with=), then which one stays."""
    club, _role = club_for_user(request, slug, Role.ADMIN)
    person = get_object_or_404(_players(club), pk=player)
    others = _roster(club, exclude=person)
    context = {"club": club, "player": person, "others": others}
    if request.method == "POST":
        form = MergeForm(request.POST, player=person, others=others)
        status = INVALID
        if form.is_valid():
            other = form.cleaned_data["other_player"]
            keep, drop = (person, other) if form.cleaned_data["keep"] == person.pk else (other, person)
            try:
                moved = roster.merge_players(keep, drop)
            except services.Refused as refused:
                form.add_error(None, refused.message)
                status = CONFLICT if isinstance(refused, services.Conflict) else INVALID
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(drop)s and %(keep)s are one player now: %(keep)s (%(count)s evening moved).",
                        "%(drop)s and %(keep)s are one player now: %(keep)s (%(count)s evenings moved).",
                        moved,
                    )
                    % {"drop": drop.name, "keep": keep.name, "count": moved},
                )
                return redirect("club_players", club.slug)
        context |= _pair(form.cleaned_data.get("other_player"), person)
        context["form"] = form
        return render(request, "league/players/merge.html", context, status=status)
    other = next((p for p in others if str(p.pk) == request.GET.get("with", "")), None)
    if other is not None:
        context["form"] = MergeForm(initial={"other": other.pk, "keep": person.pk}, player=person, others=others)
        context |= _pair(other, person)
    return render(request, "league/players/merge.html", context)


def _pair(other: Player | None, player: Player) -> dict[str, Any]:
    """The other record, and the evenings that forbid the merge (the form shows the two records)."""
    if other is None:
        return {}
    clash = [roster.evening_label(e) for e in roster.shared_evenings(player, other)[:3]]
    return {
        "other": other,
        "clash": clash,
    }
