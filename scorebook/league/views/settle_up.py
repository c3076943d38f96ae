"""Settle up: the fewest payments that clear every balance of the club, across its evenings, nights
and payments on account (``ledger.books.settle``), with the club's kitty when the treasurer asks
(``?kitty=1``). Each line is recorded as paid where it is shown, in full or in part (at most the
line): a payment on account between the two players, or into or out of the kitty."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Club, Player, Role
from scorebook.clubs.services import lock_club
from scorebook.core import cleaning
from scorebook.core.fields import AmountField
from scorebook.core.formatting import money_text
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.evenings import payments
from scorebook.evenings.forms import bounded_amount
from scorebook.ledger import books, services

from .ledger import MARKERS

TEMPLATE = "league/settle_up.html"


class PartForm(forms.Form):
    """Part of a settle-up line paid: at most the line's amount."""

    amount = AmountField(label=gettext_lazy("Amount paid"))
    note = forms.CharField(label=gettext_lazy("Note"), max_length=200, required=False)

    def __init__(self, *args: Any, line: Decimal, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.line = line

    def clean_amount(self) -> Decimal | None:
        return bounded_amount(self.cleaned_data.get("amount"), self.line)

    def clean_note(self) -> str:
        return cleaning.clean_text(self.cleaned_data.get("note") or "")


def line_id(line: books.SettleLine) -> str:
    """A line as the forms name it: its two parties and currency (the same line from one view to the next)."""
    return f"{line.payer_key}:{line.payee_key}:{line.currency}"


def _page(
    request: HttpRequest,
    club: Club,
    role: Role,
    with_kitty: bool,
    bound: tuple[str, PartForm] | None = None,
    status: int = 200,
) -> HttpResponse:
    all_balances = books.balances(club)
    settled = books.settle(all_balances, with_kitty=with_kitty)
    rows = []
    for n, line in enumerate(settled.lines, start=1):
        ident = line_id(line)
        form = bound[1] if bound and bound[0] == ident else PartForm(prefix=f"part{n}", line=line.amount)
        rows.append({"line": line, "ident": ident, "form": form, "n": n})
    kitty = books.kitty(club, all_balances)
    owed_to_kitty = [
        {"balance": b, "texts": [money_text(a, c, signed=True) for c, a in sorted(b.kitty.items()) if a]}
        for b in all_balances
        if not b.is_kitty and any(b.kitty.values())
    ]
    return render(
        request,
        TEMPLATE,
        {
            "club": club,
            "role": role,
            "can_mark": role in MARKERS,
            "rows": rows,
            "settled": settled,
            "with_kitty": with_kitty,
            "kitty": kitty,
            "owed_to_kitty": owed_to_kitty if not with_kitty else [],
        },
        status=status,
    )


@require_safe
@login_required
def settle_up(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club, role = club_for_user(request, slug)
    return _page(request, club, role, request.GET.get("kitty") == "1")


@require_POST
@login_required
def settle_up_paid(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """A settle-up line paid, in full (``amount`` the line's) or in part (the form of the line, at most
    the line). The line must still be one of the settle-up's (else the page says it changed)."""
    club, role = club_for_user(request, slug, *MARKERS)
    with_kitty = request.POST.get("kitty") == "1"
    back = reverse("club_settle_up", args=[club.slug]) + ("?kitty=1" if with_kitty else "") + "#settle-up"
    ident = request.POST.get("line") or ""
    key = request.POST.get("key") or ""
    if not re.fullmatch(r"[0-9A-Za-z_-]{0,64}", key):
        return HttpResponseBadRequest("key is the form's own")
    with transaction.atomic():  # the lines read as the other phones' payments left them (balances that add up)
        lock_club(club.pk)
        return _line_paid(request, club, role, with_kitty, ident, key, back)


def _line_paid(
    request: AuthenticatedHttpRequest, club: Club, role: Role, with_kitty: bool, ident: str, key: str, back: str
) -> HttpResponse:
    line = next(
        (x for x in books.settle(books.balances(club), with_kitty=with_kitty).lines if line_id(x) == ident), None
    )
    if line is None or not line.recordable:
        messages.warning(request, _("The settle-up has changed since the page was shown: check it again."))
        return redirect(back)
    prefix = request.POST.get("part") or ""
    if prefix:  # part of it: the line's own form, its errors next to its field
        form = PartForm(request.POST, prefix=prefix, line=line.amount)
        if not form.is_valid():
            return _page(request, club, role, with_kitty, (ident, form), status=422)
        amount, note = form.cleaned_data["amount"], form.cleaned_data["note"]
    else:
        amount, note = line.amount, ""
    people: dict[int | str, Player] = {
        p.pk: p
        for p in Player.objects.filter(
            club=club, pk__in=[k for k in (line.payer_key, line.payee_key) if isinstance(k, int)]
        )
    }
    try:
        if line.with_kitty:
            into = line.payee_key == books.KITTY
            player = people[line.payer_key if into else line.payee_key]
            _payment, created = services.record_kitty_payment(
                club, player, amount, line.currency, request.user, into=into, note=note, request_key=key
            )
        else:
            _payment, created = services.record_on_account(
                club,
                people[line.payer_key],
                people[line.payee_key],
                amount,
                line.currency,
                request.user,
                note=note,
                request_key=key,
            )
    except (payments.NotDue, KeyError):
        messages.warning(request, _("The settle-up has changed since the page was shown: check it again."))
        return redirect(back)
    if created:
        messages.success(
            request,
            _("Recorded: %(payer)s paid %(payee)s %(amount)s.")
            % {"payer": line.payer, "payee": line.payee, "amount": money_text(amount, line.currency)},
        )
    return redirect(back)
