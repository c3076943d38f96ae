"""The rules an evening was played with, read-only: its preset, the house-rule differences, and every
figure of its own copy of the rules (a later change to the club's house rules never shows here)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scorebook.core.http import AuthenticatedHttpRequest, noindex

from .. import rules_display, rules_text, stored
from ..access import evening_for_token, evening_for_user
from ..models import Evening

TEMPLATE = "evenings/rules.html"


def _context(evening: Evening) -> dict[str, Any]:
    rules = stored.rules_of(evening)
    return {
        "evening": evening,
        "summary": rules_display.summary(evening.ruleset, rules, evening.rules_from),
        "grids": rules_display.contract_grids(evening.ruleset, rules),
        "figures": rules_display.classic_figures(evening.ruleset, rules),
        "all_pass": getattr(rules, "all_pass_multiplier", None),
        "how": rules_text.explanation(evening.ruleset, get_language()),
    }


@require_safe
@login_required
def evening_rules(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    evening = evening_for_user(request, pk).evening
    return render(request, TEMPLATE, _context(evening) | {"back": "evening"})


@require_safe
@noindex
def public_rules(request: HttpRequest, token: str) -> HttpResponse:
    """The same page from the read-only link (it opens nothing else)."""
    evening = evening_for_token(token)
    return render(request, TEMPLATE, _context(evening) | {"token": token})
