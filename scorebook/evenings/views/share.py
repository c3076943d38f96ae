"""The read-only link: the owner's share page, and the public score page that follows the evening live.

The token is the only key of the public pages, and they only ever read. The live
region polls ``public_live``; it answers 304 from the evening's version alone, so
an unchanged evening is never scored again for a poll.
"""

from __future__ import annotations

import hmac
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_POST, require_safe
from django_htmx.http import HttpResponseStopPolling

from scorebook.core.formatting import lang
from scorebook.core.http import AuthenticatedHttpRequest, noindex
from scorebook.rules import registry
from scorebook.rules.model import ClassicRules
from scorebook.rules.outcome import RobreState

from .. import display, rules_display, services, stored
from ..access import EveningAccess, evening_for_token, evening_for_user, refuse_if_managed
from ..models import Evening, link_token_hash

LAST_DEALS = 10  # deals listed on the public page, newest first
QR_DARK, QR_LIGHT = "#111418", "#ffffff"  # dark on white in both themes: phones scan it best


@login_required
@require_safe
def share(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Whether the evening has a read-only link, and the button that makes one: a link is shown
    only once, when it is made (its secret is stored as a digest)."""
    access = evening_for_user(request, pk)
    refuse_if_managed(access.evening)  # a club night's table is followed on the night's ranking
    return _share_page(request, access)


def _share_page(request: HttpRequest, access: EveningAccess, token: str = "") -> HttpResponse:
    evening = access.evening
    context = {
        "evening": evening,
        "access": access,
        "variant": registry.get(evening.ruleset).names.get(lang()),
        "has_link": bool(evening.share_id),
    }
    if token:
        url = request.build_absolute_uri(reverse("evening_public", args=[token]))
        context |= {"url": url, "qr": _qr(url)}
    response = render(request, "evenings/share/share.html", context)
    response["Cache-Control"] = "no-store"  # the link is a secret: no cache keeps it
    return response


def _qr(url: str) -> str:
    return segno.make(url, error="m").svg_inline(
        scale=1,  # the SVG has a viewBox; CSS gives it its size
        border=4,  # the quiet zone scanners need
        dark=QR_DARK,
        light=QR_LIGHT,
        omitsize=True,
        svgclass="qr-code",
        title=_("QR code of the read-only link"),
    )


@require_safe
@noindex
@cache_control(no_cache=True)
def public(request: HttpRequest, token: str) -> HttpResponse:
    evening = evening_for_token(token)
    context = _board(evening) | {
        "token": token,
        "summary": rules_display.summary(evening.ruleset, stored.rules_of(evening), evening.rules_from),
        "rules_url": reverse("evening_public_rules", args=[token]),
    }
    return render(request, "evenings/share/public.html", context)


def _live_etag(request: HttpRequest, token: str) -> str | None:
    """The version alone says whether the score changed: one small query, no scoring.
    None (no 304) when the evening is unknown (the view answers 404) or closed (its final
    score is sent once more with the order to stop polling)."""
    share_id, _dot, secret = token.partition(".")
    row = Evening.objects.filter(share_id=share_id).values_list("pk", "version", "status", "share_hash").first()
    if row is None or row[2] != Evening.Status.OPEN or not hmac.compare_digest(row[3], link_token_hash(secret)):
        return None
    pk, version, status, _digest = row
    return f"{pk}-{version}-{status}-{translation.get_language()}"


@require_safe
@noindex
@cache_control(no_cache=True)
@condition(etag_func=_live_etag)
def public_live(request: HttpRequest, token: str) -> HttpResponse:
    evening = evening_for_token(token)
    response = render(request, "evenings/share/_live.html", _board(evening) | {"token": token})
    if not evening.is_open:  # the final score: the page stops asking
        return HttpResponseStopPolling(response.content)
    return response


# --- what the public page shows ------------------------------------------------------


def _board(evening: Evening) -> dict[str, Any]:
    """What followers see, read from what the writes stored (nothing scored again: they poll)."""
    sheet = stored.read_sheet(evening, LAST_DEALS)
    standing, rules = sheet.standing, sheet.table.rules
    standings = [
        {
            "name": chip.name,
            "total": chip.total,
            "leader": chip.leader,
            "deals_next": chip.dealer,
            "sits_out": chip.sitting_out,
        }
        for chip in sorted(display.total_chips(standing), key=lambda chip: -chip.total)  # stable: seat order on ties
    ]
    rows = display.rows_of(sheet.lines, sheet.table.players, rules, sheet.deals, sheet.before)
    robre = standing.next.robre
    return {
        "evening": evening,
        "variant": rules.names.get(lang()),
        "standings": standings,
        "has_bete": getattr(rules, "bete", None) is not None,
        "pot": standing.pot,
        "robre": _robre(robre, rules, len(standing.robres))
        if robre is not None and isinstance(rules, ClassicRules)
        else None,
        "next": standing.next,
        "deal_count": standing.number,
        "last_deals": rows[::-1],
    }


def _robre(robre: RobreState, rules: ClassicRules, finished: int) -> dict[str, Any]:
    won = robre.manches_won
    aside = not rules.honours_towards_manche
    return {
        "number": robre.number,
        "finished": finished,
        "target": rules.manche_target,
        "to_win": rules.manches_to_win,
        "teams": [
            {
                "names": display.team_name(robre.teams[side]),
                "manches": won[side],
                "dots": [i < won[side] for i in range(rules.manches_to_win)],
                "points": robre.points[side],
                "honours_aside": robre.honours_aside[side] if aside else None,
            }
            for side in (0, 1)
        ],
    }


@login_required
@require_POST
def share_reset(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Make the read-only link (a former one answers 404 from now on); it is shown this once."""
    access = evening_for_user(request, pk, write=True)
    refuse_if_managed(access.evening)
    had_link = bool(access.evening.share_id)
    token = services.new_share_link(access)
    if had_link:
        messages.success(request, _("A new link was made: the old one no longer works."))
    return _share_page(request, access, token)
