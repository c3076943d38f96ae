"""Settling up across evenings (issue 21, point 2): ``settlement.settle_up`` gives the fewest
transfers that clear a club's balances, exactly up to ``EXACT_LIMIT`` parties with a balance (cross-
checked here against a brute-force search over every partition of small clubs), and above it a
stated heuristic that always clears every balance in at most n - 1 transfers."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorebook.rules import settlement


def partitions(items):
    """Every partition of ``items`` into blocks (Bell(n) of them)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in partitions(rest):
        for i in range(len(smaller)):
            yield smaller[:i] + [[first, *smaller[i]]] + smaller[i + 1 :]
        yield [[first], *smaller]


def brute_force_fewest(cents: list[int]) -> int:
    """The fewest transfers, by brute force: a block of k parties summing to zero is cleared in k - 1
    transfers and no fewer, so the fewest is n minus the most zero-sum blocks of any partition."""
    values = [c for c in cents if c]
    if not values:
        return 0
    best = max(sum(1 for block in p if sum(block) == 0) for p in partitions(values))
    return len(values) - best


def balances_from(cents: list[int]) -> dict[str, Decimal]:
    return {f"P{i}": Decimal(c) / 100 for i, c in enumerate(cents)}


zero_sum = st.lists(st.integers(-3000, 3000), min_size=1, max_size=7).map(lambda v: [*v, -sum(v)])


def clears(transfers, balances) -> bool:
    cleared = settlement.balances_of(transfers, balances)
    return all(cleared.get(name, Decimal("0.00")) == amount for name, amount in balances.items()) and all(
        t.amount > 0 for t in transfers
    )


@settings(max_examples=300, deadline=None)
@given(zero_sum)
def test_it_finds_the_fewest_transfers_a_brute_force_search_finds(cents):
    balances = balances_from(cents)
    transfers = settlement.settle_up(balances)
    assert clears(transfers, balances)
    assert len(transfers) == brute_force_fewest(cents)


@settings(max_examples=200, deadline=None)
@given(zero_sum)
def test_the_heuristic_clears_everything_in_at_most_n_minus_one_and_never_beats_the_minimum(cents):
    with pytest.MonkeyPatch.context() as m:
        m.setattr(settlement, "EXACT_LIMIT", 2)  # the heuristic on clubs small enough to check by brute force
        balances = balances_from(cents)
        transfers = settlement.settle_up(balances)
    assert clears(transfers, balances)
    parties = sum(1 for c in cents if c)
    assert brute_force_fewest(cents) <= len(transfers) <= max(parties - 1, 0)


def test_the_heuristic_pays_equal_and_opposite_balances_in_one_transfer_each(monkeypatch):
    monkeypatch.setattr(settlement, "EXACT_LIMIT", 2)
    balances = balances_from([500, -500, 120, -120, 300, -200, -100])
    transfers = settlement.settle_up(balances)
    assert len(transfers) == 4 == brute_force_fewest([500, -500, 120, -120, 300, -200, -100])
    assert settlement.Transfer("P1", "P0", Decimal("5.00")) in transfers


def test_it_is_exact_up_to_the_limit_and_quick_above_it():
    import random
    import time

    rng = random.Random(21)
    cents = [rng.randint(-5000, 5000) for _ in range(settlement.EXACT_LIMIT - 1)]
    cents.append(-sum(cents))
    started = time.perf_counter()
    transfers = settlement.settle_up(balances_from(cents))
    assert time.perf_counter() - started < 2
    assert len(transfers) == settlement.min_transfer_count(balances_from(cents))
    many = [rng.randint(-5000, 5000) for _ in range(199)]
    many.append(-sum(many))
    started = time.perf_counter()
    transfers = settlement.settle_up(balances_from(many))
    assert time.perf_counter() - started < 1
    assert clears(transfers, balances_from(many)) and len(transfers) <= 199


def test_it_gives_the_same_list_for_the_same_balances():
    balances = balances_from([420, -300, -120, 75, -75])
    assert settlement.settle_up(balances) == settlement.settle_up(dict(balances))
    with pytest.raises(ValueError):
        settlement.settle_up({"A": Decimal("1.00")})
