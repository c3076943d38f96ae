"""Payments of an evening (docs/rules/money.md: what was paid stays paid; the settlement is netted against it).

A payment is marked against the settlement the evening's summary keeps; the seats' figures of what
is still open for each player are written in the same transaction (``summary.write_seat_figures``).
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from scorebook.clubs.models import Club, Player
from scorebook.rules import settlement

from . import summary
from .models import Evening, Payment, PaymentCancellation
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
    """The evening's payments that count (not cancelled), in the order they were made, with who marked them."""
    return list(evening.payments.active().select_related("marked_by__profile"))


def payment_records(evening: Evening) -> list[Payment]:
    """Every payment of the evening, cancelled ones too (with their cancellation), the first made first."""
    return list(evening.payments.select_related("marked_by__profile", "cancellation__by__profile"))


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


def parties(evening: Evening) -> list[str]:
    """Who may pay or be paid for the evening: the names at its table, then any other party of its
    settlement (the bête when it is carried)."""
    names = [seat.name for seat in evening.seats.all()]
    for t in (evening.summary or {}).get("transfers") or ():
        for name in (t.get("from"), t.get("to")):
            if name and name not in names:
                names.append(name)
    return names


def _kind(due: list[settlement.Transfer], payer: str, payee: str, amount: Decimal) -> str:
    if settlement.Transfer(payer, payee, amount) in due:
        return Payment.Kind.FULL
    if any(t.payer == payer and t.payee == payee and t.amount > amount for t in due):
        return Payment.Kind.PART
    return Payment.Kind.FREE


def _spent(request_key: str) -> Payment | None:
    return Payment.objects.filter(request_key=request_key).first() if request_key else None


def record_payment(
    evening: Evening,
    payer: str,
    payee: str,
    amount: Decimal,
    user,
    *,
    closed_too: bool = False,
    free: bool = False,
    note: str = "",
    request_key: str = "",
) -> tuple[Payment, bool]:
    """Record that ``payer`` paid ``payee`` ``amount`` for the evening, decided under its lock.

    Without ``free`` it must be one of the transfers still due (the "paid" button): a repeated
    request (the same payment made a moment ago and no longer due) records nothing and gives that
    payment back, ``created`` False; ``NotDue`` otherwise. With ``free`` any amount between two
    parties of the evening is recorded (part of a transfer, or a free amount with its ``note``).
    A ``request_key`` already spent records nothing (a repeated form). ``EveningClosed`` on a closed
    evening unless ``closed_too`` (the club's ledger settles closed evenings too)."""
    with transaction.atomic():
        locked = _locked(evening, closed_too)
        spent = _spent(request_key)
        if spent is not None:
            return spent, False
        due = still_due(locked)
        if free:
            names = parties(locked)
            if payer == payee or payer not in names or payee not in names:
                raise NotDue()
        elif settlement.Transfer(payer, payee, amount) not in due:
            repeated = locked.payments.active().filter(payer=payer, payee=payee, amount=amount).order_by("-pk").first()
            if repeated is None:
                raise NotDue()
            return repeated, False
        seats = {seat.name: seat.player_id for seat in locked.seats.all()} if locked.club_id else {}
        payment = Payment.objects.create(
            evening=locked,
            club_id=locked.club_id,
            payer=payer,
            payee=payee,
            payer_player_id=seats.get(payer),
            payee_player_id=seats.get(payee),
            amount=amount,
            kind=_kind(due, payer, payee, amount),
            note=note,
            request_key=request_key,
            marked_by=author(user),
        )
        summary.write_seat_figures(locked)
    return payment, True


def record_on_account(club, payer, payee, amount: Decimal, user, *, note: str = "", request_key: str = ""):
    """Record a payment on account between two players of ``club`` (no evening): it counts in their
    balances across the club's evenings (the ledger's settle-up). The club locked; a spent
    ``request_key`` records nothing. ``(payment, created)``."""
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        spent = _spent(request_key)
        if spent is not None:
            return spent, False
        players = {p.pk: p for p in Player.objects.filter(club=club, pk__in=[payer.pk, payee.pk])}
        if payer.pk == payee.pk or len(players) != 2:
            raise NotDue()
        payment = Payment.objects.create(
            evening=None,
            club=club,
            payer=players[payer.pk].name[:40],
            payee=players[payee.pk].name[:40],
            payer_player=payer,
            payee_player=payee,
            amount=amount,
            kind=Payment.Kind.ACCOUNT,
            note=note,
            request_key=request_key,
            marked_by=author(user),
        )
    return payment, True


class AlreadyCancelled(Exception):
    """The payment was cancelled already (a repeated request, or another phone did it)."""


class NotYours(Exception):
    """A scorer cancels only the payments they entered; an admin any."""


def cancel_payment(payment_id: int, user, *, admin: bool, reason: str = "") -> PaymentCancellation:
    """Cancel a payment: a record of who, when and why; the payment stays, shown as cancelled, and
    counts no more. Decided under the lock of its evening (or its club, on account):
    ``AlreadyCancelled`` when it was cancelled meanwhile, ``NotYours`` for a scorer's cancel of
    someone else's entry, ``Payment.DoesNotExist`` when it is gone (its evening deleted)."""
    with transaction.atomic():
        payment = Payment.objects.get(pk=payment_id)
        locked = None
        if payment.evening_id is not None:
            locked = _locked(payment.evening, closed_too=True)
        else:
            Club.objects.select_for_update().filter(pk=payment.club_id).first()
        payment = Payment.objects.select_related("cancellation").get(pk=payment_id)
        if payment.cancelled:
            raise AlreadyCancelled()
        mine = user is not None and user.is_authenticated and payment.marked_by_id == user.pk
        if not admin and not mine:
            raise NotYours()
        cancellation = PaymentCancellation.objects.create(payment=payment, by=author(user), reason=reason)
        if locked is not None:
            summary.write_seat_figures(locked)
    return cancellation


def keep_seat_figures(evening: Evening) -> None:
    """The seats' figures put back in line with the evening's summary and payments, the evening
    locked (after payments changed elsewhere than here, e.g. in the admin)."""
    with transaction.atomic():
        summary.write_seat_figures(_locked(evening, closed_too=True))
