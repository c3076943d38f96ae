"""The club's ledger page: every balance (the kitty's too), what remains to pay evening by evening
and night by night (paged), payments on account, and the history of payments and of the kitty.

Every figure comes from ``scorebook.ledger.books``; every write goes through a service
(``evenings.payments`` for an evening's payment, ``ledger.services`` for the others), and cancelling
any payment is the evenings app's one page (``payment_cancel``)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Club, Player, Role
from scorebook.core import cleaning
from scorebook.core.formatting import money_text, party_label
from scorebook.core.http import AuthenticatedHttpRequest, HtmxHttpRequest
from scorebook.evenings import payments
from scorebook.evenings.forms import PaymentForm
from scorebook.evenings.models import Evening
from scorebook.ledger import books, services
from scorebook.nights.models import Night

TEMPLATE = "league/ledger.html"
MARKERS = (Role.ADMIN, Role.SCORER)
SHOWN_EVENINGS = 40  # evenings with open transfers a page; the next ones behind a link
SHOWN_NIGHTS = 10  # nights a page
HISTORY = 30  # the payments and kitty records a page of the history lists, each with its cancel
LATEST = 10  # the latest of them the ledger itself shows, the rest on the history's pages


def page_number(request: HttpRequest, name: str = "page") -> int:
    return cleaning.whole_number(request.GET.get(name) or "1", low=1, high=10**6) or 1


def _amount(value: object) -> Decimal | None:
    try:
        amount = Decimal(str(value)).quantize(Decimal("0.01"))
    except (InvalidOperation, TypeError, ValueError):
        return None
    return amount if amount.is_finite() and amount > 0 else None


def context(request: HttpRequest, club: Club, role: Role, form: PaymentForm | None = None) -> dict[str, Any]:
    """What the ledger page shows (its partial ``#ledger`` too, after a write)."""
    evenings_page, nights_page = page_number(request), page_number(request, "nights")
    all_balances = books.balances(club)
    evenings, open_count = books.open_evenings(club, limit=SHOWN_EVENINGS, offset=(evenings_page - 1) * SHOWN_EVENINGS)
    nights, night_count = books.open_nights(club, limit=SHOWN_NIGHTS, offset=(nights_page - 1) * SHOWN_NIGHTS)
    history = books.history(club, limit=LATEST + 1)  # one more: whether earlier ones follow
    history_more = len(history) > LATEST
    history = history[:LATEST]
    for line in history:
        line.may_cancel = (
            line.what == "payment"
            and not line.cancelled
            and (role == Role.ADMIN or (role == Role.SCORER and line.marked_by_id == request.user.pk))
        )
    if form is None and role in MARKERS:
        form = PaymentForm(parties=books.players(club))
    kitty = books.kitty(club, all_balances)
    return {
        "club": club,
        "role": role,
        "can_mark": role in MARKERS,
        "balances": [b for b in all_balances if not b.is_kitty and b.money],
        "kitty": kitty,
        "kitty_balance": next((b for b in all_balances if b.is_kitty and b.money), None),
        "evenings": evenings,
        "evenings_page": evenings_page,
        "evenings_more": open_count > evenings_page * SHOWN_EVENINGS,
        "open_count": open_count,
        "nights": nights,
        "nights_page": nights_page,
        "nights_more": night_count > nights_page * SHOWN_NIGHTS,
        "history": history,
        "history_more": history_more,
        "account_form": form,
        "currency": books.club_currency(club),
        "ledger_url": reverse("club_ledger", args=[club.slug]),
    }


@require_safe
@login_required
def ledger(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club, role = club_for_user(request, slug)
    return render(request, TEMPLATE, context(request, club, role))


def answer(
    request: HtmxHttpRequest, club: Club, role: Role, anchor: str, form: PaymentForm | None = None, status: int = 200
) -> HttpResponse:
    """After a write: the ledger's list in place (htmx), the page with the form's errors, or back to it."""
    if request.htmx:
        return render(request, TEMPLATE + "#ledger", context(request, club, role, form=form), status=status)
    if form is not None:
        return render(request, TEMPLATE, context(request, club, role, form=form), status=status)
    return redirect(reverse("club_ledger", args=[club.slug]) + anchor)


@require_POST
@login_required
def ledger_paid(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Mark one open transfer of one evening paid. A second tap changes nothing."""
    club, role = club_for_user(request, slug, *MARKERS)
    evening_id = cleaning.whole_number(request.POST.get("evening") or "", low=1, high=2**63 - 1)
    if evening_id is None:
        return HttpResponseBadRequest("evening must be an evening's number")
    payer = (request.POST.get("payer") or "").strip()
    payee = (request.POST.get("payee") or "").strip()
    amount = _amount(request.POST.get("amount"))
    if not payer.isprintable() or not payee.isprintable() or not payer or not payee or amount is None:
        return HttpResponseBadRequest("payer, payee and a positive amount are needed")
    evening = get_object_or_404(Evening, pk=evening_id, club=club, stake__isnull=False)
    try:
        _payment, created = payments.record_payment(evening, payer, payee, amount, request.user, closed_too=True)
    except (payments.NotDue, payments.SettledWithTheNight):  # the settlement changed since the page was shown
        messages.warning(
            request, _("This transfer is no longer part of the evening's settlement: check the ledger again.")
        )
    else:
        if created:
            messages.success(
                request,
                _("Marked paid: %(payer)s paid %(payee)s %(amount)s.")
                % {
                    "payer": party_label(payer),
                    "payee": party_label(payee),
                    "amount": money_text(amount, evening.currency),
                },
            )
    return answer(request, club, role, "#open-transfers")


@require_POST
@login_required
def ledger_pay(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Record a payment on account between two players of the club (no evening): any amount up to
    the bound, with a note; it counts in both players' balances and in the settle-up. A repeated
    form records nothing."""
    club, role = club_for_user(request, slug, *MARKERS)
    form = PaymentForm(request.POST, parties=books.players(club))
    if not form.is_valid():
        return answer(request, club, role, "#on-account", form, status=422)
    data = form.cleaned_data
    players = {p.pk: p for p in Player.objects.filter(club=club, pk__in=[data["payer"], data["payee"]])}
    payer, payee = players.get(int(data["payer"])), players.get(int(data["payee"]))
    currency = books.club_currency(club)
    try:
        if payer is None or payee is None:
            raise payments.NotDue()
        _payment, created = services.record_on_account(
            club, payer, payee, data["amount"], currency, request.user, note=data["note"], request_key=data["key"]
        )
    except payments.NotDue:
        form.add_error("payer", _("Two players of the club are needed."))
        return answer(request, club, role, "#on-account", form, status=422)
    if created:
        messages.success(
            request,
            _("Recorded on account: %(payer)s paid %(payee)s %(amount)s.")
            % {"payer": payer.name, "payee": payee.name, "amount": money_text(data["amount"], currency)},
        )
    return answer(request, club, role, "#payment-history")


@require_POST
@login_required
def ledger_night_paid(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Mark one of a night's transfers paid (docs/rules/club-nights.md: the night settles once, across its tables):
    a payment for the night between the two players. The form's key makes a second tap record nothing."""
    club, role = club_for_user(request, slug, *MARKERS)
    night_id, payer_id, payee_id = (
        cleaning.whole_number(request.POST.get(name) or "", low=1, high=2**63 - 1)
        for name in ("night", "payer", "payee")
    )
    if night_id is None or payer_id is None or payee_id is None:
        return HttpResponseBadRequest("night, payer and payee are numbers")
    night = get_object_or_404(Night, pk=night_id, club=club)
    raw = cleaning.decimal_number(request.POST.get("amount") or "")
    amount = _amount(raw) if raw is not None else None
    key = request.POST.get("key") or ""
    if not re.fullmatch(r"[0-9A-Za-z_-]{0,64}", key):
        return HttpResponseBadRequest("key is the form's own")
    players = {p.pk: p for p in Player.objects.filter(club=club, pk__in=[payer_id, payee_id])}
    if amount is None or payer_id not in players or payee_id not in players or payer_id == payee_id:
        return HttpResponseBadRequest("two players of the club and a positive amount are needed")
    try:
        _payment, created = services.record_for_night(
            night, players[payer_id], players[payee_id], amount, request.user, request_key=key
        )
    except payments.NotDue:
        messages.warning(
            request, _("This transfer is no longer part of the night's settlement: check the ledger again.")
        )
    else:
        if created:
            messages.success(
                request,
                _("Marked paid: %(payer)s paid %(payee)s %(amount)s.")
                % {
                    "payer": players[payer_id].name,
                    "payee": players[payee_id].name,
                    "amount": money_text(amount, night.currency),
                },
            )
    return answer(request, club, role, "#open-transfers")


@require_safe
@login_required
def ledger_history(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The history of payments and of the kitty, page by page (the ledger shows its first page)."""
    club, role = club_for_user(request, slug)
    number = page_number(request)
    history = books.history(club, limit=HISTORY + 1, offset=(number - 1) * HISTORY)
    more = len(history) > HISTORY
    history = history[:HISTORY]
    for line in history:
        line.may_cancel = (
            line.what == "payment"
            and not line.cancelled
            and (role == Role.ADMIN or (role == Role.SCORER and line.marked_by_id == request.user.pk))
        )
    return render(
        request,
        "league/ledger_history.html",
        {
            "club": club,
            "role": role,
            "history": history,
            "page": number,
            "more": more,
            "ledger_url": reverse("club_ledger_history", args=[club.slug]) + (f"?page={number}" if number > 1 else ""),
        },
    )
