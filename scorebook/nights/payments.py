"""Payments for a night as a whole (docs/rules/club-nights.md: a staked night settles once, across its tables)."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from scorebook.evenings import payments

from .models import Night, NightPayment


def record_night_payment(night: Night, payer, payee, amount: Decimal, user, *, note: str = "", request_key: str = ""):
    """Record that ``payer`` paid ``payee`` ``amount`` for ``night`` (two players of its club): a
    payment between them, linked to the night whose settlement nets it. ``(payment, created)``; a
    spent ``request_key`` records nothing."""
    with transaction.atomic():
        payment, created = payments.record_on_account(
            night.club, payer, payee, amount, user, note=note, request_key=request_key
        )
        if created:
            NightPayment.objects.create(night=night, payment=payment)
    return payment, created
