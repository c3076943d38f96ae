"""A synthetic whist club built with the real models and the real engine, quickly.

Recording 160,000 deals through ``services.record_deal`` one request at a time would take
long. Here each evening's deals are generated with the rotation rule of kleurenwiezen at
six (the dealer sits out and the four players to his left play; the deal passes left
after every contract; an all pass keeps the dealer), scored once by the engine to settle
the past evenings, written with one ``bulk_create``, and what the writes derive from the
deals is stored by ``services.store_new`` (each deal's result and state, the evening's
state and summary, the seats' figures): the rows ``record_deal`` would have left, deal
for deal.

Importing this module has no side effect; the functions that touch the database need
Django set up (the benchmark, or a test under pytest-django).

    club = make_club(user)                      # 6 players, ``user`` admin
    history = build_history(club, user, evenings=200, deals_per_evening=80, last_day=...)
    season = add_season(club, "All", history.dates[0], history.last_day)
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

PLAYERS = ("Anne", "Bert", "Carl", "Dina", "Emma", "Fred")
RULESET = "kleurenwiezen"
STAKE = Decimal("0.10")

# How often each kleurenwiezen contract is called (a weight per key; "pass" is an all pass).
CONTRACT_WEIGHTS = {
    "pass": 8,
    "samen-8": 22,
    "samen-9": 12,
    "samen-10": 6,
    "samen-11": 2,
    "samen-12": 0.5,
    "alleen-5": 8,
    "alleen-6": 5,
    "alleen-7": 2,
    "alleen-8": 1,
    "abondance-9": 4,
    "abondance-10": 2,
    "abondance-11": 0.5,
    "troel": 3,
    "kleine-miserie": 5,
    "piccolo": 3,
    "grote-miserie": 2,
    "open-miserie": 1,
    "solo-slim": 0.2,
}
_KEYS = list(CONTRACT_WEIGHTS)
_WEIGHTS = list(CONTRACT_WEIGHTS.values())
_SPREAD = (-2, -1, -1, 0, 0, 0, 1, 1, 2)  # tricks around what the contract needs


# --- deals (pure Python: no database) --------------------------------------------------------


class Table:
    """Who deals and who plays next, by the rotation rule (the engine's default table)."""

    def __init__(self, players: Sequence[str] = PLAYERS, first_dealer: int = 0):
        self.players = tuple(players)
        self.dealer = first_dealer

    @property
    def playing(self) -> tuple[str, ...]:
        n = len(self.players)
        if n == 4:
            return self.players
        return tuple(self.players[(self.dealer + i) % n] for i in range(1, 5))

    def play(self, deal: dict) -> None:
        if deal.get("contract") != "pass":
            self.dealer = (self.dealer + 1) % len(self.players)


def random_deal(playing: Sequence[str], rng: random.Random, *, allow_pass: bool = True) -> dict:
    """One deal as the record form writes it (contract, declarers in seat order, tricks)."""
    from scorebook.rules import registry

    contracts = registry.get(RULESET).contracts
    key = rng.choices(_KEYS, _WEIGHTS)[0]
    while key == "pass" and not allow_pass:
        key = rng.choices(_KEYS, _WEIGHTS)[0]
    if key == "pass":
        return {"contract": "pass"}
    contract = contracts[key]
    if contract.exact:  # misère, piccolo: the tricks of each declarer
        count = 1 if rng.random() < 0.8 else 2
        declarers = sorted(rng.sample(list(playing), count), key=list(playing).index)
        tricks = {d: contract.needs if rng.random() < 0.7 else contract.needs + rng.randint(1, 3) for d in declarers}
        return {"contract": key, "declarers": declarers, "tricks": tricks}
    count = contract.declarers
    declarers = sorted(rng.sample(list(playing), count), key=list(playing).index)
    tricks = max(0, min(13, contract.needs + rng.choice(_SPREAD)))
    return {"contract": key, "declarers": declarers, "tricks": tricks}


def make_deals(
    count: int,
    rng: random.Random,
    *,
    players: Sequence[str] = PLAYERS,
    first_dealer: int = 0,
    table: Table | None = None,
) -> list[dict]:
    """``count`` valid deals in a row, following the rotation (``table`` is advanced when given)."""
    table = table or Table(players, first_dealer)
    out = []
    for _ in range(count):
        deal = random_deal(table.playing, rng)
        table.play(deal)
        out.append(deal)
    return out


def form_data(deal: dict, players: Sequence[str] = PLAYERS, request_key: str = "") -> dict:
    """The POST of the record form for ``deal`` (fields contract, declarers, tricks[_seat], request_key)."""
    data: dict = {"contract": deal["contract"], "request_key": request_key}
    if deal["contract"] == "pass":
        return data
    data["declarers"] = list(deal["declarers"])
    if isinstance(deal["tricks"], dict):
        for name, value in deal["tricks"].items():
            data[f"tricks_{list(players).index(name)}"] = str(value)
    else:
        data["tricks"] = str(deal["tricks"])
    return data


def request_key(rng: random.Random) -> str:
    """A key like the record form's (uuid4 hex), reproducible from ``rng``."""
    return uuid.UUID(int=rng.getrandbits(128), version=4).hex


# --- the database ---------------------------------------------------------------------------


def make_user(username: str = "bench", **extra):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    user, _ = User.objects.get_or_create(username=username, defaults=extra)
    return user


def make_club(user, *, name: str = "Bench club", slug: str = "bench", players: Sequence[str] = PLAYERS, role=None):
    """A club with its roster of ``players``; ``user`` is a member (admin unless ``role`` says otherwise)."""
    from scorebook.clubs.models import Club, Membership, Player, Role

    club = Club.objects.create(name=name, slug=slug)
    Membership.objects.create(club=club, user=user, role=role or Role.ADMIN)
    Player.objects.bulk_create([Player(name=p, club=club, created_by=user) for p in players])
    return club


def add_deals(
    evening, deals: list[dict], user=None, *, rng: random.Random | None = None, existing: list[dict] | None = None
):
    """Append ``deals`` to ``evening`` as ``record_deal`` would, one deal after another, in one go.

    The deals are inserted in bulk, the evening's version goes up by one per deal, and then the
    evening's stored figures (summary, seats, whatever the evening keeps) are rebuilt from its deals
    by ``manage.py refresh_summaries``, which scores them once (deals it cannot score: ValueError).
    """
    import io

    from django.core.management import call_command
    from django.db import transaction
    from django.db.models import F

    from scorebook.evenings.models import Deal, Evening

    rng = rng or random.Random(evening.pk)
    start = len(existing) if existing is not None else evening.deals.count()
    with transaction.atomic():
        Deal.objects.bulk_create(
            [
                Deal(evening=evening, number=start + i, data=data, recorded_by=user, request_key=request_key(rng))
                for i, data in enumerate(deals, start=1)
            ]
        )
        Evening.objects.filter(pk=evening.pk).update(version=F("version") + len(deals))
        problems = io.StringIO()
        call_command("refresh_summaries", evening=evening.pk, stdout=io.StringIO(), stderr=problems)
        if problems.getvalue():
            raise ValueError(problems.getvalue())
    evening.refresh_from_db()


def make_evening(
    club,
    user,
    day: date,
    deals: int | list[dict] = 0,
    *,
    first_dealer: int = 0,
    players: Sequence[str] = PLAYERS,
    stake: Decimal | None = STAKE,
    rng: random.Random | None = None,
):
    """An evening of the club created by ``creation.create_evening``, with ``deals`` (a count or a list)."""
    from scorebook.evenings import creation

    rng = rng or random.Random(f"{club.pk}-{day}-{first_dealer}")
    evening = creation.create_evening(
        ruleset=RULESET,
        players=list(players),
        first_dealer=first_dealer,
        stake=stake,
        currency="EUR",
        date=day,
        user=user,
        club=club,
    )
    if isinstance(deals, int):
        deals = make_deals(deals, rng, players=players, first_dealer=first_dealer)
    if deals:
        add_deals(evening, deals, user, rng=rng, existing=[])
    return evening


@dataclass
class History:
    evening_ids: list[int] = field(default_factory=list)  # oldest first
    dates: list[date] = field(default_factory=list)

    @property
    def last_day(self) -> date:
        return self.dates[-1]


def build_history(
    club,
    user,
    *,
    evenings: int,
    deals_per_evening: int = 80,
    last_day: date,
    seed: int = 1,
    closed: bool = True,
    unpaid: int = 2,
    batch: int = 100,
    progress=None,
) -> History:
    """``evenings`` weekly evenings of the club ending on ``last_day``, each of ``deals_per_evening`` deals.

    The rows are those ``creation.create_evening`` and ``record_deal`` leave (the rules
    copied from the preset with the club's house rules, one seat per player in roster
    order, the deals numbered from 1, the version one per deal, what is derived from the
    deals stored by ``services.store_new``), written in bulk. The dealer of the first deal moves round
    the table from one evening to the next; past evenings are closed (``closed``) and
    settled (every transfer marked paid, as the settlement page does), except the last
    ``unpaid`` ones. ``progress(done)`` is called after each batch.
    """
    from django.db import transaction

    from scorebook.clubs.models import Player
    from scorebook.evenings import services, stored
    from scorebook.evenings.models import Deal, Evening, Payment, Seat
    from scorebook.rules import registry
    from scorebook.rules.model import to_dict

    rng = random.Random(seed)
    house = club.house_rules.filter(ruleset=RULESET).first()
    rules_copy = to_dict(registry.resolve(RULESET, house.overrides if house else {}))  # as create_evening
    roster = {p.name: p for p in Player.objects.filter(club=club)}
    seat_players = [roster[name] for name in PLAYERS]
    status = Evening.Status.CLOSED if closed else Evening.Status.OPEN
    history = History()
    days = [last_day - timedelta(weeks=evenings - 1 - i) for i in range(evenings)]
    for first in range(0, evenings, batch):
        with transaction.atomic():
            chunk = Evening.objects.bulk_create(
                [
                    Evening(
                        ruleset=RULESET,
                        rules=rules_copy,
                        date=days[i],
                        stake=STAKE,
                        currency="EUR",
                        first_dealer=i % len(PLAYERS),
                        owner=user,
                        club=club,
                        status=status,
                    )
                    for i in range(first, min(first + batch, evenings))
                ]
            )
            seats = {
                e.pk: [Seat(evening=e, player=p, position=pos, name=p.name) for pos, p in enumerate(seat_players)]
                for e in chunk
            }
            Seat.objects.bulk_create([seat for e in chunk for seat in seats[e.pk]])
            rows, payments = [], []
            for e in chunk:
                deals = make_deals(deals_per_evening, rng, first_dealer=e.first_dealer)
                s = stored.check(e, deals)  # the engine: the transfers of the evenings settled
                rows += [
                    Deal(evening=e, number=n, data=d, recorded_by=user, request_key=request_key(rng))
                    for n, d in enumerate(deals, start=1)
                ]
                e.version = len(deals)
                paid = []
                if e.date < days[max(0, evenings - unpaid)] or unpaid <= 0:
                    paid = [
                        Payment(
                            evening=e,
                            club=club,
                            payer=t.payer,
                            payee=t.payee,
                            payer_player=roster[t.payer],
                            payee_player=roster[t.payee],
                            amount=t.amount,
                            currency="EUR",
                            marked_by=user,
                        )
                        for t in s.result.transfers(e.stake)
                    ]
                payments += paid
            Deal.objects.bulk_create(rows, batch_size=2000)
            Payment.objects.bulk_create(payments, batch_size=2000)
            Evening.objects.bulk_update(chunk, ["version"], batch_size=200)
            for e in chunk:  # each deal's result and state, the evening's state, summary and seats
                services.store_new(e)
        history.evening_ids += [e.pk for e in chunk]
        history.dates += [e.date for e in chunk]
        if progress is not None:
            progress(len(history.evening_ids))
    return history


def stored_alike(a, b) -> bool:
    """Two evenings of the same deals store the same: rules, version, state, summary, each deal's
    result and state (what the pages read)."""
    same = [(e.rules, e.version, e.state, e.summary) for e in (a, b)]
    deals = [list(e.deals.order_by("number").values_list("number", "data", "result", "state")) for e in (a, b)]
    return same[0] == same[1] and deals[0] == deals[1]


def add_season(club, name: str, start: date, end: date, *, ranking: str = "total", **extra):
    from scorebook.clubs.models import Season

    return Season.objects.create(club=club, name=name, start=start, end=end, ruleset=RULESET, ranking=ranking, **extra)


def yearly_seasons(club, history: History) -> list:
    """A season per calendar year of ``history`` (how a club keeps its seasons)."""
    years = sorted({d.year for d in history.dates})
    return [add_season(club, str(y), date(y, 1, 1), date(y, 12, 31)) for y in years]


__all__ = [
    "PLAYERS",
    "RULESET",
    "History",
    "Table",
    "add_deals",
    "add_season",
    "build_history",
    "form_data",
    "make_club",
    "make_deals",
    "make_evening",
    "make_user",
    "random_deal",
    "request_key",
    "yearly_seasons",
]
