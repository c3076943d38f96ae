"""Names that identify a person: reserved user names, and look-alikes of an existing name.

Two names look alike when they share a skeleton (``scorebook.core.cleaning.skeletons``: folded,
each character replaced by a plain one it can be confused with, 0 read as o, 1 as l; and as
written, a capital I read as a small l). So a Cyrillic ``а_admin`` is ``a_admin``, a full-width
``ｂ_member`` is ``b_member``, and ``aIice`` is ``alice``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from scorebook.core.cleaning import looks_like

from .models import Profile

RESERVED_USERNAMES = ("demo",)  # seed_demo's account, whose password is published


def is_reserved(username: str) -> bool:
    return looks_like(username, RESERVED_USERNAMES) is not None


def username_like(username: str, *, exclude_pk: int | None = None) -> str | None:
    """An existing user name that looks like ``username`` (another account's), or None."""
    users = get_user_model().objects.all()
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return looks_like(username, users.values_list("username", flat=True).iterator())


def display_name_like(name: str, *, exclude_user_pk: int | None = None) -> str | None:
    """Another account's display name that looks like ``name``, or None."""
    profiles = Profile.objects.all()
    if exclude_user_pk is not None:
        profiles = profiles.exclude(user_id=exclude_user_pk)
    return looks_like(name, profiles.values_list("display_name", flat=True).iterator())
