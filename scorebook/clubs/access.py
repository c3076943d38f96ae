"""Who may do what in a club. Every club view goes through ``club_for_user``.

A club's pages are seen by its members; deals are recorded by its scorers and admins;
members, rules and seasons are managed by its admins. A club the user is not a member
of answers 404, so that nothing leaks; a member lacking the role gets 403.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from .models import Club, FormerSlug, Membership, Role


class ClubMoved(Http404):
    """The address used a short name the club had before: ``FormerAddressMiddleware`` redirects."""

    def __init__(self, old: str, new: str):
        self.old, self.new = old, new
        super().__init__("The club has a new address")


def role_in(user: User | AnonymousUser, club: Club | None) -> Role | None:
    """The user's role in ``club`` (None: not a member, or no club)."""
    if not user.is_authenticated or club is None:
        return None
    role = Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
    return Role(role) if role else None


def club_for_user(request: HttpRequest, slug: str, *roles: Role) -> tuple[Club, Role]:
    """The club if the user is a member (404 otherwise), with one of ``roles`` when given (403 otherwise).
    Staff act as admins."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        moved = FormerSlug.objects.filter(slug=slug).select_related("club").first()
        # the new address is the club's to tell its members: to anyone else an old address is unknown
        if moved is not None and _sees(request.user, moved.club):
            raise ClubMoved(slug, moved.club.slug)
        raise Http404("No such club")
    role = role_in(request.user, club)
    if role is None and not _is_staff(request.user):
        raise Http404("No such club")
    role = role or Role.ADMIN
    if roles and role not in roles:
        raise PermissionDenied("Your role in this club does not allow this")
    return club, role


def _is_staff(user: User | AnonymousUser) -> bool:
    return user.is_authenticated and user.is_staff


def _sees(user: User | AnonymousUser, club: Club) -> bool:
    """Whether the user may know the club exists: its members and staff."""
    return _is_staff(user) or role_in(user, club) is not None
