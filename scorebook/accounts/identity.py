"""Names that identify a person: reserved user names, and look-alikes of an existing name.

Two names look alike when they share a skeleton (``scorebook.core.cleaning.skeletons``: folded,
each character replaced by a plain one it can be confused with, 0 read as o, 1 as l; and as
written, a capital I read as a small l). So a Cyrillic ``а_admin`` is ``a_admin``, a full-width
``ｂ_member`` is ``b_member``, and ``aIice`` is ``alice``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from scorebook.core.cleaning import looks_like

RESERVED_USERNAMES = ("demo",)  # seed_demo's account, whose password is published


def is_reserved(username: str) -> bool:
    return looks_like(username, RESERVED_USERNAMES) is not None


def username_like(username: str, *, exclude_pk: int | None = None) -> str | None:
    """An existing user name that looks like ``username`` (another account's), or None."""
    users = get_user_model().objects.all()
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return looks_like(username, users.values_list("username", flat=True).iterator())


def shown_names(users: QuerySet[Any]) -> Iterator[str]:
    """The name each of ``users`` is shown by (``models.display_name``: the profile's display name,
    else the first name, else the user name), read in one query."""
    rows = users.values_list("profile__display_name", "first_name", "username")
    return (shown or first or username for shown, first, username in rows.iterator())


def display_name_like(name: str, *, exclude_user_pk: int | None = None) -> str | None:
    """The name another account is shown by that looks like ``name``, or None."""
    users = get_user_model().objects.all()
    if exclude_user_pk is not None:
        users = users.exclude(pk=exclude_user_pk)
    return looks_like(name, shown_names(users))
