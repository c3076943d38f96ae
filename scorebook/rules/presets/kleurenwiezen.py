"""``kleurenwiezen``: the grid published by Whisthub (docs/rules/kleurenwiezen.md). Zero-sum."""

from collections.abc import Iterator

from ..model import Combination, Contract, ContractRules, Kind, Names
from ._build import apply, by_tricks, contract, exact, flat, pair, solo, stepping_down

# Pairs: the made value depends only on the tricks taken (8 -> 8, 9 -> 11, ... 13 -> 30).
SAMEN_MADE = [8, 11, 14, 17, 20, 30]
SAMEN_FAILED_FIRST = {8: -11, 9: -14, 10: -17, 11: -20, 12: -23, 13: -26}
SAMEN_FAILED_STEP = -3
# Solos, per opponent: made exact, +1, ... (no overtrick counts beyond 8 tricks).
ALLEEN_MADE = {5: [3, 4, 5, 6], 6: [4, 5, 6], 7: [5, 6], 8: [7]}
ALLEEN_FAILED_FIRST = {5: -4, 6: -5, 7: -6, 8: -8}
ALLEEN_FAILED_STEP = -1
# Abondance: an overtrick scores as the higher abondance; a failure is flat.
ABONDANCE_BY_TRICKS = {9: 10, 10: 15, 11: 20, 12: 30, 13: 30}
# Misère kinds, per opponent.
MISERIES = [
    ("kleine-miserie", ("petite misère", "kleine miserie", "small misère"), Kind.MISERE, 0, 6),
    ("piccolo", ("piccolo", "piccolo", "piccolo"), Kind.PICCOLO, 1, 8),
    ("grote-miserie", ("grande misère", "grote miserie", "misère"), Kind.MISERE, 0, 12),
    ("open-miserie", ("grande misère étalée", "open miserie", "open misère"), Kind.MISERE, 0, 24),
]


def _contracts() -> Iterator[Contract]:
    for k in range(8, 14):
        yield contract(
            f"samen-{k}",
            (f"emballage {k}", f"samen {k}", f"together {k}"),
            Kind.PAIR,
            k,
            apply(pair, by_tricks(k, SAMEN_MADE[k - 8 :])),
            apply(pair, stepping_down(k, SAMEN_FAILED_FIRST[k], SAMEN_FAILED_STEP)),
        )
    for k, made_values in ALLEEN_MADE.items():
        yield contract(
            f"alleen-{k}",
            (f"solo {k}", f"alleen {k}", f"solo {k}"),
            Kind.SOLO,
            k,
            apply(solo, by_tricks(k, made_values)),
            apply(solo, stepping_down(k, ALLEEN_FAILED_FIRST[k], ALLEEN_FAILED_STEP)),
        )
    for k in range(9, 13):
        yield contract(
            f"abondance-{k}",
            (f"abondance {k}", f"abondance {k}", f"abundance {k}"),
            Kind.SOLO,
            k,
            apply(solo, {t: v for t, v in ABONDANCE_BY_TRICKS.items() if t >= k}),
            apply(solo, flat(range(k), -ABONDANCE_BY_TRICKS[k])),
        )
    yield contract(
        "troel",
        ("trou", "troel", "troel (three aces)"),
        Kind.TROU,
        8,
        apply(pair, by_tricks(8, [16, 16, 16, 16, 16, 30])),
        apply(pair, flat(range(9), -16)),
        needs_if_trump_changed=9,
    )
    for key, names, kind, needs, value in MISERIES:
        made, failed = exact(needs, solo(value), solo(-value))
        yield contract(key, names, kind, needs, made, failed, trumps=False, simultaneous=4)
    yield contract(
        "solo-slim",
        ("grand chelem", "solo slim", "grand slam"),
        Kind.SOLO,
        13,
        {13: solo(60)},
        apply(solo, flat(range(13), -60)),
    )


# The contracts in the order of how often a table plays them (the record form shows the
# first ones at once, the others one tap away).
COMMON = ("samen-8", "alleen-5", "samen-9", "alleen-6", "troel", "kleine-miserie", "piccolo", "grote-miserie")

RULES = ContractRules(
    key="kleurenwiezen",
    names=Names("whist à la couleur flamand", "kleurenwiezen", "Flemish colour whist"),
    contracts={c.key: c for c in _contracts()},
    combination=Combination.EACH_VS_TABLE,
    all_pass_multiplier=2,
)
