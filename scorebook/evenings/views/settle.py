"""Settling an evening: who won, who pays whom, marking payments, closing, the printable sheet.

Every number shown here comes from the engine, as the writes stored it (``stored.read_sheet``):
totals, the bête, money and the minimum list of transfers. The view only formats them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from scorebook.accounts.models import display_name
from scorebook.core.collation import sort_key
from scorebook.core.formatting import lang, money_text, party_label, signed_points, stake_text, tone
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.rules.model import BeteEnd
from scorebook.rules.scoring import BETE, Standing

from .. import display, payments, rules_display, services, stored
from ..access import EveningAccess, evening_for_money, evening_for_user, refuse_if_managed
from ..display import TransferWords
from ..forms import PaymentForm
from ..models import Evening, Payment

TEMPLATE = "evenings/settle/settlement.html"
PRINT_TEMPLATE = "evenings/settle/print.html"

# --- what the pages show -------------------------------------------------------------------


@dataclass
class TransferRow(TransferWords):
    payer: str
    payee: str
    amount: Decimal
    amount_text: str
    paid: bool  # a payment made (cancelled or not); otherwise a transfer still due
    paid_at: object = None  # when it was marked paid
    paid_by: str = ""  # who marked it paid
    payment_id: int | None = None  # the payment, for its cancellation
    kind: str = ""  # the payment's kind (Payment.Kind)
    note: str = ""
    cancelled_at: object = None  # a cancelled payment: when, by whom, why
    cancelled_by: str = ""
    reason: str = ""
    may_cancel: bool = False
    unmatched: bool = False  # a payment no transfer of the evening's settlement asks for any more

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None


def _may_cancel(access: EveningAccess, payment: Payment, user: User | AnonymousUser | None) -> bool:
    """A scorer cancels the payments they entered, an admin (of the club; a private evening's
    owner) any; a table's link, none."""
    if not access.may_pay:
        return False
    return access.as_admin or (user is not None and payment.marked_by_id == user.pk)


def _payment_row(access: EveningAccess, p: Payment, user: User | AnonymousUser | None = None) -> TransferRow:
    evening = access.evening
    cancellation = getattr(p, "cancellation", None) if p.cancelled else None
    return TransferRow(
        p.payer,
        p.payee,
        p.amount,
        money_text(p.amount, evening.currency),
        True,
        p.marked_at,
        display_name(p.marked_by),
        p.pk,
        p.kind,
        p.note,
        cancellation.at if cancellation else None,
        display_name(cancellation.by) if cancellation else "",
        cancellation.reason if cancellation else "",
        not cancellation and _may_cancel(access, p, user),
    )


def _transfer_rows(access: EveningAccess, user: User | AnonymousUser | None = None) -> list[TransferRow]:
    """What was paid (every payment, in the order they were made; the cancelled ones shown as such),
    then what remains to settle: the settlement netted against the payments that count
    (docs/rules/money.md; ``payments.still_due``)."""
    evening = access.evening
    if evening.stake is None:
        return []
    records = payments.payment_records(evening)
    rows = [_payment_row(access, p, user) for p in records]
    # after a correction a payment marked against a transfer may match none any more: it stays,
    # counts on account (netted in every balance), and says so (docs/rules/money.md)
    due = payments.settlement_due(evening)
    for row, record in zip(rows, records, strict=True):
        row.unmatched = not row.cancelled and payments.unmatched(record, due)
    rows += [
        TransferRow(t.payer, t.payee, t.amount, money_text(t.amount, evening.currency), False)
        for t in payments.still_due(evening, [p for p in records if not p.cancelled])
    ]
    return rows


def _parties(evening: Evening) -> list[tuple[str, str]]:
    """The payment form's choices: the players in the roster's order (collated), the bête last."""
    named = [(name, party_label(name)) for name in payments.parties(evening)]
    return sorted(named, key=lambda party: (party[0] == BETE, sort_key(party[1])))


def _standings(result: Standing, money: Mapping[str, Decimal], currency: str) -> list[dict[str, Any]]:
    """The players by their points, each with his money and his place."""
    seat = {name: i for i, name in enumerate(result.players)}
    standings: list[dict[str, Any]] = []
    for name in result.players:
        points = result.totals[name]
        amount = money.get(name)
        standings.append(
            {
                "name": name,
                "points": points,
                "points_text": signed_points(points),
                "money": amount,
                "money_text": money_text(amount, currency, signed=True) if amount is not None else "",
                "tone": tone(amount if amount is not None else points),
            }
        )
    # The winner first; equal results keep the seat order. Money follows the points (minus the mean).
    standings.sort(key=lambda row: (-row["points"], seat[row["name"]]))
    for row in standings:  # equal points share a place
        row["rank"] = 1 + sum(other["points"] > row["points"] for other in standings)
    return standings


def _context(
    access: EveningAccess,
    last: int | None = 0,
    user: User | AnonymousUser | None = None,
    form: PaymentForm | None = None,
) -> dict[str, Any]:
    """The settlement's context; ``sheet``: the evening as stored, with its ``last`` deals (all: None)."""
    evening = access.evening
    sheet = stored.read_sheet(evening, last)
    result = sheet.standing
    rules = sheet.table.rules
    code = lang()
    stake = evening.stake
    has_stake = stake is not None
    money = result.money(stake) if stake is not None else {}
    standings = _standings(result, money, evening.currency)
    bete = getattr(rules, "bete", None)
    carried = bete is not None and result.bete_end is BeteEnd.CARRY
    bete_money = money.get(BETE)
    transfers = _transfer_rows(access, user)
    if form is None and has_stake and access.may_pay and not evening.managed:
        form = PaymentForm(parties=_parties(evening))
    return {
        "evening": evening,
        "access": access,
        "variant": rules.names.get(code),
        "players": list(result.players),
        "deal_count": result.number,
        "has_stake": has_stake,
        "stake_text": stake_text(stake, evening.currency) if stake is not None else "",
        "standings": standings,
        "has_bete": bete is not None,
        "pot": result.pot,
        "bete_carried": carried,
        "bete_money_text": money_text(bete_money, evening.currency, signed=True) if bete_money is not None else "",
        "transfers": transfers,
        "paid_count": sum(t.paid and not t.cancelled for t in transfers),
        "payment_form": form,
        "due_count": sum(not t.paid for t in transfers),
        "closed": not evening.is_open,
        "may_score": access.may_score,
        "may_pay": access.may_pay and not evening.managed,  # a night's table settles with its night
        "sheet": sheet,
        "lang": code,
        "summary": rules_display.summary(evening.ruleset, rules, evening.rules_from),
        "rules_url": reverse("evening_rules", args=[evening.pk]),
    }


# --- pages -----------------------------------------------------------------------------------


@require_safe
@login_required
def settlement(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return render(request, TEMPLATE, _context(evening_for_user(request, pk), user=request.user))


@require_safe
@login_required
def evening_print(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    context = _context(evening_for_user(request, pk), last=None)
    sheet = context["sheet"]
    context["rows"] = display.rows_of(sheet.lines, sheet.table.players, sheet.table.rules, sheet.deals)
    context["totals"] = [sheet.standing.totals[name] for name in sheet.table.players]
    context["printed_at"] = timezone.localtime()
    return render(request, PRINT_TEMPLATE, context)


# --- writes ----------------------------------------------------------------------------------


def _settlement_url(evening: Evening, anchor: str = "") -> str:
    return reverse("settlement", args=[evening.pk]) + anchor


def _transfers_answer(
    request: AuthenticatedHttpRequest, access: EveningAccess, form: PaymentForm | None = None, status: int = 200
) -> HttpResponse:
    """The settlement's list of transfers for htmx (in place), the page otherwise."""
    if request.htmx:
        return render(request, TEMPLATE + "#transfers", _context(access, user=request.user, form=form), status=status)
    if form is not None:
        return render(request, TEMPLATE, _context(access, user=request.user, form=form), status=status)
    return redirect(_settlement_url(access.evening, "#transfers"))


@require_POST
@login_required
def payment_toggle(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Mark a transfer still due paid in full (a double tap is harmless: the second finds it paid).
    ``paid`` = "0" with a ``payment`` asks to cancel that payment: its confirmation page."""
    access = evening_for_money(request, pk, write=True)
    evening = access.evening
    payer = (request.POST.get("payer") or "").strip()
    payee = (request.POST.get("payee") or "").strip()
    try:
        amount = Decimal(request.POST.get("amount") or "").quantize(Decimal("0.01"))
    except InvalidOperation:
        return HttpResponseBadRequest("amount must be a decimal number")
    if (
        not payer.isprintable()
        or not payee.isprintable()
        or not payer
        or not payee
        or not amount.is_finite()
        or amount <= 0
    ):  # a NUL never reaches the database
        return HttpResponseBadRequest("payer, payee and a positive amount are needed")
    wanted = request.POST.get("paid")
    if wanted not in (None, "", "0", "1"):
        return HttpResponseBadRequest("paid is 1 or 0")
    if wanted == "0":  # a payment is cancelled with a confirmation and a reason, never in one tap
        try:
            payment_id = int(request.POST.get("payment") or "")
        except ValueError:
            return HttpResponseBadRequest("payment must be a payment's number")
        return redirect("payment_cancel", payment_id)

    # Payments of a closed evening are settled here as in the club's ledger: closing freezes the deals,
    # not the money, which is often paid days later.
    try:
        payments.record_payment(evening, payer, payee, amount, request.user, closed_too=True)
    except payments.SettledWithTheNight:
        raise PermissionDenied("A club night's table is settled with its night, in the club's ledger") from None
    except payments.NotDue:  # the page was out of date: a deal or a payment changed the settlement since
        messages.warning(request, _("The settlement has changed since the page was shown: check it again."))
        return HttpResponseClientRefresh() if request.htmx else redirect(_settlement_url(evening, "#transfers"))
    return _transfers_answer(request, access)


@require_POST
@login_required
def payment_add(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Record a payment typed in: part of a transfer, or a free amount between two parties of the
    evening, with a note. The form's key makes a repeated post record nothing."""
    access = evening_for_money(request, pk, write=True)
    evening = access.evening
    if evening.stake is None:
        return HttpResponseBadRequest("this evening has no stake")
    if evening.managed:
        raise PermissionDenied("A club night's table is settled with its night, in the club's ledger")
    form = PaymentForm(request.POST, parties=_parties(evening))
    if not form.is_valid():
        return _transfers_answer(request, access, form, status=422)
    data = form.cleaned_data
    try:
        _payment, created = payments.record_payment(
            evening,
            data["payer"],
            data["payee"],
            data["amount"],
            request.user,
            closed_too=True,
            free=True,
            note=data["note"],
            request_key=data["key"],
        )
    except payments.NotDue:
        form.add_error("payer", _("Two parties of this evening are needed."))
        return _transfers_answer(request, access, form, status=422)
    if created:
        messages.success(
            request,
            _("Recorded: %(payer)s paid %(payee)s %(amount)s.")
            % {
                "payer": party_label(data["payer"]),
                "payee": party_label(data["payee"]),
                "amount": money_text(data["amount"], evening.currency),
            },
        )
    return _transfers_answer(request, access)


def _back(request: HttpRequest, evening: Evening) -> HttpResponse:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(_settlement_url(evening))


def _set_status(request: AuthenticatedHttpRequest, pk: int, status: str) -> HttpResponse:
    access = evening_for_user(request, pk, write=True)
    evening = access.evening
    refuse_if_managed(evening)
    try:
        services.set_status(access, status, request.user, admin=access.as_admin)
    except services.AdminReopens:
        raise PermissionDenied("An admin of the club closed this evening: only an admin reopens it") from None
    except services.EveningGone as gone:  # deleted a moment ago
        messages.error(request, gone.message)
        return redirect("evening_list")
    return _back(request, evening)


@require_POST
@login_required
def evening_close(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _set_status(request, pk, Evening.Status.CLOSED)


@require_POST
@login_required
def evening_reopen(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _set_status(request, pk, Evening.Status.OPEN)
