"""The bridge between the database and the scoring engine.

Views call these functions; they never compute points themselves. Every write is one
function here: inside ``transaction.atomic()`` it locks the evening's row, scores the
evening's deals with the change, refuses it (``DealError``) before anything is saved,
writes the deal and the evening's summary, and bumps the evening's version. The deals
are the truth; the summary is what standings, the ledger and lists read of an
evening, kept by the same transaction and rebuilt from the deals when it disagrees.
"""

from __future__ import annotations

import json
import secrets
from datetime import date as date_cls
from decimal import Decimal
from functools import cached_property
from typing import Any, NamedTuple

from django.db import IntegrityError, transaction
from django.utils import timezone

from scorebook.clubs.models import Player
from scorebook.rules import evening_file, registry, settlement
from scorebook.rules.deals import Evening as EngineEvening
from scorebook.rules.evening_file import FileError
from scorebook.rules.messages import gettext_noop
from scorebook.rules.model import to_dict
from scorebook.rules.scoring import DealError, DealResult, EveningResult, Scorer, score, scorer

from .models import Deal, DealRevision, Evening, Payment, Seat, link_token_hash, new_link_token


class StaleDeal(Exception):
    """The deal was changed by someone else since the form was shown."""

    def __init__(self, deal: Deal):
        self.deal = deal
        super().__init__(f"deal {deal.number} was changed in the meantime")


class EveningClosed(Exception):
    pass


class AdminReopens(Exception):
    """The evening was closed by an admin of its club (or arrived closed): only an admin reopens it."""


class HasDeals(Exception):
    """An evening with deals is never deleted (it can be archived)."""


class NotDue(Exception):
    """A payment the evening's settlement does not ask for (the page was out of date)."""


class Inconsistent(Exception):
    """The stored deals still disagree with the evening after it was rebuilt from them."""


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
    """The evening's rules, from its stored copy."""
    return registry.resolve(evening.ruleset, evening.rules)


def engine_evening(evening: Evening, deal_data: list[dict] | None = None) -> EngineEvening:
    return evening_file.from_dict(file_dict(evening, deal_data))


class Scored:
    """An evening scored by the engine from its deals: the engine's state (which can take
    one more deal), its result, and the stored deals in order (their ids for the pages)."""

    def __init__(self, state: Scorer, deals: list[Deal] | None = None):
        self.state = state
        self.deals = deals or []

    @property
    def engine(self) -> EngineEvening:
        return self.state.evening

    @cached_property
    def result(self) -> EveningResult:
        return self.state.result()

    def then(self, deal_data: dict, deal: Deal | None = None) -> Scored:
        """The evening after one more deal (raises DealError or FileError naming it)."""
        state = self.state.then(evening_file.parse_deal(deal_data, self.engine))
        return Scored(state, self.deals + [deal] if deal is not None else self.deals)


def scored(evening: Evening) -> Scored:
    """The evening scored from its stored deals (two queries: the seats, the deals)."""
    deals = list(evening.deals.all())
    return Scored(scorer(engine_evening(evening, [d.data for d in deals])), deals)


def check(evening: Evening, deal_data: list[dict]) -> Scored:
    """Score a candidate list of deals; raises DealError or FileError naming the deal."""
    return Scored(scorer(engine_evening(evening, deal_data)))


def _locked(evening: Evening) -> Evening:
    """The evening's row, read again and locked until the end of the transaction
    (``select_for_update`` on PostgreSQL; SQLite's transactions are immediate)."""
    locked = Evening.objects.select_for_update().prefetch_related("seats").get(pk=evening.pk)
    if not locked.is_open:
        raise EveningClosed()
    return locked


MONEY_LIMIT = Decimal("9999999999.99")  # the most Payment.amount holds (12 digits, 2 decimals)


def _check_money(evening: Evening, s: Scored) -> None:
    """Refuse a change that would take a player's money (and so a transfer, a payment, a ledger
    line) beyond what the database stores: where deals, adjustments and the stake meet."""
    if evening.stake is None:
        return
    money = s.result.money(evening.stake)
    if any(abs(amount) > MONEY_LIMIT for amount in money.values()):
        raise DealError(
            len(s.result.deals),
            gettext_noop("this would take a player's money beyond %(limit)s: check the points and the stake"),
            limit=f"{MONEY_LIMIT:,}",
        )


def _saved(evening: Evening, s: Scored) -> None:
    """A deal changed: a new version, and the summary rebuilt from ``s``, in the transaction."""
    _check_money(evening, s)
    evening.version += 1
    evening.updated_at = timezone.now()
    evening.summary = summarize(evening, s)
    evening.save(update_fields=["version", "updated_at", "summary"])
    _keep_seats(evening)


SEAT_FIGURES = [
    "took_part",
    "points",
    "place",
    "played",
    "sat_out",
    "best_deal",
    "worst_deal",
    "money",
    "declared",
    "unpaid",
    "open_transfers",
]


def open_transfers(transfers, names: list[str], payments) -> list[settlement.Transfer]:
    """The transfers still open: a summary's ``transfers`` netted against ``payments`` (anything with
    ``payer``, ``payee`` and ``amount``; rules.md 4), ties settled in seat order (``names``)."""
    due = [settlement.Transfer(t["from"], t["to"], Decimal(t["amount"])) for t in transfers or ()]
    if not payments:
        return due
    paid = [settlement.Transfer(p.payer, p.payee, p.amount) for p in payments]
    return settlement.remaining_transfers(settlement.balances_of(due, order=names), paid)


def seat_figures(summary: dict | None, seats: list[Seat], payments) -> None:
    """Set on ``seats`` (one evening's, in seat order) their figures as the evening's ``summary``
    says, and what is still open for each after ``payments`` (no query). The one place where the
    per-seat figures are derived: every write, ``refresh_summary`` and bulk loaders call it."""
    summary = summary or {}
    entries = {e.get("seat"): e for e in summary.get("players") or ()}
    taking = [e for e in entries.values() if e.get("took_part", True)]
    counts = bool(summary.get("deals")) and bool(taking)
    still_open = open_transfers(summary.get("transfers"), [seat.name for seat in seats], payments)
    for seat in seats:
        entry = entries.get(seat.position) or {}
        points = int(entry.get("points") or 0)
        seat.took_part = bool(entry.get("took_part", True))
        seat.points = points
        seat.place = 1 + sum(int(e.get("points") or 0) > points for e in taking) if counts and seat.took_part else None
        seat.played = int(entry.get("played") or 0)
        seat.sat_out = int(entry.get("sat_out") or 0)
        seat.best_deal = entry.get("best")
        seat.worst_deal = entry.get("worst")
        money = entry.get("money")
        seat.money = Decimal(str(money)) if money not in (None, "") else None
        seat.declared = entry.get("declared") or {}
        mine = [t for t in still_open if seat.name in (t.payer, t.payee)]
        seat.unpaid = sum((t.amount if t.payee == seat.name else -t.amount for t in mine), Decimal("0.00"))
        seat.open_transfers = len(mine)


def _figures_of(seat: Seat) -> tuple:
    return tuple(getattr(seat, name) for name in SEAT_FIGURES)


def _keep_seats(evening: Evening) -> None:
    """Every seat's figures as the evening's summary and payments say, in the transaction that
    changed them (one ``bulk_update``, none when nothing changed): what the lists ("whose evening
    was it") and the player page read from the seats."""
    seats = list(evening.seats.all())
    payments = list(evening.payments.all()) if evening.stake is not None else []
    before = [_figures_of(seat) for seat in seats]
    seat_figures(evening.summary, seats, payments)
    if [_figures_of(seat) for seat in seats] != before:
        Seat.objects.bulk_update(seats, SEAT_FIGURES)


def _sync(target: Evening, source: Evening) -> None:
    """What a write changed on the locked copy, onto the evening the view holds."""
    target.version, target.updated_at, target.summary = source.version, source.updated_at, source.summary


def keep_seat_figures(evening: Evening) -> None:
    """The seats' figures put back in line with the evening's summary and payments, the evening
    locked (after payments changed elsewhere than here, e.g. in the admin)."""
    with transaction.atomic():
        _keep_seats(Evening.objects.select_for_update().get(pk=evening.pk))


# --- the summary: what many-evening pages read of one evening ------------------------------


def _new_stats() -> dict[str, Any]:
    # "played" and "sat_out" count deals at the table; "took_part" (summarize) is the engine's
    # word for the whole evening (rules.md 4): a player who took no part did not play it.
    return {"played": 0, "sat_out": 0, "best": None, "worst": None, "declared": {}}


def _count(stats: dict[str, dict], deal: DealResult, players) -> bool:
    """Add one deal to the players' statistics; False for a line that is not a deal at the table."""
    if not deal.playing:
        return False  # adjustments and robre lines are not deals at the table
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
    return True


def summarize(evening: Evening, s: Scored) -> dict[str, Any]:
    """What standings, statistics and lists need from an evening, derived from its deals."""
    result = s.result
    seats = [(seat.position, seat.player_id, seat.name) for seat in evening.seats.all()]
    stats = {name: _new_stats() for _position, _player, name in seats}
    played_deals = sum(_count(stats, deal, result.players) for deal in result.deals)
    money = result.money(evening.stake) if evening.stake is not None else {}
    transfers = settlement.min_transfers(money) if evening.stake is not None else []
    taking = set(result.took_part)
    summary = {
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
                "took_part": name in taking,
                **stats[name],
            }
            for position, player, name in seats
        ],
        "transfers": [{"from": t.payer, "to": t.payee, "amount": str(t.amount)} for t in transfers],
    }
    return json.loads(json.dumps(summary))  # as the database gives it back


def refresh_summary(evening: Evening) -> dict[str, Any]:
    """Rebuild the stored summary from the deals (``manage.py refresh_summaries``)."""
    with transaction.atomic():
        locked = Evening.objects.select_for_update().get(pk=evening.pk)
        locked.summary = summarize(locked, scored(locked))
        locked.updated_at = timezone.now()
        locked.save(update_fields=["summary", "updated_at"])
        _keep_seats(locked)
    evening.summary, evening.updated_at = locked.summary, locked.updated_at
    return evening.summary


def _in_order(evening: Evening, s: Scored) -> bool:
    """The deals are numbered 1..n and the stored summary is the one they give."""
    numbered = all(d.number == i for i, d in enumerate(s.deals, start=1))
    return numbered and evening.summary == summarize(evening, s)


def scored_in_order(evening: Evening) -> Scored:
    """The evening scored from its deals, after putting the evening back in order once when its
    deals and its summary disagree (a deal removed or edited behind the site's back): the deals
    are numbered again in their order and the summary rebuilt. ``Inconsistent`` if they still disagree."""
    s = scored(evening)
    if _in_order(evening, s):
        return s
    with transaction.atomic():
        locked = Evening.objects.select_for_update().get(pk=evening.pk)
        for number, deal in enumerate(locked.deals.all(), start=1):
            if deal.number != number:
                Deal.objects.filter(pk=deal.pk).update(number=number)
        locked.version += 1
        locked.updated_at = timezone.now()
        locked.summary = summarize(locked, scored(locked))
        locked.save(update_fields=["version", "updated_at", "summary"])
        _keep_seats(locked)
    _sync(evening, locked)
    s = scored(evening)
    if not _in_order(evening, s):
        raise Inconsistent(f"evening {evening.pk}: its deals and its summary still disagree after a rebuild")
    return s


# --- writes --------------------------------------------------------------------------------


class Recorded(NamedTuple):
    deal: Deal
    created: bool
    scored: Scored | None  # the evening after the deal (None when a repeated request changed nothing)


def record_deal(evening: Evening, data: dict, user, request_key: str = "") -> Recorded:
    """Append a deal; a repeated ``request_key`` returns the first deal and records nothing."""
    with transaction.atomic():
        locked = _locked(evening)
        if request_key:
            existing = Deal.objects.filter(evening=locked, request_key=request_key).first()
            if existing is not None:
                return Recorded(existing, False, None)
        before = scored(locked)
        deal = Deal(
            evening=locked, number=len(before.deals) + 1, data=data, recorded_by=_user(user), request_key=request_key
        )
        after = before.then(data, deal)
        deal.save()
        _saved(locked, after)
    _sync(evening, locked)
    return Recorded(deal, True, after)


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
        _saved(locked, s)
        DealRevision.objects.create(
            evening=locked,
            number=number,
            action=DealRevision.Action.CORRECTED,
            before=before,
            after=data,
            by=_user(user),
            evening_version=locked.version,
        )
    _sync(evening, locked)
    return deal


def delete_deal(evening: Evening, number: int, user, expected_id: int | None = None) -> DealRevision:
    """Delete deal ``number``; ``expected_id`` guards against a list that changed since it was shown.
    The revision keeps the deal and its request key, so that an undo puts back the same deal."""
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
        _saved(locked, s)
        revision = DealRevision.objects.create(
            evening=locked,
            number=number,
            action=DealRevision.Action.DELETED,
            before=removed,
            request_key=deal.request_key,
            by=_user(user),
            evening_version=locked.version,
        )
    _sync(evening, locked)
    return revision


def restore_deal(evening: Evening, revision: DealRevision, user) -> Deal:
    """Undo a deletion: the deal goes back at its number with its request key, the later ones move up."""
    with transaction.atomic():
        locked = _locked(evening)
        deals = list(locked.deals.all())
        number = min(revision.number, len(deals) + 1)
        candidate = [d.data for d in deals]
        candidate.insert(number - 1, revision.before)
        s = check(locked, candidate)
        for later in reversed(deals[number - 1 :]):
            Deal.objects.filter(pk=later.pk).update(number=later.number + 1)
        deal = Deal.objects.create(
            evening=locked,
            number=number,
            data=revision.before,
            recorded_by=_user(user),
            request_key=revision.request_key,
        )
        revision.delete()
        _saved(locked, s)
        DealRevision.objects.create(
            evening=locked,
            number=number,
            action=DealRevision.Action.RESTORED,
            after=revision.before,
            by=_user(user),
            evening_version=locked.version,
        )
    _sync(evening, locked)
    return deal


def set_status(evening: Evening, status: str, user=None, *, admin: bool = False) -> None:
    """Close or reopen the evening (a new version: followers see it change). Closing keeps who
    closed it and whether as an admin (``admin``: an admin of its club, or a private evening's
    owner); such an evening is reopened by an admin only (``AdminReopens`` otherwise)."""
    with transaction.atomic():
        locked = Evening.objects.select_for_update().get(pk=evening.pk)
        if locked.status != status:
            if status == Evening.Status.OPEN and not locked.reopenable(admin=admin):
                raise AdminReopens
            closing = status == Evening.Status.CLOSED
            locked.status = status
            locked.closed_at = timezone.now() if closing else None
            locked.closed_by = _user(user) if closing else None
            locked.admin_reopens = closing and admin
            locked.version += 1
            locked.updated_at = timezone.now()
            locked.summary = summarize(locked, scored(locked))
            locked.save(
                update_fields=["status", "closed_at", "closed_by", "admin_reopens", "version", "updated_at", "summary"]
            )
    for field in ("status", "closed_at", "closed_by_id", "admin_reopens"):
        setattr(evening, field, getattr(locked, field))
    _sync(evening, locked)


def delete_evening(evening: Evening) -> None:
    """Delete an evening that has no deal (its seats and marks go with it; the roster stays)."""
    with transaction.atomic():
        locked = Evening.objects.select_for_update().get(pk=evening.pk)
        if Deal.objects.filter(evening=locked).exists():
            raise HasDeals
        locked.delete()


def set_archived(evening: Evening, archived: bool) -> None:
    """Leave the evening out of the lists (or bring it back); its deals and figures do not change."""
    with transaction.atomic():
        locked = Evening.objects.select_for_update().get(pk=evening.pk)
        locked.archived = archived
        locked.save(update_fields=["archived"])
    evening.archived = archived


def _user(user):
    return user if user is not None and user.is_authenticated else None


# --- payments (rules.md 4: what was paid stays paid; the settlement is netted against it) ----


def settlement_due(evening: Evening) -> list[settlement.Transfer]:
    """The evening's settlement as its summary keeps it (the engine's fewest transfers)."""
    return [
        settlement.Transfer(t["from"], t["to"], Decimal(t["amount"]))
        for t in (evening.summary or {}).get("transfers") or ()
    ]


def payments_made(evening: Evening) -> list[Payment]:
    """The evening's payments in the order they were made, with who marked them."""
    return list(evening.payments.select_related("marked_by__profile"))


def still_due(evening: Evening, payments: list[Payment] | None = None) -> list[settlement.Transfer]:
    """What remains to settle: the settlement netted against the payments made, in whichever
    direction (``settlement.remaining_transfers``); the settlement itself when nothing was paid."""
    payments = payments_made(evening) if payments is None else payments
    return open_transfers((evening.summary or {}).get("transfers"), players_of(evening), payments)


def record_payment(
    evening: Evening, payer: str, payee: str, amount: Decimal, user, *, closed_too: bool = False
) -> tuple[Payment, bool]:
    """Record that ``payer`` paid ``payee`` ``amount``: it must be one of the transfers still due.
    A repeated request (the same payment made a moment ago and no longer due) records nothing
    and gives that payment back, ``created`` False. ``NotDue`` otherwise; ``EveningClosed`` on a
    closed evening unless ``closed_too`` (the club's ledger settles closed evenings too)."""
    with transaction.atomic():
        if closed_too:
            locked = Evening.objects.select_for_update().prefetch_related("seats").get(pk=evening.pk)
        else:
            locked = _locked(evening)
        due = still_due(locked)
        if settlement.Transfer(payer, payee, amount) not in due:
            repeated = locked.payments.filter(payer=payer, payee=payee, amount=amount).order_by("-pk").first()
            if repeated is None:
                raise NotDue()
            return repeated, False
        payment = Payment.objects.create(evening=locked, payer=payer, payee=payee, amount=amount, marked_by=_user(user))
        _keep_seats(locked)
    return payment, True


def cancel_payment(
    evening: Evening,
    payer: str,
    payee: str,
    amount: Decimal,
    *,
    closed_too: bool = False,
    payment_id: int | None = None,
) -> bool:
    """Take back the latest payment of ``payer`` to ``payee`` of ``amount`` (marked by mistake), or
    the payment ``payment_id`` of the evening when given; False when there is none (a repeated
    request). ``EveningClosed`` on a closed evening unless ``closed_too``: payments of a closed
    evening are settled (and undone) like those of an open one, its deals alone are frozen."""
    with transaction.atomic():
        if closed_too:
            locked = Evening.objects.select_for_update().get(pk=evening.pk)
        else:
            locked = _locked(evening)
        payments = locked.payments.all()
        if payment_id is not None:
            payments = payments.filter(pk=payment_id)
        else:
            payments = payments.filter(payer=payer, payee=payee, amount=amount)
        payment = payments.order_by("-pk").first()
        if payment is None:
            return False
        payment.delete()
        _keep_seats(locked)
    return True


# --- new evenings --------------------------------------------------------------------------


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
    deals: list[dict] = (),
    closed: bool = False,
) -> Evening:
    """Start an evening with a copy of the rules: the preset, with the house rules given on top,
    and (an imported evening) its deals, every one checked by the engine first. ``closed``: it
    arrives closed, to be reopened by an admin only (an old evening imported into a club).

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
            **(_arrives_closed(user) if closed else {}),
        )
        for position, name in enumerate(players):
            player = player_named(name, user, club)
            Seat.objects.create(evening=evening, player=player, position=position, name=player.name)
        Deal.objects.bulk_create(
            Deal(evening=evening, number=number, data=deal, recorded_by=_user(user))
            for number, deal in enumerate(deals, start=1)
        )
        s = scored(evening)
        _check_money(evening, s)
        evening.summary = summarize(evening, s)
        evening.save(update_fields=["summary"])
        _keep_seats(evening)
    return evening


def _arrives_closed(user) -> dict:
    return {
        "status": Evening.Status.CLOSED,
        "closed_at": timezone.now(),
        "closed_by": _user(user),
        "admin_reopens": True,
    }


def new_share_link(evening: Evening) -> str:
    """A new read-only link for the evening (the old one stops working); returns its token,
    ``<public id>.<secret>``, of which only the secret's digest is stored."""
    share_id, secret = secrets.token_urlsafe(9), new_link_token()
    Evening.objects.filter(pk=evening.pk).update(share_id=share_id, share_hash=link_token_hash(secret))
    evening.share_id, evening.share_hash = share_id, link_token_hash(secret)
    return f"{share_id}.{secret}"


def import_evening(text: str | bytes, user, club=None, *, closed: bool = False) -> Evening:
    """Create an evening from an evening file; raises FileError or DealError (nothing saved).
    ``closed``: it arrives closed, reopened by an admin only (``create_evening``)."""
    engine = evening_file.loads(text)
    score(engine)  # every deal valid before anything is written
    data = evening_file.to_dict(engine)
    try:
        return create_evening(
            ruleset=engine.rules.key,
            players=list(engine.players),
            first_dealer=engine.players.index(engine.first_dealer),
            stake=engine.stake,
            currency=engine.currency,
            date=engine.date or timezone.localdate(),
            user=user,
            rules=data["rules"],
            club=club,
            deals=data["deals"],
            closed=closed,
        )
    except IntegrityError as exc:  # pragma: no cover - a database refusal is reported, never half-saved
        raise FileError(0, f"the evening could not be saved: {exc}") from None


def export_text(evening: Evening) -> str:
    """The evening file of an evening (rules as the changes from the preset)."""
    return evening_file.dumps(engine_evening(evening))


__all__ = [
    "AdminReopens",
    "DealError",
    "EveningClosed",
    "FileError",
    "HasDeals",
    "Inconsistent",
    "NotDue",
    "StaleDeal",
    "cancel_payment",
    "check",
    "create_evening",
    "delete_deal",
    "delete_evening",
    "edit_deal",
    "export_text",
    "import_evening",
    "keep_seat_figures",
    "record_deal",
    "record_payment",
    "restore_deal",
    "scored",
    "scored_in_order",
    "set_archived",
    "set_status",
    "settlement_due",
    "still_due",
]
