"""The rules of a variant as data: contracts with their payout tables, classic parameters.

Everything here is plain Python. A ruleset converts to and from a JSON-ready dict
(``to_dict`` / ``ruleset_from_dict``); that dict is the shape printed by
``manage.py rules show KEY`` and accepted, partially, as house-rule overrides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from .messages import EngineError, gettext_noop

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


class _Reader:
    """Reads one dict, checking types and refusing unknown keys; every error names its path."""

    def __init__(self, data: Any, path: str):
        if not isinstance(data, Mapping):
            raise RulesError(path, gettext_noop("must be an object"))
        self.data = data
        self.path = path
        self.seen: set[str] = set()

    def sub(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str) -> Any:
        self.seen.add(key)
        if key not in self.data:
            raise RulesError(self.sub(key), gettext_noop("is missing"))
        return self.data[key]

    def whole(self, key: str, low: int | None = None, high: int | None = None) -> int:
        """A whole number between ``low`` and ``high``."""
        return check_int(self.raw(key), self.sub(key), low, high)

    def whole_or_none(self, key: str, low: int | None = None, high: int | None = None) -> int | None:
        """A whole number between ``low`` and ``high``, or null."""
        value = self.raw(key)
        return None if value is None else check_int(value, self.sub(key), low, high)

    def flag(self, key: str) -> bool:
        """True or false."""
        value = self.raw(key)
        if not isinstance(value, bool):
            raise RulesError(self.sub(key), gettext_noop("must be true or false"))
        return value

    def text(self, key: str) -> str:
        """A text that is not blank."""
        value = self.raw(key)
        if not isinstance(value, str) or not value.strip():
            raise RulesError(self.sub(key), gettext_noop("must be a non-empty text"))
        return value

    def choice(self, key: str, enum: type[StrEnum]) -> Any:
        value = self.raw(key)
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(str(m) for m in enum)
            raise RulesError(self.sub(key), gettext_noop("must be one of %(allowed)s"), allowed=allowed) from None

    def names(self, key: str = "names") -> Names:
        r = _Reader(self.raw(key), self.sub(key))
        names = Names(fr=r.text("fr"), nl=r.text("nl"), en=r.text("en"))
        r.done()
        return names

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.seen)
        if unknown:
            raise RulesError(self.sub(unknown[0]), gettext_noop("unknown key"))


def check_int(value: Any, path: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(path, gettext_noop("must be a whole number"))
    if low is not None and value < low:
        raise RulesError(path, gettext_noop("must be at least %(low)s"), low=low)
    if high is not None and value > high:
        raise RulesError(path, gettext_noop("must be at most %(high)s"), high=high)
    return value


def _tricks_key(raw: Any, path: str) -> int:
    if not isinstance(raw, str) or not (raw.isascii() and raw.isdigit()):
        raise RulesError(path, gettext_noop("a number of tricks must be written as 0 to 13"))
    return check_int(int(raw), path, 0, MAX_TRICKS)


def _table(data: Any, path: str) -> dict[int, Payout]:
    if not isinstance(data, Mapping):
        raise RulesError(path, gettext_noop("must be an object of tricks to [declarer, opponent]"))
    table = {}
    for raw_key, cell in data.items():
        cell_path = f"{path}.{raw_key}"
        tricks = _tricks_key(raw_key, cell_path)
        if not isinstance(cell, list | tuple) or len(cell) != 2:
            raise RulesError(cell_path, gettext_noop("must be [declarer, opponent]"))
        table[tricks] = Payout(check_int(cell[0], cell_path), check_int(cell[1], cell_path))
    return table


def contract_from_dict(key: str, data: Any, path: str) -> Contract:
    r = _Reader(data, path)
    kind = r.choice("kind", Kind)
    declarers = r.whole("declarers", 1, 2)
    needs = r.whole("needs", 0, MAX_TRICKS)
    changed = r.whole_or_none("needs_if_trump_changed", needs, MAX_TRICKS)
    contract = Contract(
        key=key,
        names=r.names(),
        kind=kind,
        declarers=declarers,
        needs=needs,
        needs_if_trump_changed=changed,
        trumps=r.flag("trumps"),
        simultaneous=r.whole("simultaneous", 1, 4),
        exposed_fault=r.flag("exposed_fault"),
        made=_table(r.raw("made"), r.sub("made")),
        failed=_table(r.raw("failed"), r.sub("failed")),
    )
    r.done()
    if kind is Kind.PAIR and declarers != 2:
        raise RulesError(r.sub("declarers"), gettext_noop("a pair contract has 2 declarers"))
    if kind is Kind.TROU and declarers != 2:
        raise RulesError(r.sub("declarers"), gettext_noop("a trou contract has 2 declarers"))
    if kind is Kind.SOLO and declarers != 1:
        raise RulesError(r.sub("declarers"), gettext_noop("a solo contract has 1 declarer"))
    if contract.simultaneous > 1 and not (kind.per_declarer and declarers == 1):
        raise RulesError(
            r.sub("simultaneous"), gettext_noop("only a one-declarer misère or piccolo can be played by several")
        )
    if contract.exposed_fault and not (kind.per_declarer and declarers == 2):
        raise RulesError(r.sub("exposed_fault"), gettext_noop("only a misère in association can have an exposed fault"))
    if changed is not None and kind.per_declarer:
        raise RulesError(
            r.sub("needs_if_trump_changed"), gettext_noop("misère and piccolo need an exact number of tricks")
        )
    _check_tables(contract, r)
    return contract


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


def _check_tables(c: Contract, r: _Reader) -> None:
    """Every possible number of tricks must have exactly the figures it can use."""
    for tricks, can_make, can_fail in payout_cells(c):
        if can_make and tricks not in c.made:
            raise RulesError(
                r.sub(f"made.{tricks}"),
                gettext_noop("missing: the contract is made with %(tricks)s tricks"),
                tricks=tricks,
            )
        if not can_make and tricks in c.made:
            raise RulesError(
                r.sub(f"made.{tricks}"),
                gettext_noop("the contract cannot be made with %(tricks)s tricks"),
                tricks=tricks,
            )
        if can_fail and tricks not in c.failed:
            raise RulesError(
                r.sub(f"failed.{tricks}"),
                gettext_noop("missing: the contract fails with %(tricks)s tricks"),
                tricks=tricks,
            )
        if not can_fail and tricks in c.failed:
            raise RulesError(
                r.sub(f"failed.{tricks}"),
                gettext_noop("the contract cannot fail with %(tricks)s tricks"),
                tricks=tricks,
            )


def _players(r: _Reader) -> tuple[int, int]:
    p = _Reader(r.raw("players"), r.sub("players"))
    low, high = p.whole("min", 3, 7), p.whole("max", 3, 7)
    p.done()
    if high < low:
        raise RulesError(p.sub("max"), gettext_noop("must not be below min"))
    return low, high


def ruleset_from_dict(data: Any) -> Ruleset:
    """Build and validate a ruleset from its dict shape. Raises RulesError naming the key."""
    r = _Reader(data, "")
    key = r.text("key")
    family = r.choice("family", Family)
    names = r.names()
    low, high = _players(r)
    if family is Family.CONTRACT:
        contracts_data = r.raw("contracts")
        if not isinstance(contracts_data, Mapping) or not contracts_data:
            raise RulesError("contracts", gettext_noop("must be an object of contracts"))
        contracts = {k: contract_from_dict(k, v, f"contracts.{k}") for k, v in contracts_data.items()}
        bete_data = r.raw("bete")
        bete = None
        if bete_data is not None:
            b = _Reader(bete_data, "bete")
            bete = Bete(
                failure_floor=b.flag("failure_floor"), ante=b.whole("ante", 0, 1000), end=b.choice("end", BeteEnd)
            )
            b.done()
        rules: Ruleset = ContractRules(
            key=key,
            names=names,
            contracts=contracts,
            combination=r.choice("misere_combination", Combination),
            all_pass_multiplier=r.whole("all_pass_multiplier", 1, 10),
            bete=bete,
            min_players=low,
            max_players=high,
        )
        if low < 4:
            raise RulesError("players.min", gettext_noop("contract games are played by 4"))
        if bete is not None:
            for key, c in contracts.items():
                if c.simultaneous > 1:
                    raise RulesError(
                        f"contracts.{key}.simultaneous",
                        gettext_noop("with a bête only one contract is played per deal"),
                    )
                for tricks, row in c.made.items():
                    if row.declarer * c.declarers + row.opponent * (4 - c.declarers) != 0:
                        raise RulesError(
                            f"contracts.{key}.made.{tricks}",
                            gettext_noop("the declarers receive what the opponents pay: the row must balance"),
                        )
                for tricks, row in c.failed.items():
                    if row.declarer > 0 or row.opponent != 0:
                        raise RulesError(
                            f"contracts.{key}.failed.{tricks}",
                            gettext_noop("a failure pays into the bête: [minus the least payment, 0]"),
                        )
    else:
        h = _Reader(r.raw("honours"), "honours")
        cards = h.whole("cards", 4, 5)
        points_data = h.raw("points")
        if not isinstance(points_data, Mapping):
            raise RulesError("honours.points", gettext_noop("must be an object of honours held to points"))
        honours_points = {
            _tricks_key(k, f"honours.points.{k}"): check_int(v, f"honours.points.{k}", 0, 100)
            for k, v in points_data.items()
        }
        for held in honours_points:
            if held > cards:
                raise RulesError(
                    f"honours.points.{held}", gettext_noop("only %(cards)s honours are counted"), cards=cards
                )
        barred = h.raw("barred_at")
        if not isinstance(barred, list):
            raise RulesError("honours.barred_at", gettext_noop("must be a list of scores"))
        barred_at = tuple(check_int(v, "honours.barred_at", 0, 100) for v in barred)
        towards = h.flag("towards_manche")
        h.done()
        claim_data = r.raw("claim")
        claim_at, claim_points = None, 2
        if claim_data is not None:
            cl = _Reader(claim_data, "claim")
            claim_at, claim_points = cl.whole("at", 1, 99), cl.whole("points", 1, 99)
            cl.done()
        values_data = r.raw("manche_values")
        if not isinstance(values_data, list) or not values_data:
            raise RulesError("manche_values", gettext_noop("must be a list of [losers' points from, value]"))
        manche_values = []
        for i, pair in enumerate(values_data):
            if not isinstance(pair, list | tuple) or len(pair) != 2:
                raise RulesError(f"manche_values.{i}", gettext_noop("must be [losers' points from, value]"))
            manche_values.append(
                (check_int(pair[0], f"manche_values.{i}", 0), check_int(pair[1], f"manche_values.{i}", 0))
            )
        if [p[0] for p in manche_values] != sorted({p[0] for p in manche_values}) or manche_values[0][0] != 0:
            raise RulesError("manche_values", gettext_noop("thresholds must start at 0 and go up"))
        target = r.whole("manche_target", 1, 100)
        if claim_at is not None and claim_at >= target:
            raise RulesError("claim.at", gettext_noop("must be below the manche target"))
        rules = ClassicRules(
            key=key,
            names=names,
            dummy=r.flag("dummy"),
            book=r.whole("book", 0, 12),
            manche_target=target,
            honours_cards=cards,
            honours_points=honours_points,
            honours_towards_manche=towards,
            honours_barred_at=barred_at,
            claim_at=claim_at,
            claim_points=claim_points,
            scoring=r.choice("manche_scoring", ClassicScoring),
            manche_values=tuple(manche_values),
            manche_base=r.whole("manche_base", 0, 100),
            manches_to_win=r.whole("manches_to_win", 1, 5),
            robre_bonus=r.whole("robre_bonus", 0, 100),
            chelem_points=r.whole_or_none("chelem_points", 0, 1000),
            min_players=low,
            max_players=high,
        )
        if rules.dummy and (low, high) != (3, 3):
            raise RulesError("players", gettext_noop("whist with a dummy is played by 3"))
        if not rules.dummy and low < 4:
            raise RulesError("players.min", gettext_noop("classic whist is played by 4"))
    r.done()
    return rules


def merge(base: Any, override: Any, path: str = "") -> Any:
    """Deep-merge ``override`` into ``base`` (both dict shapes); unknown keys are errors naming the key.

    Objects merge key by key; a trick table (``made``/``failed``) may gain cells that
    the base lacks, because changing ``needs`` moves which cells exist. Any other value
    replaces the base value.
    """
    if not isinstance(override, Mapping):
        return override
    if not isinstance(base, Mapping):
        if base is None:
            return override
        raise RulesError(path, gettext_noop("must not be an object here"))
    open_keys = path.endswith((".made", ".failed", "honours.points"))
    merged = dict(base)
    for key, value in override.items():
        sub = f"{path}.{key}" if path else str(key)
        if key not in base and not open_keys:
            if path == "contracts":
                raise RulesError(sub, gettext_noop("unknown contract key"))
            raise RulesError(sub, gettext_noop("unknown key"))
        merged[key] = merge(base.get(key), value, sub) if key in base else value
        if value is None and open_keys:
            del merged[key]
    return merged
