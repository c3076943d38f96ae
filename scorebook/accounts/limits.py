"""Login limits, on django-axes (settings: AXES_*).

A lockout counts the failures of one user name *from one address*: five wrong passwords
for ``marie`` from one connection stop that connection from trying ``marie`` for a quarter
of an hour, and nobody else. So a stranger cannot lock a member out (he only locks
himself out of her name), and people behind one address (a proxy, the club's Wi-Fi) are
not locked out by someone else's typing. A password reset lifts the lockouts of its account.

The user name is counted as the login form reads it, folded the way that makes look-alikes
one name (NFKC, then case folding: ``ｂ_member`` and ``B_Member`` are ``b_member``). The
address is the client's: REMOTE_ADDR, or behind TRUSTED_PROXY_COUNT reverse proxies, the
entry of X-Forwarded-For that the outermost trusted proxy wrote (README: deployment).
"""

from __future__ import annotations

import ipaddress
import unicodedata

from axes.backends import AxesStandaloneBackend
from axes.utils import reset
from django.conf import settings
from django.contrib.auth import get_user_model


def folded(username: str | None) -> str:
    return unicodedata.normalize("NFKC", username or "").strip().casefold()[:150]


def login_name(request, credentials: dict | None = None) -> str:
    """AXES_USERNAME_CALLABLE: the name a failure is counted against."""
    field = get_user_model().USERNAME_FIELD
    raw = (credentials or {}).get(field)
    if raw is None and request is not None:
        raw = getattr(request, "POST", {}).get(field)
    return folded(raw)


def _address(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_address(request) -> str | None:
    """AXES_CLIENT_IP_CALLABLE: the client's address, trusting only the configured proxies."""
    remote = request.META.get("REMOTE_ADDR") or None
    proxies = settings.TRUSTED_PROXY_COUNT
    if not proxies:
        return remote
    # each trusted proxy appends the address it was reached from: the outermost one's entry is
    # the client's; anything further left was written by the client and is not believed
    forwarded = [item for item in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if item.strip()]
    if len(forwarded) < proxies:
        return remote
    return _address(forwarded[-proxies]) or remote


def lift_lockouts(user) -> None:
    """After a password reset: the account's lockouts are lifted, from every address."""
    reset(username=folded(user.get_username()))


class LoginLimitBackend(AxesStandaloneBackend):
    """Axes' check, for logins made through a request (a management command or a test that
    authenticates without one has no address to limit, and is not a login from outside)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
