"""Settling up the club (docs/rules/money.md): the fewest transfers that clear every balance
(``rules.settle_up``, the one algorithm of every page), currency by currency, the kitty included when
the treasurer asks."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from scorebook.core.collation import sort_key
from scorebook.core.formatting import money_text
from scorebook.evenings.display import TransferWords
from scorebook.rules import settle_up

from .balances import Balance
from .parties import KITTY, ZERO, Key


@dataclass
class SettleLine(TransferWords):
    payer: str
    payee: str
    amount: Decimal
    currency: str
    payer_key: Key
    payee_key: Key
    key: str = ""  # the form's request key (a repeated tap records nothing)

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.currency)

    @property
    def payer_player(self) -> int | None:
        return self.payer_key if isinstance(self.payer_key, int) else None

    @property
    def payee_player(self) -> int | None:
        return self.payee_key if isinstance(self.payee_key, int) else None

    @property
    def with_kitty(self) -> bool:
        return KITTY in (self.payer_key, self.payee_key)

    @property
    def recordable(self) -> bool:
        """Between two players, or a player and the kitty (the bête is no one to pay)."""
        return all(isinstance(k, int) or k == KITTY for k in (self.payer_key, self.payee_key))


@dataclass
class SettleUp:
    lines: list[SettleLine]
    proved: bool  # no settlement takes fewer transfers
    parties: int  # with a balance to clear
    with_kitty: bool


def settle(all_balances: list[Balance], *, with_kitty: bool) -> SettleUp:
    """The fewest transfers that clear ``all_balances`` (every party's), currency by currency, largest
    amounts first. Without ``with_kitty`` the players settle among themselves what is not the kitty's."""
    from scorebook.evenings.forms import new_request_key

    lines: list[SettleLine] = []
    proved, parties = True, 0
    currencies = sorted({c for b in all_balances for c in (*b.money, *b.kitty)})
    for currency in currencies:
        amounts: dict[str, Decimal] = {}
        by_key: dict[str, Balance] = {}
        for b in all_balances:
            if b.is_kitty and not with_kitty:
                continue
            amount = (b.money if with_kitty else b.without_kitty()).get(currency, ZERO)
            if amount:
                amounts[str(b.key)] = amount
                by_key[str(b.key)] = b
        parties += len(amounts)
        found = settle_up.fewest_transfers(amounts)
        proved = proved and found.proved
        for t in found.transfers:
            payer, payee = by_key[t.payer], by_key[t.payee]
            lines.append(
                SettleLine(payer.name, payee.name, t.amount, currency, payer.key, payee.key, new_request_key())
            )
    lines.sort(key=lambda line: (-line.amount, sort_key(line.payer), sort_key(line.payee)))
    return SettleUp(lines, proved, parties, with_kitty)
