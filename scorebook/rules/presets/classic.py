"""The classic family: ``classique``, ``short``, ``francais``, ``mort`` (docs/rules/classique.md)."""

from dataclasses import replace

from ..model import ClassicRules, ClassicScoring, Names

CLASSIQUE = ClassicRules(
    key="classique",
    names=Names("whist classique (long)", "klassiek wiezen (lang)", "long whist"),
    manche_target=10,
    honours_cards=4,
    honours_points={3: 2, 4: 4},
    honours_towards_manche=True,
    honours_barred_at=(),
    scoring=ClassicScoring.VALUE,
    # manche value by the losers' points: 0 -> 3, 1 to 4 -> 2, 5 or more -> 1
    manche_values=((0, 3), (1, 2), (5, 1)),
    manche_base=0,
    manches_to_win=2,
    robre_bonus=2,
    claim_at=8,
    claim_points=2,
    min_players=4,
    max_players=6,
)

SHORT = replace(
    CLASSIQUE,
    key="short",
    names=Names("whist court (anglais)", "kort wiezen (Engels)", "short whist"),
    manche_target=5,
    honours_barred_at=(4,),
    manche_values=((0, 3), (1, 2), (3, 1)),
    claim_at=None,
)

FRANCAIS = replace(
    CLASSIQUE,
    key="francais",
    names=Names("whist à la française", "Frans wiezen", "French whist"),
    manche_target=5,
    honours_towards_manche=False,
    scoring=ClassicScoring.DIFFERENCE,
    # added to the difference by the losers' trick points: 0 or 1 -> 3, 2 -> 2, 3 or more -> 1
    manche_values=((0, 3), (2, 2), (3, 1)),
    manche_base=4,
    robre_bonus=0,
    claim_at=None,
    chelem_points=20,
)

MORT = replace(
    CLASSIQUE,
    key="mort",
    names=Names("whist à trois avec un mort", "wiezen met drie en een blinde", "dummy whist for three"),
    dummy=True,
    min_players=3,
    max_players=3,
)
