"""Money settlement of a whist evening (scoring reference, section 4).

Plain Python, no Django. Everything is computed exactly: points and the
stake become :class:`fractions.Fraction`, money is handled internally in
integer cents and only turned into two-decimal :class:`decimal.Decimal`
values at the edges.

* :func:`money` turns the evening's points into net money per player:
  ``(points - mean of all players' points) * stake``, rounded to cents with
  the largest remainder method so that the amounts sum to exactly zero.
* :func:`min_transfers` settles such balances with the smallest possible
  number of payments (``settle_up.fewest_transfers``, the one algorithm of
  every page: an evening's, a club night's and the club's settle-up).
* :func:`outstanding` nets the payments already made against the balances
  (after a correction the settlement is computed anew and what was paid stays
  paid); :func:`remaining_transfers` settles what is left, in whichever
  direction; :func:`balances_of` reads the balances back from a settlement.
* :func:`still_open` is an evening's settlement netted against its payments
  (what its page and the ledger show), and :func:`seat_open` what of it is
  one seat's: the figures each seat keeps (``Seat.unpaid``,
  ``Seat.open_transfers``) and the club's balances add up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from math import floor

from .settle_up import Transfer, _cents, _to_money, fewest_transfers

ZERO = Decimal("0.00")


def money(points: Mapping[str, int | Fraction], stake: Decimal) -> dict[str, Decimal]:
    """Net money per player (keys in the order of `points`), Decimals quantized
    to 0.01, summing to exactly Decimal('0.00').

    The exact amount of a player is ``(points - mean) * stake``. Every exact
    amount (in cents) is floored, then the cents still missing to reach a zero
    sum go, one each, to the players with the largest fractional remainders;
    equal remainders are served in the order of `points` (earlier first).
    """
    names = list(points)
    if not names:
        return {}
    values = [Fraction(points[name]) for name in names]
    mean = sum(values, Fraction(0)) / len(values)
    cents_per_point = Fraction(stake) * 100
    exact = [(value - mean) * cents_per_point for value in values]

    cents = [floor(amount) for amount in exact]
    missing = -sum(cents)  # the exact amounts sum to zero, so 0 <= missing < n
    by_remainder = sorted(range(len(names)), key=lambda i: (-(exact[i] - cents[i]), i))
    for i in by_remainder[:missing]:
        cents[i] += 1
    return {name: _to_money(c) for name, c in zip(names, cents, strict=True)}


def min_transfers(balances: dict[str, Decimal]) -> list[Transfer]:
    """The fewest transfers settling ``balances`` (they must sum to zero, in whole cents; positive =
    receives), sorted by (payer's position, payee's position) in the order of ``balances``: those of
    ``settle_up.fewest_transfers``, exact for a table. The same input always gives the same list."""
    return fewest_transfers(balances).transfers


def _payment_cents(t: Transfer) -> int:
    amount = Fraction(t.amount) * 100
    if amount.denominator != 1 or amount <= 0:
        raise ValueError(f"a payment is a positive whole number of cents: {t.amount}")
    return int(amount)


def balances_of(transfers: Iterable[Transfer], order: Iterable[str] = ()) -> dict[str, Decimal]:
    """The balances a list of transfers settles (positive: receives), parties in ``order``
    first, then in the order they appear. ``balances_of(min_transfers(b))`` gives ``b`` back
    (without the parties at zero)."""
    cents: dict[str, int] = dict.fromkeys(order, 0)
    for t in transfers:
        amount = _payment_cents(t)
        cents[t.payer] = cents.get(t.payer, 0) - amount
        cents[t.payee] = cents.get(t.payee, 0) + amount
    return {name: _to_money(c) for name, c in cents.items()}


def outstanding(balances: dict[str, Decimal], paid: Iterable[Transfer]) -> dict[str, Decimal]:
    """What each party still has to receive (> 0) or to pay (< 0) once the payments already
    made are counted (docs/rules/money.md: a payment stays recorded, a correction never loses it).

    A payer's debt goes down by what he paid, a payee's credit by what he received; a party
    of a payment that has no balance (no longer part of the settlement) starts from 0, so a
    payment the settlement no longer asks for is owed back. Keys: ``balances``' order, then
    the parties of the payments. Sums to zero when the balances do.
    """
    cents = _cents(balances)
    for t in paid:
        amount = _payment_cents(t)
        cents[t.payer] = cents.get(t.payer, 0) + amount
        cents[t.payee] = cents.get(t.payee, 0) - amount
    return {name: _to_money(c) for name, c in cents.items()}


def remaining_transfers(balances: dict[str, Decimal], paid: Iterable[Transfer]) -> list[Transfer]:
    """The fewest transfers that settle what is still owed after ``paid`` (see ``outstanding``):
    nothing when the payments settled everything, and never a transfer already paid."""
    return min_transfers(outstanding(balances, paid))


def still_open(due: Sequence[Transfer], order: Sequence[str], paid: Sequence[Transfer]) -> list[Transfer]:
    """The transfers still open of an evening whose settlement is ``due``, once ``paid`` is counted
    (docs/rules/money.md): ``due`` itself when nothing was paid, else the fewest transfers that settle
    what remains, ties settled in ``order`` (the seats' names)."""
    if not paid:
        return list(due)
    return remaining_transfers(balances_of(due, order=order), paid)


def seat_open(open_transfers: Iterable[Transfer], name: str) -> tuple[Decimal, int]:
    """What remains for the seat ``name`` in an evening's ``open_transfers`` (``still_open``): the
    amount (> 0: he is owed) and how many of the transfers are his."""
    amount, count = ZERO, 0
    for t in open_transfers:
        if name in (t.payer, t.payee):
            amount += t.amount if t.payee == name else -t.amount
            count += 1
    return amount, count


def transfer_rows(transfers: Iterable[Transfer]) -> list[dict[str, str]]:
    """Transfers as an evening's summary and its file keep them: ``{"from", "to", "amount"}``."""
    return [{"from": t.payer, "to": t.payee, "amount": str(t.amount)} for t in transfers]


def transfers_of(rows: Iterable[Mapping[str, str]] | None) -> list[Transfer]:
    """The transfers an evening's summary keeps (``transfer_rows``)."""
    return [Transfer(row["from"], row["to"], Decimal(row["amount"])) for row in rows or ()]


__all__ = [
    "ZERO",
    "Transfer",
    "balances_of",
    "min_transfers",
    "money",
    "outstanding",
    "remaining_transfers",
    "seat_open",
    "still_open",
    "transfer_rows",
    "transfers_of",
]
