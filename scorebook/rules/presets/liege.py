"""``liege``: the Liège rules with the whist-score grid (docs/rules/liege.md). Not zero-sum."""

from collections.abc import Iterator

from ..model import Combination, Contract, ContractRules, Kind, Names, Payout
from ._build import by_tricks, contract, exact, stepping_down

# Emballage: each declarer scores by the tricks taken; opponents get 0 on success.
EMBALLAGE_MADE = {8: 7, 9: 10, 10: 13, 11: 16, 12: 19, 13: 30}
EMBALLAGE_MADE_EXACT_12 = 22  # when the bid was 12 and 12 tricks were taken
# Failed: each declarer loses and each opponent gains the same, +3 for each trick fewer.
EMBALLAGE_FAILED_FIRST = {8: 10, 9: 13, 10: 16, 11: 19, 12: 25, 13: 33}
EMBALLAGE_FAILED_STEP = 3
# Solo k: made values from k tricks on; failed: (declarer loss, each opponent gain) at k-1 and steps.
SOLO_MADE = {6: [12, 15, 18], 7: [15, 18], 8: [21]}
SOLO_FAILED_FIRST = {6: (15, 10), 7: (18, 12), 8: (24, 16)}
SOLO_FAILED_STEP = (3, 2)
# One declarer, flat: made, failed (declarer), failed (each opponent).
BIG_SOLOS = [
    ("abondance-9", ("abondance 9", "abondance 9", "abundance 9"), 9, 30, 20),
    ("abondance-10", ("abondance 10", "abondance 10", "abundance 10"), 10, 45, 30),
    ("abondance-11", ("abondance 11", "abondance 11", "abundance 11"), 11, 60, 40),
    ("petit-chelem", ("petit chelem", "klein slim", "little slam"), 12, 100, 66),
    ("grand-chelem", ("grand chelem", "solo slim", "grand slam"), 13, 150, 100),
]
TROU = (9, 15)  # needs, made each declarer / failed each opponent
# Misère kinds: made, failed (declarer), each non-declarer per failed declarer.
MISERIES = [
    ("petite-misere", ("petite misère", "kleine miserie", "small misère"), Kind.MISERE, 0, 18, 12),
    ("piccolo", ("piccolo", "piccolo", "piccolo"), Kind.PICCOLO, 1, 27, 18),
    ("grande-misere", ("grande misère", "grote miserie", "misère"), Kind.MISERE, 0, 36, 24),
    ("grande-misere-etalee", ("grande misère étalée", "open miserie", "open misère"), Kind.MISERE, 0, 72, 48),
]


def _contracts() -> Iterator[Contract]:
    for k in range(8, 14):
        made = {t: Payout(v, 0) for t, v in EMBALLAGE_MADE.items() if t >= k}
        if k == 12:
            made[12] = Payout(EMBALLAGE_MADE_EXACT_12, 0)
        failed_values = stepping_down(k, EMBALLAGE_FAILED_FIRST[k], EMBALLAGE_FAILED_STEP)
        yield contract(
            f"emballage-{k}",
            (f"emballage {k}", f"samen {k}", f"together {k}"),
            Kind.PAIR,
            k,
            made,
            {t: Payout(-v, v) for t, v in failed_values.items()},
        )
    for k, made_values in SOLO_MADE.items():
        loss = stepping_down(k, SOLO_FAILED_FIRST[k][0], SOLO_FAILED_STEP[0])
        gains = stepping_down(k, SOLO_FAILED_FIRST[k][1], SOLO_FAILED_STEP[1])
        yield contract(
            f"solo-{k}",
            (f"solo {k}", f"alleen {k}", f"solo {k}"),
            Kind.SOLO,
            k,
            {t: Payout(v, 0) for t, v in by_tricks(k, made_values).items()},
            {t: Payout(-loss[t], gains[t]) for t in loss},
        )
    for key, names, needs, value, gain in BIG_SOLOS:
        yield contract(
            key,
            names,
            Kind.SOLO,
            needs,
            {t: Payout(value, 0) for t in range(needs, 14)},
            {t: Payout(-value, gain) for t in range(needs)},
        )
    needs, value = TROU
    yield contract(
        "trou",
        ("trou", "troel", "troel (three aces)"),
        Kind.TROU,
        needs,
        {t: Payout(value, 0) for t in range(needs, 14)},
        {t: Payout(0, value) for t in range(needs)},
    )
    for key, names, kind, needs, value, gain in MISERIES:
        made, failed = exact(needs, Payout(value, 0), Payout(-value, gain))
        yield contract(key, names, kind, needs, made, failed, trumps=False, simultaneous=4)


# The contracts in the order of how often a table plays them (the record form shows the
# first ones at once, the others one tap away).
COMMON = ("emballage-8", "solo-6", "emballage-9", "solo-7", "trou", "petite-misere", "piccolo", "grande-misere")

RULES = ContractRules(
    key="liege",
    names=Names("whist liégeois", "Luiks wiezen", "Liège whist"),
    contracts={c.key: c for c in _contracts()},
    combination=Combination.FAILURES_PAY_OTHERS,
    all_pass_multiplier=1,
)
