"""What every figure of the ledger shares: its parties (a player, the club's kitty, the bête), whole
cents summed by the database, and the words that name a party (``choices`` has the rest of the
pages' words)."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import BigIntegerField, F, Q, Sum
from django.db.models.functions import Cast, Round
from django.utils.translation import gettext as _

from scorebook.core.formatting import party_label
from scorebook.evenings.models import Payment

KITTY = Payment.KITTY
# a payment into or out of the kitty: the kitty is the party without a player
KITTY_PAYMENT = Q(payer=KITTY, payer_player__isnull=True) | Q(payee=KITTY, payee_player__isnull=True)
ZERO = Decimal("0.00")
Key = int | str  # a Player's id, or the name of a party without one (the bête, the kitty)


def cents_sum(path: str) -> Sum:
    """Whole cents of a decimal column, summed by the database (exact, beyond 32 bits)."""
    return Sum(Cast(Round(F(path) * 100), BigIntegerField()))


def from_cents(cents: int) -> Decimal:
    """Whole cents as an amount with two decimals."""
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def kitty_label() -> str:
    return _("the club's kitty")


def label(key: Key, names: dict[int, str]) -> str:
    """A party as people read it: a player's name in the roster now, the kitty, the bête."""
    if isinstance(key, int):
        return names.get(key, "?")
    return kitty_label() if key == KITTY else party_label(key)
