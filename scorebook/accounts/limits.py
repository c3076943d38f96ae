"""Login limits, on django-axes (settings: AXES_*).

Two limits, both lifted a quarter of an hour after the last password they refused to check,
and at once by a password reset of the account:

- **one name from one address**: five wrong passwords for ``marie`` from one connection stop
  that connection from trying ``marie``, and nobody else. People behind one address (a proxy,
  the club's Wi-Fi) are not locked out by someone else's typing.
- **one account from everywhere**: guessing spread over many addresses (four tries from each
  of sixty) meets the first limit nowhere, so once ``ACCOUNT_FAILURE_LIMIT`` wrong passwords
  for one account were checked within the quarter of an hour, from any addresses, nobody may
  try that account any more (``lockout_parameters``: the name alone is then counted too)...
  except from a *known client*: a device where the account logged in before (a signed
  cookie, ``remember_device``, also set by a password reset) or an address it logged in from
  within ``KNOWN_ADDRESS_DAYS`` (axes' access log). So an attacker slows the guessing down to
  ten passwords a quarter of an hour, and cannot keep the real person out: she logs in from
  her phone or her usual connection, or resets her password. Attempts refused by a lockout
  are not counted (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False): hammering does not
  make a lockout longer, and one address alone never adds more than five to the account.

The user name is counted as the login form reads it, folded the way that makes look-alikes
one name (NFKC, then case folding: ``ｂ_member`` and ``B_Member`` are ``b_member``). The
address is the client's: REMOTE_ADDR, or behind TRUSTED_PROXY_COUNT reverse proxies, the
entry of X-Forwarded-For that the outermost trusted proxy wrote (docs/operating.md).
"""

from __future__ import annotations

import ipaddress
import unicodedata
from datetime import timedelta
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from axes.models import AccessAttempt, AccessLog
from axes.utils import reset
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

ACCOUNT_FAILURE_LIMIT = 10  # wrong passwords checked for one account, from any addresses, in the cool-off
KNOWN_ADDRESS_DAYS = 90  # an address the account logged in from this recently is the person's own
DEVICE_COOKIE = "sb_known"  # the accounts that logged in on this device (signed)
DEVICE_COOKIE_DAYS = 400
DEVICE_COOKIE_SALT = "scorebook.accounts.limits.device"
DEVICE_ACCOUNTS = 5  # a shared device remembers the last five accounts
PER_ADDRESS = ["username", "ip_address"]


def folded(username: str | None) -> str:
    """The name a failure is counted against (never holding a character the database refuses, as NUL)."""
    name = unicodedata.normalize("NFKC", username or "").strip().casefold()
    return "".join(c for c in name if c.isprintable())[:150]


def login_name(request: HttpRequest | None, credentials: dict[str, Any] | None = None) -> str:
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


def client_address(request: HttpRequest) -> str | None:
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


def account_failures(name: str, request: HttpRequest) -> int:
    """The wrong passwords checked for this account within the cool-off, from every address."""
    since = (getattr(request, "axes_attempt_time", None) or timezone.now()) - get_cool_off(request)
    attempts = AccessAttempt.objects.filter(username=name, attempt_time__gte=since)
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0


def _device_accounts(request: HttpRequest) -> list[str]:
    value = request.get_signed_cookie(
        DEVICE_COOKIE, default="", salt=DEVICE_COOKIE_SALT, max_age=timedelta(days=DEVICE_COOKIE_DAYS)
    )
    return value.split() if value else []


def remember_device(request: HttpRequest, response: HttpResponse, user: User) -> None:
    """After a login or a password reset: this device is the account's (its limit is per address only)."""
    name = folded(user.get_username())
    names = [name, *(n for n in _device_accounts(request) if n != name)][:DEVICE_ACCOUNTS]
    response.set_signed_cookie(
        DEVICE_COOKIE,
        " ".join(names),  # user names hold no spaces
        salt=DEVICE_COOKIE_SALT,
        max_age=int(timedelta(days=DEVICE_COOKIE_DAYS).total_seconds()),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def known_client(request: HttpRequest, name: str) -> bool:
    """A device where this account logged in before, or an address it logged in from lately."""
    if name in _device_accounts(request):
        return True
    address = client_address(request)
    if not address:
        return False
    since = timezone.now() - timedelta(days=KNOWN_ADDRESS_DAYS)
    logged_in = AccessLog.objects.filter(ip_address=address, attempt_time__gte=since)
    return any(folded(n) == name for n in logged_in.values_list("username", flat=True).distinct())


def account_locked(request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
    """Whether this account is closed to this client for guessing spread over many addresses."""
    name = login_name(request, credentials)
    return bool(name) and account_failures(name, request) >= ACCOUNT_FAILURE_LIMIT and not known_client(request, name)


def lockout_parameters(request_or_attempt: object, credentials: dict[str, Any] | None = None) -> list[Any]:
    """AXES_LOCKOUT_PARAMETERS: one name from one address; and the name alone as well (so from
    every address at once) when its account is closed to this client (``account_locked``)."""
    if isinstance(request_or_attempt, HttpRequest) and account_locked(request_or_attempt, credentials):
        return [PER_ADDRESS, "username"]
    return [PER_ADDRESS]


def lift_lockouts(user: User) -> None:
    """After a password reset: the account's lockouts are lifted, from every address."""
    reset(username=folded(user.get_username()))


class LoginLimitBackend(AxesStandaloneBackend):
    """Axes' check, for logins made through a request (a management command or a test that
    authenticates without one has no address to limit, and is not a login from outside)."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> User | None:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
