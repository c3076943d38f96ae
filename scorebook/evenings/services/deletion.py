"""Deleting evenings: one without deals or payments, or a club night's tables at once."""

from __future__ import annotations

from django.db import transaction

from ..access import EveningAccess
from ..models import Deal, Evening, Payment
from .locking import read_locked
from .refusals import HasDeals, HasPayments, Managed


def delete_evenings(evenings: list[Evening]) -> None:
    """Delete evenings of a club night that have no deal, with their seats and links, in a few
    queries (``delete_evening`` one by one took seconds for a big night). In the caller's
    transaction, which locked them and checked that none has a deal."""
    Evening.objects.filter(pk__in=[e.pk for e in evenings], managed=True).only("pk").delete()


def delete_evening(at: Evening | EveningAccess, *, through_manager: bool = False) -> None:
    """Delete an evening that has no deal and no payment (its seats and marks go with it; the roster
    stays). ``HasDeals`` when a deal was recorded meanwhile, ``HasPayments`` when a payment was (even
    cancelled), ``EveningGone`` when it was deleted already, ``Managed`` for a club night's table (only
    the night removes it)."""
    with transaction.atomic():
        locked = read_locked(at, open_only=False)
        if locked.managed and not through_manager:
            raise Managed(locked)
        if Deal.objects.filter(evening=locked).exists():
            raise HasDeals()
        if Payment.objects.filter(evening=locked).exists():
            raise HasPayments()
        locked.delete()
