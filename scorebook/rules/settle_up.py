"""The fewest transfers that clear balances: the one algorithm of every page that says who pays whom
(an evening's settlement, a club night's, the club's settle-up; scoring reference, section 4).

Plain Python, no Django. For n parties with a balance the fewest transfers is n minus the most
groups a partition of them into groups that each sum to zero can have (a group of k is cleared in
k - 1 transfers, never fewer). Up to ``TABLE`` parties (a card table has at most seven players and
the bête) the partition is found by dynamic programming over every subset (``_zero_sum_groups``,
O(n * 2**n)), exact and with its ties broken in the parties' order. That is not for a club: 25 to
60 members with a balance, whose balances in cents share many zero-sum groups (everyone at a table
that met only once sums to zero; coincidences do the rest), so beyond a table equal and opposite
balances pair off first, the rest goes to the same dynamic programming when they are ``SMALL`` or
fewer, and else the partition is searched by branch and bound:

* a group of a maximal partition is *minimal*: it holds no smaller group summing to zero (else
  splitting it would give one group more). A pair ``x, -x`` is always a group of some maximal
  partition, so equal and opposite balances are paired first;
* a node is the set ``R`` of parties not grouped yet. Its upper bound: each party ``e`` lies in a
  group at least as large as ``size(e)``, the smallest zero-sum subset of ``R`` holding it, so a
  partition of ``R`` has at most ``sum(1 / size(e))`` groups (each group adds up to 1 or more), and
  at most as many as it has parties on either side. ``size`` is found exactly up to 4 parties by
  hashing sums of pairs, and taken as 5 beyond (a lower bound keeps the upper bound sound);
* it branches on the party with the smallest ``size`` (the largest balance on a tie): each zero-sum
  subset of ``R`` holding it, smallest first (found with subset sums held as bits of Python
  integers), each followed by the rest; the sizes stop where the bound says no larger group can
  beat the best partition found;
* the first partition is greedy (the smallest zero-sum group, again and again), and a set with no
  zero-sum proper subset (one subset-sum pass) is one group.

The search stops after ``NODES`` nodes: the same balances always give the same transfers, whatever
the machine's load. ``Fewest.proved`` says whether the search finished (then no settlement takes
fewer transfers); the page claims "the fewest" only then. ``bench/settle_up.py`` compares it with an
independent solver on generated club months.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import reduce
from math import gcd

# About 0.5 s for a club of 30 members on a small server; a search of that many nodes either
# finished (proved) or returns the best partition found.
NODES = 400
# Up to this many parties (a table's: seven players and the bête), the exact dynamic programming over
# every subset decides (and proves) at once, ties broken in the parties' order.
TABLE = 8
# Up to this many parties left once the pairs are grouped, the same dynamic programming decides.
SMALL = 12
SIZE_CAP = 5  # size(e) found exactly up to 4; 5 stands for "5 or more"


CENT = Decimal("0.01")


@dataclass(frozen=True)
class Transfer:
    """One payment: ``payer`` gives ``amount`` (currency units, > 0) to ``payee``."""

    payer: str
    payee: str
    amount: Decimal


@dataclass(frozen=True)
class Fewest:
    """The transfers that clear the balances, and whether no settlement takes fewer (``proved``)."""

    transfers: list[Transfer]
    proved: bool


class _Budget(Exception):
    pass


def _to_money(cents: int) -> Decimal:
    """Integer cents -> Decimal with exactly two decimals, e.g. -20 -> Decimal('-0.20')."""
    return (Decimal(cents) / 100).quantize(CENT)


def _cents(balances: Mapping[str, Decimal]) -> dict[str, int]:
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


def _bits(values: list[int], members: list[int]) -> int:
    """The offset that makes every subset sum of ``members`` a non-negative bit index."""
    return sum(-values[i] for i in members if values[i] < 0)


def _has_proper_zero_subset(values: list[int], members: list[int]) -> bool:
    """Whether ``members`` (summing to zero) split into two zero-sum groups: a nonempty subset of
    all but the first sums to zero (its complement then does too). One subset-sum pass."""
    rest = members[1:]
    offset = _bits(values, rest)
    reach = 0  # bit offset + s: a nonempty subset of the members seen sums to s
    for i in rest:
        v = values[i]
        shifted = reach << v if v > 0 else reach >> -v
        reach |= shifted | (1 << (offset + v))
    return bool(reach >> offset & 1)


def _small_groups(values: list[int], members: list[int]) -> dict[int, list[int]]:
    """For each member, the zero-sum subsets of 3 and of 4 members holding it (as bit masks, those of 3
    first), found once for a search by hashing the sums of pairs; a node keeps those it still holds."""
    pairs: dict[int, list[tuple[int, int]]] = {}
    for a_at, a in enumerate(members):
        for b in members[a_at + 1 :]:
            pairs.setdefault(values[a] + values[b], []).append((a, b))
    threes: set[int] = set()
    fours: set[int] = set()
    for total, these in pairs.items():
        for c in members:
            if values[c] == -total:
                threes.update(1 << a | 1 << b | 1 << c for a, b in these if c not in (a, b))
        if total <= 0:
            for a, b in these:
                for c, d in pairs.get(-total, ()):
                    if len({a, b, c, d}) == 4:
                        fours.add(1 << a | 1 << b | 1 << c | 1 << d)
    found: dict[int, list[int]] = {i: [] for i in members}
    for masks in (sorted(threes), sorted(fours)):
        for mask in masks:
            for i in members:
                if mask >> i & 1:
                    found[i].append(mask)
    return found


def _sizes(members: list[int], small: dict[int, list[int]]) -> dict[int, int]:
    """size(e) for each member: 3 or 4 when e is in a zero-sum subset of that many members, else
    SIZE_CAP (never 2: the search starts once every pair of equal and opposite balances is grouped, so
    no two members sum to zero). ``small``: the zero-sum subsets of 3 and 4 of a set holding
    ``members`` (``_small_groups``)."""
    held = 0
    for i in members:
        held |= 1 << i
    sizes: dict[int, int] = {}
    for e in members:
        sizes[e] = SIZE_CAP
        for mask in small[e]:
            if mask & held == mask:
                sizes[e] = mask.bit_count()
                break
    return sizes


def _upper_bound(values: list[int], members: list[int], sizes: dict[int, int]) -> int:
    """The most groups a partition of ``members`` can have: sum(1 / size(e)), and no more than the
    parties on either side (sixtieths: every size divides 60)."""
    positive = sum(values[i] > 0 for i in members)
    return min(positive, len(members) - positive, sum(60 // sizes[i] for i in members) // 60)


def _subsets(values: list[int], members: list[int], e: int, size: int) -> Iterator[list[int]]:
    """Every subset of ``members`` of ``size`` holding ``e`` that sums to zero, in a fixed order."""
    others = [i for i in members if i != e]
    k_max = size - 1
    offset = _bits(values, others)
    # tails[j][k]: the sums (bits, offset) of k members among others[j:]
    tails: list[list[int]] = [[0] * (k_max + 1) for _ in range(len(others) + 1)]
    tails[len(others)][0] = 1 << offset
    for j in range(len(others) - 1, -1, -1):
        v = values[others[j]]
        row, below = tails[j], tails[j + 1]
        row[0] = below[0]
        for k in range(1, k_max + 1):
            take = below[k - 1]
            row[k] = below[k] | (take << v if v > 0 else take >> -v)
    stack: list[tuple[int, int, int, list[int]]] = [(0, k_max, offset - values[e], [e])]
    while stack:
        j, k, target, chosen = stack.pop()
        if k == 0:
            if target == offset:
                yield chosen
            continue
        if j >= len(others) or target < 0 or not tails[j][k] >> target & 1:
            continue
        stack.append((j + 1, k, target, chosen))  # without others[j] (taken after the branch with it)
        stack.append((j + 1, k - 1, target - values[others[j]], [*chosen, others[j]]))


def _smallest_group(values: list[int], members: list[int]) -> list[int] | None:
    """A smallest zero-sum proper subset of ``members`` (the one the fixed order finds first), if any:
    its size from the subset sums of each size (bits), then the first such subset by its first member."""
    half = len(members) // 2  # a zero-sum proper subset or its complement has at most half of them
    offset = _bits(values, members)
    layers = [1 << offset] + [0] * half
    for i in members:
        v = values[i]
        for k in range(half, 0, -1):
            take = layers[k - 1]
            layers[k] |= take << v if v > 0 else take >> -v
    size = next((k for k in range(2, half + 1) if layers[k] >> offset & 1), None)
    if size is None:
        return None
    for at, e in enumerate(members):
        found = next(_subsets(values, [e, *members[at + 1 :]], e, size), None)
        if found is not None:
            return found
    return None


def _greedy(values: list[int], members: list[int]) -> list[list[int]]:
    groups: list[list[int]] = []
    rest = list(members)
    while rest:
        group = _smallest_group(values, rest) if _has_proper_zero_subset(values, rest) else None
        if group is None:
            groups.append(rest)
            break
        groups.append(sorted(group))
        taken = set(group)
        rest = [i for i in rest if i not in taken]
    return groups


class _Search:
    def __init__(self, values: list[int], nodes: int):
        self.values = values
        self.left = nodes
        self.best: list[list[int]] = []
        self.small: dict[int, list[int]] = {}
        self.seen: dict[frozenset[int], int] = {}  # a set of parties left -> the most groups made before it

    def run(self, members: list[int]) -> None:
        self.best = _greedy(self.values, members)
        self.small = _small_groups(self.values, members)
        self.node(members, [])

    def node(self, members: list[int], groups: list[list[int]]) -> None:
        if not members:
            if len(groups) > len(self.best):
                self.best = list(groups)
            return
        key = frozenset(members)
        if self.seen.get(key, -1) >= len(groups):
            return
        self.seen[key] = len(groups)
        self.left -= 1
        if self.left < 0:
            raise _Budget
        values, have = self.values, len(groups)
        if not _has_proper_zero_subset(values, members):
            if have + 1 > len(self.best):
                self.best = [*groups, members]
            return
        sizes = _sizes(members, self.small)
        if have + _upper_bound(values, members, sizes) <= len(self.best):
            return
        e = min(members, key=lambda i: (sizes[i], -abs(values[i]), i))
        rest_bound = sum(60 // sizes[i] for i in members if i != e)  # sixtieths
        widest = max(sizes.values())
        for size in range(sizes[e], len(members) - 1):
            # the others of a group of ``size`` take at least (size - 1) / widest off the rest's bound
            if have + 1 + (rest_bound - (size - 1) * (60 // widest)) // 60 <= len(self.best):
                break
            for group in _subsets(values, members, e, size):
                taken = set(group)
                self.node([i for i in members if i not in taken], [*groups, sorted(group)])
        if have + 1 > len(self.best):  # e's group is all of them
            self.best = [*groups, members]


def _partition(values: list[int], nodes: int) -> tuple[list[list[int]], bool]:
    """A partition of the indices of ``values`` (non-zero, summing to zero) into as many zero-sum
    groups as the search finds, and whether it proved there are no more."""
    if len(values) <= TABLE:  # a table: the exact search over every subset, ties in the parties' order
        return _zero_sum_groups(values), True
    groups: list[list[int]] = []
    waiting: dict[int, list[int]] = {}
    rest = []
    for i, v in enumerate(values):  # pairs first, each debtor with the earliest creditor of his amount
        if waiting.get(-v):
            groups.append(sorted([waiting[-v].pop(0), i]))
        else:
            waiting.setdefault(v, []).append(i)
    paired = {i for g in groups for i in g}
    rest = [i for i in range(len(values)) if i not in paired]
    if not rest:
        return groups, True
    if len(rest) <= SMALL:
        small = _zero_sum_groups([values[i] for i in rest])
        return groups + [[rest[j] for j in g] for g in small], True
    divisor = reduce(gcd, (values[i] for i in rest))
    scaled = [v // divisor for v in values]
    search = _Search(scaled, nodes)
    try:
        search.run(rest)
        proved = True
    except _Budget:
        proved = False
    return groups + search.best, proved


def fewest_transfers(balances: dict[str, Decimal], nodes: int = NODES) -> Fewest:
    """The transfers that clear ``balances`` (positive: is owed; they must sum to zero, in whole cents),
    the fewest the search finds within ``nodes`` nodes, each group of the partition cleared by its
    largest debtor paying its largest creditor; sorted by (payer, payee) in the order of ``balances``.
    The same balances always give the same list."""
    cents = _cents(balances)
    position = {name: i for i, name in enumerate(balances)}
    names = [name for name, c in cents.items() if c]
    values = [cents[name] for name in names]
    groups, proved = _partition(values, nodes)
    transfers: list[Transfer] = []
    for group in groups:
        transfers += _settle_group([names[i] for i in group], [values[i] for i in group])
    return Fewest(sorted(transfers, key=lambda t: (position[t.payer], position[t.payee])), proved)


__all__ = ["NODES", "Fewest", "Transfer", "fewest_transfers"]
