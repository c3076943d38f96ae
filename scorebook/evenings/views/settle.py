"""Settling an evening: who won, who pays whom, marking payments, closing, the printable sheet.

Every number shown here comes from the engine, as the writes stored it (``stored.read_sheet``):
totals, the bête, money and the minimum list of transfers. The view only formats them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from scorebook.accounts.models import display_name
from scorebook.core.formatting import lang, money_text, party_label, signed_points, stake_text, tone
from scorebook.core.http import HtmxHttpRequest, page_or_fragment
from scorebook.rules.model import BeteEnd
from scorebook.rules.scoring import BETE

from .. import display, payments, rules_display, services, stored
from ..access import evening_for_user, refuse_if_managed
from ..display import TransferWords
from ..forms import CancelForm, PaymentForm
from ..models import Evening, Payment

TEMPLATE = "evenings/settle/settlement.html"
PRINT_TEMPLATE = "evenings/settle/print.html"
CANCEL_TEMPLATE = "evenings/settle/payment_cancel.html"

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


def _may_cancel(evening: Evening, payment: Payment, user) -> bool:
    """A scorer cancels the payments they entered, an admin (of the club; a private evening's
    owner) any."""
    if not getattr(evening, "may_score", False):
        return False
    return bool(getattr(evening, "as_admin", False)) or (user is not None and payment.marked_by_id == user.pk)


def _payment_row(evening: Evening, p: Payment, user=None) -> TransferRow:
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
        not cancellation and _may_cancel(evening, p, user),
    )


def _transfer_rows(evening: Evening, user=None) -> list[TransferRow]:
    """What was paid (every payment, in the order they were made; the cancelled ones shown as such),
    then what remains to settle: the settlement netted against the payments that count
    (rules.md 4; ``payments.still_due``)."""
    if evening.stake is None:
        return []
    records = payments.payment_records(evening)
    rows = [_payment_row(evening, p, user) for p in records]
    # after a correction a payment may no longer match any transfer of the settlement: it stays,
    # counts on account (netted in every balance), and says so (rules.md 4)
    pairs = {(t.payer, t.payee) for t in payments.settlement_due(evening)}
    for row in rows:
        row.unmatched = not row.cancelled and (row.payer, row.payee) not in pairs
    rows += [
        TransferRow(t.payer, t.payee, t.amount, money_text(t.amount, evening.currency), False)
        for t in payments.still_due(evening, [p for p in records if not p.cancelled])
    ]
    return rows


def _parties(evening: Evening) -> list[tuple[str, str]]:
    return [(name, party_label(name)) for name in payments.parties(evening)]


def _context(evening: Evening, last: int | None = 0, user=None, form=None) -> dict:
    """The settlement's context; ``sheet``: the evening as stored, with its ``last`` deals (all: None)."""
    sheet = stored.read_sheet(evening, last)
    result = sheet.standing
    rules = sheet.table.rules
    code = lang()
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
    transfers = _transfer_rows(evening, user)
    if form is None and has_stake:
        form = PaymentForm(parties=_parties(evening))
    return {
        "evening": evening,
        "variant": rules.names.get(code),
        "players": list(result.players),
        "deal_count": result.number,
        "has_stake": has_stake,
        "stake_text": stake_text(evening.stake, evening.currency) if has_stake else "",
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
        "may_score": getattr(evening, "may_score", False),
        "sheet": sheet,
        "lang": code,
        "summary": rules_display.summary(evening.ruleset, rules),
        "rules_url": reverse("evening_rules", args=[evening.pk]),
    }


# --- pages -----------------------------------------------------------------------------------


@require_safe
@login_required
def settlement(request, pk):
    evening = evening_for_user(request, pk)
    return render(request, TEMPLATE, _context(evening, user=request.user))


@require_safe
@login_required
def evening_print(request, pk):
    evening = evening_for_user(request, pk)
    context = _context(evening, last=None)
    sheet = context["sheet"]
    context["rows"] = display.rows_of(sheet.lines, sheet.table.players, sheet.table.rules, sheet.deals)
    context["totals"] = [sheet.standing.totals[name] for name in sheet.table.players]
    context["printed_at"] = timezone.localtime()
    return render(request, PRINT_TEMPLATE, context)


# --- writes ----------------------------------------------------------------------------------


def _settlement_url(evening: Evening, anchor: str = "") -> str:
    return reverse("settlement", args=[evening.pk]) + anchor


def _transfers_answer(request, evening: Evening, form=None, status: int = 200) -> HttpResponse:
    """The settlement's list of transfers for htmx (in place), the page otherwise."""
    if request.htmx:
        return render(request, TEMPLATE + "#transfers", _context(evening, user=request.user, form=form), status=status)
    if form is not None:
        return render(request, TEMPLATE, _context(evening, user=request.user, form=form), status=status)
    return redirect(_settlement_url(evening, "#transfers"))


@require_POST
@login_required
def payment_toggle(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Mark a transfer still due paid in full (a double tap is harmless: the second finds it paid).
    ``paid`` = "0" with a ``payment`` asks to cancel that payment: its confirmation page."""
    evening = evening_for_user(request, pk, write=True)
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
        return redirect("payment_cancel", evening.pk, payment_id)

    # Payments of a closed evening are settled here as in the club's ledger: closing freezes the deals,
    # not the money, which is often paid days later.
    try:
        payments.record_payment(evening, payer, payee, amount, request.user, closed_too=True)
    except payments.NotDue:  # the page was out of date: a deal or a payment changed the settlement since
        messages.warning(request, _("The settlement has changed since the page was shown: check it again."))
        return HttpResponseClientRefresh() if request.htmx else redirect(_settlement_url(evening, "#transfers"))
    return _transfers_answer(request, evening)


@require_POST
@login_required
def payment_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Record a payment typed in: part of a transfer, or a free amount between two parties of the
    evening, with a note. The form's key makes a repeated post record nothing."""
    evening = evening_for_user(request, pk, write=True)
    if evening.stake is None:
        return HttpResponseBadRequest("this evening has no stake")
    form = PaymentForm(request.POST, parties=_parties(evening))
    if not form.is_valid():
        return _transfers_answer(request, evening, form, status=422)
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
        return _transfers_answer(request, evening, form, status=422)
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
    return _transfers_answer(request, evening)


@page_or_fragment
@login_required
def payment_cancel(request: HtmxHttpRequest, pk: int, payment: int) -> HttpResponse:
    """Cancel a payment, after a confirmation (this page, or the row in place with htmx), with a
    reason: a record of who, when and why; the payment stays in the list, cancelled."""
    evening = evening_for_user(request, pk, write=request.method == "POST")
    record = get_object_or_404(
        Payment.objects.select_related("marked_by__profile", "cancellation__by__profile"), pk=payment, evening=evening
    )
    row = _payment_row(evening, record, request.user)
    form = CancelForm(request.POST) if request.method == "POST" else CancelForm()
    if request.method == "POST":
        if not form.is_valid():
            return render(request, CANCEL_TEMPLATE, {"evening": evening, "t": row, "form": form}, status=422)
        try:
            payments.cancel_payment(record.pk, request.user, admin=evening.as_admin, reason=form.cleaned_data["reason"])
        except payments.AlreadyCancelled:
            messages.info(request, _("This payment was cancelled already."))
        except payments.NotYours:
            raise PermissionDenied("A scorer cancels only the payments they entered") from None
        else:
            messages.success(
                request,
                _("Cancelled: %(payer)s paying %(payee)s %(amount)s no longer counts; it stays in the history.")
                % {"payer": row.payer_label, "payee": row.payee_label, "amount": row.amount_text},
            )
        return _transfers_answer(request, evening)
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    if row.cancelled:
        messages.info(request, _("This payment was cancelled already."))
        return redirect(_settlement_url(evening, "#transfers"))
    if not row.may_cancel:
        raise PermissionDenied("A scorer cancels only the payments they entered")
    template = CANCEL_TEMPLATE + "#confirm" if request.htmx else CANCEL_TEMPLATE
    return render(request, template, {"evening": evening, "t": row, "form": form})


def _back(request, evening: Evening):
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(_settlement_url(evening))


def _set_status(request, pk, status: str):
    evening = evening_for_user(request, pk, write=True)
    refuse_if_managed(evening)
    try:
        services.set_status(evening, status, request.user, admin=evening.as_admin)
    except services.AdminReopens:
        raise PermissionDenied("An admin of the club closed this evening: only an admin reopens it") from None
    except services.EveningGone as gone:  # deleted a moment ago
        messages.error(request, gone.message)
        return redirect("evening_list")
    return _back(request, evening)


@require_POST
@login_required
def evening_close(request, pk):
    return _set_status(request, pk, Evening.Status.CLOSED)


@require_POST
@login_required
def evening_reopen(request, pk):
    return _set_status(request, pk, Evening.Status.OPEN)
