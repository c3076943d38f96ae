"""What players won (docs/rules/money.md): an evening's money added to a purse by currency (the season's
money column, a player's figures), a player's winnings per variant (his page), and the prizes a
season's final standings give (the kitty owes them once awarded). Points of different grids are never
added up, and neither are different currencies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, Protocol

from django.db.models import Q, QuerySet, Sum

from scorebook.evenings.models import Seat

from .parties import Key

# one of his evenings: deals were played and he took part (docs/rules/money.md)
COUNTED = Q(place__isnull=False)


def money_of(entry: Mapping[str, Any]) -> Decimal | None:
    """A player's money in an evening's (or a night's) summary: None without a stake."""
    value = entry.get("money")
    return Decimal(str(value)) if value not in (None, "") else None


def add_money(purse: dict[str, Decimal], currency: str, amount: Decimal | None) -> None:
    """Add ``amount`` (None: no stake, nothing) to ``purse``, by currency."""
    if amount is not None:
        purse[currency] = purse.get(currency, Decimal("0.00")) + amount


def variant_winnings(seats: QuerySet[Seat]) -> dict[str, dict[str, Decimal]]:
    """A player's money over his evenings that count among ``seats`` (his), by variant and currency,
    added up by the database from each seat's money (one query). A club night's is its summary's:
    ``add_money(purse, currency, money_of(entry))``."""
    out: dict[str, dict[str, Decimal]] = {}
    for ruleset, currency, purse in (
        seats.filter(COUNTED)
        .values("evening__ruleset", "evening__currency")
        .annotate(purse=Sum("money"))
        .values_list("evening__ruleset", "evening__currency", "purse")
        .order_by()
    ):
        add_money(out.setdefault(ruleset, {}), currency, purse)
    return out


class Ranked(Protocol):
    """A row of a season's final standings: the player and his rank (None: listed apart)."""

    @property
    def key(self) -> Key: ...

    @property
    def rank(self) -> int | None: ...


def prize_shares(ranked: Sequence[Ranked], prizes: Sequence[Decimal]) -> list[tuple[Key, int, Decimal]]:
    """The prizes of the final standings: (player, place, amount) for each ranked player a prize
    reaches, 1st first. Players who share a place share the prizes of the places they fill, equally
    to the cent (the first of them in the table gets a cent left over first): two tied 1st with
    prizes 20 and 10 get 15 each."""
    out: list[tuple[Key, int, Decimal]] = []
    at = 0
    while at < len(ranked) and at < len(prizes):
        rank = ranked[at].rank
        group = [r for r in ranked[at:] if r.rank == rank]
        pot = sum(prizes[at : at + len(group)], Decimal(0))
        cents = int(pot * 100)
        each, left = divmod(cents, len(group))
        for i, row in enumerate(group):
            amount = Decimal(each + (1 if i < left else 0)) / 100
            if amount > 0:
                out.append((row.key, at + 1, amount.quantize(Decimal("0.01"))))
        at += len(group)
    return out
