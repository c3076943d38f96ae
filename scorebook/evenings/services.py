"""The bridge between the database and the scoring engine.

Views call these functions; they never compute points themselves. Every write
re-scores the evening with the engine inside the transaction, so an impossible
deal is refused before anything is saved.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from datetime import date as date_cls
from functools import cached_property
from decimal import Decimal
from typing import Any, NamedTuple

from django.db import IntegrityError, transaction
from django.utils import timezone

from scorebook.rules import evening_file, registry, settlement
from scorebook.rules.deals import Evening as EngineEvening
from scorebook.rules.evening_file import FileError
from scorebook.rules.model import to_dict
from scorebook.rules.scoring import DealError, DealResult, EveningResult, Scorer, score, scorer

from . import statements
from .models import Deal, DealRevision, Evening, Player, Seat


class StaleDeal(Exception):
    """The deal was changed by someone else since the form was shown."""

    def __init__(self, deal: Deal):
        self.deal = deal
        super().__init__(f"deal {deal.number} was changed in the meantime")


class EveningClosed(Exception):
    pass


def players_of(evening: Evening) -> list[str]:
    return [seat.name for seat in evening.seats.all()]


def file_dict(evening: Evening, deal_data: list[dict] | None = None, *, full_rules: bool = True) -> dict[str, Any]:
    """The evening in the evening-file shape; ``full_rules`` keeps the whole copy of the rules."""
    players = players_of(evening)
    if deal_data is None:
        deal_data = [d.data for d in evening.deals.all()]
    rules = evening.rules if full_rules else registry.diff(evening.ruleset, rules_of(evening))
    out = {
        "format": evening_file.FORMAT,
        "ruleset": evening.ruleset,
        "rules": rules,
        "date": evening.date.isoformat(),
        "players": players,
        "first_dealer": players[evening.first_dealer],
        "deals": deal_data,
    }
    if evening.stake is not None:
        out["stake"] = _stake_text(evening.stake)
        out["currency"] = evening.currency
    return out


def _stake_text(stake: Decimal) -> str:
    text = format(stake, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def rules_of(evening: Evening):
    """The evening's rules (its stored copy, resolved once per process)."""
    return registry.resolve(evening.ruleset, evening.rules)


def engine_evening(evening: Evening, deal_data: list[dict] | None = None) -> EngineEvening:
    return evening_file.from_dict(file_dict(evening, deal_data))


class Scored:
    """An evening scored by the engine: its state (which can take one more deal) and its result."""

    def __init__(self, state: Scorer):
        self.state = state

    @property
    def engine(self) -> EngineEvening:
        return self.state.evening

    @cached_property
    def result(self) -> EveningResult:
        return self.state.result()


# The scored state of the evenings this process served last, by (pk, version, updated_at):
# every change of a deal bumps the version and the time, so an entry is never out of date,
# only forgotten. Recording a deal then scores that deal alone; a page shows the totals
# without reading the deals again. Lost with the process, rebuilt by scoring the deals.
_STATES: OrderedDict[tuple, Scored] = OrderedDict()
_STATES_LOCK = threading.Lock()
KEPT_STATES = 128


def _state_key(evening: Evening) -> tuple:
    return (evening.pk, evening.version, evening.updated_at)


def _remember(evening: Evening, s: Scored) -> None:
    with _STATES_LOCK:
        _STATES[_state_key(evening)] = s
        _STATES.move_to_end(_state_key(evening))
        while len(_STATES) > KEPT_STATES:
            _STATES.popitem(last=False)


def forget_states(pk: int | None = None) -> None:
    """Drop the remembered states of evening ``pk`` (of every evening: None); for tests, the
    benchmark, and after changing deals behind the services' back."""
    with _STATES_LOCK:
        if pk is None:
            _STATES.clear()
        for key in [key for key in _STATES if key[0] == pk]:
            del _STATES[key]


def scored(evening: Evening, deal_data: list[dict] | None = None) -> Scored:
    """The evening scored: remembered from the last time at this version, else from its deals
    (``deal_data``: a candidate list of deals instead, neither remembered nor stored)."""
    if deal_data is not None:
        return Scored(scorer(engine_evening(evening, deal_data)))
    with _STATES_LOCK:
        remembered = _STATES.get(_state_key(evening))
    return remembered if remembered is not None else rescored(evening)


def rescored(evening: Evening) -> Scored:
    """The evening scored from its stored deals, whatever was remembered, and remembered."""
    s = Scored(scorer(engine_evening(evening)))
    _remember(evening, s)
    return s


def check(evening: Evening, deal_data: list[dict]) -> Scored:
    """Score a candidate list of deals; raises DealError or FileError naming the deal."""
    return scored(evening, deal_data)


# What other writers change on an evening row: read again once the row is locked.
_CHANGING = ("version", "updated_at", "status", "summary", "stake", "currency")


def _locked(evening: Evening) -> Evening:
    """A copy of ``evening`` whose row is locked until the end of the transaction, with the
    fields that other writers change read again under the lock."""
    row = Evening.objects.select_for_update().filter(pk=evening.pk).values(*_CHANGING).first()
    if row is None:
        raise Evening.DoesNotExist(f"evening {evening.pk} no longer exists")
    locked = copy.copy(evening)
    for name, value in row.items():
        setattr(locked, name, value)
    if not locked.is_open:
        raise EveningClosed()
    return locked


class _Changed(Exception):
    """The evening changed (or closed) since it was read: the change is made again under the lock."""


def _bump(evening: Evening, s: Scored, added: DealResult | None = None, *, unchanged: bool = False) -> None:
    """A deal changed: a new version, and the summary rebuilt from ``s`` in the same transaction.

    ``added``: the change was that one deal at the end; the summary before it is brought
    up to date instead of being rebuilt from every deal (the same figures, tested).
    ``unchanged``: the row is written only if it is still open and as it was read
    (version and time of the last change); otherwise ``_Changed``.
    """
    before, read = evening.summary, (evening.version, evening.updated_at)
    evening.version += 1
    evening.updated_at = timezone.now()
    summary = _summary_plus(evening, before, s, added) if added is not None else None
    evening.summary = summary or summarize(evening, s)
    if unchanged:
        if not statements.write_if_unchanged(evening, *read):
            raise _Changed()
    else:
        Evening.objects.filter(pk=evening.pk).update(
            version=evening.version, updated_at=evening.updated_at, summary=evening.summary
        )
    _remember(evening, s)  # under the new version: a rolled-back change leaves a key no evening has


def _new_stats() -> dict[str, Any]:
    return {"played": 0, "sat_out": 0, "best": None, "worst": None, "declared": {}}


def _count(stats: dict[str, dict], played_deals: int, deal: DealResult, players) -> int:
    """Add one deal to the players' statistics; returns the count of deals played at the table."""
    if not deal.playing:
        return played_deals  # adjustments and robre lines are not deals at the table
    for name in players:
        entry = stats[name]
        if name in deal.sitting_out:
            entry["sat_out"] += 1
            continue
        entry["played"] += 1
        delta = deal.deltas[name]
        entry["best"] = delta if entry["best"] is None else max(entry["best"], delta)
        entry["worst"] = delta if entry["worst"] is None else min(entry["worst"], delta)
    contract = getattr(deal.deal, "contract", None)
    for name, made in deal.outcomes.items():
        declared = stats[name]["declared"].setdefault(contract, [0, 0])
        declared[0] += 1
        declared[1] += int(made)
    return played_deals + 1


def _summary(evening: Evening, result: EveningResult, seats, stats, played_deals: int) -> dict[str, Any]:
    """``seats``: (position, player id, name) in seat order."""
    money = result.money(evening.stake) if evening.stake is not None else {}
    transfers = settlement.min_transfers(money) if evening.stake is not None else []
    return {
        "version": evening.version,
        "deals": played_deals,
        "pot": result.pot,
        "players": [
            {
                "seat": position,
                "player": player,
                "name": name,
                "points": result.totals[name],
                "money": str(money[name]) if money else None,
                **stats[name],
            }
            for position, player, name in seats
        ],
        "transfers": [{"from": t.payer, "to": t.payee, "amount": str(t.amount)} for t in transfers],
    }


def summarize(evening: Evening, s: Scored) -> dict[str, Any]:
    """What standings, statistics and lists need from an evening, derived from its deals."""
    result = s.result
    seats = [(seat.position, seat.player_id, seat.name) for seat in evening.seats.all()]
    stats = {name: _new_stats() for _position, _player, name in seats}
    played_deals = 0
    for deal in result.deals:
        played_deals = _count(stats, played_deals, deal, result.players)
    return _summary(evening, result, seats, stats, played_deals)


_STAT_KEYS = tuple(_new_stats())


def _summary_plus(evening: Evening, before: dict | None, s: Scored, added: DealResult) -> dict[str, Any] | None:
    """The summary before ``added`` plus that deal; None when that summary is not the one of the
    version just before (or not of these players), and everything must be counted again."""
    result = s.result
    if not before or before.get("version") != evening.version - 1:
        return None
    entries = before.get("players") or []
    if [e.get("name") for e in entries] != list(result.players):
        return None
    seats = [(e.get("seat"), e.get("player"), e["name"]) for e in entries]
    stats = {e["name"]: {k: e.get(k) for k in _STAT_KEYS} for e in entries}
    if any(not isinstance(st["declared"], dict) or st["played"] is None for st in stats.values()):
        return None
    for st in stats.values():
        st["declared"] = {contract: list(counts) for contract, counts in st["declared"].items()}
    played_deals = _count(stats, int(before.get("deals") or 0), added, result.players)
    return _summary(evening, result, seats, stats, played_deals)


def refresh_summary(evening: Evening) -> dict[str, Any]:
    evening.summary = summarize(evening, rescored(evening))
    evening.updated_at = timezone.now()
    Evening.objects.filter(pk=evening.pk).update(summary=evening.summary, updated_at=evening.updated_at)
    return evening.summary


class Recorded(NamedTuple):
    deal: Deal
    created: bool
    scored: Scored | None  # the evening after the deal (None when a repeated request changed nothing)


def record_deal(evening: Evening, data: dict, user, request_key: str = "") -> Recorded:
    """Append a deal; a repeated ``request_key`` returns the first deal and records nothing.

    Only the new deal is scored, on the evening's remembered state (``scored``); the
    state after it is remembered for the next deal and the page.

    First without a lock, on the evening as it was read: the deal row is inserted and the
    evening row updated only if it is still at that version. Anything else (another
    writer came first, the key was already used, the engine refuses the deal) is decided
    again with the row locked and read afresh; so the common case costs two statements.
    """
    if evening.is_open:
        try:
            with transaction.atomic():
                written = copy.copy(evening)
                recorded = _append(written, data, user, request_key, unchanged=True)
        except (_Changed, IntegrityError, DealError, FileError):
            pass
        else:
            evening.version, evening.summary, evening.updated_at = written.version, written.summary, written.updated_at
            return recorded
    with transaction.atomic():
        locked = _locked(evening)
        if request_key:
            existing = Deal.objects.filter(evening=locked, request_key=request_key).first()
            if existing is not None:
                return Recorded(existing, False, None)
        recorded = _append(locked, data, user, request_key)
    evening.version, evening.summary, evening.updated_at = locked.version, locked.summary, locked.updated_at
    return recorded


def _append(evening: Evening, data: dict, user, request_key: str, *, unchanged: bool = False) -> Recorded:
    """Score the deal on the evening's state, insert it, and bump ``evening`` (see ``_bump``)."""
    before = scored(evening)
    s = Scored(before.state.then(evening_file.parse_deal(data, before.engine)))
    deal = Deal(evening=evening, number=len(s.engine.deals), data=data, recorded_by=_user(user), request_key=request_key)
    statements.insert(deal)
    _bump(evening, s, added=s.result.deals[-1], unchanged=unchanged)
    return Recorded(deal, True, s)


def edit_deal(
    evening: Evening, number: int, data: dict, user, expected_version: int | None, expected_id: int | None = None
) -> Deal:
    """Replace deal ``number`` and re-score everything after it; refused if the deal changed meanwhile."""
    with transaction.atomic():
        locked = _locked(evening)
        deals = list(locked.deals.all())
        deal = deals[number - 1]
        if (expected_version is not None and deal.version != expected_version) or (
            expected_id is not None and deal.pk != expected_id
        ):
            raise StaleDeal(deal)
        candidate = [d.data for d in deals]
        before = candidate[number - 1]
        candidate[number - 1] = data
        s = check(locked, candidate)
        deal.data = data
        deal.version += 1
        deal.save(update_fields=["data", "version"])
        _bump(locked, s)
        DealRevision.objects.create(
            evening=locked,
            number=number,
            action=DealRevision.Action.CORRECTED,
            before=before,
            after=data,
            by=_user(user),
            evening_version=locked.version,
        )
    return deal


def delete_deal(evening: Evening, number: int, user, expected_id: int | None = None) -> DealRevision:
    """Delete deal ``number``; ``expected_id`` guards against a list that changed since it was shown."""
    with transaction.atomic():
        locked = _locked(evening)
        deals = list(locked.deals.all())
        deal = deals[number - 1]
        if expected_id is not None and deal.pk != expected_id:
            raise StaleDeal(deal)
        candidate = [d.data for d in deals]
        removed = candidate.pop(number - 1)
        s = check(locked, candidate)
        deal.delete()
        for later in deals[number:]:  # renumber in order: numbers stay unique at every step
            Deal.objects.filter(pk=later.pk).update(number=later.number - 1)
        _bump(locked, s)
        revision = DealRevision.objects.create(
            evening=locked,
            number=number,
            action=DealRevision.Action.DELETED,
            before=removed,
            by=_user(user),
            evening_version=locked.version,
        )
    return revision


def restore_deal(evening: Evening, revision: DealRevision, user) -> Deal:
    """Undo a deletion: the deal goes back at its number, the later ones move up."""
    with transaction.atomic():
        locked = _locked(evening)
        deals = list(locked.deals.all())
        number = min(revision.number, len(deals) + 1)
        candidate = [d.data for d in deals]
        candidate.insert(number - 1, revision.before)
        s = check(locked, candidate)
        for later in reversed(deals[number - 1 :]):
            Deal.objects.filter(pk=later.pk).update(number=later.number + 1)
        deal = Deal.objects.create(evening=locked, number=number, data=revision.before, recorded_by=_user(user))
        revision.delete()
        _bump(locked, s)
        DealRevision.objects.create(
            evening=locked,
            number=number,
            action=DealRevision.Action.RESTORED,
            after=revision.before,
            by=_user(user),
            evening_version=locked.version,
        )
    return deal


def _user(user):
    return user if user is not None and user.is_authenticated else None


def player_named(name: str, user, club=None) -> Player:
    """The roster player of that name (the club's, or the user's private book), created if new."""
    if club is not None:
        players = Player.objects.filter(club=club)
    else:
        players = Player.objects.filter(club__isnull=True, created_by=_user(user))
    existing = players.filter(name__iexact=name).order_by("pk").first()
    return existing or Player.objects.create(name=name, club=club, created_by=_user(user))


def create_evening(
    *,
    ruleset: str,
    players: list[str],
    first_dealer: int,
    stake: Decimal | None,
    currency: str,
    date: date_cls,
    user,
    rules: dict | None = None,
    club=None,
) -> Evening:
    """Start an evening with a copy of the rules: the preset, with the house rules given on top.

    In a club, the club's house rules for that variant apply when no rules are given.
    """
    if rules is None and club is not None:
        house = club.house_rules.filter(ruleset=ruleset).first()
        rules = house.overrides if house else None
    rules_copy = to_dict(registry.resolve(ruleset, rules or {}))
    with transaction.atomic():
        evening = Evening.objects.create(
            ruleset=ruleset,
            rules=rules_copy,
            date=date,
            stake=stake,
            currency=currency,
            first_dealer=first_dealer,
            owner=_user(user),
            club=club,
        )
        for position, name in enumerate(players):
            player = player_named(name, user, club)
            Seat.objects.create(evening=evening, player=player, position=position, name=player.name)
        refresh_summary(evening)
    return evening


def import_evening(text: str | bytes, user, club=None) -> Evening:
    """Create an evening from an evening file; raises FileError or DealError (nothing saved)."""
    engine = evening_file.loads(text)
    score(engine)  # every deal valid before anything is written
    data = evening_file.to_dict(engine)
    try:
        with transaction.atomic():
            evening = create_evening(
                ruleset=engine.rules.key,
                players=list(engine.players),
                first_dealer=engine.players.index(engine.first_dealer),
                stake=engine.stake,
                currency=engine.currency,
                date=engine.date or timezone.localdate(),
                user=user,
                rules=data["rules"],
                club=club,
            )
            for number, deal in enumerate(data["deals"], start=1):
                Deal.objects.create(evening=evening, number=number, data=deal, recorded_by=_user(user))
            refresh_summary(evening)
    except IntegrityError as exc:  # pragma: no cover - a database refusal is reported, never half-saved
        raise FileError(0, f"the evening could not be saved: {exc}") from None
    return evening


def export_text(evening: Evening) -> str:
    """The evening file of an evening (rules as the changes from the preset)."""
    return evening_file.dumps(engine_evening(evening))


__all__ = [
    "DealError",
    "FileError",
    "StaleDeal",
    "EveningClosed",
    "scored",
    "check",
    "record_deal",
    "edit_deal",
    "delete_deal",
    "restore_deal",
    "create_evening",
    "import_evening",
    "export_text",
]
