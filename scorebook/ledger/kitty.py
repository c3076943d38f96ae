"""The club's kitty (docs/rules/money.md): what players owe it (its balance as a party), what it holds
(paid in, less paid out, less its expenses), what it spent, and what it is worth once everyone has paid."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from scorebook.clubs.models import Club
from scorebook.core.formatting import money_text, tone
from scorebook.evenings.models import Payment

from .balances import Balance, balances
from .models import Expense
from .parties import KITTY, ZERO, cents_sum, from_cents


@dataclass
class Kitty:
    """The club's kitty, by currency: what players owe it (its balance as a party), what it holds
    (paid in, less paid out, less its expenses), and what it is worth once everyone has paid."""

    evening_fee: Decimal | None
    night_fee: Decimal | None
    owed: dict[str, Decimal] = field(default_factory=dict)
    held: dict[str, Decimal] = field(default_factory=dict)
    expenses: dict[str, Decimal] = field(default_factory=dict)

    @property
    def used(self) -> bool:
        return bool(self.evening_fee or self.night_fee or self.owed or self.held or self.expenses)

    @property
    def currencies(self) -> list[str]:
        return sorted({*self.owed, *self.held, *self.expenses})

    def rows(self) -> list[dict]:
        out = []
        for currency in self.currencies:
            owed, held = self.owed.get(currency, ZERO), self.held.get(currency, ZERO)
            out.append(
                {
                    "currency": currency,
                    "owed": money_text(owed, currency, signed=True),
                    "owed_tone": tone(owed),
                    "held": money_text(held, currency),
                    "held_tone": tone(held),
                    "spent": money_text(self.expenses.get(currency, ZERO), currency),
                    "worth": money_text(owed + held, currency),
                }
            )
        return out


def kitty(club: Club, all_balances: list[Balance] | None = None) -> Kitty:
    """The kitty's figures (``all_balances``: the club's, when the page has them already)."""
    all_balances = balances(club) if all_balances is None else all_balances
    mine = next((b for b in all_balances if b.is_kitty), None)
    held: dict[str, int] = defaultdict(int)
    for side, sign in (("payee", 1), ("payer", -1)):
        for currency, c in (
            Payment.objects.active()
            .filter(club=club, evening__isnull=True, **{side: KITTY, f"{side}_player__isnull": True})
            .values("currency")
            .annotate(c=cents_sum("amount"))
            .values_list("currency", "c")
            .order_by()
        ):
            held[currency] += sign * c
    spent = dict(
        Expense.objects.active()
        .filter(club=club)
        .values("currency")
        .annotate(c=cents_sum("amount"))
        .values_list("currency", "c")
        .order_by()
    )
    for currency, c in spent.items():
        held[currency] -= c
    return Kitty(
        club.kitty_evening_fee,
        club.kitty_night_fee,
        dict(mine.money) if mine else {},
        {c: from_cents(v) for c, v in held.items() if v},
        {c: from_cents(v) for c, v in spent.items() if v},
    )
