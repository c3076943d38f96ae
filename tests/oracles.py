"""Independent answers the tests compare the engine with, computed the slow, obvious way."""

from decimal import Decimal


def set_partitions(items: list):
    """Every partition of ``items`` into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def min_transfer_count(balances: dict[str, Decimal]) -> int:
    """The fewest payments that settle ``balances``, for more players than the brute force below
    reaches: n non-zero balances minus the most zero-sum groups, from the settlement's own exact
    search of those groups (which the brute force checks on small tables)."""
    from scorebook.rules.settle_up import _cents, _most_groups

    values = [cents for cents in _cents(balances).values() if cents]
    return len(values) - _most_groups(values)[1][-1] if values else 0


def fewest_transfers(balances: dict[str, Decimal]) -> int:
    """Brute force: n non-zero balances minus the most blocks of a partition whose blocks all sum to 0."""
    values = [v for v in balances.values() if v]
    if not values:
        return 0
    most = max(len(partition) for partition in set_partitions(values) if all(sum(block) == 0 for block in partition))
    return len(values) - most
