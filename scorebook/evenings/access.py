"""Who may see and change an evening. Every view goes through these helpers."""

from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import Evening


def can_view(user, evening: Evening) -> bool:
    return user.is_authenticated and (user.is_staff or evening.owner_id == user.pk)


def can_score(user, evening: Evening) -> bool:
    return can_view(user, evening)


def _get_evening_for_user(request, pk: int, *, write: bool = False) -> Evening:
    """The evening if this user may see it (and score it when ``write``); otherwise 404, so nothing leaks."""
    evening = get_object_or_404(Evening, pk=pk)
    allowed = can_score(request.user, evening) if write else can_view(request.user, evening)
    if not allowed:
        raise Http404("No such evening")
    return evening


def _get_evening_for_token(token: str) -> Evening:
    """The read-only link: the token is the only key, and it never allows writing."""
    return get_object_or_404(Evening, share_token=token)
