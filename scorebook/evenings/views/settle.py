"""Settling an evening: who won, who pays whom, marking payments, closing, the printable sheet.

Every number shown here comes from the engine (``services.scored``): totals, the
bête, money and the minimum list of transfers. The view only formats them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import number_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from scorebook.rules.model import LANGS, BeteEnd
from scorebook.rules.scoring import BETE

from .. import display, services
from ..display import tone
from ..access import _get_evening_for_user
from ..models import Evening, Payment

TEMPLATE = "evenings/settle/settlement.html"
PRINT_TEMPLATE = "evenings/settle/print.html"

MINUS = "\u2212"  # a real minus sign: "−0,20 €"
NBSP = "\u00a0"
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥"}


# --- formatting (no scoring here: the engine's numbers, written for people) -------------------


def _lang() -> str:
    code = (translation.get_language() or "fr").split("-")[0].lower()
    return code if code in LANGS else "fr"


def signed_points(value: int) -> str:
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def money_text(amount: Decimal, currency: str, *, signed: bool = False, places: int = 2) -> str:
    """``Decimal("-0.20"), "EUR"`` -> "−0,20 €" in French, "€ −0,20" in Dutch, "−€0.20" in English."""
    digits = number_format(abs(amount), places, use_l10n=True, force_grouping=True)
    sign = MINUS if amount < 0 else ("+" if signed and amount > 0 else "")
    symbol = SYMBOLS.get(currency.upper(), currency)
    lang = _lang()
    if lang == "en" and symbol in SYMBOLS.values():
        return f"{sign}{symbol}{digits}"
    if lang == "nl":
        return f"{symbol}{NBSP}{sign}{digits}"
    return f"{sign}{digits}{NBSP}{symbol}"


def stake_text(stake: Decimal, currency: str) -> str:
    """The stake keeps its own precision: 0.025 is "0,025 €", 0.1 is "0,10 €"."""
    exponent = stake.normalize().as_tuple().exponent
    places = min(4, max(2, -exponent)) if isinstance(exponent, int) else 2
    return money_text(stake, currency, places=places)


def party_label(name: str) -> str:
    return _("the bête") if name == BETE else name


# --- what the pages show -------------------------------------------------------------------


class TransferWords:
    """What a transfer shows of its ``payer``, ``payee`` and ``amount`` (the settlement's rows,
    the ledger's open transfers)."""

    payer: str
    payee: str
    amount: Decimal

    @property
    def payer_label(self) -> str:
        return party_label(self.payer)

    @property
    def payee_label(self) -> str:
        return party_label(self.payee)

    @property
    def amount_value(self) -> str:
        """The amount as the paid form posts it."""
        return format(self.amount, "f")


@dataclass
class TransferRow(TransferWords):
    payer: str
    payee: str
    amount: Decimal
    amount_text: str
    paid: bool
    current: bool = True  # False: a payment marked earlier that the settlement no longer asks for


def _paid_keys(evening: Evening) -> set[tuple[str, str, Decimal]]:
    return {(p.payer, p.payee, p.amount) for p in evening.payments.all()}


def _transfer_rows(evening: Evening, result) -> list[TransferRow]:
    if evening.stake is None:
        return []
    paid = _paid_keys(evening)
    rows = [
        TransferRow(t.payer, t.payee, t.amount, money_text(t.amount, evening.currency), (t.payer, t.payee, t.amount) in paid)
        for t in result.transfers(evening.stake)
    ]
    current = {(r.payer, r.payee, r.amount) for r in rows}
    for payer, payee, amount in sorted(paid - current):
        rows.append(TransferRow(payer, payee, amount, money_text(amount, evening.currency), True, current=False))
    return rows


def _context(evening: Evening) -> dict:
    scored = services.scored(evening)
    result = scored.result
    rules = scored.engine.rules
    lang = _lang()
    has_stake = evening.stake is not None
    money = result.money(evening.stake) if has_stake else {}
    seat = {name: i for i, name in enumerate(result.players)}
    standings = []
    for name in result.players:
        points = result.totals[name]
        amount = money.get(name)
        standings.append(
            {
                "name": name,
                "points": points,
                "points_text": signed_points(points),
                "money": amount,
                "money_text": money_text(amount, evening.currency, signed=True) if amount is not None else "",
                "tone": tone(amount if amount is not None else points),
            }
        )
    # The winner first; equal results keep the seat order. Money follows the points (minus the mean).
    standings.sort(key=lambda row: (-row["points"], seat[row["name"]]))
    for row in standings:  # equal points share a place
        row["rank"] = 1 + sum(other["points"] > row["points"] for other in standings)
    bete = getattr(rules, "bete", None)
    carried = bete is not None and result.bete_end is BeteEnd.CARRY
    bete_money = money.get(BETE)
    transfers = _transfer_rows(evening, result)
    return {
        "evening": evening,
        "variant": rules.names.get(lang),
        "players": list(result.players),
        "deal_count": len(result.deals),
        "has_stake": has_stake,
        "stake_text": stake_text(evening.stake, evening.currency) if has_stake else "",
        "standings": standings,
        "has_bete": bete is not None,
        "pot": result.pot,
        "bete_carried": carried,
        "bete_money_text": money_text(bete_money, evening.currency, signed=True) if bete_money is not None else "",
        "transfers": transfers,
        "closed": not evening.is_open,
        "scored": scored,
        "lang": lang,
    }


# --- pages -----------------------------------------------------------------------------------


@require_safe
@login_required
def settlement(request, pk):
    evening = _get_evening_for_user(request, pk)
    return render(request, TEMPLATE, _context(evening))


@require_safe
@login_required
def evening_print(request, pk):
    evening = _get_evening_for_user(request, pk)
    context = _context(evening)
    scored = context["scored"]
    result = scored.result
    rules = scored.engine.rules
    rows = []
    for deal in result.deals:
        out = set(deal.sitting_out)
        rows.append(
            {
                "number": deal.number,
                "dealer": deal.dealer or "",
                "description": display.describe(deal, rules),
                "multiplier": deal.multiplier,
                "cells": [
                    {"text": "" if name in out else signed_points(deal.deltas.get(name, 0)), "out": name in out,
                     "tone": tone(deal.deltas.get(name, 0))}
                    for name in result.players
                ],
                "pot": deal.pot,
            }
        )
    context["rows"] = rows
    context["total_cells"] = [
        {"text": signed_points(result.totals[name]), "tone": tone(result.totals[name])} for name in result.players
    ]
    context["printed_at"] = timezone.localtime()
    return render(request, PRINT_TEMPLATE, context)


# --- writes ----------------------------------------------------------------------------------


def _settlement_url(evening: Evening, anchor: str = "") -> str:
    return reverse("settlement", args=[evening.pk]) + anchor


@require_POST
@login_required
def payment_toggle(request, pk):
    """Mark a transfer paid, or not. ``paid`` = "1" / "0" sets it (a double tap is harmless); without it, it toggles."""
    evening = _get_evening_for_user(request, pk, write=True)
    payer = (request.POST.get("payer") or "").strip()
    payee = (request.POST.get("payee") or "").strip()
    try:
        amount = Decimal(request.POST.get("amount") or "").quantize(Decimal("0.01"))
    except InvalidOperation:
        return HttpResponseBadRequest("amount must be a decimal number")
    if not payer or not payee or not amount.is_finite() or amount <= 0:
        return HttpResponseBadRequest("payer, payee and a positive amount are needed")
    wanted = request.POST.get("paid")
    if wanted not in (None, "", "0", "1"):
        return HttpResponseBadRequest("paid is 1 or 0")

    if not evening.is_open:
        messages.warning(request, _("This evening is closed: payments can no longer be changed. Reopen it first."))
        return HttpResponseClientRefresh() if request.htmx else redirect(_settlement_url(evening))

    existing = Payment.objects.filter(evening=evening, payer=payer, payee=payee, amount=amount)
    mark = (wanted == "1") if wanted in ("0", "1") else not existing.exists()
    if mark:
        due = evening.stake is not None and any(
            (t.payer, t.payee, t.amount) == (payer, payee, amount)
            for t in services.scored(evening).result.transfers(evening.stake)
        )
        if not due:  # the page was out of date: a deal changed the settlement since
            messages.warning(request, _("The settlement has changed since the page was shown: check it again."))
            return HttpResponseClientRefresh() if request.htmx else redirect(_settlement_url(evening, "#transfers"))
        Payment.objects.get_or_create(
            evening=evening, payer=payer, payee=payee, amount=amount, defaults={"marked_by": request.user}
        )
    else:
        existing.delete()

    if request.htmx:
        context = _context(evening)
        row = next(
            (t for t in context["transfers"] if (t.payer, t.payee, t.amount) == (payer, payee, amount)), None
        )
        if row is None:  # an old payment unmarked: it is no longer on the list
            return HttpResponseClientRefresh()
        context["t"] = row
        return render(request, TEMPLATE + "#transfer", context)
    return redirect(_settlement_url(evening, "#transfers"))


def _back(request, evening: Evening):
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(_settlement_url(evening))


def _set_status(request, pk, status: str):
    evening = _get_evening_for_user(request, pk, write=True)
    if evening.status != status:
        Evening.objects.filter(pk=evening.pk).update(status=status, updated_at=timezone.now())
        evening.status = status
    return _back(request, evening)


@require_POST
@login_required
def evening_close(request, pk):
    return _set_status(request, pk, Evening.Status.CLOSED)


@require_POST
@login_required
def evening_reopen(request, pk):
    return _set_status(request, pk, Evening.Status.OPEN)
