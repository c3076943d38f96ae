"""Members and invitations (admins), and joining a club with an invitation link (with an account
made on the way when settings.SIGNUP allows it)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from scorebook.accounts import password_links, sign_up
from scorebook.accounts.forms import SignupForm, focus_first_error
from scorebook.accounts.models import display_name
from scorebook.clubs.access import club_for_user, role_in
from scorebook.core.collation import sort_key
from scorebook.core.http import AuthenticatedHttpRequest

from .. import services
from ..forms import InvitationForm, RoleForm
from ..models import Club, Invitation, Membership, Role

INVALID = 422
CONFLICT = 409


def _row_id(membership: Membership) -> str:
    return f"id_m{membership.pk}_%s"


def _grantable(request: AuthenticatedHttpRequest, club: Club) -> list[Role]:
    """The roles this user's invitations may give: none above his own (staff act as admins)."""
    mine = services.RANK[role_in(request.user, club) or Role.ADMIN]
    return [role for role in Role if services.RANK[role] <= mine]


def _members_page(
    request: AuthenticatedHttpRequest,
    club: Club,
    *,
    failed: Membership | None = None,
    role_form: RoleForm | None = None,
    error: str = "",
    invitation_form: InvitationForm | None = None,
    new_link: str = "",
    password_link: tuple[Membership, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The members page; ``failed`` is the membership whose change was refused (its row shows why).
    ``new_link``: the invitation link just made, shown this once (only its digest is stored);
    ``password_link``: (membership, link) a member's link to choose his password, just made, shown once."""
    memberships = list(Membership.objects.filter(club=club).select_related("user__profile"))
    memberships.sort(key=lambda m: (-services.RANK[Role(m.role)], sort_key(display_name(m.user))))
    rows = []
    for m in memberships:
        is_failed = failed is not None and m.pk == failed.pk
        form = (
            role_form
            if is_failed and role_form is not None
            else RoleForm(initial={"role": m.role}, auto_id=_row_id(m), member=display_name(m.user))
        )
        rows.append(
            {
                "membership": m,
                "name": display_name(m.user),
                "is_me": m.user_id == request.user.pk,
                "form": form,
                "error": error if is_failed else "",
                # restored from a backup, no password yet: the admin gives him a link to choose one
                "awaits_password": password_links.awaits_password(m.user),
                "password_link": password_link[1] if password_link and password_link[0].pk == m.pk else "",
            }
        )
    invitations = [
        {"invitation": inv, "by": display_name(inv.created_by)}
        for inv in Invitation.usable().filter(club=club).select_related("created_by__profile").order_by("-created_at")
    ]
    context = {
        "club": club,
        "rows": rows,
        "invitations": invitations,
        "invitation_form": invitation_form or InvitationForm(grantable=_grantable(request, club)),
        "new_link": new_link,
    }
    response = render(request, "clubs/members/list.html", context, status=status)
    response["Cache-Control"] = "no-store"  # a new link is a secret: no cache keeps it
    return response


@login_required
def member_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club, _role = club_for_user(request, slug, Role.ADMIN)
    return _members_page(request, club)


@login_required
@require_POST
def member_role(request: AuthenticatedHttpRequest, slug: str, membership: int) -> HttpResponse:
    club, _role = club_for_user(request, slug, Role.ADMIN)
    member = get_object_or_404(Membership.objects.select_related("user"), pk=membership, club=club)
    form = RoleForm(request.POST, auto_id=_row_id(member), member=display_name(member.user))
    if not form.is_valid():
        return _members_page(request, club, failed=member, role_form=form, status=INVALID)
    try:
        services.change_role(member, Role(form.cleaned_data["role"]))
    except services.Conflict as conflict:
        messages.error(request, conflict.message)
        return _members_page(request, club, status=CONFLICT)
    except services.Refused as refused:
        form.add_error("role", refused.message)
        return _members_page(request, club, failed=member, role_form=form, status=INVALID)
    role = Role(form.cleaned_data["role"])
    messages.success(request, _("%(name)s is now %(role)s.") % {"name": display_name(member.user), "role": role.label})
    if role_in(request.user, club) != Role.ADMIN and not request.user.is_staff:
        return redirect(club)  # an admin who stepped down no longer manages the members
    return redirect("club_members", club.slug)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def member_remove(request: AuthenticatedHttpRequest, slug: str, membership: int) -> HttpResponse:
    """GET: what removing the member does (a confirmation that works without JavaScript); POST: remove."""
    club, _role = club_for_user(request, slug, Role.ADMIN)
    member = get_object_or_404(Membership.objects.select_related("user"), pk=membership, club=club)
    if request.method != "POST":
        return _remove_confirmation(request, club, member)
    try:
        services.remove_member(member)
    except services.Conflict as conflict:
        messages.error(request, conflict.message)
        return _members_page(request, club, status=CONFLICT)
    except services.Refused as refused:
        return _members_page(request, club, failed=member, error=refused.message, status=INVALID)
    if member.user_id == request.user.pk:
        messages.success(request, _("You left %(club)s.") % {"club": club.name})
        return redirect("club_list")
    messages.success(request, _("%(name)s is no longer a member.") % {"name": display_name(member.user)})
    return redirect("club_members", club.slug)


@login_required
@require_POST
def member_password_link(request: AuthenticatedHttpRequest, slug: str, membership: int) -> HttpResponse:
    """A member restored without a password: a new one-time link to choose one, shown once on his row
    for the admin to send him (the one made before stops working)."""
    club, _role = club_for_user(request, slug, Role.ADMIN)
    member = get_object_or_404(Membership.objects.select_related("user"), pk=membership, club=club)
    if password_links.runs_the_site(member.user):
        messages.error(
            request,
            _("%(name)s runs the site: no link to choose a password is made for such an account.")
            % {"name": display_name(member.user)},
        )
        return _members_page(request, club, status=CONFLICT)
    if not password_links.awaits_password(member.user):
        messages.error(
            request,
            _("%(name)s has a password already: he logs in with it, or asks for a new one from the login page.")
            % {"name": display_name(member.user)},
        )
        return _members_page(request, club, status=CONFLICT)
    token = password_links.make(member.user, by=request.user)
    link = request.build_absolute_uri(reverse("password_link", args=[token]))
    return _members_page(request, club, password_link=(member, link))


def _remove_confirmation(request: AuthenticatedHttpRequest, club: Club, membership: Membership) -> HttpResponse:
    name = display_name(membership.user)
    leaving = membership.user_id == request.user.pk
    context = {
        "title": _("Leave %(club)s?") % {"club": club.name} if leaving else _("Remove %(name)s?") % {"name": name},
        "eyebrow": club.name,
        "lines": [
            _("You will no longer see the club's evenings.")
            if leaving
            else _("%(name)s will no longer see the club's evenings.") % {"name": name},
            _("The evenings and the roster do not change; a player linked to this account stays, unlinked."),
        ],
        "action": reverse("club_member_remove", args=[club.slug, membership.pk]),
        "button": _("Leave the club") if leaving else _("Remove from the club"),
        "cancel_url": reverse("club_members", args=[club.slug]),
    }
    return render(request, "core/confirm.html", context)


@login_required
@require_POST
def invitation_new(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club, _role = club_for_user(request, slug, Role.ADMIN)
    form = InvitationForm(request.POST, grantable=_grantable(request, club))
    if not form.is_valid():
        return _members_page(request, club, invitation_form=form, status=INVALID)
    try:
        _invitation, token = services.create_invitation(
            club,
            request.user,
            role=Role(form.cleaned_data["role"]),
            days=form.cleaned_data["days"],
            uses=form.cleaned_data["uses"],
        )
    except services.Refused as refused:
        form.add_error("role", refused.message)
        return _members_page(request, club, invitation_form=form, status=INVALID)
    link = request.build_absolute_uri(reverse("club_join", args=[token]))
    return _members_page(request, club, new_link=link)  # shown once: the page is not redirected to


@login_required
@require_POST
def invitation_revoke(request: AuthenticatedHttpRequest, slug: str, invitation: int) -> HttpResponse:
    club, _role = club_for_user(request, slug, Role.ADMIN)
    link = get_object_or_404(Invitation, pk=invitation, club=club)
    services.revoke(link)
    messages.success(request, _("The invitation link no longer works."))
    return redirect(f"{reverse('club_members', args=[club.slug])}#invitations")


def _link_stopped(request: HttpRequest) -> HttpResponse:
    """A link that worked once and no longer does (used up, expired or revoked, perhaps by the request
    that came just before): said in words, without naming the club (the link is all the visitor has)."""
    return render(request, "clubs/join_stopped.html", status=CONFLICT)


def _invitation(request: HttpRequest, token: str) -> Invitation | HttpResponse:
    """The invitation the link opens; or, posted to a link that no longer works, the page saying so
    (Http404 for a link no club made)."""
    invitation = services.invitation_for_token(token)
    if invitation is not None:
        return invitation
    if request.method == "POST" and services.invitation_existed(token):
        return _link_stopped(request)
    raise Http404("No such invitation, or it no longer works")


def _welcome(request: HttpRequest, club: Club, role: Role) -> None:
    messages.success(request, _("Welcome to %(club)s: you are %(role)s.") % {"club": club.name, "role": role.label})


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation's page: a member joins the club with it; a visitor not logged in is offered to
    log in, or to make an account and join."""
    invitation = _invitation(request, token)
    if isinstance(invitation, HttpResponse):
        return invitation
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        return _join_page(request, invitation, token=token)
    club = invitation.club
    if request.method == "POST":
        try:
            membership, changed = services.join(invitation, request.user)
        except Invitation.DoesNotExist:  # revoked, used up or expired in the meantime
            return _link_stopped(request)
        except services.Refused as refused:
            return _join_page(request, invitation, error=refused.message, status=CONFLICT)
        role = Role(membership.role)
        if changed:
            _welcome(request, club, role)
        else:
            messages.info(request, _("You already are %(role)s in %(club)s.") % {"club": club.name, "role": role.label})
        return redirect(club)
    return _join_page(request, invitation)


@sensitive_post_parameters("password1", "password2")
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def join_signup(request: HttpRequest, token: str) -> HttpResponse:
    """Make an account with the invitation link and join the club with it, in one step: the way in
    when only invited people sign up (SIGNUP=invitation; with open too). Nothing is written when the
    setting refuses (closed), or when the link stopped working meanwhile."""
    invitation = _invitation(request, token)
    if isinstance(invitation, HttpResponse):
        return invitation
    if request.user.is_authenticated:
        return redirect("club_join", token)
    if why := sign_up.refusal(invited=True):
        refused = {"why": why, "next": reverse("club_join", args=[token])}
        return render(request, "accounts/signup_refused.html", refused, status=403 if request.method == "POST" else 200)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        try:
            membership = services.sign_up_and_join(invitation, form.save)
        except Invitation.DoesNotExist:  # revoked, used up or expired in the meantime: no account either
            return _link_stopped(request)
        except services.Refused as refused:
            form.add_error("display_name", refused.message)
        else:
            login(request, membership.user, backend="django.contrib.auth.backends.ModelBackend")
            _welcome(request, invitation.club, Role(membership.role))
            return redirect(invitation.club)
    focus_first_error(form)
    context = {"form": form, "club": invitation.club, "role": Role(invitation.role), "token": token}
    return render(request, "clubs/join_signup.html", context, status=INVALID if form.is_bound else 200)


def _join_page(
    request: HttpRequest, invitation: Invitation, *, token: str = "", error: str = "", status: int = 200
) -> HttpResponse:
    """``token``: for a visitor not logged in, whose ways in (log in, make an account) name the link."""
    club = invitation.club
    current = role_in(request.user, club) if request.user.is_authenticated else None
    offered = Role(invitation.role)
    context = {
        "club": club,
        "role": offered,
        "current": current,
        "would_change": current is None or services.RANK[offered] > services.RANK[current],
        "error": error,
        "token": token,
    }
    return render(request, "clubs/join.html", context, status=status)
