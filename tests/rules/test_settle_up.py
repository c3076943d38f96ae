"""Settling up a club (issue 28, point 6): ``settle_up.fewest_transfers`` clears every balance to the
cent, exactly: its search is cross-checked against a brute force over every partition of small clubs
(its exact dynamic programming switched off, so that the branch and bound itself is checked) and
against the dynamic programming over every subset up to 16 parties; it proves its answer on club
months like real ones, within its node budget, and says when it could not."""

import hashlib
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracles import min_transfer_count
from scorebook.rules import settle_up, settlement


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


# balances in cents that share zero-sum groups as a club's do: amounts of few distinct values
zero_sum = st.lists(st.integers(-60, 60).map(lambda c: c * 5), min_size=1, max_size=8).map(lambda v: [*v, -sum(v)])
wider = st.lists(st.integers(-40, 40).map(lambda c: c * 10), min_size=9, max_size=15).map(lambda v: [*v, -sum(v)])


def clears(transfers, balances) -> bool:
    cleared = settlement.balances_of(transfers, balances)
    return all(cleared.get(name, Decimal("0.00")) == amount for name, amount in balances.items()) and all(
        t.amount > 0 for t in transfers
    )


@settings(max_examples=100, deadline=None)
@given(zero_sum)
def test_its_search_finds_the_fewest_transfers_a_brute_force_search_finds(cents):
    balances = balances_from(cents)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(settle_up, "TABLE", 0)  # the branch and bound on its own, not the dynamic programming
        m.setattr(settle_up, "SMALL", 0)
        found = settle_up.fewest_transfers(balances, nodes=10**6)
    assert clears(found.transfers, balances)
    assert found.proved and len(found.transfers) == brute_force_fewest(cents)


@settings(max_examples=20, deadline=None)
@given(wider)
def test_its_search_finds_the_minimum_of_the_dynamic_programming_up_to_16(cents):
    balances = balances_from(cents)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(settle_up, "TABLE", 0)
        m.setattr(settle_up, "SMALL", 0)
        found = settle_up.fewest_transfers(balances, nodes=10**6)
    assert clears(found.transfers, balances)
    assert found.proved and len(found.transfers) == min_transfer_count(balances)


def test_it_pays_equal_and_opposite_balances_in_one_transfer_each():
    balances = balances_from([500, -500, 120, -120, 300, -200, -100])
    found = settle_up.fewest_transfers(balances)
    assert len(found.transfers) == 4 == brute_force_fewest([500, -500, 120, -120, 300, -200, -100])
    assert settlement.Transfer("P1", "P0", Decimal("5.00")) in found.transfers


def club_month(rng: random.Random, members: int) -> list[int]:
    """Balances like a club's month: tables of 4 to 6 members (money summing to zero at each table,
    in steps of the stake), a few members at several tables."""
    out = [0] * members
    seated = list(range(members))
    rng.shuffle(seated)
    while seated:
        table = [seated.pop() for _ in range(min(len(seated), rng.randint(4, 6)))]
        table += rng.sample(range(members), 1)  # someone who also played elsewhere
        table = list(dict.fromkeys(table))
        stake = rng.choice((5, 10, 15, 20, 25))
        points = [rng.randint(-40, 40) for _ in table[:-1]]
        points.append(-sum(points))
        for who, p in zip(table, points, strict=True):
            out[who] += p * stake
    return [c for c in out if c] or [100, -100]


def test_it_clears_a_club_of_sixty_to_the_cent_within_its_node_budget():
    rng = random.Random(28)
    cents = club_month(rng, 60)
    balances = balances_from(cents)
    found = settle_up.fewest_transfers(balances)
    assert clears(found.transfers, balances)
    assert len(found.transfers) <= sum(1 for c in cents if c) - 1


def test_a_search_stopped_by_its_budget_says_so_and_still_clears_everything():
    rng = random.Random(5)
    cents = club_month(rng, 40)
    balances = balances_from(cents)
    found = settle_up.fewest_transfers(balances, nodes=1)
    assert clears(found.transfers, balances)
    finished = settle_up.fewest_transfers(balances, nodes=10**5)
    assert len(finished.transfers) <= len(found.transfers)
    assert not found.proved or len(found.transfers) == len(finished.transfers)


def test_it_gives_the_same_list_for_the_same_balances():
    balances = balances_from([420, -300, -120, 75, -75])
    assert settle_up.fewest_transfers(balances) == settle_up.fewest_transfers(dict(balances))
    with pytest.raises(ValueError):
        settle_up.fewest_transfers({"A": Decimal("1.00")})


# --- what the pages show, pinned (issue 37: one search for every page, and no figure changed) ------------
#
# The transfers of club months and of clubs of 9 to 12 parties, and the nodes the search needs to prove
# them, as the settle-up gave them before the evening's search and the club's became one (the same
# figures): a change to the search that changes a page, or only how much of its budget it spends (a
# weaker bound, another order), fails here.

MONTHS = {  # (seed, members): (nodes to prove it, None: not within NODES; transfers; their digest)
    (0, 30): (144, 22, "82eb27bd04c3"),
    (3, 30): (119, 21, "15fb6e76f0f7"),
    (4, 30): (292, 22, "5802a4c08dc8"),
    (7, 30): (85, 22, "07ddb706751c"),
    (9, 20): (57, 16, "e97b71cd26e7"),
    (5, 40): (392, 26, "588bbc1d03d9"),
    (7, 40): (128, 28, "39a6740925e1"),
    (8, 40): (37, 28, "f432a3364c3b"),
    (0, 40): (None, 28, "c0ebe7e175a5"),
    (2, 30): (None, 23, "1e88b1c62ea7"),
}
PAIRED_FIRST = {  # balances in cents of 9 to 12 parties: their transfers and digest
    (100, -300, -50, 200, 150, 100, -50, 150, 50, 300, -100, -550): (8, "ab35eaa07454"),
    (300, -200, -50, -200, 150, 150, 150, 250, 100, -650): (8, "048745e00e53"),
    (-200, -200, 50, -150, -250, 250, -50, -50, 600): (6, "ae85bc52a7dd"),
}


def digest(transfers) -> str:
    return hashlib.sha256(";".join(f"{t.payer}>{t.payee}:{t.amount}" for t in transfers).encode()).hexdigest()[:12]


def nodes_to_prove(balances) -> int | None:
    """The fewest nodes with which the search proves its answer (it is deterministic: a budget that
    proves it, any larger one does too), None beyond ``NODES``."""
    low, high = 1, settle_up.NODES
    if not settle_up.fewest_transfers(balances, nodes=high).proved:
        return None
    while low < high:
        middle = (low + high) // 2
        if settle_up.fewest_transfers(balances, nodes=middle).proved:
            high = middle
        else:
            low = middle + 1
    return low


@pytest.mark.parametrize(("seed", "members"), list(MONTHS))
def test_a_club_months_settle_up_is_the_same_list_found_with_the_same_nodes(seed, members):
    nodes, count, pinned = MONTHS[seed, members]
    balances = balances_from(club_month(random.Random(seed), members))
    found = settle_up.fewest_transfers(balances)
    assert clears(found.transfers, balances)
    assert (len(found.transfers), digest(found.transfers), found.proved) == (count, pinned, nodes is not None)
    assert nodes_to_prove(balances) == nodes


@pytest.mark.parametrize("cents", list(PAIRED_FIRST))
def test_a_small_clubs_settle_up_pairs_equal_and_opposite_balances_first(cents):
    count, pinned = PAIRED_FIRST[cents]
    balances = balances_from(list(cents))
    found = settle_up.fewest_transfers(balances)
    assert clears(found.transfers, balances) and found.proved
    assert (len(found.transfers), digest(found.transfers)) == (count, pinned) and count == brute_force_fewest(
        list(cents)
    )
