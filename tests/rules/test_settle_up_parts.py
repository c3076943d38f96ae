"""The parts of the settle-up's search, each against what its docstring says, computed here the slow way
with ``itertools`` (issue 37: a change to any of them that the search's answers do not show, a bound
or an order, fails here): the subset sums held as bits, the zero-sum groups of three and four, the size
of the smallest group holding a party, the bound, the subsets in their fixed order, the smallest group
and the greedy first partition."""

from fractions import Fraction
from itertools import combinations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from scorebook.rules import settle_up as su

# balances in cents that sum to zero, none zero, with the repeated amounts a club's have
balances = (
    st.lists(st.integers(-12, 12).filter(bool).map(lambda c: c * 25), min_size=3, max_size=9)
    .map(lambda v: [*v, -sum(v)])
    .filter(lambda v: all(v))
)


def without_pairs(values: list[int]) -> list[int]:
    """The members the search is given: ``values`` less the equal and opposite pairs, as the search's
    caller groups them first."""
    waiting: dict[int, list[int]] = {}
    for i, v in enumerate(values):
        if waiting.get(-v):
            waiting[-v].pop()
        else:
            waiting.setdefault(v, []).append(i)
    return sorted(i for kept in waiting.values() for i in kept)


def zero_sum(values: list[int], members) -> bool:
    return sum(values[i] for i in members) == 0


def mask(members) -> int:
    return sum(1 << i for i in members)


def slow_smallest_group(values: list[int], members: list[int]) -> list[int] | None:
    for size in range(2, len(members) // 2 + 1):
        if any(zero_sum(values, c) for c in combinations(members, size)):
            for at, e in enumerate(members):
                for rest in combinations(members[at + 1 :], size - 1):
                    if zero_sum(values, (e, *rest)):
                        return [e, *rest]
    return None


def slow_has_proper_zero_subset(values: list[int], members: list[int]) -> bool:
    rest = members[1:]
    return any(zero_sum(values, c) for k in range(1, len(rest) + 1) for c in combinations(rest, k))


@given(balances)
def test_the_bit_offset_is_what_the_negative_members_add_up_to(values):
    members = list(range(len(values)))
    assert su._bits(values, members) == -sum(v for v in values if v < 0)
    assert su._bits(values, members[1:]) == -sum(v for v in values[1:] if v < 0)


@settings(max_examples=200)
@given(balances)
def test_a_set_splits_in_two_zero_sum_groups_exactly_when_some_subset_of_all_but_the_first_sums_to_zero(values):
    members = list(range(len(values)))
    assert su._has_proper_zero_subset(values, members) == slow_has_proper_zero_subset(values, members)
    rest = without_pairs(values)
    if rest:
        assert su._has_proper_zero_subset(values, rest) == slow_has_proper_zero_subset(values, rest)


@settings(max_examples=200)
@given(balances)
def test_the_groups_of_three_and_four_of_each_member_are_every_one_those_of_three_first(values):
    members = list(range(len(values)))
    threes = sorted(mask(c) for c in combinations(members, 3) if zero_sum(values, c))
    fours = sorted(mask(c) for c in combinations(members, 4) if zero_sum(values, c))
    expected = {i: [m for m in [*threes, *fours] if m >> i & 1] for i in members}
    assert su._small_groups(values, members) == expected


@settings(max_examples=200)
@given(balances)
def test_a_members_size_is_its_smallest_zero_sum_group_of_three_or_four_among_those_left(values):
    members = without_pairs(values)
    small = su._small_groups(values, members)
    for left in (members, members[1:], members[::2]):
        sizes = su._sizes(left, small)
        for e in left:
            smallest = next(
                (k for k in (3, 4) if any(zero_sum(values, (e, *c)) for c in combinations(set(left) - {e}, k - 1))),
                su.SIZE_CAP,
            )
            assert sizes[e] == smallest


@settings(max_examples=200)
@given(balances, st.lists(st.sampled_from([3, 4, 5]), min_size=10, max_size=10))
def test_the_bound_is_the_sum_of_one_over_each_size_and_no_more_than_either_side(values, drawn):
    members = list(range(len(values)))
    sizes = dict(zip(members, drawn, strict=False))
    positive = sum(v > 0 for v in values)
    expected = min(positive, len(values) - positive, int(sum(Fraction(1, sizes[i]) for i in members)))
    assert su._upper_bound(values, members, sizes) == expected


def test_the_bound_can_be_the_count_of_either_side():
    four, pairs = [0, 1, 2, 3], dict.fromkeys(range(4), 2)  # sizes of two: the sizes allow two groups
    assert su._upper_bound([300, -100, -100, -100], four, pairs) == 1  # one creditor: one group at most
    assert su._upper_bound([-300, 100, 100, 100], four, pairs) == 1  # one debtor
    assert su._upper_bound([100, 100, -100, -100], four, pairs) == 2
    assert su._upper_bound([100, 100, -100, -100], four, dict.fromkeys(range(4), 3)) == 1  # four thirds
    assert su._upper_bound([1, 1, -2], [0, 1, 2], dict.fromkeys(range(3), 2)) == 1  # a balance of 1 (once scaled)
    assert su._upper_bound([-1, -1, 2], [0, 1, 2], dict.fromkeys(range(3), 2)) == 1


@settings(max_examples=200)
@given(balances, st.integers(0, 9), st.integers(2, 6))
def test_the_subsets_holding_a_member_come_every_one_in_the_order_of_combinations(values, at, size):
    members = list(range(len(values)))
    e = members[at % len(members)]
    others = [i for i in members if i != e]
    expected = [[e, *c] for c in combinations(others, size - 1) if zero_sum(values, (e, *c))]
    assert list(su._subsets(values, members, e, size)) == expected


@settings(max_examples=200)
@given(balances)
@example([-15, -5, -55, 35, -5, -50, -25, 120])  # the smallest group is of four, and there is no smaller one
def test_the_smallest_group_is_the_first_of_the_smallest_size_in_the_members_order(values):
    members = list(range(len(values)))
    assert su._smallest_group(values, members) == slow_smallest_group(values, members)
    rest = without_pairs(values)
    if rest:
        assert su._smallest_group(values, rest) == slow_smallest_group(values, rest)


@settings(max_examples=200)
@given(balances)
def test_the_first_partition_takes_the_smallest_group_again_and_again(values):
    members = list(range(len(values)))
    expected, rest = [], list(members)
    while rest:
        group = slow_smallest_group(values, rest) if slow_has_proper_zero_subset(values, rest) else None
        if group is None:
            expected.append(rest)
            break
        expected.append(sorted(group))
        rest = [i for i in rest if i not in group]
    assert su._greedy(values, members) == expected
