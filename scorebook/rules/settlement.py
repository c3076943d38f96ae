"""Money settlement of a whist evening (scoring reference, section 4).

Plain Python, no Django. Everything is computed exactly: points and the
stake become :class:`fractions.Fraction`, money is handled internally in
integer cents and only turned into two-decimal :class:`decimal.Decimal`
values at the edges.

* :func:`money` turns the evening's points into net money per player:
  ``(points - mean of all players' points) * stake``, rounded to cents with
  the largest remainder method so that the amounts sum to exactly zero.
* :func:`min_transfers` settles such balances with the smallest possible
  number of payments.
* :func:`outstanding` nets the payments already made against the balances
  (after a correction the settlement is computed anew and what was paid stays
  paid); :func:`remaining_transfers` settles what is left, in whichever
  direction; :func:`balances_of` reads the balances back from a settlement.

Settling up a whole club (many more parties) is ``settle_up.fewest_transfers``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import floor

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Transfer:
    """One payment: ``payer`` gives ``amount`` (currency units, > 0) to ``payee``."""

    payer: str
    payee: str
    amount: Decimal


def _to_money(cents: int) -> Decimal:
    """Integer cents -> Decimal with exactly two decimals, e.g. -20 -> Decimal('-0.20')."""
    return (Decimal(cents) / 100).quantize(CENT)


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


def _cents(balances: dict[str, Decimal]) -> dict[str, int]:
    """Balances as integer cents; ValueError unless whole cents summing to zero."""
    cents: dict[str, int] = {}
    for name, value in balances.items():
        amount = Fraction(value) * 100
        if amount.denominator != 1:
            raise ValueError(f"balance of {name!r} is not a whole number of cents: {value}")
        cents[name] = int(amount)
    if sum(cents.values()) != 0:
        raise ValueError(f"balances do not sum to zero: {sum(balances.values())}")
    return cents


def _most_groups(values: list[int]) -> tuple[list[int], list[int]]:
    """``(total, best)`` per subset: ``total[mask]`` is the sum of ``mask`` and
    ``best[mask]`` the most disjoint zero-sum groups that fit inside ``mask``.

    Bit ``i`` of a mask stands for ``values[i]``. Ordering the members of a mask
    one by one, every prefix with sum zero closes a group, so
    ``best[mask] = max(best[mask without i] for i in mask) + (sum(mask) == 0)``.
    For a zero-sum mask this is the largest partition into zero-sum groups.
    O(n * 2**n): instant for a card table, still well under a second for 16.
    """
    size = 1 << len(values)
    total = [0] * size
    best = [0] * size
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + values[low]
        rest = mask
        most = 0
        while rest:
            bit = rest & -rest
            most = max(most, best[mask ^ bit])
            rest ^= bit
        best[mask] = most + (total[mask] == 0)
    return total, best


def _zero_sum_groups(values: list[int]) -> list[list[int]]:
    """A largest partition of ``values`` (all non-zero, summing to zero) into
    zero-sum groups, as lists of indices.

    Ties between optimal partitions are broken deterministically: the group of
    the earliest player not yet grouped is, among the groups that keep the
    partition optimal, the one with the smallest bitmask (i.e. whose last
    member comes earliest in the player order, then the one before, ...).
    """
    if sum(values) != 0:  # otherwise no partition exists and the search below never ends
        raise ValueError("balances do not sum to zero")
    if not values:
        return []
    total, best = _most_groups(values)
    groups: list[list[int]] = []
    remaining = (1 << len(values)) - 1
    while remaining:
        first = remaining & -remaining
        others = remaining ^ first
        sub = 0
        while True:  # submasks of `others` in increasing order
            group = sub | first
            if total[group] == 0 and best[remaining ^ group] == best[remaining] - 1:
                break
            sub = (sub - others) & others
        groups.append([i for i in range(len(values)) if group >> i & 1])
        remaining ^= group
    return groups


def _settle_group(names: list[str], cents: list[int]) -> list[Transfer]:
    """Settle one zero-sum group: the largest debtor repeatedly pays the largest
    creditor ``min(debt, credit)`` (ties: earlier player first). For a group that
    cannot be split into smaller zero-sum groups this takes ``len - 1`` payments."""
    left = list(cents)
    transfers: list[Transfer] = []
    while any(left):
        debtor = min(range(len(left)), key=lambda i: (left[i], i))
        creditor = min(range(len(left)), key=lambda i: (-left[i], i))
        amount = min(-left[debtor], left[creditor])
        left[debtor] += amount
        left[creditor] -= amount
        transfers.append(Transfer(names[debtor], names[creditor], _to_money(amount)))
    return transfers


def min_transfers(balances: dict[str, Decimal]) -> list[Transfer]:
    """Minimum number of transfers settling balances that sum to zero (positive = receives).
    Raises ValueError if they do not sum to zero.

    The non-zero players are split into as many zero-sum groups as possible
    (exact search), each group is settled with one payment fewer than its
    size, and the result is sorted by (payer's position, payee's position) in
    the order of `balances`. The same input always gives the same list.
    """
    cents = _cents(balances)
    position = {name: i for i, name in enumerate(balances)}
    names = [name for name, c in cents.items() if c]
    values = [cents[name] for name in names]
    transfers: list[Transfer] = []
    for group in _zero_sum_groups(values):
        transfers += _settle_group([names[i] for i in group], [values[i] for i in group])
    return sorted(transfers, key=lambda t: (position[t.payer], position[t.payee]))


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
