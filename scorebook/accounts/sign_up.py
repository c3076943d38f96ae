"""Who may make an account: ``settings.SIGNUP`` (docs/operating.md).

- ``open``: anyone who reaches the site (the sign-up page; a development site's default);
- ``invitation``: only someone holding a club's invitation link, who makes the account and joins the
  club in one step on the link's page (the clubs app's ``join_signup``); the sign-up page says so;
- ``closed``: nobody signs up; the operator makes an account with ``manage.py create_account``,
  whose owner chooses a password through the link it prints (as a restored club's members do).

A sign-up the setting refuses writes nothing, and the page says why.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

OPEN, INVITATION, CLOSED = "open", "invitation", "closed"


def policy() -> str:
    return str(settings.SIGNUP)


def refusal(*, invited: bool) -> str:
    """Why a sign-up is refused here ("" when it is not); ``invited``: it comes with a club's
    invitation link that works."""
    if policy() == OPEN or (policy() == INVITATION and invited):
        return ""
    if policy() == INVITATION:
        return _(
            "On this site an account is made with a club's invitation link: ask your club's secretary for "
            "one, and open it."
        )
    return _(
        "On this site accounts are made by the person who runs it: ask your club's secretary, who will "
        "pass on a link to choose your password."
    )
