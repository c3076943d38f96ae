"""Money settlement of a whist evening (scoring reference, section 4)."""

from decimal import Decimal
from fractions import Fraction
from math import floor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracles import fewest_transfers, min_transfer_count
from scorebook.rules.settlement import (
    Transfer,
    balances_of,
    min_transfers,
    money,
    outstanding,
    remaining_transfers,
    seat_open,
    still_open,
    transfer_rows,
    transfers_of,
)

D = Decimal


def exact_cents(points: dict[str, int | Fraction], stake: Decimal) -> dict[str, Fraction]:
    """The unrounded amount of each player in cents, computed independently."""
    mean = Fraction(sum(Fraction(p) for p in points.values())) / len(points)
    return {name: (Fraction(p) - mean) * Fraction(stake) * 100 for name, p in points.items()}


def cents(amount: Decimal) -> Fraction:
    return Fraction(amount) * 100


# --- money -------------------------------------------------------------------


def test_it_pays_points_times_stake_when_points_sum_to_zero() -> None:
    assert money({"A": 12, "B": -4, "C": -8}, D("0.05")) == {
        "A": D("0.60"),
        "B": D("-0.20"),
        "C": D("-0.40"),
    }


def test_it_pays_against_the_mean_when_points_do_not_sum_to_zero() -> None:
    # Liège style: points 10, 3, 0, mean 13/3. Exact cents 28.33.., -6.66.., -21.66..
    # Rounding each alone gives 0.28 - 0.07 - 0.22 = -0.01; the missing cent goes
    # to the first of the three equal remainders (1/3 each).
    result = money({"A": 10, "B": 3, "C": 0}, D("0.05"))
    assert result == {"A": D("0.29"), "B": D("-0.07"), "C": D("-0.22")}
    assert sum(result.values()) == D("0.00")


def test_it_rounds_with_largest_remainders_where_independent_rounding_does_not_sum_to_zero() -> None:
    # Mean 3/4: exact cents 0.25, 0.25, 0.25, -0.75. Independent rounding would give
    # 0.00, 0.00, 0.00, -0.01 (sum -0.01). Floors 0, 0, 0, -1, all remainders 1/4,
    # so the one missing cent goes to the earliest player.
    assert money({"A": 1, "B": 1, "C": 1, "D": 0}, D("0.01")) == {
        "A": D("0.01"),
        "B": D("0.00"),
        "C": D("0.00"),
        "D": D("-0.01"),
    }


def test_it_gives_the_missing_cents_to_the_largest_remainders_before_earlier_players() -> None:
    # Points 0, 3, 3 (mean 2), stake 0.005: exact cents -1, 0.5, 0.5. Floors -1, 0, 0
    # (one cent missing); remainders 0, 1/2, 1/2 -> B, although A comes first.
    assert money({"A": 0, "B": 3, "C": 3}, D("0.005")) == {"A": D("-0.01"), "B": D("0.01"), "C": D("0.00")}
    # Points 0, 0, 1, 2, 7 (mean 2), stake 0.0025: exact cents -0.5, -0.5, -0.25, 0, 1.25.
    # Floors -1, -1, -1, 0, 1 (two cents missing); remainders 1/2, 1/2, 3/4, 0, 1/4
    # -> C (largest), then A (ties with B, comes first).
    assert money({"A": 0, "B": 0, "C": 1, "D": 2, "E": 7}, D("0.0025")) == {
        "A": D("0.00"),
        "B": D("-0.01"),
        "C": D("0.00"),
        "D": D("0.00"),
        "E": D("0.01"),
    }


def test_it_handles_fractional_points_and_an_empty_evening() -> None:
    assert money({"A": Fraction(1, 2), "B": Fraction(-1, 2)}, D("1.00")) == {"A": D("0.50"), "B": D("-0.50")}
    assert money({}, D("0.05")) == {}


points_strategy = st.dictionaries(
    keys=st.text(alphabet="ABCDEFGHIJ", min_size=1, max_size=2),
    values=st.one_of(
        st.integers(min_value=-300, max_value=300),
        st.fractions(min_value=-300, max_value=300, max_denominator=12),
    ),
    min_size=1,
    max_size=8,
)
stake_strategy = st.decimals(min_value=D("0"), max_value=D("5"), places=4, allow_nan=False, allow_infinity=False)


@given(points_strategy, stake_strategy)
def test_it_always_sums_money_to_exactly_zero(points: dict[str, int | Fraction], stake: Decimal) -> None:
    result = money(points, stake)
    assert list(result) == list(points)
    assert sum(result.values(), D("0.00")) == D("0.00")
    assert all(amount.as_tuple().exponent == -2 for amount in result.values())


@given(points_strategy, stake_strategy)
def test_it_stays_within_a_cent_of_the_exact_amount_and_rounds_up_only_the_largest_remainders(
    points: dict[str, int | Fraction], stake: Decimal
) -> None:
    result = money(points, stake)
    exact = exact_cents(points, stake)
    rounded_up = []
    rounded_down = []
    for name, amount in result.items():
        assert abs(cents(amount) - exact[name]) < 1
        assert cents(amount) in (floor(exact[name]), floor(exact[name]) + 1)
        remainder = exact[name] - floor(exact[name])
        (rounded_up if cents(amount) > floor(exact[name]) else rounded_down).append(remainder)
    assert not rounded_up or not rounded_down or min(rounded_up) >= max(rounded_down)


@given(points_strategy, stake_strategy)
def test_it_gives_the_same_money_for_the_same_input(points: dict[str, int | Fraction], stake: Decimal) -> None:
    assert money(points, stake) == money(dict(points), Decimal(str(stake)))


# --- transfers ---------------------------------------------------------------


def settle(balances: dict[str, Decimal], transfers: list[Transfer]) -> dict[str, Decimal]:
    left = dict(balances)
    for transfer in transfers:
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    return left


@st.composite
def balances_strategy(draw: st.DrawFn, max_players: int = 7) -> dict[str, Decimal]:
    """Balances in whole cents that sum to zero; small values make zero-sum groups common."""
    n = draw(st.integers(min_value=1, max_value=max_players))
    value = st.one_of(st.integers(-6, 6), st.integers(-3000, 3000))
    amounts = draw(st.lists(value, min_size=n - 1, max_size=n - 1))
    amounts.append(-sum(amounts))
    return {f"P{i}": (D(c) / 100).quantize(D("0.01")) for i, c in enumerate(amounts)}


@settings(max_examples=300)
@given(balances_strategy())
def test_it_settles_every_balance_with_the_brute_force_minimum_of_transfers(balances: dict[str, Decimal]) -> None:
    transfers = min_transfers(balances)
    assert all(amount == 0 for amount in settle(balances, transfers).values())
    assert all(t.amount > 0 and t.amount.as_tuple().exponent == -2 for t in transfers)
    assert all(t.payer != t.payee for t in transfers)
    assert len(transfers) == min_transfer_count(balances) == fewest_transfers(balances)


@given(balances_strategy())
def test_it_lists_the_same_transfers_in_player_order_for_the_same_input(balances: dict[str, Decimal]) -> None:
    transfers = min_transfers(balances)
    assert transfers == min_transfers(dict(balances))
    position = {name: i for i, name in enumerate(balances)}
    keys = [(position[t.payer], position[t.payee]) for t in transfers]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)


def test_it_beats_greedy_largest_debtor_to_largest_creditor() -> None:
    # Greedy over everyone: E pays A 4 (A +1 left), D pays B 3 (B +1 left),
    # then C pays A 1 and B 1: four payments. Optimum: {B, E} and {A, C, D}: three.
    balances = {"A": D("5.00"), "B": D("4.00"), "C": D("-2.00"), "D": D("-3.00"), "E": D("-4.00")}
    assert min_transfer_count(balances) == 3
    assert min_transfers(balances) == [
        Transfer("C", "A", D("2.00")),
        Transfer("D", "A", D("3.00")),
        Transfer("E", "B", D("4.00")),
    ]


def test_it_lists_transfers_in_a_fixed_order() -> None:
    balances = {
        "A": D("5.00"),
        "B": D("-3.00"),
        "C": D("0.00"),
        "D": D("4.00"),
        "E": D("-2.00"),
        "F": D("-4.00"),
    }
    assert min_transfers(balances) == [
        Transfer("B", "A", D("3.00")),
        Transfer("E", "A", D("2.00")),
        Transfer("F", "D", D("4.00")),
    ]


def test_it_breaks_ties_between_optimal_partitions_by_player_order() -> None:
    # {A, C} + {B, D} and {A, D} + {B, C} are both optimal; the earliest player
    # is grouped with the earliest possible partner.
    balances = {"A": D("1.00"), "B": D("1.00"), "C": D("-1.00"), "D": D("-1.00")}
    assert min_transfers(balances) == [Transfer("C", "A", D("1.00")), Transfer("D", "B", D("1.00"))]


def test_it_settles_a_group_largest_debtor_to_largest_creditor_earlier_player_first() -> None:
    # Creditors tie: C (-4) pays A (the earlier of A, B) 3, then D (-2) pays B 2, C pays B 1.
    assert min_transfers({"A": D("3.00"), "B": D("3.00"), "C": D("-4.00"), "D": D("-2.00")}) == [
        Transfer("C", "A", D("3.00")),
        Transfer("C", "B", D("1.00")),
        Transfer("D", "B", D("2.00")),
    ]
    # Debtors tie: C (the earlier of C, D) pays A 3, then D pays B 2 and A 1.
    assert min_transfers({"A": D("4.00"), "B": D("2.00"), "C": D("-3.00"), "D": D("-3.00")}) == [
        Transfer("C", "A", D("3.00")),
        Transfer("D", "A", D("1.00")),
        Transfer("D", "B", D("2.00")),
    ]


def test_it_needs_no_transfers_when_everyone_is_square() -> None:
    assert min_transfers({"A": D("0.00"), "B": D("0.00")}) == []
    assert min_transfers({}) == []
    assert min_transfer_count({"A": D("0.00")}) == 0


def test_it_settles_sixteen_players_exactly() -> None:
    balances = {f"P{i}": D(i // 2 + 1) * (1 if i % 2 == 0 else -1) for i in range(16)}
    transfers = min_transfers(balances)
    assert len(transfers) == min_transfer_count(balances) == 8
    assert all(amount == 0 for amount in settle(balances, transfers).values())


def test_it_rejects_balances_that_do_not_sum_to_zero() -> None:
    with pytest.raises(ValueError):
        min_transfers({"A": D("1.00"), "B": D("-0.99")})


def test_it_rejects_fractions_of_a_cent() -> None:
    with pytest.raises(ValueError):
        min_transfers({"A": D("0.005"), "B": D("-0.005")})


# --- payments already made, netted against a settlement computed anew (docs/rules/money.md) ----------


def test_it_leaves_nothing_to_settle_once_every_transfer_is_paid() -> None:
    balances = {"Anne": D("-1.80"), "Bert": D("-1.30"), "Carl": D("1.30"), "Dina": D("1.80")}
    paid = min_transfers(balances)
    assert outstanding(balances, paid) == dict.fromkeys(balances, D("0.00"))
    assert remaining_transfers(balances, paid) == []


def test_it_asks_only_the_rest_when_a_correction_raises_a_debt_already_partly_paid() -> None:
    # Anne paid Dina 1.80; a correction makes her owe 2.50: 0.70 is left, nothing else
    balances = {"Anne": D("-2.50"), "Bert": D("-1.30"), "Carl": D("1.30"), "Dina": D("2.50")}
    paid = [Transfer("Anne", "Dina", D("1.80"))]
    assert remaining_transfers(balances, paid) == [
        Transfer("Anne", "Dina", D("0.70")),
        Transfer("Bert", "Carl", D("1.30")),
    ]


def test_it_turns_an_overpayment_into_a_transfer_the_other_way() -> None:
    # Bert paid Carl 1.30; after the correction Bert is owed 0.40 by Carl
    balances = {"Anne": D("-1.00"), "Bert": D("0.40"), "Carl": D("-0.40"), "Dina": D("1.00")}
    paid = [Transfer("Bert", "Carl", D("1.30"))]
    assert outstanding(balances, paid) == {"Anne": D("-1.00"), "Bert": D("1.70"), "Carl": D("-1.70"), "Dina": D("1.00")}
    assert remaining_transfers(balances, paid) == [
        Transfer("Anne", "Dina", D("1.00")),
        Transfer("Carl", "Bert", D("1.70")),
    ]


def test_it_owes_back_a_payment_to_a_party_no_longer_in_the_settlement() -> None:
    balances = {"Anne": D("-0.50"), "Bert": D("0.50")}
    paid = [Transfer("Eric", "Anne", D("0.20"))]
    assert remaining_transfers(balances, paid) == [
        Transfer("Anne", "Bert", D("0.50")),
        Transfer("Anne", "Eric", D("0.20")),
    ]


def test_it_reads_the_balances_back_from_the_transfers() -> None:
    balances = {"Anne": D("-1.80"), "Bert": D("-1.30"), "Carl": D("1.30"), "Dina": D("1.80")}
    assert balances_of(min_transfers(balances), order=balances) == balances


@st.composite
def payments_strategy(draw: st.DrawFn, names: list[str]) -> list[Transfer]:
    parties = st.sampled_from(names + ["Someone else"])
    out = []
    for _ in range(draw(st.integers(0, 4))):
        payer, payee = draw(parties), draw(parties)
        if payer != payee:
            out.append(Transfer(payer, payee, (D(draw(st.integers(1, 3000))) / 100).quantize(D("0.01"))))
    return out


@settings(max_examples=200)
@given(st.data())
def test_it_settles_exactly_what_the_payments_left_in_whichever_direction(data) -> None:
    balances = data.draw(balances_strategy())
    paid = data.draw(payments_strategy(list(balances)))
    left = outstanding(balances, paid)
    assert sum(left.values()) == 0
    rest = remaining_transfers(balances, paid)
    # what was paid and what remains settle the balances exactly
    assert all(v == 0 for v in outstanding(balances, paid + rest).values())
    assert len(rest) == fewest_transfers(dict(left.items()))
    assert remaining_transfers(balances, []) == min_transfers(balances)


@settings(max_examples=200)
@given(st.data())
def test_it_never_asks_again_for_a_transfer_already_paid(data) -> None:
    balances = data.draw(balances_strategy())
    transfers = min_transfers(balances)
    paid = data.draw(st.lists(st.sampled_from(transfers), unique=True) if transfers else st.just([]))
    rest = remaining_transfers(balances, paid)
    # the rest is never more than the transfers not paid yet, and settles them exactly
    assert len(rest) <= len(transfers) - len(paid)
    unpaid = [t for t in transfers if t not in paid]
    assert balances_of(unpaid, order=balances) == outstanding(balances, paid)  # what is left is what is unpaid
    assert balances_of(rest, order=balances) == outstanding(balances, paid)


# --- what remains of an evening, seat by seat (Seat.unpaid and Seat.open_transfers, the ledger's balances) ----


SEATS = ["Anne", "Bert", "Carl", "Dina"]
DUE = [Transfer("Bert", "Anne", D("1.80")), Transfer("Dina", "Carl", D("1.30"))]


def test_an_evening_with_nothing_paid_still_owes_its_settlement_as_it_is() -> None:
    assert still_open(DUE, SEATS, []) == DUE
    assert [seat_open(DUE, name) for name in SEATS] == [
        (D("1.80"), 1),
        (D("-1.80"), 1),
        (D("1.30"), 1),
        (D("-1.30"), 1),
    ]


def test_a_payment_is_netted_against_the_settlement_and_a_seat_keeps_what_remains_for_it() -> None:
    left = still_open(DUE, SEATS, [Transfer("Bert", "Anne", D("0.80")), Transfer("Carl", "Dina", D("0.20"))])
    assert left == [Transfer("Bert", "Anne", D("1.00")), Transfer("Dina", "Carl", D("1.50"))]
    assert [seat_open(left, name) for name in SEATS] == [
        (D("1.00"), 1),
        (D("-1.00"), 1),
        (D("1.50"), 1),
        (D("-1.50"), 1),
    ]
    assert seat_open(left, "Eric") == (D("0.00"), 0)


def test_a_seat_in_several_open_transfers_nets_them_all() -> None:
    # Carl owes Anne and is owed by Dina; a payment that no transfer asked for is owed back (ties in seat order)
    left = still_open([Transfer("Carl", "Anne", D("2.00")), Transfer("Dina", "Carl", D("0.50"))], SEATS, [])
    assert seat_open(left, "Carl") == (D("-1.50"), 2)
    paid = still_open(DUE, SEATS, [Transfer("Anne", "Bert", D("0.30"))])
    assert paid == [Transfer("Bert", "Anne", D("2.10")), Transfer("Dina", "Carl", D("1.30"))]


def test_the_summarys_transfer_rows_read_back_as_the_same_transfers() -> None:
    rows = transfer_rows(DUE)
    assert rows == [{"from": "Bert", "to": "Anne", "amount": "1.80"}, {"from": "Dina", "to": "Carl", "amount": "1.30"}]
    assert transfers_of(rows) == DUE
    assert transfers_of(None) == [] == transfers_of([])


def test_what_remains_is_listed_in_seat_order_whatever_order_the_settlement_names_the_parties_in() -> None:
    seats = ["Anne", "Bert", "Carl", "Dina", "Eric"]
    due = [
        Transfer("Carl", "Anne", D("1.50")),
        Transfer("Eric", "Bert", D("1.00")),
        Transfer("Eric", "Dina", D("0.50")),
    ]
    # Bert paid Dina a euro: Dina owes him 0.50 back, and Eric owes him 1.50 (Dina's part of Eric's debt moved)
    assert still_open(due, seats, [Transfer("Bert", "Dina", D("1.00"))]) == [
        Transfer("Carl", "Anne", D("1.50")),
        Transfer("Dina", "Bert", D("0.50")),
        Transfer("Eric", "Bert", D("1.50")),
    ]
