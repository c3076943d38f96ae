"""One-time links to choose a password, for the accounts that have none: the members of a club
restored from its backup (the backup an admin downloads holds no password hash, and no e-mail address
for a reset). Members get back in without anyone but the site's operator using a shell:

1. ``import_club`` makes a link for each admin of the restored club (and ``password_link USER`` makes
   another one); the operator hands it to the club's secretary;
2. the secretary opens it, chooses a password and is logged in;
3. on the members page, she makes each member's link (a button on the member's row) and sends it
   to him; he opens it, chooses a password, and is in.

A link works once, for ``DAYS`` days, while its account still has no password and has never logged
in (so an admin can never take over an account that is in use), and is never made for, nor opens, an
account of the site's staff or a superuser (whoever held it would hold the site's admin; the
operator sets such a password with ``changepassword``); a new link for the account replaces the one
before. The token is shown once; only its SHA-256 is kept (192 random bits: no salt needed).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from .models import PasswordLink

DAYS = 7


class Spent(Exception):
    """The link was used (or replaced) in the meantime."""


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def runs_the_site(user: User) -> bool:
    """A staff or superuser account: no link is ever made for it."""
    return user.is_staff or user.is_superuser


def awaits_password(user: User) -> bool:
    """An account that has no password yet, has never logged in and does not run the site: a link
    may give it one."""
    return user.is_active and user.last_login is None and not user.has_usable_password() and not runs_the_site(user)


def make(user: User, by: User | None = None, *, days: int = DAYS) -> str:
    """A new link for ``user`` (the one before stops working); the token, to be shown once. ValueError
    for an account no link may open (``awaits_password``)."""
    if not awaits_password(user):
        raise ValueError(f"no link to choose a password is made for {user.get_username()}")
    token = secrets.token_urlsafe(24)
    with transaction.atomic():
        PasswordLink.objects.filter(user=user).delete()
        PasswordLink.objects.create(
            user=user, token_hash=digest(token), created_by=by, expires_at=timezone.now() + timedelta(days=days)
        )
    return token


def address(token: str, site: str = "") -> str:
    """The link as the operator hands it on: the site's address (when given) and the path."""
    return site.rstrip("/") + reverse("password_link", args=[token])


def find(token: str) -> PasswordLink | None:
    """The link of this token while it works (None: unknown, used, replaced, expired, or its account has a
    password by now)."""
    if not 16 <= len(token) <= 100:
        return None
    link = (
        PasswordLink.objects.select_related("user")
        .filter(token_hash=digest(token), used_at__isnull=True, expires_at__gt=timezone.now())
        .first()
    )
    return link if link is not None and awaits_password(link.user) else None


def use(link: PasswordLink, password: str) -> User:
    """Give the link's account its password, once (two taps at once: one does it, the other is told
    ``Spent``); the account, its password set."""
    with transaction.atomic():
        locked = PasswordLink.objects.select_for_update().filter(pk=link.pk, used_at__isnull=True).first()
        user = link.user
        user.refresh_from_db()
        if locked is None or not awaits_password(user):
            raise Spent()
        user.set_password(password)
        user.save(update_fields=["password"])
        locked.used_at = timezone.now()
        locked.save(update_fields=["used_at"])
    return user
