"""A party's balance in the club (docs/rules/money.md), one figure wherever it is shown: the money of
every evening and night the party took part in, plus the payments he made, less the payments he
received (payments not cancelled); less the kitty's fees he owes, plus the prizes the kitty owes him.
Positive: he is owed.

The parties are the club's players, the kitty (``KITTY``, when the club has one) and the bête (an
encheres evening's pot carried to the next evening, a party of its own: it holds what the seats'
money leaves over). ``balances`` adds them up in the database, in whole cents, a row per party and
currency, source by source (a function each, below):

* the seats: an evening's money and its own payments come netted from its seats (``Seat.unpaid``,
  the engine's ``settlement.seat_open``, written by every write of the evening and of its payments),
  so that only the seats with something still open are read (a partial index holds them): a settled
  evening costs nothing, whatever the length of the club's history (a night's tables, netted at the
  night, stay);
* the kitty's fees: an evening's, from each player who took part in it; a night's, once from each
  player who took part at one of its tables;
* the kitty's prizes not withdrawn;
* the payments for no evening (on account, for a night, into and out of the kitty).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Case, Exists, F, OuterRef, QuerySet, Value, When

from scorebook.clubs.models import Club, Player
from scorebook.core.collation import sort_key
from scorebook.core.formatting import money_text, tone
from scorebook.evenings.models import Evening, Payment, Seat
from scorebook.nights.models import Participant
from scorebook.rules.scoring import BETE

from .models import Prize
from .parties import KITTY, KITTY_PAYMENT, ZERO, Key, cents_sum, from_cents, label

Row = tuple[Key, str, int]  # a party, a currency, whole cents


@dataclass
class Balance:
    key: Key
    name: str
    player: int | None  # for the link to the player page
    money: dict[str, Decimal] = field(default_factory=dict)  # by currency; > 0: is owed money
    kitty: dict[str, Decimal] = field(default_factory=dict)  # the part of it that is the kitty's (fees, prizes...)

    @property
    def net(self) -> Decimal:
        """The balance in the first currency (one currency is the usual case)."""
        return next(iter(sorted(self.money.items())), ("", ZERO))[1]

    @property
    def texts(self) -> list[dict]:
        return [
            {"text": money_text(amount, currency, signed=True), "tone": tone(amount), "currency": currency}
            for currency, amount in sorted(self.money.items())
            if amount
        ]

    @property
    def tone(self) -> str:
        return tone(self.net)

    @property
    def is_kitty(self) -> bool:
        return self.key == KITTY

    def without_kitty(self) -> dict[str, Decimal]:
        """The balance less its part with the kitty: what the players settle among themselves."""
        return {c: self.money.get(c, ZERO) - self.kitty.get(c, ZERO) for c in sorted({*self.money, *self.kitty})}


class _Tally:
    """Every party's cents by currency, and the part of them that is with the kitty."""

    def __init__(self) -> None:
        self.money: dict[Key, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.kitty: dict[Key, dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def add(self, key: Key, currency: str, cents: int, *, with_kitty: bool = False) -> None:
        self.money[key][currency] += cents
        if with_kitty:
            self.kitty[key][currency] += cents

    def owed_by_kitty(self, rows: Iterable[Row], sign: int) -> None:
        """What the kitty owes each party (``sign`` 1: a prize) or is owed by him (-1: a fee)."""
        for key, currency, cents in rows:
            self.add(key, currency, sign * cents, with_kitty=True)
            self.add(KITTY, currency, -sign * cents, with_kitty=True)

    def keys(self) -> list[Key]:
        """The parties with something, in all or with the kitty."""
        return [
            k
            for k in self.money.keys() | self.kitty.keys()
            if any(self.money[k].values()) or any(self.kitty[k].values())
        ]


def _mine(rows: QuerySet, path: str, player: Player | None) -> QuerySet:
    return rows.filter(**{path: player}) if player is not None else rows


def _sums(rows: QuerySet, party: str, currency: str, amount: str) -> list[Row]:
    """(party, currency, cents) of ``rows`` added up by the database, a row per party and currency."""
    return list(
        rows.values(party, currency).annotate(cents=cents_sum(amount)).values_list(party, currency, "cents").order_by()
    )


def seat_money(club: Club, player: Player | None = None) -> list[Row]:
    """Each player's evenings' money netted with their own payments, as the seats keep it (only the
    seats with something open: an index holds them)."""
    seats = _mine(Seat.objects.filter(evening__club=club, open_transfers__gt=0), "player", player)
    return _sums(seats, "player_id", "evening__currency", "unpaid")


def evening_fees(club: Club, player: Player | None = None) -> list[Row]:
    """The kitty's fee of each evening that has one (an index holds them), from each player who took
    part in it (a place: docs/rules/money.md)."""
    with_fee = Evening.objects.filter(club=club, kitty_fee__isnull=False)
    seats = _mine(Seat.objects.filter(evening__club=club, place__isnull=False, evening__in=with_fee), "player", player)
    return _sums(seats, "player_id", "evening__currency", "evening__kitty_fee")


def night_fees(club: Club, player: Player | None = None) -> list[Row]:
    """The kitty's fee of each night that has one, once from each player who took part at one of its tables."""
    took_part = Seat.objects.filter(
        player=OuterRef("player"), place__isnull=False, evening__night_table__session__night=OuterRef("night")
    )
    entries = Participant.objects.filter(night__club=club, night__kitty_fee__isnull=False).filter(Exists(took_part))
    return _sums(_mine(entries, "player", player), "player_id", "night__currency", "night__kitty_fee")


def prizes(club: Club, player: Player | None = None) -> list[Row]:
    """The prizes the kitty owes, not withdrawn."""
    return _sums(_mine(Prize.objects.active().filter(club=club), "player", player), "player_id", "currency", "amount")


def payments(club: Club, player: Player | None = None) -> list[tuple[Key, bool, str, int]]:
    """The payments for no evening (on account, for a night, into and out of the kitty; an evening's are
    in its seats' figures), not cancelled: (party, with the kitty, currency, cents) a row per side, the
    payer's cents positive (his balance goes up by what he paid), the payee's negative."""
    paid = (
        Payment.objects.active()
        .filter(club=club, evening__isnull=True)
        .annotate(with_kitty=Case(When(KITTY_PAYMENT, then=Value(1)), default=Value(0)))
    )
    out: list[tuple[Key, bool, str, int]] = []
    for side, sign in (("payer", 1), ("payee", -1)):
        rows = _mine(paid, f"{side}_player", player)
        for player_id, name, with_kitty, currency, cents in (
            rows.annotate(party=Case(When(**{f"{side}_player__isnull": True}, then=F(side)), default=Value("")))
            .values(f"{side}_player_id", "party", "with_kitty", "currency")
            .annotate(cents=cents_sum("amount"))
            .values_list(f"{side}_player_id", "party", "with_kitty", "currency", "cents")
            .order_by()
        ):
            out.append((player_id if player_id is not None else name, bool(with_kitty), currency, sign * cents))
    return out


def balances(club: Club, player: Player | None = None) -> list[Balance]:
    """Every party's balance (only ``player``'s, when given), ordered from the most in debt, by name
    on a tie; parties with nothing, neither in all nor with the kitty, are left out (one whose fees
    equal his winnings is kept: the players settle his winnings among themselves). Seven aggregate
    queries."""
    tally = _Tally()
    seat_total: dict[str, int] = defaultdict(int)
    for key, currency, cents in seat_money(club, player):
        tally.add(key, currency, cents)
        seat_total[currency] += cents
    if player is None:  # the bête holds what the seats leave over (each evening's open figures sum to zero)
        for currency, cents in seat_total.items():
            if cents:
                tally.add(BETE, currency, -cents)
    tally.owed_by_kitty(evening_fees(club, player), -1)
    tally.owed_by_kitty(night_fees(club, player), -1)
    tally.owed_by_kitty(prizes(club, player), 1)
    for key, with_kitty, currency, cents in payments(club, player):
        tally.add(key, currency, cents, with_kitty=with_kitty)
    return _ordered(club, tally)


def _ordered(club: Club, tally: _Tally) -> list[Balance]:
    keys = tally.keys()
    names = dict(
        Player.objects.filter(club=club, pk__in=[k for k in keys if isinstance(k, int)]).values_list("pk", "name")
    )
    out = [
        Balance(
            key,
            label(key, names),
            key if isinstance(key, int) else None,
            {c: from_cents(v) for c, v in sorted(tally.money[key].items()) if v},
            {c: from_cents(v) for c, v in sorted(tally.kitty[key].items()) if v},
        )
        for key in keys
    ]
    out.sort(key=lambda b: (b.net, sort_key(b.name)))
    return out


def balance_of(club: Club, player: Player) -> Balance:
    """One player's balance (his rows only)."""
    found = next((b for b in balances(club, player) if b.key == player.pk), None)
    return found or Balance(player.pk, player.name, player.pk)
