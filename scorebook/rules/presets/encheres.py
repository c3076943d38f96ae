"""``encheres``: whist aux enchères with the bête (docs/rules/encheres.md).

Made rows: what each declarer receives and each opponent pays (value plus the
per-trick bonus). Failed rows: the declarer figure is the least the declaring side
pays into the bête (the table value); opponents receive nothing.
"""

from collections.abc import Iterator

from ..model import MAX_TRICKS, Bete, BeteEnd, Combination, Contract, ContractRules, Kind, Names, Payout
from ._build import contract

# key, names, kind, declarers, needs, value, per extra trick, trumps
CONTRACTS = [
    (
        "solo-chelem-table",
        ("solo chelem sur table", "open solo slim", "open solo slam"),
        Kind.SOLO,
        1,
        13,
        200,
        0,
        True,
    ),
    ("chelem-a-deux", ("chelem à deux", "slim met twee", "slam for two"), Kind.PAIR, 2, 13, 25, 0, True),
    ("solo-chelem", ("solo chelem demandé", "solo slim", "solo slam"), Kind.SOLO, 1, 13, 100, 0, True),
    (
        "grande-misere-table",
        ("grande misère sur table", "open grote miserie", "open misère"),
        Kind.MISERE,
        1,
        0,
        50,
        0,
        False,
    ),
    ("abondance-table", ("abondance sur table", "open abondance", "open abundance"), Kind.SOLO, 1, 9, 44, 0, True),
    ("grande-misere", ("grande misère", "grote miserie", "misère"), Kind.MISERE, 1, 0, 25, 0, False),
    ("abondance", ("abondance", "abondance", "abundance"), Kind.SOLO, 1, 9, 22, 0, True),
    (
        "petite-misere-table",
        ("petite misère sur table", "open kleine miserie", "open small misère"),
        Kind.MISERE,
        1,
        0,
        20,
        0,
        False,
    ),
    ("piccolo", ("piccolo", "piccolo", "piccolo"), Kind.PICCOLO, 1, 1, 14, 0, False),
    ("huit-seul", ("huit levées seul", "acht slagen alleen", "eight tricks alone"), Kind.SOLO, 1, 8, 16, 4, True),
    ("piccolissimo", ("piccolissimo", "piccolissimo", "piccolissimo"), Kind.PICCOLO, 1, 2, 14, 0, False),
    ("sept-seul", ("sept levées seul", "zeven slagen alleen", "seven tricks alone"), Kind.SOLO, 1, 7, 12, 3, True),
    (
        "petite-misere-a-deux",
        ("petite misère à deux", "kleine miserie met twee", "small misère for two"),
        Kind.MISERE,
        2,
        0,
        10,
        0,
        False,
    ),
    ("petite-misere", ("petite misère", "kleine miserie", "small misère"), Kind.MISERE, 1, 0, 10, 0, False),
    ("solo", ("solo", "alleen", "solo"), Kind.SOLO, 1, 6, 8, 2, True),
    (
        "huit-a-deux",
        ("huit levées à deux", "acht slagen met twee", "eight tricks for two"),
        Kind.PAIR,
        2,
        8,
        4,
        1,
        True,
    ),
]


def _contracts() -> Iterator[Contract]:
    for key, names, kind, declarers, needs, value, bonus, trumps in CONTRACTS:
        opponents = 4 - declarers

        def made(
            tricks: int,
            value: int = value,
            bonus: int = bonus,
            needs: int = needs,
            share: tuple[int, int] = (opponents, declarers),
        ) -> Payout:
            paid = value + bonus * (tricks - needs)
            return Payout(paid * share[0] // share[1], -paid)

        failed = Payout(-value, 0)
        if kind.per_declarer and declarers == 2:  # in association: made only if neither takes a trick
            made_table, failed_table = {0: made(0)}, dict.fromkeys(range(1, MAX_TRICKS + 1), failed)
        elif kind.per_declarer:
            made_table = {needs: made(needs)}
            failed_table = {t: failed for t in range(MAX_TRICKS + 1) if t != needs}
        else:
            made_table = {t: made(t) for t in range(needs, MAX_TRICKS + 1)}
            failed_table = dict.fromkeys(range(needs), failed)
        yield contract(
            key,
            names,
            kind,
            needs,
            made_table,
            failed_table,
            trumps=trumps,
            declarers=declarers,
            exposed_fault=kind.per_declarer and declarers == 2,
        )


# The contracts in the order of how often a table plays them (the record form shows the
# first ones at once, the others one tap away).
COMMON = ("solo", "huit-a-deux", "sept-seul", "petite-misere", "piccolo", "huit-seul", "grande-misere", "abondance")

RULES = ContractRules(
    key="encheres",
    names=Names("whist aux enchères (bête)", "wiezen met opbod (pot)", "auction whist (pot)"),
    contracts={c.key: c for c in _contracts()},
    combination=Combination.EACH_VS_TABLE,
    all_pass_multiplier=1,
    bete=Bete(failure_floor=True, ante=0, end=BeteEnd.SHARE),
)
