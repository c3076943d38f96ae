"""One evening's own money (docs/rules/money.md: what was paid stays paid; the settlement is netted against it).

What the evening's settlement page shows and does about money, and what the club's ledger
(``scorebook.ledger``) builds every figure of many evenings on: the evening's settlement as its summary
keeps it, its payments, what remains (``still_due``: the one netting of an evening, through
``summary.open_transfers``), recording a payment against it, and cancelling any payment (the one
cancellation of the site, whatever the payment was for). A payment is marked under the evening's lock
and the seats' figures of what is still open for each player are written in the same transaction
(``summary.write_seat_figures``).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scorebook.clubs.models import Club
from scorebook.core.formatting import money_text, party_label
from scorebook.core.money import AMOUNT_LIMIT
from scorebook.rules import settlement

from . import summary
from .models import Evening, Payment, PaymentCancellation
from .services import EveningClosed, EveningGone, author
from .stored import players_of


class NotDue(Exception):
    """A payment the evening's settlement does not ask for (the page was out of date)."""


class SettledWithTheNight(Exception):
    """A club night's table: its money is settled once for the night, on the night's line
    (docs/rules/club-nights.md)."""


class OutOfBounds(Exception):
    """An amount that is not between 0.01 and ``AMOUNT_LIMIT`` (a payment typed in)."""


class ReasonNeeded(Exception):
    """A cancellation without a reason."""


def settlement_due(evening: Evening) -> list[settlement.Transfer]:
    """The evening's settlement as its summary keeps it (the engine's fewest transfers)."""
    return settlement.transfers_of((evening.summary or {}).get("transfers"))


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


def unmatched(payment: Payment, due: list[settlement.Transfer]) -> bool:
    """A payment marked against a transfer of the settlement (in full or in part) that no transfer of
    the settlement asks for any more: the evening was corrected after it. It still counts, netted in
    every balance. A free amount was never a transfer of the settlement: it is not one of these."""
    return payment.kind in (Payment.Kind.FULL, Payment.Kind.PART) and not any(
        (t.payer, t.payee) == (payment.payer, payment.payee) for t in due
    )


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


def spent(request_key: str) -> Payment | None:
    """The payment a form's key already recorded (a repeated form), if any."""
    return Payment.objects.filter(request_key=request_key).first() if request_key else None


def check_amount(amount: Decimal) -> None:
    """``OutOfBounds`` unless 0.01 <= amount <= ``AMOUNT_LIMIT`` in whole cents (what a form lets through)."""
    if not amount.is_finite() or amount != amount.quantize(Decimal("0.01")) or not 0 < amount <= AMOUNT_LIMIT:
        raise OutOfBounds()


def record_payment(
    evening: Evening,
    payer: str,
    payee: str,
    amount: Decimal,
    user: User | AnonymousUser | None,
    *,
    closed_too: bool = False,
    free: bool = False,
    note: str = "",
    request_key: str = "",
) -> tuple[Payment, bool]:
    """Record that ``payer`` paid ``payee`` ``amount`` for the evening, decided under its lock.

    Without ``free`` it must be one of the transfers still due (the "paid" button): a repeated
    request (the same payment made a moment ago and no longer due) records nothing and gives that
    payment back, ``created`` False; ``NotDue`` otherwise. With ``free`` any amount up to
    ``AMOUNT_LIMIT`` between two parties of the evening is recorded (part of a transfer, or a free
    amount with its ``note``; ``OutOfBounds`` beyond). A ``request_key`` already spent records nothing
    (a repeated form). ``EveningClosed`` on a closed evening unless ``closed_too`` (the club's ledger
    settles closed evenings too); ``SettledWithTheNight`` on a club night's table."""
    if free:
        check_amount(amount)
    with transaction.atomic():
        locked = _locked(evening, closed_too)
        if locked.managed:
            raise SettledWithTheNight()
        found = spent(request_key)
        if found is not None:
            return found, False
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
            currency=locked.currency,
            kind=_kind(due, payer, payee, amount),
            note=note,
            request_key=request_key,
            marked_by=author(user),
        )
        summary.write_seat_figures(locked)
    return payment, True


class AlreadyCancelled(Exception):
    """The payment was cancelled already (a repeated request, or another phone did it)."""


class NotYours(Exception):
    """A scorer cancels only the payments they entered; an admin any."""


def cancel_payment(
    payment_id: int, user: User | AnonymousUser | None, *, admin: bool, reason: str
) -> PaymentCancellation:
    """Cancel a payment, whatever it was for (an evening, on account, a night, the kitty): a record of
    who, when and why; the payment stays, shown as cancelled, and counts no more. A reason is needed
    (``ReasonNeeded``). Decided under the lock of its evening (or its club): ``AlreadyCancelled`` when
    it was cancelled meanwhile, ``NotYours`` for a scorer's cancel of someone else's entry,
    ``Payment.DoesNotExist`` when there is no such payment."""
    reason = (reason or "").strip()
    if not reason:
        raise ReasonNeeded()
    with transaction.atomic():
        payment = Payment.objects.get(pk=payment_id)
        locked = None
        if payment.evening is not None:
            locked = _locked(payment.evening, closed_too=True)
        elif payment.club_id is not None:
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


def sentences(records: Iterable[Payment]) -> list[str]:
    """Each payment of ``records`` as a sentence (who paid whom how much, when, and whether it was
    cancelled): what a page that refuses to delete what they were made for names."""
    out = []
    for p in records:
        words = {
            "payer": party_label(p.payer),
            "payee": party_label(p.payee),
            "amount": money_text(p.amount, p.currency),
            "day": date_format(timezone.localtime(p.marked_at), "SHORT_DATE_FORMAT"),
        }
        if p.cancelled:
            out.append(
                _("%(payer)s paid %(payee)s %(amount)s, marked on %(day)s (cancelled, kept in the history)") % words
            )
        else:
            out.append(_("%(payer)s paid %(payee)s %(amount)s, marked on %(day)s") % words)
    return out
