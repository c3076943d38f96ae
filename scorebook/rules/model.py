"""The rules of a variant as data: contracts with their payout tables, classic parameters.

Everything here is plain Python. A ruleset converts to a JSON-ready dict (``to_dict``) and is
read back from it, validated (``reading.ruleset_from_dict``); that dict is the shape printed by
``manage.py rules show KEY`` and accepted, partially, as house-rule overrides (``reading.merge``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from .messages import EngineError

MAX_TRICKS = 13
LANGS = ("fr", "nl", "en")


class RulesError(EngineError):
    """A ruleset or an override that cannot be used. ``path`` names the offending key.

    ``template`` (marked with ``gettext_noop``) and ``params`` give the translatable
    message, ``message`` the English text.
    """

    def __init__(self, path: str, template: str, **params: object):
        self.path = path
        super().__init__(template, params, f"{path}: " if path else "")


class Family(StrEnum):
    CLASSIC = "classic"
    CONTRACT = "contract"


class Kind(StrEnum):
    PAIR = "pair"
    SOLO = "solo"
    TROU = "trou"
    MISERE = "misere"
    PICCOLO = "piccolo"

    @property
    def per_declarer(self) -> bool:
        """Misère and piccolo record the tricks of each declarer."""
        return self in (Kind.MISERE, Kind.PICCOLO)


class Combination(StrEnum):
    """How several simultaneous misère or piccolo declarers are settled."""

    EACH_VS_TABLE = "each-vs-table"
    FAILURES_PAY_OTHERS = "failures-pay-others"


class BeteEnd(StrEnum):
    SHARE = "share"
    CARRY = "carry"


class ClassicScoring(StrEnum):
    """How a won manche is valued: from a table of the losers' points, or by difference (French)."""

    VALUE = "value"
    DIFFERENCE = "difference"


class Trump(StrEnum):
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    CLUBS = "clubs"
    SPADES = "spades"
    NONE = "none"


@dataclass(frozen=True)
class Names:
    fr: str
    nl: str
    en: str

    def get(self, lang: str) -> str:
        return str(getattr(self, lang if lang in LANGS else "fr"))

    def to_dict(self) -> dict[str, str]:
        return {"fr": self.fr, "nl": self.nl, "en": self.en}


@dataclass(frozen=True)
class Payout:
    """What each declarer and each opponent score for one number of tricks."""

    declarer: int
    opponent: int


@dataclass(frozen=True)
class Contract:
    key: str
    names: Names
    kind: Kind
    declarers: int  # size of the declaring side: 1, or 2 for pairs and misère in association
    needs: int  # tricks needed (at least), or exactly for misère and piccolo (per declarer)
    trumps: bool
    made: Mapping[int, Payout]  # by tricks taken by the side
    failed: Mapping[int, Payout]
    needs_if_trump_changed: int | None = None  # troel: 9 when the trump was changed
    simultaneous: int = 1  # how many declarers may each play this contract in one deal
    exposed_fault: bool = False  # encheres misère in association

    @property
    def exact(self) -> bool:
        return self.kind.per_declarer

    def succeeds(self, tricks: int, trump_changed: bool = False) -> bool:
        if self.exact:
            return tricks == self.needs
        needs = self.needs_if_trump_changed if trump_changed and self.needs_if_trump_changed else self.needs
        return tricks >= needs

    def payout(self, tricks: int, made: bool) -> Payout:
        return (self.made if made else self.failed)[tricks]


@dataclass(frozen=True)
class Bete:
    """The pot of ``encheres``: failures pay into it, a made contract takes it."""

    failure_floor: bool = True  # a failure pays at least the table value
    ante: int = 0  # jetons the dealer puts in at each deal
    end: BeteEnd = BeteEnd.SHARE


@dataclass(frozen=True)
class ContractRules:
    key: str
    names: Names
    contracts: Mapping[str, Contract]
    combination: Combination
    all_pass_multiplier: int = 1
    bete: Bete | None = None
    min_players: int = 4
    max_players: int = 7
    family: Family = field(default=Family.CONTRACT, init=False)

    def contract(self, key: str) -> Contract:
        return self.contracts[key]


@dataclass(frozen=True)
class ClassicRules:
    key: str
    names: Names
    manche_target: int
    honours_cards: int
    honours_points: Mapping[int, int]  # honours held -> points
    honours_towards_manche: bool  # False: kept aside until the manche ends (French)
    honours_barred_at: tuple[int, ...]  # a side standing at one of these cannot score honours
    scoring: ClassicScoring
    manche_values: tuple[tuple[int, int], ...]  # (losers' points from, value), ascending
    manche_base: int  # DIFFERENCE scoring: points for winning the manche
    manches_to_win: int
    robre_bonus: int
    book: int = 6
    claim_at: int | None = None  # a side standing exactly here may claim with honours
    claim_points: int = 2
    chelem_points: int | None = None  # all 13 tricks: outside the manche (French)
    dummy: bool = False  # ``mort``: three players, one plays with the dummy
    min_players: int = 4
    max_players: int = 6
    family: Family = field(default=Family.CLASSIC, init=False)

    def manche_value(self, loser_points: int) -> int:
        value = 0
        for threshold, threshold_value in self.manche_values:
            if loser_points >= threshold:
                value = threshold_value
        return value

    def honour_score(self, held: int) -> int:
        return self.honours_points.get(held, 0)


Ruleset = ContractRules | ClassicRules


# --- to and from dicts --------------------------------------------------------------


def _table_to_dict(table: Mapping[int, Payout]) -> dict[str, list[int]]:
    return {str(t): [p.declarer, p.opponent] for t, p in sorted(table.items())}


def contract_to_dict(c: Contract) -> dict[str, Any]:
    return {
        "names": c.names.to_dict(),
        "kind": str(c.kind),
        "declarers": c.declarers,
        "needs": c.needs,
        "needs_if_trump_changed": c.needs_if_trump_changed,
        "trumps": c.trumps,
        "simultaneous": c.simultaneous,
        "exposed_fault": c.exposed_fault,
        "made": _table_to_dict(c.made),
        "failed": _table_to_dict(c.failed),
    }


def to_dict(rules: Ruleset) -> dict[str, Any]:
    """The JSON-ready shape of a ruleset (``manage.py rules show``)."""
    common = {
        "key": rules.key,
        "family": str(rules.family),
        "names": rules.names.to_dict(),
        "players": {"min": rules.min_players, "max": rules.max_players},
    }
    if isinstance(rules, ContractRules):
        return common | {
            "misere_combination": str(rules.combination),
            "all_pass_multiplier": rules.all_pass_multiplier,
            "bete": None
            if rules.bete is None
            else {
                "failure_floor": rules.bete.failure_floor,
                "ante": rules.bete.ante,
                "end": str(rules.bete.end),
            },
            "contracts": {key: contract_to_dict(c) for key, c in rules.contracts.items()},
        }
    return common | {
        "dummy": rules.dummy,
        "book": rules.book,
        "manche_target": rules.manche_target,
        "honours": {
            "cards": rules.honours_cards,
            "points": {str(k): v for k, v in sorted(rules.honours_points.items())},
            "towards_manche": rules.honours_towards_manche,
            "barred_at": list(rules.honours_barred_at),
        },
        "claim": None if rules.claim_at is None else {"at": rules.claim_at, "points": rules.claim_points},
        "manche_scoring": str(rules.scoring),
        "manche_values": [list(pair) for pair in rules.manche_values],
        "manche_base": rules.manche_base,
        "manches_to_win": rules.manches_to_win,
        "robre_bonus": rules.robre_bonus,
        "chelem_points": rules.chelem_points,
    }


class PayoutCells(NamedTuple):
    """Which cells of a contract's payout tables exist for one number of tricks taken by the side."""

    tricks: int
    made: bool  # the contract can be made with these tricks: ``made`` has a cell for them
    failed: bool  # the contract can fail with these tricks: ``failed`` has a cell for them


def payout_cells(contract: Contract) -> tuple[PayoutCells, ...]:
    """The cells a contract's ``made`` and ``failed`` tables must have, for 0 to 13 tricks.

    The one statement of the layout: the validator requires exactly these cells, and the
    house-rules editor offers exactly these fields. They follow ``needs`` (and
    ``needs_if_trump_changed``): for the layout of other needs, pass
    ``dataclasses.replace(contract, needs=...)``.
    """
    c = contract
    cells = []
    for tricks in range(MAX_TRICKS + 1):
        can_make = c.succeeds(tricks) or c.succeeds(tricks, trump_changed=True)
        can_fail = not c.succeeds(tricks) or not c.succeeds(tricks, trump_changed=True)
        if c.declarers == 2 and c.exact:
            # in association the side's tricks are added up: only 0 (or 2 * needs) makes
            can_make = tricks == c.needs * 2
            can_fail = not can_make
        cells.append(PayoutCells(tricks, can_make, can_fail))
    return tuple(cells)
