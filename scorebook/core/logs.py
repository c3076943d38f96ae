"""What the log says. No secret in any log line, nor in an error mail: the addresses that are keys
(a table's scoring link ``/t/``, a read-only evening ``/s/``, a night's ranking ``/r/``, an
invitation ``/join/``, a link to choose a password ``/accounts/password/``, a password reset
``/reset/<uid>/``) have their token written ``…`` by one mask, ``redact``: a filter on every handler
(settings.LOGGING) and gunicorn's (gunicorn.conf.py), and the error mails' whole text
(``AdminEmailHandler``), where the request's address, its ``next``, its Referer and its cookies are
shown too. Django's request logging ("Not Found: /t/<token>/") passes the path as an argument of the
message; both the message and its arguments are cleaned. Every address the URL confs give a token
converter (or a parameter named like a token) is masked here: tests/test_no_token_in_logs.py reads
them from the URL confs, so a new one cannot be forgotten."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from django.utils.log import AdminEmailHandler as DjangoAdminEmailHandler
from django.views.debug import SafeExceptionReporterFilter

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

HIDDEN = "…"
_SLASH = r"(?:/|%2[Ff])"  # a slash, or one percent-encoded (an address in a ``next``)
_SECRET = r"[^/\s?#&\"'%]+"
# the prefix of each address whose next segment is a token (a password reset: the two next ones)
SECRET_PATH = re.compile(
    rf"(?P<one>{_SLASH}(?:t|s|r|join|password){_SLASH}){_SECRET}"
    rf"|(?P<two>{_SLASH}reset{_SLASH}){_SECRET}(?P<between>{_SLASH}){_SECRET}"
)


def _hide(match: re.Match[str]) -> str:
    if match.group("one"):
        return match.group("one") + HIDDEN
    return match.group("two") + HIDDEN + match.group("between") + HIDDEN


def redact(text: str) -> str:
    """The text with the token of every secret address in it written ``…``."""
    return SECRET_PATH.sub(_hide, text)


def _clean(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactLinks(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        return True


class AdminEmailHandler(DjangoAdminEmailHandler):
    """Django's error mail to ADMINS, its subject, text and HTML masked as a whole (the report
    repeats the address, the ``next``, the Referer and the query string outside the log record)."""

    def send_mail(self, subject: StrOrPromise, message: StrOrPromise, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("html_message"):
            kwargs["html_message"] = redact(kwargs["html_message"])
        super().send_mail(redact(str(subject)), redact(str(message)), *args, **kwargs)


class ReporterFilter(SafeExceptionReporterFilter):
    """What an error report shows of the request: Django's, without the value of any cookie (Django
    hides those named like a secret; the known device's ``sb_known`` exempts its accounts from a
    lockout, so it is one too) nor the CSRF secret the request carried (``META["CSRF_COOKIE"]``)."""

    hidden_settings = re.compile(SafeExceptionReporterFilter.hidden_settings.pattern + "|CSRF_COOKIE", re.I)

    def get_safe_cookies(self, request: Any) -> dict[str, Any]:
        return dict.fromkeys(getattr(request, "COOKIES", {}), self.cleansed_substitute)


class OneLineRefusals(logging.Filter):
    """A refused request (403) is no error of the site: Django's "Forbidden (Permission denied)"
    carries the exception's traceback, dozens of lines for one tap on a button a member may not
    use. It is written as one line instead: who (the account's user name, or anonymous), what (the
    method and path) and why (the refusal's reason)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) != 403 or not record.exc_info:
            return True
        request = getattr(record, "request", None)
        user = getattr(request, "user", None)
        who = user.get_username() if user is not None and user.is_authenticated else "anonymous"
        why = str(record.exc_info[1]) or getattr(record.exc_info[0], "__name__", "")
        what = f"{request.method} {request.path}" if request is not None else "?"
        record.msg, record.args = "Forbidden: %s by %s: %s", (what, who, why)
        record.exc_info, record.exc_text = None, None
        return True
