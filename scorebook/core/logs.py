"""What the log says. No secret link in any log line: the tokens of the addresses that are keys (a
table's scoring link ``/t/``, a read-only evening ``/s/``, a night's ranking ``/r/``, an invitation ``/join/``, a
password reset ``/reset/``) are written as ``…`` by a filter on every handler (settings.LOGGING).
Django's request logging ("Not Found: /t/<token>/", "Too Many Requests: …") passes the path as an
argument of the message; both the message and its arguments are cleaned."""

from __future__ import annotations

import logging
import re

SECRET_PATH = re.compile(r"/(t|s|r|join)/[^/\s?#\"']+|/reset/([^/\s?#\"']+)/[^/\s?#\"']+")
HIDDEN = "…"


def redact(text: str) -> str:
    return SECRET_PATH.sub(
        lambda m: f"/{m.group(1)}/{HIDDEN}" if m.group(1) else f"/reset/{HIDDEN}/{HIDDEN}",
        text,
    )


def _clean(value):
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
        why = str(record.exc_info[1]) or record.exc_info[0].__name__
        what = f"{request.method} {request.path}" if request is not None else "?"
        record.msg, record.args = "Forbidden: %s by %s: %s", (what, who, why)
        record.exc_info, record.exc_text = None, None
        return True
