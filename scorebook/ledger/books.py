"""The club's ledger: every figure of money a page or a file shows, from one place.

**A balance** (docs/rules/money.md) is one figure wherever it is shown: the money of every evening and night
the party took part in, plus the payments he made, less the payments he received (payments not
cancelled); less the kitty's fees he owes, plus the prizes the kitty owes him. Positive: he is owed.
The parties are the club's players, the kitty (``KITTY``, when the club has one) and the bête (an
encheres evening's pot carried to the next evening, a party of its own: it holds what the seats'
money leaves over). ``balances`` adds them up in the database, in whole cents: a row per party and
currency. An evening's money and its own payments come netted from its seats (``Seat.unpaid``,
written by every write of the evening and of its payments), so that only the seats with something
still open are read (a partial index holds them), with the payments for no evening: a settled
evening costs nothing, whatever the length of the club's history (a night's tables, netted at the
night, stay; the kitty's fees are read from the evenings that have one).

**What remains to pay**, item by item: an evening's settlement netted against its payments (the
evening's own netting, ``evenings.summary.open_transfers``, that its settlement page shows too),
found through the seats' stored count of open transfers (``Seat.open_transfers``, kept by every
write of the evening and its payments), newest first and paged; a night's (docs/rules/club-nights.md) is settled
once across its tables: each player's money at his tables, netted with every payment made at them
or for the night, cleared by the fewest transfers, for the nights of one page. The sum, over
every item, of what remains for a player is his balance less his payments on account and kitty.

**Settle-up**: the fewest transfers that clear every balance (``rules.settle_up``), the kitty
included when the treasurer asks; **history**: the payments (cancelled ones too) and the kitty's
records, newest first, paged; **the kitty**: what players owe it, what it holds, what it spent.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date as date_cls
from decimal import Decimal

from django.db.models import BigIntegerField, Case, Exists, F, OuterRef, Q, Sum, Value, When
from django.db.models.functions import Cast, Round
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scorebook.accounts.models import display_name
from scorebook.clubs.models import Club, Player
from scorebook.core.collation import sort_key
from scorebook.core.formatting import lang, money_text, party_label, tone
from scorebook.evenings import summary
from scorebook.evenings.display import TransferWords
from scorebook.evenings.models import Evening, Payment, Seat
from scorebook.nights.models import Night, Participant
from scorebook.rules import registry, settle_up
from scorebook.rules.model import RulesError
from scorebook.rules.scoring import BETE
from scorebook.rules.settlement import Transfer

from .models import Expense, Prize

KITTY = Payment.KITTY
# a payment into or out of the kitty: the kitty is the party without a player
KITTY_PAYMENT = Q(payer=KITTY, payer_player__isnull=True) | Q(payee=KITTY, payee_player__isnull=True)
ZERO = Decimal("0.00")
Key = int | str  # a Player's id, or the name of a party without one (the bête, the kitty)


def _cents(path: str):
    """Whole cents of a decimal column, summed by the database (exact, beyond 32 bits)."""
    return Sum(Cast(Round(F(path) * 100), BigIntegerField()))


def _money(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def variant_name(ruleset: str) -> str:
    try:
        return registry.get(ruleset).names.get(lang())
    except RulesError:
        return ruleset


def kitty_label() -> str:
    return _("the club's kitty")


def label(key: Key, names: dict[int, str]) -> str:
    """A party as people read it: a player's name in the roster now, the kitty, the bête."""
    if isinstance(key, int):
        return names.get(key, "?")
    return kitty_label() if key == KITTY else party_label(key)


# --- balances --------------------------------------------------------------------------------------


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


def balances(club: Club, player: Player | None = None) -> list[Balance]:
    """Every party's balance (only ``player``'s, when given), ordered from the most in debt, by name
    on a tie; parties with nothing, neither in all nor with the kitty, are left out (one whose fees
    equal his winnings is kept: the players settle his winnings among themselves). Seven aggregate
    queries."""
    money: dict[Key, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    kitty: dict[Key, dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def add(key: Key, currency: str, cents: int, *, kitty_part: bool = False) -> None:
        money[key][currency] += cents
        if kitty_part:
            kitty[key][currency] += cents
            if key != KITTY:
                money[KITTY][currency] -= cents
                kitty[KITTY][currency] -= cents

    # each evening's money netted with its own payments, as its seats keep it (``Seat.unpaid``, written
    # with the evening's payments): only the seats with something open are read (an index holds them)
    seats = Seat.objects.filter(evening__club=club)
    if player is not None:
        seats = seats.filter(player=player)
    seat_total: dict[str, int] = defaultdict(int)
    for player_id, currency, cents in (
        seats.filter(open_transfers__gt=0)
        .values("player_id", "evening__currency")
        .annotate(cents=_cents("unpaid"))
        .values_list("player_id", "evening__currency", "cents")
        .order_by()
    ):
        add(player_id, currency, cents)
        seat_total[currency] += cents
    if player is None:  # the bête holds what the seats leave over (each evening's open figures sum to zero)
        for currency, cents in seat_total.items():
            if cents:
                add(BETE, currency, -cents)
    # the kitty's fees: an evening's from each player who took part in it (a place: docs/rules/money.md),
    # a night's once from each player who took part at one of its tables
    with_fee = Evening.objects.filter(club=club, kitty_fee__isnull=False)  # an index holds them
    for player_id, currency, cents in (
        seats.filter(place__isnull=False, evening__in=with_fee)
        .values("player_id", "evening__currency")
        .annotate(cents=_cents("evening__kitty_fee"))
        .values_list("player_id", "evening__currency", "cents")
        .order_by()
    ):
        add(player_id, currency, -cents, kitty_part=True)
    took_part = Seat.objects.filter(
        player=OuterRef("player"), place__isnull=False, evening__night_table__session__night=OuterRef("night")
    )
    entries = Participant.objects.filter(night__club=club, night__kitty_fee__isnull=False).filter(Exists(took_part))
    if player is not None:
        entries = entries.filter(player=player)
    for player_id, currency, cents in (
        entries.values("player_id", "night__currency")
        .annotate(cents=_cents("night__kitty_fee"))
        .values_list("player_id", "night__currency", "cents")
        .order_by()
    ):
        add(player_id, currency, -cents, kitty_part=True)
    prizes = Prize.objects.active().filter(club=club)
    if player is not None:
        prizes = prizes.filter(player=player)
    for player_id, currency, cents in (
        prizes.values("player_id", "currency")
        .annotate(cents=_cents("amount"))
        .values_list("player_id", "currency", "cents")
    ).order_by():
        add(player_id, currency, cents, kitty_part=True)
    # the payments for no evening (on account, for a night, into and out of the kitty; an evening's are in
    # its seats' figures): the payer's balance goes up by what he paid, the payee's down by what he received
    paid = (
        Payment.objects.active()
        .filter(club=club, evening__isnull=True)
        .annotate(with_kitty=Case(When(KITTY_PAYMENT, then=Value(1)), default=Value(0)))
    )
    for side, sign in (("payer", 1), ("payee", -1)):
        rows = paid.filter(**{f"{side}_player": player}) if player is not None else paid
        for player_id, name, with_kitty, currency, cents in (
            rows.annotate(party=Case(When(**{f"{side}_player__isnull": True}, then=F(side)), default=Value("")))
            .values(f"{side}_player_id", "party", "with_kitty", "currency")
            .annotate(cents=_cents("amount"))
            .values_list(f"{side}_player_id", "party", "with_kitty", "currency", "cents")
            .order_by()
        ):
            key: Key = player_id if player_id is not None else name
            money[key][currency] += sign * cents
            if with_kitty:
                kitty[key][currency] += sign * cents
    keys = [k for k in money.keys() | kitty.keys() if any(money[k].values()) or any(kitty[k].values())]
    names = dict(
        Player.objects.filter(club=club, pk__in=[k for k in keys if isinstance(k, int)]).values_list("pk", "name")
    )
    out = [
        Balance(
            key,
            label(key, names),
            key if isinstance(key, int) else None,
            {c: _money(v) for c, v in sorted(money[key].items()) if v},
            {c: _money(v) for c, v in sorted(kitty[key].items()) if v},
        )
        for key in keys
    ]
    out.sort(key=lambda b: (b.net, sort_key(b.name)))
    return out


def balance_of(club: Club, player: Player) -> Balance:
    """One player's balance (his rows only)."""
    found = next((b for b in balances(club, player) if b.key == player.pk), None)
    return found or Balance(player.pk, player.name, player.pk)


# --- what remains to pay, evening by evening and night by night ------------------------------------


@dataclass
class OpenTransfer(TransferWords):
    evening: int
    date: date_cls
    ruleset: str
    currency: str
    payer: str  # the names at the table (what Payment rows record)
    payee: str
    payer_key: Key
    payee_key: Key
    amount: Decimal
    payer_name: str = ""  # the roster's names now (TransferWords)
    payee_name: str = ""

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.currency)

    @property
    def variant(self) -> str:
        return variant_name(self.ruleset)


@dataclass
class PaidTransfer(TransferWords):
    """A payment already made for an evening whose settlement is still open."""

    evening: int
    currency: str
    payer: str
    payee: str
    amount: Decimal
    payer_name: str = ""
    payee_name: str = ""

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.currency)


@dataclass
class EveningLedger:
    """An evening with something still to pay: its open transfers, and what was paid already."""

    pk: int
    date: date_cls
    ruleset: str
    currency: str
    transfers: list[OpenTransfer] = field(default_factory=list)
    paid: list[PaidTransfer] = field(default_factory=list)

    @property
    def variant(self) -> str:
        return variant_name(self.ruleset)

    def remaining(self, key: Key) -> Decimal:
        """What remains for one party (> 0: he is owed)."""
        return sum(
            (
                t.amount if t.payee_key == key else -t.amount
                for t in self.transfers
                if key in (t.payer_key, t.payee_key)
            ),
            ZERO,
        )


def open_evenings(
    club: Club, player: Player | None = None, *, limit: int | None, offset: int = 0
) -> tuple[list[EveningLedger], int]:
    """The club's evenings (not a night's tables) with a transfer still open (for ``player``, those
    where one of his is), newest first: ``limit`` of them from ``offset`` (None: all, for the CSV),
    and how many there are."""
    still_open = Seat.objects.filter(open_transfers__gt=0)  # an index holds them
    if player is not None:
        still_open = still_open.filter(player=player)
    evenings = Evening.objects.filter(
        club=club, stake__isnull=False, managed=False, pk__in=still_open.values("evening_id")
    )
    total = evenings.count()
    rows = list(
        evenings.order_by("-date", "-created_at", "-pk").values_list(
            "pk", "date", "ruleset", "currency", "summary__transfers"
        )[offset : None if limit is None else offset + limit]
    )
    ids = [r[0] for r in rows]
    paid: dict[int, list[Transfer]] = defaultdict(list)
    for evening_id, payer, payee, amount in (
        Payment.objects.active().filter(evening__in=ids).values_list("evening_id", "payer", "payee", "amount")
    ):
        paid[evening_id].append(Transfer(payer, payee, amount))
    seat_of: dict[int, dict[str, int]] = defaultdict(dict)  # evening -> {name at the table: player}, seat order
    for evening_id, name, player_id in (
        Seat.objects.filter(evening__in=ids)
        .order_by("evening_id", "position")
        .values_list("evening_id", "name", "player_id")
    ):
        seat_of[evening_id][name] = player_id
    names = dict(
        Player.objects.filter(pk__in={p for seats in seat_of.values() for p in seats.values()}).values_list(
            "pk", "name"
        )
    )
    out = []
    for evening_id, day, ruleset, currency, transfers in rows:
        seats = seat_of[evening_id]
        line = EveningLedger(evening_id, day, ruleset, currency)
        for t in summary.open_transfers(transfers, list(seats), paid[evening_id]):
            payer_key, payee_key = seats.get(t.payer, t.payer), seats.get(t.payee, t.payee)
            if player is not None and player.pk not in (payer_key, payee_key):
                continue
            line.transfers.append(
                OpenTransfer(
                    evening_id,
                    day,
                    ruleset,
                    currency,
                    t.payer,
                    t.payee,
                    payer_key,
                    payee_key,
                    t.amount,
                    names.get(payer_key, ""),
                    names.get(payee_key, ""),
                )
            )
        line.paid = [
            PaidTransfer(
                evening_id,
                currency,
                p.payer,
                p.payee,
                p.amount,
                names.get(seats.get(p.payer, -1), ""),
                names.get(seats.get(p.payee, -1), ""),
            )
            for p in paid[evening_id]
        ]
        out.append(line)
    return out, total


@dataclass
class NightTransfer(TransferWords):
    """One of the fewest transfers that settle a night across its tables (docs/rules/club-nights.md)."""

    night: int
    date: date_cls
    name: str  # the night's
    currency: str
    payer: str
    payee: str
    payer_key: Key
    payee_key: Key
    amount: Decimal
    key: str = ""  # the paid form's request key

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.currency)

    @property
    def recordable(self) -> bool:
        """Between two players of the club (the bête is no one to pay)."""
        return isinstance(self.payer_key, int) and isinstance(self.payee_key, int)


@dataclass
class NightLedger:
    """A night as the ledger shows it: the fewest transfers that settle what remains of it."""

    pk: int
    date: date_cls
    name: str
    currency: str
    transfers: list[NightTransfer] = field(default_factory=list)
    nets: dict[Key, Decimal] = field(default_factory=dict)  # what remains for each party (> 0: is owed)

    def remaining(self, key: Key) -> Decimal:
        return self.nets.get(key, ZERO)


def night_ledgers(nights: list[Night], player: Player | None = None) -> list[NightLedger]:
    """Each of ``nights`` settled once (docs/rules/club-nights.md): each player's money at its tables, netted with
    the payments made at its tables and for the night, cleared by the fewest transfers (only those of
    ``player`` kept, when given). Four queries for all of them."""
    from scorebook.evenings.forms import new_request_key

    ids = [n.pk for n in nights]
    night_of = "evening__night_table__session__night_id"
    cents: dict[int, dict[Key, int]] = defaultdict(lambda: defaultdict(int))
    for night_id, player_id, c in (
        Seat.objects.filter(**{f"{night_of}__in": ids}, money__isnull=False)
        .values(night_of, "player_id")
        .annotate(c=_cents("money"))
        .values_list(night_of, "player_id", "c")
        .order_by()
    ):
        cents[night_id][player_id] += c
    for path, payments in (
        (night_of, Payment.objects.active().filter(**{f"{night_of}__in": ids})),
        ("night_link__night_id", Payment.objects.active().filter(night_link__night_id__in=ids)),
    ):
        for night_id, payer_id, payer, payee_id, payee, c in (
            payments.values(path, "payer_player_id", "payer", "payee_player_id", "payee")
            .annotate(c=_cents("amount"))
            .values_list(path, "payer_player_id", "payer", "payee_player_id", "payee", "c")
            .order_by()
        ):
            cents[night_id][payer_id if payer_id is not None else payer] += c
            cents[night_id][payee_id if payee_id is not None else payee] -= c
    names = dict(
        Player.objects.filter(pk__in={k for by in cents.values() for k in by if isinstance(k, int)}).values_list(
            "pk", "name"
        )
    )
    out = []
    for night in nights:
        nets = {k: c for k, c in cents[night.pk].items() if c}
        left_over = sum(nets.values())
        if left_over:  # a carried bête at its tables
            nets[BETE] = nets.get(BETE, 0) - left_over
        line = NightLedger(
            night.pk, night.date, night.name, night.currency, nets={k: _money(c) for k, c in nets.items()}
        )
        order = sorted(nets, key=lambda k: (isinstance(k, str), sort_key(label(k, names)), str(k)))
        keys = {str(k): k for k in order}
        settled = settle_up.fewest_transfers({str(k): _money(nets[k]) for k in order})
        for t in settled.transfers:
            payer_key, payee_key = keys[t.payer], keys[t.payee]
            if player is not None and player.pk not in (payer_key, payee_key):
                continue
            line.transfers.append(
                NightTransfer(
                    night.pk,
                    night.date,
                    night.name,
                    night.currency,
                    label(payer_key, names),
                    label(payee_key, names),
                    payer_key,
                    payee_key,
                    t.amount,
                    new_request_key(),
                )
            )
        out.append(line)
    return out


def open_nights(
    club: Club, player: Player | None = None, *, limit: int | None, offset: int = 0
) -> tuple[list[NightLedger], int]:
    """The club's nights with a stake (``player``'s nights, when given), newest first, ``limit`` of them
    from ``offset``, each settled once; those with nothing left to pay are left out of the list. And
    how many nights with a stake there are (the pages count in nights)."""
    nights = Night.objects.filter(club=club, stake__isnull=False)
    if player is not None:
        nights = nights.filter(participants__player=player)
    total = nights.count()
    page = list(nights.order_by("-date", "-pk")[offset : None if limit is None else offset + limit])
    return [n for n in night_ledgers(page, player) if n.transfers], total


# --- settle-up ---------------------------------------------------------------------------------------


@dataclass
class SettleLine(TransferWords):
    payer: str
    payee: str
    amount: Decimal
    currency: str
    payer_key: Key
    payee_key: Key
    key: str = ""  # the form's request key (a repeated tap records nothing)

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.currency)

    @property
    def payer_player(self) -> int | None:
        return self.payer_key if isinstance(self.payer_key, int) else None

    @property
    def payee_player(self) -> int | None:
        return self.payee_key if isinstance(self.payee_key, int) else None

    @property
    def with_kitty(self) -> bool:
        return KITTY in (self.payer_key, self.payee_key)

    @property
    def recordable(self) -> bool:
        """Between two players, or a player and the kitty (the bête is no one to pay)."""
        return all(isinstance(k, int) or k == KITTY for k in (self.payer_key, self.payee_key))


@dataclass
class SettleUp:
    lines: list[SettleLine]
    proved: bool  # no settlement takes fewer transfers
    parties: int  # with a balance to clear
    with_kitty: bool


def settle(all_balances: list[Balance], *, with_kitty: bool) -> SettleUp:
    """The fewest transfers that clear ``all_balances`` (every party's), currency by currency, largest
    amounts first. Without ``with_kitty`` the players settle among themselves what is not the kitty's."""
    from scorebook.evenings.forms import new_request_key

    lines: list[SettleLine] = []
    proved, parties = True, 0
    currencies = sorted({c for b in all_balances for c in (*b.money, *b.kitty)})
    for currency in currencies:
        amounts: dict[str, Decimal] = {}
        by_key: dict[str, Balance] = {}
        for b in all_balances:
            if b.is_kitty and not with_kitty:
                continue
            amount = (b.money if with_kitty else b.without_kitty()).get(currency, ZERO)
            if amount:
                amounts[str(b.key)] = amount
                by_key[str(b.key)] = b
        parties += len(amounts)
        found = settle_up.fewest_transfers(amounts)
        proved = proved and found.proved
        for t in found.transfers:
            payer, payee = by_key[t.payer], by_key[t.payee]
            lines.append(
                SettleLine(payer.name, payee.name, t.amount, currency, payer.key, payee.key, new_request_key())
            )
    lines.sort(key=lambda line: (-line.amount, sort_key(line.payer), sort_key(line.payee)))
    return SettleUp(lines, proved, parties, with_kitty)


# --- the kitty ----------------------------------------------------------------------------------


@dataclass
class Kitty:
    """The club's kitty, by currency: what players owe it (its balance as a party), what it holds
    (paid in, less paid out, less its expenses), and what it is worth once everyone has paid."""

    evening_fee: Decimal | None
    night_fee: Decimal | None
    owed: dict[str, Decimal] = field(default_factory=dict)
    held: dict[str, Decimal] = field(default_factory=dict)
    expenses: dict[str, Decimal] = field(default_factory=dict)

    @property
    def used(self) -> bool:
        return bool(self.evening_fee or self.night_fee or self.owed or self.held or self.expenses)

    @property
    def currencies(self) -> list[str]:
        return sorted({*self.owed, *self.held, *self.expenses})

    def rows(self) -> list[dict]:
        out = []
        for currency in self.currencies:
            owed, held = self.owed.get(currency, ZERO), self.held.get(currency, ZERO)
            out.append(
                {
                    "currency": currency,
                    "owed": money_text(owed, currency, signed=True),
                    "owed_tone": tone(owed),
                    "held": money_text(held, currency),
                    "held_tone": tone(held),
                    "spent": money_text(self.expenses.get(currency, ZERO), currency),
                    "worth": money_text(owed + held, currency),
                }
            )
        return out


def kitty(club: Club, all_balances: list[Balance] | None = None) -> Kitty:
    """The kitty's figures (``all_balances``: the club's, when the page has them already)."""
    all_balances = balances(club) if all_balances is None else all_balances
    mine = next((b for b in all_balances if b.is_kitty), None)
    held: dict[str, int] = defaultdict(int)
    for side, sign in (("payee", 1), ("payer", -1)):
        for currency, c in (
            Payment.objects.active()
            .filter(club=club, evening__isnull=True, **{side: KITTY, f"{side}_player__isnull": True})
            .values("currency")
            .annotate(c=_cents("amount"))
            .values_list("currency", "c")
            .order_by()
        ):
            held[currency] += sign * c
    spent = dict(
        Expense.objects.active()
        .filter(club=club)
        .values("currency")
        .annotate(c=_cents("amount"))
        .values_list("currency", "c")
        .order_by()
    )
    for currency, c in spent.items():
        held[currency] -= c
    return Kitty(
        club.kitty_evening_fee,
        club.kitty_night_fee,
        dict(mine.money) if mine else {},
        {c: _money(v) for c, v in held.items() if v},
        {c: _money(v) for c, v in spent.items() if v},
    )


# --- history --------------------------------------------------------------------------------------


@dataclass
class HistoryLine(TransferWords):
    """A payment, an expense or a prize as the history lists it: what, for what, who recorded it
    when, and its cancellation (who, when, why) when it was cancelled or withdrawn."""

    what: str  # "payment", "expense", "prize"
    pk: int
    where: str  # the evening's date, the night, "on account", the kitty, the season
    evening: int | None
    currency: str
    payer: str
    payee: str
    amount: Decimal
    marked_by: str
    marked_at: object
    kind: str = ""
    note: str = ""
    marked_by_id: int | None = None
    cancelled_at: object = None
    cancelled_by: str = ""
    reason: str = ""
    payer_name: str = ""
    payee_name: str = ""
    may_cancel: bool = False

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.currency)

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None


def _payment_line(p: Payment) -> HistoryLine:
    cancellation = p.cancellation if p.cancelled else None
    link = getattr(p, "night_link", None) if p.evening_id is None else None
    if p.evening_id is not None:
        where = _("evening of %(day)s") % {"day": date_format(p.evening.date, "DATE_FORMAT")}
    elif link is not None:
        where = _("night %(name)s of %(day)s") % {
            "name": link.night.name,
            "day": date_format(link.night.date, "DATE_FORMAT"),
        }
    elif KITTY in (p.payer, p.payee) and (p.payer_player_id is None or p.payee_player_id is None):
        where = kitty_label()
    else:
        where = _("on account")
    return HistoryLine(
        "payment",
        p.pk,
        where,
        p.evening_id,
        p.currency,
        p.payer if p.payer != KITTY else kitty_label(),
        p.payee if p.payee != KITTY else kitty_label(),
        p.amount,
        display_name(p.marked_by),
        p.marked_at,
        p.kind,
        p.note,
        p.marked_by_id,
        cancellation.at if cancellation else None,
        display_name(cancellation.by) if cancellation else "",
        cancellation.reason if cancellation else "",
        p.payer_player.name if p.payer_player else "",
        p.payee_player.name if p.payee_player else "",
    )


def _kitty_line(record: Expense | Prize) -> HistoryLine:
    prize = isinstance(record, Prize)
    return HistoryLine(
        "prize" if prize else "expense",
        record.pk,
        record.season_name if isinstance(record, Prize) else date_format(record.day, "DATE_FORMAT"),
        None,
        record.currency,
        kitty_label(),
        record.player.name if isinstance(record, Prize) else record.note,
        record.amount,
        display_name(record.recorded_by),
        record.recorded_at,
        "prize" if prize else "expense",
        _("place %(place)s") % {"place": record.place} if isinstance(record, Prize) else "",
        record.recorded_by_id,
        record.withdrawn_at,
        display_name(record.withdrawn_by) if record.withdrawn_at else "",
        record.withdrawn_reason,
    )


def history(club: Club, *, limit: int | None, offset: int = 0) -> list[HistoryLine]:
    """The club's payments (cancelled ones too) and the kitty's expenses and prizes, the latest
    recorded first: ``limit`` of them from ``offset`` (None: every one, for the CSV). Three queries."""
    end = None if limit is None else offset + limit
    payments = (
        Payment.objects.filter(club=club)
        .select_related(
            "evening",
            "marked_by__profile",
            "cancellation__by__profile",
            "night_link__night",
            "payer_player",
            "payee_player",
        )
        .order_by("-marked_at", "-pk")[:end]
    )
    expenses = Expense.objects.filter(club=club).select_related("recorded_by__profile", "withdrawn_by__profile")
    prizes = Prize.objects.filter(club=club).select_related("recorded_by__profile", "withdrawn_by__profile", "player")
    lines = [_payment_line(p) for p in payments]
    lines += [_kitty_line(r) for r in expenses.order_by("-recorded_at", "-pk")[:end]]
    lines += [_kitty_line(r) for r in prizes.order_by("-recorded_at", "-pk")[:end]]
    lines.sort(key=lambda h: (h.marked_at, h.pk), reverse=True)
    return lines[offset:end]


def players(club: Club) -> list[tuple[int, str]]:
    """The club's players as a list of choices, in the roster's order (collated: Élise beside Elise)."""
    return sorted(Player.objects.filter(club=club).values_list("pk", "name"), key=lambda p: sort_key(p[1]))


def club_currency(club: Club) -> str:
    """The currency of the club's latest evening with a stake (what a payment on account is in)."""
    latest = (
        Evening.objects.filter(club=club, stake__isnull=False)
        .order_by("-date", "-pk")
        .values_list("currency", flat=True)
    ).first()
    return latest or "EUR"


__all__ = [
    "KITTY",
    "Balance",
    "EveningLedger",
    "HistoryLine",
    "Kitty",
    "NightLedger",
    "NightTransfer",
    "OpenTransfer",
    "SettleLine",
    "SettleUp",
    "balance_of",
    "balances",
    "club_currency",
    "history",
    "kitty",
    "night_ledgers",
    "open_evenings",
    "open_nights",
    "players",
    "settle",
]
