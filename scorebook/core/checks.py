"""The site's own checks (``manage.py check --deploy``): what a setting costs, said where the operator
looks. ``PLAIN_HTTP`` (docs/operating.md, on a club's LAN without TLS) is said at every run, and in
the site's log when it starts."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, register
from django.core.checks import Warning as CheckWarning

PLAIN_HTTP_COST = (
    "PLAIN_HTTP is on: passwords, session cookies and table cards' links cross the network in clear, "
    "and anyone on it can read them and act as the member whose cookie he read."
)


@register(Tags.security, deploy=True)
def plain_http(**kwargs: Any) -> list[CheckMessage]:
    if not getattr(settings, "PLAIN_HTTP", False):
        return []
    hint = "Only on a network the club's members alone join; go back to TLS when a certificate can be had."
    return [CheckWarning(PLAIN_HTTP_COST, hint=hint, id="scorebook.W001")]


def say_plain_http_at_start() -> None:
    if getattr(settings, "PLAIN_HTTP", False):
        logging.getLogger("scorebook").warning(PLAIN_HTTP_COST)
