"""Settle up: the fewest payments that clear every open balance of the club, across its evenings,
nights and payments on account (``settlement.settle_up``: exact up to ``EXACT_LIMIT`` players with
a balance, a stated heuristic above). Each line is recorded as paid where it is shown, in full or
in part: a payment on account between the two players, which every balance then counts."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_safe

from scorebook.clubs.access import club_for_user
from scorebook.core.formatting import money_text, party_label
from scorebook.evenings.display import TransferWords
from scorebook.evenings.forms import new_request_key
from scorebook.rules import settlement

from .ledger import MARKERS, Balance, open_ledger

TEMPLATE = "league/settle_up.html"


@dataclass
class SettleLine(TransferWords):
    payer: str
    payee: str
    amount: Decimal
    currency: str
    payer_player: int | None
    payee_player: int | None
    key: str = ""  # the form's request key (a repeated tap records nothing)

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.currency)

    @property
    def recordable(self) -> bool:
        """Between two players of the club (the bête is no one to pay on account)."""
        return self.payer_player is not None and self.payee_player is not None


def settle_up_lines(balances: list[Balance]) -> list[SettleLine]:
    """The fewest transfers that clear ``balances``, currency by currency, largest amounts first."""
    lines: list[SettleLine] = []
    currencies = sorted({c for b in balances for c in b.money})
    for currency in currencies:
        parties = {str(b.key): b for b in balances if b.money.get(currency)}
        amounts = {key: b.money[currency] for key, b in parties.items()}
        for t in settlement.settle_up(amounts):
            payer, payee = parties[t.payer], parties[t.payee]
            lines.append(
                SettleLine(
                    payer.name if payer.player else party_label(payer.name),
                    payee.name if payee.player else party_label(payee.name),
                    t.amount,
                    currency,
                    payer.player,
                    payee.player,
                    new_request_key(),
                )
            )
    lines.sort(key=lambda line: (-line.amount, line.payer.casefold(), line.payee.casefold()))
    return lines


def player_lines(lines: list[SettleLine], player_id: int) -> tuple[list[SettleLine], list[SettleLine]]:
    """What a player owes (he pays) and is owed (he receives) in the club's settle-up."""
    return (
        [line for line in lines if line.payer_player == player_id],
        [line for line in lines if line.payee_player == player_id],
    )


@require_safe
@login_required
def settle_up(request, slug):
    club, role = club_for_user(request, slug)
    ledger = open_ledger(club)
    lines = settle_up_lines(ledger.balances)
    return render(
        request,
        TEMPLATE,
        {
            "club": club,
            "role": role,
            "can_mark": role in MARKERS,
            "lines": lines,
            "evening_transfers": len(ledger.transfers) + sum(len(n.tables) for n in ledger.nights),
            "exact_limit": settlement.EXACT_LIMIT,
            "parties": len(ledger.balances),
        },
    )
