"""The evening file (``docs/evening-file.md``): parse and validate, export, and the score report.

Unknown keys are refused with an error naming the key and the deal, so that a typo
cannot change a score. Its JSON Schema is declared in ``evening_schema`` from the constants below.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, NoReturn

from . import registry, settlement
from .deals import Adjustment, Claim, ClassicDeal, ContractDeal, Deal, Evening, Pass, RobreStart
from .messages import EngineError, gettext_noop
from .model import ClassicRules, RulesError, Ruleset, Trump
from .scoring import BETE, DealError, EveningResult, score

FORMAT = "scorebook-evening/1"
TOP_KEYS = {"format", "ruleset", "rules", "date", "players", "first_dealer", "stake", "currency", "deals"}
REQUIRED = ("format", "ruleset", "players", "deals")
CONTRACT_KEYS = {"contract", "declarers", "tricks", "dealer", "playing", "trump", "trump_changed", "exposed_fault"}
MAX_PLAYER_NAME = 40
MAX_DEALS = 2000
MAX_DEPTH = 12  # the deepest the format goes is 6 (house rules); a hostile file may nest far deeper
MAX_NUMBER_CHARS = 15  # no figure of an evening has more digits than this
CURRENCY = re.compile(r"^[A-Z]{3}$")  # ISO 4217
STAKE = re.compile(r"^[0-9]+(\.[0-9]+)?$")  # a decimal as people write it: no sign, exponent or spaces
DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


class FileError(EngineError):
    """An evening file that cannot be read. ``number`` is the deal (1-based), 0 for the file itself.

    ``template`` (marked with ``gettext_noop``) and ``params`` give the translatable
    message, ``message`` the English text.
    """

    def __init__(self, number: int, template: str, **params: object):
        self.number = number
        super().__init__(template, params, f"deal {number}: " if number else "")


def loads(text: str | bytes) -> Evening:
    return from_dict(parse_json(text))


def parse_json(text: str | bytes) -> Any:
    """JSON as this format allows it: no key twice in one object, no nesting deeper than
    MAX_DEPTH, no number longer than MAX_NUMBER_CHARS, no NaN or Infinity. Raises FileError."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise FileError(0, gettext_noop("not a JSON document: %(detail)s"), detail=str(exc)) from None
    _check_depth(text)
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_int=_number(int),
            parse_float=_number(float),
            parse_constant=_constant,
        )
    except json.JSONDecodeError as exc:
        raise FileError(0, gettext_noop("not a JSON document: %(detail)s"), detail=str(exc)) from None


def _check_depth(text: str) -> None:
    """Counted without recursion (the JSON parser itself would overflow the stack)."""
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub("", text)):
        if bracket.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise FileError(0, gettext_noop("the file nests deeper than %(count)s levels"), count=MAX_DEPTH)
        else:
            depth -= 1


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise FileError(0, gettext_noop("the key %(key)r is given twice in one object"), key=key)
        out[key] = value
    return out


def _number(kind: Callable[[str], float]) -> Callable[[str], float]:
    def parse(literal: str) -> float:
        if len(literal) > MAX_NUMBER_CHARS:
            raise FileError(
                0,
                gettext_noop("the number %(start)s… has more than %(count)s characters"),
                start=literal[:8],
                count=MAX_NUMBER_CHARS,
            )
        return kind(literal)

    return parse


def _constant(name: str) -> NoReturn:
    raise FileError(0, gettext_noop("%(name)s is not a number this format allows"), name=name)


def from_dict(data: Any) -> Evening:
    if not isinstance(data, Mapping):
        raise FileError(0, gettext_noop("the evening file must be a JSON object"))
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise FileError(0, gettext_noop("unknown key %(key)r"), key=unknown[0])
    for key in REQUIRED:
        if key not in data:
            raise FileError(0, gettext_noop("the key %(key)r is missing"), key=key)
    if data["format"] != FORMAT:
        raise FileError(0, gettext_noop("format must be %(format)r"), format=FORMAT)
    overrides = data.get("rules")
    if overrides is None:
        overrides = {}
    elif not isinstance(overrides, Mapping):
        raise FileError(0, gettext_noop("rules: %(reason)s"), reason=RulesError("", gettext_noop("must be an object")))
    if not isinstance(data["ruleset"], str):
        raise FileError(0, gettext_noop("ruleset must be a preset key"))
    try:
        rules = registry.resolve(data["ruleset"], overrides)
    except RulesError as exc:
        if exc.path == "ruleset":  # an unknown variant: its own message
            raise FileError(0, exc.template, **exc.params) from None
        if exc.path:
            raise FileError(0, gettext_noop("rules: %(path)s: %(reason)s"), path=exc.path, reason=exc) from None
        raise FileError(0, gettext_noop("rules: %(reason)s"), reason=exc) from None
    players = _players(data["players"])
    first_dealer = data.get("first_dealer", players[0] if players else None)
    if not isinstance(first_dealer, str) or first_dealer not in players:
        raise FileError(0, gettext_noop("first_dealer %(name)r is not one of the players"), name=first_dealer)
    stake = _stake(data.get("stake"))
    currency = data.get("currency", "EUR")
    if not isinstance(currency, str) or not CURRENCY.fullmatch(currency):
        raise FileError(0, gettext_noop("currency must be three capital letters (ISO 4217), such as EUR"))
    evening_date = None
    if data.get("date") is not None:
        try:
            if not isinstance(data["date"], str) or not DATE.fullmatch(data["date"]):
                raise ValueError(data["date"])
            evening_date = date.fromisoformat(data["date"])
        except (TypeError, ValueError):
            raise FileError(0, gettext_noop("date must be written YYYY-MM-DD")) from None
    raw_deals = data["deals"]
    if not isinstance(raw_deals, list):
        raise FileError(0, gettext_noop("deals must be a list"))
    if len(raw_deals) > MAX_DEALS:
        raise FileError(0, gettext_noop("an evening holds at most %(count)s deals"), count=MAX_DEALS)
    parse = _parser(rules)
    deals = tuple(parse(raw, number, players) for number, raw in enumerate(raw_deals, start=1))
    return Evening(
        rules=rules,
        players=players,
        first_dealer=first_dealer,
        deals=deals,
        stake=stake,
        currency=currency,
        date=evening_date,
        overrides=overrides,
    )


def parse_deal(raw: Any, evening: Evening, number: int | None = None) -> Deal:
    """Deal ``number`` of ``evening`` (by default one more after its deals), in the file's shape;
    a FileError names it by its number."""
    return _parser(evening.rules)(raw, len(evening.deals) + 1 if number is None else number, evening.players)


def _parser(rules: Ruleset) -> Callable[[Any, int, tuple[str, ...]], Deal]:
    return _classic_deal if isinstance(rules, ClassicRules) else _contract_deal


def _players(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise FileError(0, gettext_noop("players must be a list of names"))
    names = tuple(p.strip() for p in raw)
    if any(not name for name in names):
        raise FileError(0, gettext_noop("a player's name cannot be empty"))
    if any(not name.isprintable() for name in names):
        raise FileError(0, gettext_noop("a player's name cannot hold control characters"))
    if BETE in names:
        raise FileError(0, gettext_noop("%(name)s is the name of the pot, not of a player"), name=BETE)
    if any(len(name) > MAX_PLAYER_NAME for name in names):
        raise FileError(0, gettext_noop("a player's name has at most %(count)s characters"), count=MAX_PLAYER_NAME)
    if len(set(names)) != len(names):
        raise FileError(0, gettext_noop("player names must be unique within the evening"))
    if names != tuple(raw):
        raise FileError(0, gettext_noop("player names cannot start or end with spaces"))
    return names


def _stake(raw: Any) -> Decimal | None:
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise FileError(0, gettext_noop('stake must be a decimal written as a string, such as "0.05"'))
    try:
        stake = Decimal(raw)
    except InvalidOperation:
        raise FileError(0, gettext_noop("stake %(stake)r is not a decimal number"), stake=raw) from None
    if not stake.is_finite() or stake < 0 or stake > 10_000:
        raise FileError(0, gettext_noop("stake %(stake)r must be between 0 and 10000"), stake=raw)
    if not STAKE.fullmatch(raw):  # "1e-2", " 0.05", "+5": not as the format writes a decimal
        raise FileError(0, gettext_noop("stake %(stake)r is not a decimal number"), stake=raw)
    return stake


class _DealReader:
    def __init__(self, raw: Any, number: int, players: tuple[str, ...], allowed: set[str]):
        if not isinstance(raw, Mapping):
            raise FileError(number, gettext_noop("a deal must be an object"))
        unknown = sorted(set(raw) - allowed)
        if unknown:
            raise FileError(number, gettext_noop("unknown key %(key)r"), key=unknown[0])
        self.raw, self.number, self.players = raw, number, players

    def error(self, template: str, **params: object) -> FileError:
        return FileError(self.number, template, **params)

    def name(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            raise self.error(gettext_noop("%(key)s: a player's name is expected"), key=key)
        if value not in self.players:
            raise self.error(gettext_noop("%(key)s: %(name)r is not at the table"), key=key, name=value)
        return value

    def names(self, key: str) -> tuple[str, ...]:
        value = self.raw[key]
        if not isinstance(value, list) or not value:
            raise self.error(gettext_noop("%(key)s must be a list of players"), key=key)
        return tuple(self.name(v, key) for v in value)

    def int(self, value: Any, key: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(gettext_noop("%(key)s must be a whole number"), key=key)
        return value

    def optional_name(self, key: str) -> str | None:
        return None if self.raw.get(key) is None else self.name(self.raw[key], key)


def _contract_deal(raw: Any, number: int, players: tuple[str, ...]) -> Deal:
    if isinstance(raw, Mapping) and "adjustment" in raw:
        return _adjustment(raw, number, players)
    r = _DealReader(raw, number, players, CONTRACT_KEYS)
    if "contract" not in raw:
        raise r.error(gettext_noop('a deal needs a contract (or "pass", or an adjustment)'))
    contract = raw["contract"]
    if not isinstance(contract, str):
        raise r.error(gettext_noop("contract must be a contract key"))
    playing = r.names("playing") if raw.get("playing") is not None else None
    dealer = r.optional_name("dealer")
    if contract == "pass":
        extra = sorted(set(raw) - {"contract", "dealer", "playing"})
        if extra:
            raise r.error(gettext_noop("a pass has no %(key)r"), key=extra[0])
        return Pass(dealer=dealer, playing=playing)
    for key in ("declarers", "tricks"):
        if key not in raw:
            raise r.error(gettext_noop("%(contract)s: %(key)s is missing"), contract=contract, key=key)
    tricks_raw = raw["tricks"]
    if isinstance(tricks_raw, Mapping):
        given = {r.name(k, "tricks"): r.int(v, "tricks") for k, v in tricks_raw.items()}
        tricks: int | dict[str, int] = {p: given[p] for p in players if p in given}  # seat order
    else:
        tricks = r.int(tricks_raw, "tricks")
    trump = None
    if raw.get("trump") is not None:
        try:
            trump = Trump(raw["trump"])
        except ValueError:
            raise r.error(
                gettext_noop("trump must be one of %(allowed)s"), allowed=", ".join(t.value for t in Trump)
            ) from None
    trump_changed = raw.get("trump_changed", False)
    if not isinstance(trump_changed, bool):
        raise r.error(gettext_noop("trump_changed must be true or false"))
    return ContractDeal(
        contract=contract,
        declarers=r.names("declarers"),
        tricks=tricks,
        dealer=dealer,
        playing=playing,
        trump=trump,
        trump_changed=trump_changed,
        exposed_fault=r.optional_name("exposed_fault"),
    )


def _adjustment(raw: Mapping[str, Any], number: int, players: tuple[str, ...]) -> Adjustment:
    r = _DealReader(raw, number, players, {"adjustment", "note"})
    points = raw["adjustment"]
    if not isinstance(points, Mapping) or not points:
        raise r.error(gettext_noop('an adjustment gives points to players: {"Anne": -5}'))
    note = raw.get("note", "")
    if not isinstance(note, str) or len(note) > 200:
        raise r.error(gettext_noop("note must be a text of at most 200 characters"))
    given = {r.name(k, "adjustment"): r.int(v, "adjustment") for k, v in points.items()}
    return Adjustment({p: given[p] for p in players if p in given}, note)  # seat order


def _pair(r: _DealReader, key: str) -> tuple[int, int]:
    value = r.raw[key]
    if not isinstance(value, list) or len(value) != 2:
        raise r.error(gettext_noop("%(key)s must be [team 0, team 1]"), key=key)
    return (r.int(value[0], key), r.int(value[1], key))


def _classic_deal(raw: Any, number: int, players: tuple[str, ...]) -> Deal:
    if isinstance(raw, Mapping) and "adjustment" in raw:
        return _adjustment(raw, number, players)
    if isinstance(raw, Mapping) and "robre" in raw:
        r = _DealReader(raw, number, players, {"robre"})
        spec = raw["robre"]
        if not isinstance(spec, Mapping) or set(spec) - {"teams", "dummy_partner"} or not spec:
            raise r.error(gettext_noop('robre must be {"teams": [[a, b], [c, d]]} or {"dummy_partner": name}'))
        if "dummy_partner" in spec:
            return RobreStart(dummy_partner=r.name(spec["dummy_partner"], "dummy_partner"))
        teams = spec["teams"]
        if not isinstance(teams, list) or len(teams) != 2 or any(not isinstance(t, list) or len(t) != 2 for t in teams):
            raise r.error(gettext_noop("robre teams must be two teams of two players"))
        (a, b), (c, d) = ([r.name(p, "teams") for p in team] for team in teams)
        return RobreStart(teams=((a, b), (c, d)))
    if isinstance(raw, Mapping) and "claim" in raw:
        r = _DealReader(raw, number, players, {"claim", "dealer"})
        team = r.int(raw["claim"], "claim")
        return Claim(team=team, dealer=r.optional_name("dealer"))
    r = _DealReader(raw, number, players, {"tricks", "honours", "dealer"})
    if "tricks" not in raw:
        raise r.error(
            gettext_noop(
                "a deal of classic whist gives the tricks of the two teams (or a robre, a claim, an adjustment)"
            )
        )
    honours = _pair(r, "honours") if "honours" in raw else (0, 0)
    return ClassicDeal(tricks=_pair(r, "tricks"), honours=honours, dealer=r.optional_name("dealer"))


# --- export ---------------------------------------------------------------------------


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    out: dict[str, Any]
    if isinstance(deal, Adjustment):
        out = {"adjustment": dict(deal.points)}
        if deal.note:
            out["note"] = deal.note
        return out
    if isinstance(deal, RobreStart):
        if deal.dummy_partner is not None or deal.teams is None:
            return {"robre": {"dummy_partner": deal.dummy_partner}}
        return {"robre": {"teams": [list(team) for team in deal.teams]}}
    if isinstance(deal, Claim):
        out = {"claim": deal.team}
    elif isinstance(deal, ClassicDeal):
        out = {"tricks": list(deal.tricks), "honours": list(deal.honours)}
    elif isinstance(deal, Pass):
        out = {"contract": "pass"}
    else:
        out = {
            "contract": deal.contract,
            "declarers": list(deal.declarers),
            "tricks": dict(deal.tricks) if isinstance(deal.tricks, Mapping) else deal.tricks,
        }
        if deal.trump is not None:
            out["trump"] = str(deal.trump)
        if deal.trump_changed:
            out["trump_changed"] = True
        if deal.exposed_fault is not None:
            out["exposed_fault"] = deal.exposed_fault
    if isinstance(deal, ContractDeal | Pass) and deal.playing is not None:
        out["playing"] = list(deal.playing)
    if deal.dealer is not None:
        out["dealer"] = deal.dealer
    return out


def to_dict(evening: Evening) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": evening.rules.key,
        "rules": registry.diff(evening.rules.key, evening.rules),
    }
    if evening.date is not None:
        out["date"] = evening.date.isoformat()
    out["players"] = list(evening.players)
    out["first_dealer"] = evening.first_dealer
    if evening.stake is not None:
        out["stake"] = str(evening.stake)
    out["currency"] = evening.currency
    out["deals"] = [deal_to_dict(d) for d in evening.deals]
    return out


def dumps(evening: Evening) -> str:
    return json.dumps(to_dict(evening), ensure_ascii=False, indent=2) + "\n"


# --- the score report ----------------------------------------------------------------


def report(evening: Evening, result: EveningResult | None = None) -> dict[str, Any]:
    """What ``manage.py score FILE`` prints."""
    result = result or score(evening)
    out: dict[str, Any] = {
        "totals": dict(result.totals),
        "deals": [{"deltas": {p: d for p, d in r.deltas.items() if d}, "pot": r.pot} for r in result.deals],
        "pot": result.pot,
    }
    if evening.stake is not None:
        money = result.money(evening.stake)
        out["money"] = {p: str(money[p]) for p in evening.players}
        out["transfers"] = settlement.transfer_rows(result.transfers(evening.stake))
    return out


def score_file(text: str | bytes) -> dict[str, Any]:
    """Parse, validate and score; raises FileError or DealError."""
    return report(loads(text))


__all__ = ["DealError", "FileError", "dumps", "from_dict", "loads", "parse_json", "report", "score_file", "to_dict"]
