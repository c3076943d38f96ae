"""``gand``: whist à la couleur / whist de Gand, paid in jetons (docs/rules/gand.md). Zero-sum."""

from collections.abc import Iterator

from ..model import MAX_TRICKS, Combination, Contract, ContractRules, Kind, Names
from ._build import contract, exact, pair, solo

# key, names, kind, needs, trumps, value in jetons
CONTRACTS = [
    ("emballage", ("proposition et emballage", "vragen en meegaan", "proposal and acceptance"), Kind.PAIR, 8, True, 2),
    ("solo", ("solo", "alleen", "solo"), Kind.SOLO, 5, True, 2),
    ("misere", ("misère", "miserie", "misère"), Kind.MISERE, 0, False, 3),
    ("abondance", ("abondance", "abondance", "abundance"), Kind.SOLO, 9, True, 4),
    ("misere-table", ("misère sur table", "open miserie", "open misère"), Kind.MISERE, 0, False, 6),
    ("grande-abondance", ("grande abondance", "grote abondance", "grand abundance"), Kind.SOLO, 13, True, 8),
]


def _contracts() -> Iterator[Contract]:
    for key, names, kind, needs, trumps, value in CONTRACTS:
        side = pair if kind is Kind.PAIR else solo
        if kind.per_declarer:
            made, failed = exact(needs, side(value), side(-value))
            yield contract(key, names, kind, needs, made, failed, trumps=trumps, simultaneous=4)
        else:
            made = {t: side(value) for t in range(needs, MAX_TRICKS + 1)}
            failed = {t: side(-value) for t in range(needs)}
            yield contract(key, names, kind, needs, made, failed, trumps=trumps)


# The contracts in the order of how often a table plays them (gand has six: all at once).
COMMON = ("emballage", "solo", "misere", "abondance", "misere-table", "grande-abondance")

RULES = ContractRules(
    key="gand",
    names=Names("whist de Gand (jetons)", "Gents kleurenwiezen (fiches)", "Ghent whist (counters)"),
    contracts={c.key: c for c in _contracts()},
    combination=Combination.EACH_VS_TABLE,
    all_pass_multiplier=1,
)
