"""A ruleset read back from its dict shape (``model.to_dict``), every figure checked: a fault is a
``RulesError`` naming its key, the first in the order the keys are read; and house-rule overrides
merged into a preset's shape (``merge``). Plain Python."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from .messages import gettext_noop
from .model import (
    MAX_TRICKS,
    Bete,
    BeteEnd,
    ClassicRules,
    ClassicScoring,
    Combination,
    Contract,
    ContractRules,
    Family,
    Kind,
    Names,
    Payout,
    RulesError,
    Ruleset,
    payout_cells,
)


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
    """Build and validate a ruleset from its dict shape. Raises RulesError naming the key (the first
    fault in the order the keys are read)."""
    r = _Reader(data, "")
    key = r.text("key")
    family = r.choice("family", Family)
    names = r.names()
    low, high = _players(r)
    rules = (
        _contract_rules(r, key, names, low, high)
        if family is Family.CONTRACT
        else _classic_rules(r, key, names, low, high)
    )
    r.done()
    return rules


def _contract_rules(r: _Reader, key: str, names: Names, low: int, high: int) -> ContractRules:
    """The contracts, the bête and the whole-game figures of a contract game."""
    contracts_data = r.raw("contracts")
    if not isinstance(contracts_data, Mapping) or not contracts_data:
        raise RulesError("contracts", gettext_noop("must be an object of contracts"))
    contracts = {k: contract_from_dict(k, v, f"contracts.{k}") for k, v in contracts_data.items()}
    bete_data = r.raw("bete")
    bete = None
    if bete_data is not None:
        b = _Reader(bete_data, "bete")
        bete = Bete(failure_floor=b.flag("failure_floor"), ante=b.whole("ante", 0, 1000), end=b.choice("end", BeteEnd))
        b.done()
    rules = ContractRules(
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
        _check_bete_grids(contracts)
    return rules


def _check_bete_grids(contracts: dict[str, Contract]) -> None:
    """With a bête: one contract a deal, rows that balance, failures paid into the bête."""
    for key, c in contracts.items():
        if c.simultaneous > 1:
            raise RulesError(
                f"contracts.{key}.simultaneous", gettext_noop("with a bête only one contract is played per deal")
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


def _classic_rules(r: _Reader, key: str, names: Names, low: int, high: int) -> ClassicRules:
    """The manche, robre, honours and claim of classic whist."""
    cards, honours_points, barred_at, towards = _honours(r)
    claim_data = r.raw("claim")
    claim_at, claim_points = None, 2
    if claim_data is not None:
        cl = _Reader(claim_data, "claim")
        claim_at, claim_points = cl.whole("at", 1, 99), cl.whole("points", 1, 99)
        cl.done()
    manche_values = _manche_values(r)
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
        manche_values=manche_values,
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
    return rules


def _honours(r: _Reader) -> tuple[int, dict[int, int], tuple[int, ...], bool]:
    """The honours: how many cards count, their points by how many are held, the scores at which
    they are barred, whether they count towards the manche."""
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
            raise RulesError(f"honours.points.{held}", gettext_noop("only %(cards)s honours are counted"), cards=cards)
    barred = h.raw("barred_at")
    if not isinstance(barred, list):
        raise RulesError("honours.barred_at", gettext_noop("must be a list of scores"))
    barred_at = tuple(check_int(v, "honours.barred_at", 0, 100) for v in barred)
    towards = h.flag("towards_manche")
    h.done()
    return cards, honours_points, barred_at, towards


def _manche_values(r: _Reader) -> tuple[tuple[int, int], ...]:
    """What a manche is worth by the losers' points: [from, value] pairs, from 0 up."""
    values_data = r.raw("manche_values")
    if not isinstance(values_data, list) or not values_data:
        raise RulesError("manche_values", gettext_noop("must be a list of [losers' points from, value]"))
    manche_values = []
    for i, pair in enumerate(values_data):
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise RulesError(f"manche_values.{i}", gettext_noop("must be [losers' points from, value]"))
        manche_values.append((check_int(pair[0], f"manche_values.{i}", 0), check_int(pair[1], f"manche_values.{i}", 0)))
    if [p[0] for p in manche_values] != sorted({p[0] for p in manche_values}) or manche_values[0][0] != 0:
        raise RulesError("manche_values", gettext_noop("thresholds must start at 0 and go up"))
    return tuple(manche_values)


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
