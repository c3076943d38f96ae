"""Payments of an evening (rules.md 4: what was paid stays paid; the settlement is netted against it).

A payment is marked against the settlement the evening's summary keeps; the seats' figures of what
is still open for each player are written in the same transaction (``summary.write_seat_figures``).
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from scorebook.rules import settlement

from . import summary
from .models import Evening, Payment
from .services import EveningClosed, EveningGone, author
from .stored import players_of


class NotDue(Exception):
    """A payment the evening's settlement does not ask for (the page was out of date)."""


def settlement_due(evening: Evening) -> list[settlement.Transfer]:
    """The evening's settlement as its summary keeps it (the engine's fewest transfers)."""
    return [
        settlement.Transfer(t["from"], t["to"], Decimal(t["amount"]))
        for t in (evening.summary or {}).get("transfers") or ()
    ]


def payments_made(evening: Evening) -> list[Payment]:
    """The evening's payments in the order they were made, with who marked them."""
    return list(evening.payments.select_related("marked_by__profile"))


def still_due(evening: Evening, payments: list[Payment] | None = None) -> list[settlement.Transfer]:
    """What remains to settle: the settlement netted against the payments made, in whichever
    direction (``settlement.remaining_transfers``); the settlement itself when nothing was paid."""
    payments = payments_made(evening) if payments is None else payments
    return summary.open_transfers((evening.summary or {}).get("transfers"), players_of(evening), payments)


def _locked(evening: Evening, closed_too: bool) -> Evening:
    locked = Evening.objects.select_for_update().prefetch_related("seats").filter(pk=evening.pk).first()
    if locked is None:
        raise EveningGone()
    if not closed_too and not locked.is_open:
        raise EveningClosed()
    return locked


def record_payment(
    evening: Evening, payer: str, payee: str, amount: Decimal, user, *, closed_too: bool = False
) -> tuple[Payment, bool]:
    """Record that ``payer`` paid ``payee`` ``amount``: it must be one of the transfers still due.
    A repeated request (the same payment made a moment ago and no longer due) records nothing
    and gives that payment back, ``created`` False. ``NotDue`` otherwise; ``EveningClosed`` on a
    closed evening unless ``closed_too`` (the club's ledger settles closed evenings too)."""
    with transaction.atomic():
        locked = _locked(evening, closed_too)
        due = still_due(locked)
        if settlement.Transfer(payer, payee, amount) not in due:
            repeated = locked.payments.filter(payer=payer, payee=payee, amount=amount).order_by("-pk").first()
            if repeated is None:
                raise NotDue()
            return repeated, False
        payment = Payment.objects.create(
            evening=locked, payer=payer, payee=payee, amount=amount, marked_by=author(user)
        )
        summary.write_seat_figures(locked)
    return payment, True


def cancel_payment(
    evening: Evening,
    payer: str,
    payee: str,
    amount: Decimal,
    *,
    closed_too: bool = False,
    payment_id: int | None = None,
) -> bool:
    """Take back the latest payment of ``payer`` to ``payee`` of ``amount`` (marked by mistake), or
    the payment ``payment_id`` of the evening when given; False when there is none (a repeated
    request). ``EveningClosed`` on a closed evening unless ``closed_too``: payments of a closed
    evening are settled (and undone) like those of an open one, its deals alone are frozen."""
    with transaction.atomic():
        locked = _locked(evening, closed_too)
        payments = locked.payments.all()
        if payment_id is not None:
            payments = payments.filter(pk=payment_id)
        else:
            payments = payments.filter(payer=payer, payee=payee, amount=amount)
        payment = payments.order_by("-pk").first()
        if payment is None:
            return False
        payment.delete()
        summary.write_seat_figures(locked)
    return True


def keep_seat_figures(evening: Evening) -> None:
    """The seats' figures put back in line with the evening's summary and payments, the evening
    locked (after payments changed elsewhere than here, e.g. in the admin)."""
    with transaction.atomic():
        summary.write_seat_figures(_locked(evening, closed_too=True))
