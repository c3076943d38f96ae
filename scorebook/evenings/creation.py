"""New evenings: from the new-evening form, or from an evening file; and an evening's file.

An evening starts with a copy of its rules (the preset with the house rules on top) and its seats
(roster players, created when new); an imported evening's deals are all checked by the engine
before anything is written, then scored and stored as every write stores them (``services``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date as date_cls
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.utils import timezone

from scorebook.clubs.models import Club, Player
from scorebook.clubs.services import lock_club
from scorebook.core import cleaning
from scorebook.rules import evening_file, registry
from scorebook.rules.evening_file import FileError
from scorebook.rules.model import ContractRules, Ruleset, to_dict
from scorebook.rules.scoring import score

from . import display, services
from .models import Deal, Evening, Seat
from .stored import engine_evening


def player_named(name: str, user: User | AnonymousUser | None, club: Club | None = None) -> Player:
    """The roster player of that name (the club's, or the user's private book), created if new. A
    name a reader would take for a roster name (other capitals, a look-alike: ``aIice`` for
    ``Alice``) is that player: the roster never gets a second one that reads the same."""
    if club is not None:
        players = Player.objects.filter(club=club)
    else:
        players = Player.objects.filter(club__isnull=True, created_by=services.author(user))
    existing = players.filter(name__iexact=name).order_by("pk").first()
    if existing is None:
        same = cleaning.looks_like(name, players.order_by("pk").values_list("name", flat=True).iterator())
        existing = players.filter(name=same).order_by("pk").first() if same is not None else None
    return existing or Player.objects.create(name=name, club=club, created_by=services.author(user))


def players_named(names: list[str], user: User | AnonymousUser | None, club: Club | None = None) -> list[Player]:
    """``player_named`` for many names at once (a club night's participants): the roster read once,
    the new names added in one insert. Inside the caller's transaction, the club locked."""
    if club is not None:
        players = Player.objects.filter(club=club)
    else:
        players = Player.objects.filter(club__isnull=True, created_by=services.author(user))
    roster = list(players.order_by("pk"))
    by_name: dict[str, Player] = {}
    for player in roster:
        by_name.setdefault(player.name.casefold(), player)
    known = cleaning.Names(p.name for p in roster)
    found: dict[str, Player] = {}
    new: dict[str, Player] = {}
    for name in names:
        like = known.like(name)
        known_player = by_name.get(name.casefold()) or (by_name.get(like.casefold()) if like is not None else None)
        found[name] = known_player or new.setdefault(
            name, Player(name=name, club=club, created_by=services.author(user))
        )
    Player.objects.bulk_create(new.values())
    return [found[name] for name in names]


@dataclass
class NewEvening:
    """An evening prepared in memory (``prepare_evenings``), written by ``insert_evenings``."""

    evening: Evening
    seats: list[Seat]


def prepare_evenings(
    tables: list[list[Player]],
    *,
    ruleset: str,
    rules: dict[str, Any],
    stake: Decimal | None,
    currency: str,
    date: date_cls,
    user: User | AnonymousUser | None,
    club: Club | None,
    managed: bool = False,
    deal_limit: int | None = None,
) -> list[NewEvening]:
    """New evenings without deals, one per table of players (the first one deals), built and scored
    in memory as ``create_evening`` would write them (their rules copy ``rules``, their quick
    buttons, state, summary and seats' figures): a club night's tables, prepared before its short
    transaction. Only reads (the quick buttons look at the club's last evenings)."""
    resolved = registry.resolve(ruleset, rules)
    by = services.author(user)
    fields = {
        "ruleset": ruleset,
        "rules": to_dict(resolved),
        "date": date,
        "stake": stake,
        "currency": currency,
        "first_dealer": 0,
        "owner": by,
        "club": club,
        "managed": managed,
        "deal_limit": deal_limit,
    }
    quick = quick_contracts(Evening(**fields), resolved)
    prepared = []
    for players in tables:
        evening = Evening(**fields, quick_contracts=quick)
        seats = [
            Seat(evening=evening, player=player, position=position, name=player.name)
            for position, player in enumerate(players)
        ]
        services.prepare_new(evening, seats)
        prepared.append(NewEvening(evening, seats))
    return prepared


def insert_evenings(prepared: list[NewEvening]) -> list[Evening]:
    """Write prepared evenings and their seats: two inserts (in the caller's transaction)."""
    evenings = Evening.objects.bulk_create([p.evening for p in prepared])
    Seat.objects.bulk_create([seat for p in prepared for seat in p.seats])
    return evenings


def create_evening(
    *,
    ruleset: str,
    players: list[str],
    first_dealer: int,
    stake: Decimal | None,
    currency: str,
    date: date_cls,
    user: User | AnonymousUser | None,
    rules: dict[str, Any] | None = None,
    club: Club | None = None,
    deals: Sequence[dict[str, Any]] = (),
    closed: bool = False,
    rules_from: str = Evening.RulesFrom.STARTED,
) -> Evening:
    """Start an evening with a copy of the rules: the preset, with the house rules given on top,
    and (an imported evening) its deals, every one checked by the engine first. ``closed``: it
    arrives closed, to be reopened by an admin only (an old evening imported into a club).

    In a club, the club's house rules for that variant apply when no rules are given.
    """
    if rules is None and club is not None:
        rules = club.overrides_for(ruleset)
    resolved = registry.resolve(ruleset, rules or {})
    rules_copy = to_dict(resolved)
    by = services.author(user)
    with transaction.atomic():
        if club is not None:  # its new names join the roster: one roster change at a time (a merge, a rename)
            lock_club(club.pk)
        evening = Evening.objects.create(
            ruleset=ruleset,
            rules=rules_copy,
            date=date,
            stake=stake,
            currency=currency,
            first_dealer=first_dealer,
            owner=by,
            club=club,
            kitty_fee=_kitty_fee(club),
            rules_from=rules_from,
            **(_arrives_closed(user) if closed else {}),
        )
        evening.quick_contracts = quick_contracts(evening, resolved)
        evening.save(update_fields=["quick_contracts"])
        for position, name in enumerate(players):
            player = player_named(name, user, club)
            Seat.objects.create(evening=evening, player=player, position=position, name=player.name)
        Deal.objects.bulk_create(
            Deal(evening=evening, number=number, data=deal, recorded_by=by)
            for number, deal in enumerate(deals, start=1)
        )
        services.store_new(evening)
    return evening


HISTORY = 30  # the past evenings whose contracts choose a new evening's quick buttons


def quick_contracts(evening: Evening, rules: Ruleset) -> list[str]:
    """The quick contract buttons of a new evening, in order: the preset's commonest, where the
    contracts the table played most in its last evenings of the variant (the club's, or the owner's
    private ones) take the place of unplayed ones. Empty for classic games. One query."""
    if not isinstance(rules, ContractRules):
        return []
    past = Evening.objects.filter(ruleset=evening.ruleset).exclude(pk=evening.pk)
    past = past.filter(club=evening.club) if evening.club_id else past.filter(club=None, owner=evening.owner)
    played: Counter[str] = Counter()
    for summary in past.order_by("-date", "-created_at").values_list("summary", flat=True)[:HISTORY]:
        played.update((summary or {}).get("contracts") or {})
    return [button.key for button in display.contract_choices(rules, played).quick]


def _arrives_closed(user: User | AnonymousUser | None) -> dict[str, Any]:
    return {
        "status": Evening.Status.CLOSED,
        "closed_at": timezone.now(),
        "closed_by": services.author(user),
        "admin_reopens": True,
    }


def import_evening(
    text: str | bytes,
    user: User | AnonymousUser | None,
    club: Club | None = None,
    *,
    closed: bool = False,
    house_rules: bool = True,
) -> Evening:
    """Create an evening from an evening file; raises FileError or DealError (nothing saved).
    ``closed``: it arrives closed, reopened by an admin only (``create_evening``). Into a club, with
    ``house_rules`` its deals are scored with the club's house rules for its variant, in place of the
    file's (every deal is checked against them too); without, it keeps the file's rules. The evening
    says which (``Evening.rules_from``)."""
    data = evening_file.parse_json(text)
    engine = evening_file.from_dict(data)
    score(engine)  # every deal valid before anything is written
    _matches_the_schema(data)
    data = evening_file.to_dict(engine)
    rules_from = Evening.RulesFrom.FILE
    if club is not None and house_rules:
        key = engine.rules.key
        engine = replace(engine, rules=registry.resolve(key, club.overrides_for(key)))
        score(engine)  # and valid under the club's rules
        data["rules"], rules_from = club.overrides_for(key), Evening.RulesFrom.CLUB
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
            rules_from=rules_from,
        )
    except IntegrityError as exc:  # pragma: no cover - a database refusal is reported, never half-saved
        raise FileError(0, f"the evening could not be saved: {exc}") from None


def _matches_the_schema(data: dict[str, Any]) -> None:
    """A file the engine read matches the published schema too (docs/evening-file.schema.json): the site
    never stores an evening that a club's own tools, checking files against that schema, would refuse.
    The engine words every refusal first; this one only speaks if the two ever disagree."""
    from scorebook.rules import evening_schema  # pydantic is loaded by imports only

    try:
        evening_schema.validate(data)
    except evening_schema.SchemaError as exc:
        raise FileError(0, "the file does not match the evening file's schema: %(fault)s", fault=str(exc)) from None


def export_text(evening: Evening) -> str:
    """The evening file of an evening (rules as the changes from the preset)."""
    return evening_file.dumps(engine_evening(evening))


def _kitty_fee(club: Club | None) -> Decimal | None:
    """The fee each player who takes part owes the club's kitty for an evening, as the club's house
    rule says now (read under the club's lock: a change just made applies); none without a club."""
    if club is None:
        return None
    return Club.objects.filter(pk=club.pk).values_list("kitty_evening_fee", flat=True).first()
