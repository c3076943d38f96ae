"""Correcting, deleting and putting back a deal from the scoring page (the page itself: ``scoring``).

Each posts to its own view, which hands the change to one service function (``services.edit_deal``,
``delete_deal``, ``restore_deal``) and answers as the scoring page does: the board for htmx, the page
otherwise, a refusal in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorebook.core.cleaning import whole_number
from scorebook.core.engine_messages import localized
from scorebook.core.http import HtmxHttpRequest
from scorebook.rules.deals import Evening as EngineEvening
from scorebook.rules.model import ClassicRules
from scorebook.rules.scoring import DealError, DealResult

from .. import display, headings, services, stored
from ..access import MAX_ID, EveningAccess, evening_for_user
from ..forms import (
    ClassicDealForm,
    ContractDealForm,
    deal_form_class,
)
from ..links import login_or_link
from ..models import Deal, Evening
from .scoring import INVALID, UNDO_KEY, after_write, refused


def _deal_or_404(evening: Evening, number: int) -> Deal:
    deal = evening.deals.filter(number=number).first() if 0 < number <= MAX_ID else None
    if deal is None:
        raise Http404("No such deal")
    return deal


def _correction(evening: Evening, number: int) -> tuple[Deal, DealResult, EngineEvening]:
    """The deal ``number`` (404 when there is none), its result as stored (scored from the deals when
    nothing is stored for this version), and the evening's table."""
    deal = _deal_or_404(evening, number)
    table = stored.table_of(evening)
    deal_result = stored.result_of(deal, table) if stored.state_of(evening, table) is not None else None
    if deal_result is None:  # nothing stored for this version: scored from the deals
        deal_result = stored.scored(evening).result.deals[number - 1]
    return deal, deal_result, table


@dataclass
class _Corrected:
    """What the correction page shows when nothing was saved: the form (with its errors, or the deal
    as another phone corrected it meanwhile: ``conflict``), and the answer's status."""

    form: Form
    conflict: Deal | None = None
    status: int = INVALID


def _correct(
    request: HtmxHttpRequest,
    access: EveningAccess,
    number: int,
    deal: Deal,
    cls: type[ContractDealForm] | type[ClassicDealForm],
    kwargs: dict[str, Any],
) -> HttpResponse | _Corrected:
    """A posted correction handed to the service: back to the evening once it is saved, a refusal
    answered, else what the page shows again (``_Corrected``)."""
    form = cls(request.POST, **kwargs)
    if "adjustment" in deal.data or "robre" in deal.data:
        form.is_valid()
        form.add_error(None, _("This line cannot be corrected here: delete it and record it again."))
        return _Corrected(form)
    if not form.is_valid():
        return _Corrected(form)
    try:
        version, posted = form.cleaned_data.get("version"), _posted_id(request)
        services.edit_deal(access, number, form.deal_data(), request.user, version, posted)
    except DealError as error:
        form.add_engine_error(error, number)
        return _Corrected(form)
    except services.StaleDeal as stale:
        initial = cls.initial_from(stale.deal.data, kwargs["players"]) | {"version": stale.deal.version}
        return _Corrected(cls(initial=initial, **kwargs), stale.deal, 409)
    except services.Refused as refusal:
        return refused(request, access, refusal)
    messages.success(request, _("Deal %(n)s corrected.") % {"n": number})
    return redirect(access.evening)


@login_or_link
def deal_edit(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    access = evening_for_user(request, pk, write=True)
    evening = access.evening
    deal, deal_result, table = _correction(evening, number)
    rules, players = table.rules, list(table.players)
    editable = "adjustment" not in deal.data and "robre" not in deal.data
    cls = deal_form_class(rules)
    kwargs: dict[str, Any] = {"rules": rules, "players": players}
    if cls is ClassicDealForm and deal_result.robre is not None:
        kwargs["teams"] = deal_result.robre.teams
    if request.method == "POST":
        if not evening.is_open:
            return refused(request, access, services.EveningClosed())
        page = _correct(request, access, number, deal, cls, kwargs)
        if not isinstance(page, _Corrected):
            return page
    else:
        initial = cls.initial_from(deal.data, players) | {"version": deal.version} if editable else None
        page = _Corrected(cls(initial=initial, **kwargs), status=200)
    context = {
        "evening": evening,
        "access": access,
        "deal": page.conflict or deal,
        "number": number,
        "form": page.form,
        "rules": rules,
        "classic": isinstance(rules, ClassicRules),
        "editable": editable,
        "deal_result": deal_result,
        "description": display.describe(deal_result, rules),
        "players": players,
        "conflict": page.conflict,
        "can_score": evening.is_open,
        "groups": None if isinstance(rules, ClassicRules) else display.contract_groups(rules),
        "heading": headings.heading(evening),  # a correction waiting on the phone names its evening
    }
    return render(request, "evenings/deal_edit.html", context, status=page.status)


@login_or_link
@require_POST
def deal_delete(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    access = evening_for_user(request, pk, write=True)
    evening = access.evening
    if not evening.is_open:
        return refused(request, access, services.EveningClosed())
    if _posted_id(request) is None:  # a deal by its number alone (with its id: it may have moved or gone since)
        _deal_or_404(evening, number)
    try:
        revision = services.delete_deal(
            access, number, request.user, _posted_id(request), _posted_int(request, "version")
        )
        request.session[UNDO_KEY] = (request.session.get(UNDO_KEY) or {}) | {str(evening.pk): revision.pk}
    except DealError as error:
        messages.error(request, _("Deal %(n)s cannot be deleted: %(why)s") % {"n": number, "why": localized(error)})
    except services.Refused as refusal:
        return refused(request, access, refusal)
    return after_write(request, access)


def _posted_int(request: HttpRequest, name: str) -> int | None:
    return whole_number(request.POST.get(name), low=0, high=MAX_ID)


def _posted_id(request: HttpRequest) -> int | None:
    """The deal's id as the page showed it (guards a number that moved since)."""
    return whole_number(request.POST.get("deal"), low=1, high=MAX_ID)


@login_or_link
@require_POST
def deal_restore(request: HtmxHttpRequest, pk: int, revision: int) -> HttpResponse:
    access = evening_for_user(request, pk, write=True)
    if not access.evening.is_open:
        return refused(request, access, services.EveningClosed())
    if not 0 < revision <= MAX_ID:
        raise Http404("No such revision")
    try:
        services.restore_deal(access, revision, request.user)
    except services.NoSuchDeletion:
        raise Http404("No such revision") from None
    except DealError as error:
        messages.error(request, _("The deal cannot be put back: %(why)s") % {"why": localized(error)})
    except services.Refused as refusal:
        return refused(request, access, refusal)
    return after_write(request, access)
