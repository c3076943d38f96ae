"""Names that identify a person: reserved user names, and look-alikes of an existing name.

Two names look alike when their skeletons are equal (``scorebook.core.cleaning.skeleton``:
folded, each character replaced by a plain one it can be confused with, 0 read as o, 1 as l).
So a Cyrillic ``а_admin`` is ``a_admin``, and a full-width ``ｂ_member`` is ``b_member``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from scorebook.core.cleaning import skeleton

from .models import Profile

RESERVED_USERNAMES = ("demo",)  # seed_demo's account, whose password is published


def is_reserved(username: str) -> bool:
    return skeleton(username) in {skeleton(r) for r in RESERVED_USERNAMES}


def username_like(username: str, *, exclude_pk=None) -> str | None:
    """An existing user name that looks like ``username`` (another account's), or None."""
    wanted = skeleton(username)
    users = get_user_model().objects.exclude(pk=exclude_pk).values_list("username", flat=True)
    return next((u for u in users.iterator() if skeleton(u) == wanted), None)


def display_name_like(name: str, *, exclude_user_pk=None) -> str | None:
    """Another account's display name that looks like ``name``, or None."""
    wanted = skeleton(name)
    names = Profile.objects.exclude(user_id=exclude_user_pk).values_list("display_name", flat=True)
    return next((n for n in names.iterator() if skeleton(n) == wanted), None)
