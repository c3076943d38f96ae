"""What remains to pay, item by item (docs/rules/money.md): an evening's settlement netted against its
payments (the engine's ``settlement.still_open``, which its settlement page and its seats' figures
read too), found through the seats' stored count of open transfers (``Seat.open_transfers``, kept by
every write of the evening and its payments), newest first and paged; a night's
(docs/rules/club-nights.md) is settled once across its tables: each player's money at his tables,
netted with every payment made at them or for the night, cleared by the fewest transfers
(``rules.settle_up``), for the nights of one page. The sum, over every item, of what remains for a
player is his balance less his payments on account and kitty."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date as date_cls
from decimal import Decimal

from scorebook.clubs.models import Club, Player
from scorebook.core.collation import sort_key
from scorebook.core.formatting import money_text
from scorebook.evenings.display import TransferWords
from scorebook.evenings.models import Evening, Payment, Seat
from scorebook.nights.models import Night
from scorebook.rules import settle_up, settlement
from scorebook.rules.scoring import BETE
from scorebook.rules.settlement import Transfer

from .choices import variant_name
from .parties import ZERO, Key, cents_sum, from_cents, label

# --- evenings ------------------------------------------------------------------------------------


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


def _page(club: Club, player: Player | None, limit: int | None, offset: int) -> tuple[list[tuple], int]:
    """(pk, date, ruleset, currency, transfers) of the evenings of the page, and how many there are."""
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
    return rows, total


def _paid(ids: list[int]) -> dict[int, list[Transfer]]:
    """The payments of each evening, not cancelled."""
    paid: dict[int, list[Transfer]] = defaultdict(list)
    for evening_id, payer, payee, amount in (
        Payment.objects.active().filter(evening__in=ids).values_list("evening_id", "payer", "payee", "amount")
    ):
        paid[evening_id].append(Transfer(payer, payee, amount))
    return paid


def _seats(ids: list[int]) -> tuple[dict[int, dict[str, Key]], dict[Key, str]]:
    """Each evening's {name at the table: player}, in seat order; and the roster's names of those players."""
    seat_of: dict[int, dict[str, Key]] = defaultdict(dict)
    for evening_id, name, player_id in (
        Seat.objects.filter(evening__in=ids)
        .order_by("evening_id", "position")
        .values_list("evening_id", "name", "player_id")
    ):
        seat_of[evening_id][name] = player_id
    players = {p for seats in seat_of.values() for p in seats.values()}
    names: dict[Key, str] = dict(Player.objects.filter(pk__in=players).values_list("pk", "name"))
    return seat_of, names


def open_evenings(
    club: Club, player: Player | None = None, *, limit: int | None, offset: int = 0
) -> tuple[list[EveningLedger], int]:
    """The club's evenings (not a night's tables) with a transfer still open (for ``player``, those
    where one of his is), newest first: ``limit`` of them from ``offset`` (None: all, for the CSV),
    and how many there are."""
    rows, total = _page(club, player, limit, offset)
    ids = [r[0] for r in rows]
    paid = _paid(ids)
    seat_of, names = _seats(ids)
    out = []
    for evening_id, day, ruleset, currency, transfers in rows:
        seats = seat_of[evening_id]
        line = EveningLedger(evening_id, day, ruleset, currency)
        for t in settlement.still_open(settlement.transfers_of(transfers), list(seats), paid[evening_id]):
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


# --- nights --------------------------------------------------------------------------------------


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


NIGHT_OF = "evening__night_table__session__night_id"


def _night_cents(ids: list[int]) -> dict[int, dict[Key, int]]:
    """Each night's cents for each party: his money at its tables, plus the payments he made at them
    or for the night, less those he received (not cancelled)."""
    cents: dict[int, dict[Key, int]] = defaultdict(lambda: defaultdict(int))
    for night_id, player_id, c in (
        Seat.objects.filter(**{f"{NIGHT_OF}__in": ids}, money__isnull=False)
        .values(NIGHT_OF, "player_id")
        .annotate(c=cents_sum("money"))
        .values_list(NIGHT_OF, "player_id", "c")
        .order_by()
    ):
        cents[night_id][player_id] += c
    for path, payments in (
        (NIGHT_OF, Payment.objects.active().filter(**{f"{NIGHT_OF}__in": ids})),
        ("night_link__night_id", Payment.objects.active().filter(night_link__night_id__in=ids)),
    ):
        for night_id, payer_id, payer, payee_id, payee, c in (
            payments.values(path, "payer_player_id", "payer", "payee_player_id", "payee")
            .annotate(c=cents_sum("amount"))
            .values_list(path, "payer_player_id", "payer", "payee_player_id", "payee", "c")
            .order_by()
        ):
            cents[night_id][payer_id if payer_id is not None else payer] += c
            cents[night_id][payee_id if payee_id is not None else payee] -= c
    return cents


def _night_line(night: Night, cents: dict[Key, int], names: dict[int, str], player: Player | None) -> NightLedger:
    """The night's line: what remains for each party, and the fewest transfers that clear it (only
    ``player``'s, when given)."""
    from scorebook.evenings.forms import new_request_key

    nets = {k: c for k, c in cents.items() if c}
    left_over = sum(nets.values())
    if left_over:  # a carried bête at its tables
        nets[BETE] = nets.get(BETE, 0) - left_over
    line = NightLedger(
        night.pk, night.date, night.name, night.currency, nets={k: from_cents(c) for k, c in nets.items()}
    )
    order = sorted(nets, key=lambda k: (isinstance(k, str), sort_key(label(k, names)), str(k)))
    keys = {str(k): k for k in order}
    settled = settle_up.fewest_transfers({str(k): from_cents(nets[k]) for k in order})
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
    return line


def night_ledgers(nights: list[Night], player: Player | None = None) -> list[NightLedger]:
    """Each of ``nights`` settled once (docs/rules/club-nights.md): each player's money at its tables, netted with
    the payments made at its tables and for the night, cleared by the fewest transfers (only those of
    ``player`` kept, when given). Four queries for all of them."""
    cents = _night_cents([n.pk for n in nights])
    names = dict(
        Player.objects.filter(pk__in={k for by in cents.values() for k in by if isinstance(k, int)}).values_list(
            "pk", "name"
        )
    )
    return [_night_line(night, cents[night.pk], names, player) for night in nights]


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
