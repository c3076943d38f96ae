"""The club's ledger: money left unpaid at the end of evenings, until someone marks it paid.

For each evening of the club with a stake, its settlement (``Evening.summary["transfers"]``)
is netted against the payments already made (``Payment``: who paid whom how much), as
rules.md 4 says: what is open is the fewest transfers that settle the remainder
(``settlement.remaining_transfers``), which after a correction may run the other way. A
payment is never lost and a transfer already paid is never asked again. The ledger adds the
open transfers up per player and lists them with their evening. Everything comes from the
summaries: no deal is scored here, and the number of queries does not depend on the number
of evenings.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date as date_cls
from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import BigIntegerField, Exists, F, OuterRef, Q
from django.db.models.functions import Cast, Round
from django.http import Http404, HttpResponse, HttpResponseBadRequest, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scorebook.accounts.models import display_name
from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Player, Role
from scorebook.core import cleaning
from scorebook.core.collation import sort_key
from scorebook.core.formatting import lang, money_text, party_label, tone
from scorebook.core.http import HtmxHttpRequest, page_or_fragment
from scorebook.evenings import payments, summary
from scorebook.evenings.display import TransferWords
from scorebook.evenings.forms import CancelForm, PaymentForm, new_request_key
from scorebook.evenings.models import Evening, Payment, Seat
from scorebook.nights import payments as night_payments
from scorebook.nights.models import Night, NightPayment, NightTable
from scorebook.rules import registry, settlement
from scorebook.rules.model import RulesError

TEMPLATE = "league/ledger.html"
CANCEL_TEMPLATE = "league/payment_cancel.html"
CENT = Decimal("0.01")
MARKERS = (Role.ADMIN, Role.SCORER)
SHOWN_EVENINGS = 40  # the newest evenings with open transfers; ?all=1 shows every one
HISTORY = 30  # the latest payments listed, each with its undo


def variant_name(ruleset: str) -> str:
    try:
        return registry.get(ruleset).names.get(lang())
    except RulesError:
        return ruleset


@dataclass
class OpenTransfer(TransferWords):
    evening: int
    date: date_cls
    ruleset: str
    currency: str
    payer: str  # the names at the table (what Payment rows record)
    payee: str
    payer_key: int | str  # a Player id, or the name when the seat has no player (the bête)
    payee_key: int | str
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
class Balance:
    key: int | str
    name: str
    player: int | None  # for the link to the player page
    money: dict[str, Decimal] = field(default_factory=dict)  # by currency; > 0: is owed money
    count: int = 0  # open transfers

    @property
    def net(self) -> Decimal:
        """The balance in the first currency (one currency is the usual case)."""
        return next(iter(self.money.values()), Decimal("0.00"))

    @property
    def texts(self) -> list[dict]:
        return [
            {"text": money_text(amount, currency, signed=True), "tone": tone(amount)}
            for currency, amount in sorted(self.money.items())
        ]

    @property
    def tone(self) -> str:
        return tone(self.net)


@dataclass
class PaidTransfer(TransferWords):
    """A payment already made for an evening whose settlement is still open."""

    evening: int
    currency: str
    payer: str
    payee: str
    amount: Decimal
    payer_name: str = ""  # the roster's names now (TransferWords)
    payee_name: str = ""

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.currency)


@dataclass
class NightTransfer(TransferWords):
    """One of the fewest transfers that settle a night across its tables (rules.md 6)."""

    night: int
    date: date_cls
    name: str  # the night's
    currency: str
    payer: str
    payee: str
    payer_key: int | str
    payee_key: int | str
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
    """A night as the ledger shows it: its own transfers, the tables' ones behind them."""

    pk: int
    date: date_cls
    name: str
    currency: str
    transfers: list[NightTransfer] = field(default_factory=list)
    tables: list[OpenTransfer] = field(default_factory=list)  # evening by evening, as before the netting


@dataclass
class Ledger:
    transfers: list[OpenTransfer]
    balances: list[Balance]
    paid: dict[int, list[PaidTransfer]] = field(default_factory=dict)  # evening -> payments, when open
    nights: list[NightLedger] = field(default_factory=list)


def _amount(value) -> Decimal | None:
    try:
        amount = Decimal(str(value)).quantize(CENT)
    except (InvalidOperation, TypeError, ValueError):
        return None
    return amount if amount.is_finite() and amount > 0 else None


def _money(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(CENT)


def _cents(text) -> int | None:
    if isinstance(text, str) and len(text) > 3 and text[-3] == "." and text.replace(".", "", 1).isdigit():
        return int(text.replace(".", "", 1)) or None  # "1.40", as summaries write amounts
    amount = _amount(text)
    return int(amount * 100) if amount is not None else None


def _due(transfers) -> list[tuple[str, str, int]]:
    due = [(t.get("from", ""), t.get("to", ""), _cents(t.get("amount"))) for t in transfers or ()]
    return [t for t in due if t[2] is not None]


def _settled(transfers, made) -> bool:
    """The payments are exactly the settlement's transfers: nothing is open, no arithmetic needed."""
    return bool(made) and sorted(made) == sorted(_due(transfers))


def open_transfers(rows, paid, order) -> list[tuple[int, str, str, int]]:
    """(evening, payer, payee, cents) still open, for ``rows`` of (evening id, transfers of its
    summary), the payments made per evening as (payer, payee, cents) and the names at each
    evening's table in seat order (``order``; ties of the settlement follow it).

    The settlement netted against the payments (rules.md 4), as the evening's own settlement
    page does (``summary.open_transfers``); an evening whose payments are exactly its
    transfers is settled without arithmetic.
    """
    out = []
    for evening_id, transfers in rows:
        made = paid.get(evening_id, [])
        if _settled(transfers, made):
            continue
        payments = [settlement.Transfer(a, b, _money(c)) for a, b, c in made]
        rest = summary.open_transfers(transfers, order.get(evening_id, ()), payments)
        out += [(evening_id, t.payer, t.payee, int(t.amount * 100)) for t in rest]
    return out


def club_currency(club) -> str:
    """The currency of the club's latest evening with a stake (payments on account are in it)."""
    latest = (
        Evening.objects.filter(club=club, stake__isnull=False)
        .order_by("-date", "-pk")
        .values_list("currency", flat=True)
    ).first()
    return latest or "EUR"


def open_ledger(club, player=None, evenings=None) -> Ledger:
    """Every open transfer of the club's evenings (only those ``player`` sat at, when given), netted
    against the payments made, and the balance of each party. Four queries; ``evenings`` (a
    queryset) narrows the evenings read."""
    evenings_given = evenings
    if evenings is None:
        evenings = Evening.objects.filter(club=club, stake__isnull=False)
        if player is not None:
            evenings = evenings.filter(seats__player=player)
    # an evening with a payment is read even when its settlement no longer asks for anything
    evenings = evenings.filter(
        Q(summary__transfers__0__isnull=False) | Q(Exists(Payment.objects.active().filter(evening=OuterRef("pk"))))
    )
    rows = list(
        evenings.order_by("-date", "-created_at").values_list("id", "date", "ruleset", "currency", "summary__transfers")
    )
    paid: dict[int, list[tuple[str, str, int]]] = defaultdict(list)
    for evening_id, payer, payee, cents in (
        Payment.objects.active()
        .filter(evening__in=[r[0] for r in rows])
        .annotate(
            cents=Cast(Round(F("amount") * 100), BigIntegerField())
        )  # whole cents (beyond 32 bits), no Decimal per row
        .values_list("evening_id", "payer", "payee", "cents")
    ):
        paid[evening_id].append((payer, payee, cents))
    names = dict(Player.objects.filter(club=club).values_list("id", "name"))
    about = {r[0]: r for r in rows}
    maybe_open = [r[0] for r in rows if not _settled(r[4], paid.get(r[0]))]
    seat_of: dict[int, dict[str, int]] = defaultdict(dict)  # evening -> {name at the table: player}, in seat order
    for evening_id, name, player_id in (
        Seat.objects.filter(evening_id__in=maybe_open)
        .order_by("evening_id", "position")
        .values_list("evening_id", "name", "player_id")
    ):
        seat_of[evening_id][name] = player_id
    opened = open_transfers([(r[0], r[4]) for r in rows], paid, {k: list(v) for k, v in seat_of.items()})
    still_open = {t[0] for t in opened}

    transfers: list[OpenTransfer] = []
    balances: dict[int | str, Balance] = {}

    def balance(key, name) -> Balance:
        if key not in balances:
            player = key if isinstance(key, int) else None
            balances[key] = Balance(key, names.get(key, party_label(name)), player)
        return balances[key]

    # a night settles once (rules.md 6): its tables' open transfers are netted per player across the
    # night, with the payments made for the night, and settled anew with the fewest transfers
    whole = evenings_given is None
    night_of = (
        dict(NightTable.objects.filter(evening_id__in=still_open).values_list("evening_id", "session__night_id"))
        if whole
        else {}
    )
    night_paid = list(
        NightPayment.objects.filter(night__club=club, payment__cancellation__isnull=True).values_list(
            "night_id", "payment__payer_player_id", "payment__payee_player_id", "payment__amount"
        )
        if whole
        else ()
    )
    nights = {
        n.pk: NightLedger(n.pk, n.date, n.name, n.currency)
        for n in Night.objects.filter(pk__in={*night_of.values(), *(row[0] for row in night_paid)})
    }
    nets: dict[int, dict[int | str, Decimal]] = defaultdict(dict)
    labels: dict[int | str, str] = {}

    for evening_id, payer, payee, cents in opened:
        _id, day, ruleset, currency, _transfers = about[evening_id]
        seats = seat_of[evening_id]
        amount = _money(cents)
        payer_key, payee_key = seats.get(payer, payer), seats.get(payee, payee)
        open_t = OpenTransfer(
            evening_id,
            day,
            ruleset,
            currency,
            payer,
            payee,
            payer_key,
            payee_key,
            amount,
            names.get(payer_key, ""),
            names.get(payee_key, ""),
        )
        if evening_id in night_of:
            night = night_of[evening_id]
            nights[night].tables.append(open_t)
            for key, name, sign in ((open_t.payer_key, payer, -1), (open_t.payee_key, payee, 1)):
                nets[night][key] = nets[night].get(key, Decimal("0.00")) + sign * amount
                labels.setdefault(key, name)
            continue
        transfers.append(open_t)
        for key, name, sign in ((open_t.payer_key, payer, -1), (open_t.payee_key, payee, 1)):
            b = balance(key, name)
            b.money[currency] = b.money.get(currency, Decimal("0.00")) + sign * amount
            b.count += 1
    for night, payer_id, payee_id, amount in night_paid:
        for key, sign in ((payer_id, 1), (payee_id, -1)):
            nets[night][key] = nets[night].get(key, Decimal("0.00")) + sign * amount
    for night in sorted(nights.values(), key=lambda n: (n.date, n.pk), reverse=True):
        net = {key: amount for key, amount in nets[night.pk].items() if amount}
        order = {str(key): key for key in net}
        for t in settlement.settle_up({str(key): amount for key, amount in net.items()}):
            payer_key, payee_key = order[t.payer], order[t.payee]
            line = NightTransfer(
                night.pk,
                night.date,
                night.name,
                night.currency,
                names.get(payer_key, labels.get(payer_key, str(payer_key))),
                names.get(payee_key, labels.get(payee_key, str(payee_key))),
                payer_key,
                payee_key,
                t.amount,
                new_request_key(),
            )
            night.transfers.append(line)
            for key, name, sign in ((payer_key, line.payer, -1), (payee_key, line.payee, 1)):
                b = balance(key, name)
                b.money[night.currency] = b.money.get(night.currency, Decimal("0.00")) + sign * t.amount
                b.count += 1
    # payments on account (no evening, no night): they count in the balances of their two players
    on_account = Payment.objects.active().filter(club=club, evening__isnull=True, night_link__isnull=True)
    if player is not None:
        on_account = on_account.filter(Q(payer_player=player) | Q(payee_player=player))
    currency = club_currency(club)
    for payer_id, payer_name, payee_id, payee_name, amount in on_account.values_list(
        "payer_player_id", "payer", "payee_player_id", "payee", "amount"
    ):
        for key, name, sign in ((payer_id or payer_name, payer_name, 1), (payee_id or payee_name, payee_name, -1)):
            b = balance(key, name)
            b.money[currency] = b.money.get(currency, Decimal("0.00")) + sign * amount
    made = {
        evening_id: [
            PaidTransfer(
                evening_id,
                about[evening_id][3],
                a,
                b,
                _money(c),
                names.get(seat_of[evening_id].get(a), ""),
                names.get(seat_of[evening_id].get(b), ""),
            )
            for a, b, c in paid[evening_id]
        ]
        for evening_id in still_open
        if paid.get(evening_id)
    }
    ordered = sorted((b for b in balances.values() if any(b.money.values())), key=lambda b: (b.net, sort_key(b.name)))
    shown = sorted((n for n in nights.values() if n.transfers or n.tables), key=lambda n: (n.date, n.pk), reverse=True)
    return Ledger(transfers, ordered, made, shown)


@dataclass
class HistoryLine(TransferWords):
    """A payment as the history lists it: what was paid, for which evening (or on account), who
    marked it and when, and its cancellation (who, when, why) when it was cancelled."""

    pk: int
    evening: int | None
    date: date_cls | None
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
    night: str = ""  # a payment for a night as a whole: the night's name and date
    payer_name: str = ""  # the roster's names now (TransferWords)
    payee_name: str = ""

    @property
    def amount_text(self) -> str:
        return money_text(self.amount, self.currency)

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None

    @property
    def where(self) -> str:
        """Where the line comes from, as the CSV says it: the evening's date, the night, or on account."""
        return self.date.isoformat() if self.date else (self.night or _("on account"))


def payment_history(club, limit: int | None = HISTORY) -> list[HistoryLine]:
    """The club's payments, cancelled ones too, the latest marked first (one query)."""
    records = (
        Payment.objects.filter(club=club)
        .select_related(
            "evening",
            "marked_by__profile",
            "cancellation__by__profile",
            "night_link__night",
            "payer_player",
            "payee_player",
        )
        .order_by("-marked_at", "-pk")
    )
    if limit is not None:
        records = records[:limit]
    currency = None
    lines = []
    for p in records:
        if p.evening is None and currency is None:
            currency = club_currency(club)
        cancellation = p.cancellation if p.cancelled else None
        lines.append(
            HistoryLine(
                p.pk,
                p.evening_id,
                p.evening.date if p.evening else None,
                p.evening.currency if p.evening else currency,
                p.payer,
                p.payee,
                p.amount,
                display_name(p.marked_by),
                p.marked_at,
                p.kind,
                p.note,
                p.marked_by_id,
                cancellation.at if cancellation else None,
                display_name(cancellation.by) if cancellation else "",
                cancellation.reason if cancellation else "",
                _night_label(p),
                p.payer_player.name if p.payer_player else "",
                p.payee_player.name if p.payee_player else "",
            )
        )
    return lines


def _night_label(payment: Payment) -> str:
    link = getattr(payment, "night_link", None) if payment.evening_id is None else None
    if link is None:
        return ""
    return _("night %(name)s of %(day)s") % {"name": link.night.name, "day": link.night.date.isoformat()}


def _context(request, club, role, show_all: bool = False, form=None) -> dict:
    ledger = open_ledger(club)
    evenings = _by_evening(ledger.transfers, ledger.paid)
    shown = evenings if show_all else evenings[:SHOWN_EVENINGS]
    history = payment_history(club)
    for line in history:
        line.may_cancel = not line.cancelled and (
            role == Role.ADMIN or (role == Role.SCORER and line.marked_by_id == request.user.pk)
        )
    if form is None and role in MARKERS:
        form = PaymentForm(parties=_players(club))
    return {
        "club": club,
        "role": role,
        "can_mark": role in MARKERS,
        "ledger": ledger,
        "evenings": shown,
        "hidden": len(evenings) - len(shown),
        "history": history,
        "account_form": form,
        "currency": club_currency(club),
    }


def _players(club) -> list[tuple[int, str]]:
    return list(Player.objects.filter(club=club).order_by("name").values_list("pk", "name"))


def _by_evening(transfers: list[OpenTransfer], paid: dict[int, list[PaidTransfer]]) -> list[dict]:
    groups: dict[int, dict] = {}
    for t in transfers:
        group = groups.setdefault(
            t.evening,
            {"pk": t.evening, "date": t.date, "variant": t.variant, "transfers": [], "paid": paid.get(t.evening, [])},
        )
        group["transfers"].append(t)
    return list(groups.values())


@require_safe
@login_required
def ledger(request, slug):
    club, role = club_for_user(request, slug)
    return render(request, TEMPLATE, _context(request, club, role, show_all=request.GET.get("all") == "1"))


@require_POST
@login_required
def ledger_paid(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Mark one open transfer of one evening paid. A second tap changes nothing."""
    club, role = club_for_user(request, slug, *MARKERS)
    try:
        evening_id = int(request.POST.get("evening") or "")
    except ValueError:
        return HttpResponseBadRequest("evening must be an evening's number")
    payer = (request.POST.get("payer") or "").strip()
    payee = (request.POST.get("payee") or "").strip()
    amount = _amount(request.POST.get("amount"))
    if (
        not payer.isprintable() or not payee.isprintable() or not payer or not payee or amount is None
    ):  # a NUL never reaches the database
        return HttpResponseBadRequest("payer, payee and a positive amount are needed")
    evening = get_object_or_404(
        Evening.objects.only("id", "club_id", "stake", "currency"), pk=evening_id, club=club, stake__isnull=False
    )
    try:
        _payment, created = payments.record_payment(evening, payer, payee, amount, request.user, closed_too=True)
    except payments.NotDue:  # the settlement or its payments changed since the page was shown
        messages.warning(
            request, _("This transfer is no longer part of the evening's settlement: check the ledger again.")
        )
    else:
        if created:
            messages.success(
                request,
                _("Marked paid: %(payer)s paid %(payee)s %(amount)s.")
                % {
                    "payer": party_label(payer),
                    "payee": party_label(payee),
                    "amount": money_text(amount, evening.currency),
                },
            )
    if request.htmx:
        return render(request, TEMPLATE + "#ledger", _context(request, club, role))
    return redirect(reverse("club_ledger", args=[club.slug]) + "#open-transfers")


def _ledger_answer(request, club, role, anchor: str, form=None, status: int = 200) -> HttpResponse:
    if request.htmx:
        return render(request, TEMPLATE + "#ledger", _context(request, club, role, form=form), status=status)
    if form is not None:
        return render(request, TEMPLATE, _context(request, club, role, form=form), status=status)
    return redirect(reverse("club_ledger", args=[club.slug]) + anchor)


@require_POST
@login_required
def ledger_pay(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Record a payment on account between two players of the club (no evening): any amount, with
    a note; it counts in both players' balances and in the settle-up. A repeated form records nothing."""
    club, role = club_for_user(request, slug, *MARKERS)
    form = PaymentForm(request.POST, parties=_players(club))
    if not form.is_valid():
        if request.POST.get("back") == "settle-up":  # a settle-up line's amount: the page says why
            messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
            return redirect(reverse("club_settle_up", args=[club.slug]) + "#settle-up")
        return _ledger_answer(request, club, role, "#on-account", form, status=422)
    data = form.cleaned_data
    players = {p.pk: p for p in Player.objects.filter(club=club, pk__in=[data["payer"], data["payee"]])}
    payer, payee = players.get(int(data["payer"])), players.get(int(data["payee"]))
    try:
        if payer is None or payee is None:
            raise payments.NotDue()
        _payment, created = payments.record_on_account(
            club, payer, payee, data["amount"], request.user, note=data["note"], request_key=data["key"]
        )
    except payments.NotDue:
        form.add_error("payer", _("Two players of the club are needed."))
        return _ledger_answer(request, club, role, "#on-account", form, status=422)
    if created:
        messages.success(
            request,
            _("Recorded on account: %(payer)s paid %(payee)s %(amount)s.")
            % {"payer": payer.name, "payee": payee.name, "amount": money_text(data["amount"], club_currency(club))},
        )
    if request.POST.get("back") == "settle-up":
        return redirect(reverse("club_settle_up", args=[club.slug]) + "#settle-up")
    return _ledger_answer(request, club, role, "#payment-history")


@require_POST
@login_required
def ledger_night_paid(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Mark one of a night's transfers paid (rules.md 6: the night settles once, across its tables):
    a payment for the night between the two players. The form's key makes a second tap record nothing."""
    club, role = club_for_user(request, slug, *MARKERS)
    night_id, payer_id, payee_id = (
        cleaning.whole_number(request.POST.get(name) or "", low=1, high=2**63 - 1)
        for name in ("night", "payer", "payee")
    )
    if night_id is None or payer_id is None or payee_id is None:
        return HttpResponseBadRequest("night, payer and payee are numbers")
    night = get_object_or_404(Night, pk=night_id, club=club)
    raw = cleaning.decimal_number(request.POST.get("amount") or "")
    amount = _amount(raw) if raw is not None else None
    key = request.POST.get("key") or ""
    if not re.fullmatch(r"[0-9A-Za-z_-]{0,64}", key):
        return HttpResponseBadRequest("key is the form's own")
    players = {p.pk: p for p in Player.objects.filter(club=club, pk__in=[payer_id, payee_id])}
    if amount is None or payer_id not in players or payee_id not in players or payer_id == payee_id:
        return HttpResponseBadRequest("two players of the club and a positive amount are needed")
    _payment, created = night_payments.record_night_payment(
        night, players[payer_id], players[payee_id], amount, request.user, request_key=key
    )
    if created:
        messages.success(
            request,
            _("Marked paid: %(payer)s paid %(payee)s %(amount)s.")
            % {
                "payer": players[payer_id].name,
                "payee": players[payee_id].name,
                "amount": money_text(amount, night.currency),
            },
        )
    return _ledger_answer(request, club, role, "#open-transfers")


@page_or_fragment
@login_required
def ledger_cancel(request: HtmxHttpRequest, slug: str, payment: int) -> HttpResponse:
    """Cancel a payment of the club after a confirmation (a page, or the line in place with htmx),
    with a reason: a record of who, when and why. A scorer cancels the payments they entered, an
    admin any. A second tap is told the payment was cancelled already."""
    club, role = club_for_user(request, slug, *MARKERS)
    line = next((h for h in payment_history(club, limit=None) if h.pk == payment), None)
    if line is None:
        raise Http404("No such payment in this club")
    form = CancelForm(request.POST) if request.method == "POST" else CancelForm()
    context = {"club": club, "p": line, "form": form}
    if request.method == "POST":
        if not form.is_valid():
            return render(request, CANCEL_TEMPLATE, context, status=422)
        try:
            payments.cancel_payment(payment, request.user, admin=role == Role.ADMIN, reason=form.cleaned_data["reason"])
        except payments.AlreadyCancelled:
            messages.info(request, _("This payment was cancelled already."))
        except payments.NotYours:
            raise PermissionDenied("A scorer cancels only the payments they entered") from None
        else:
            messages.success(
                request,
                _("Cancelled: %(payer)s paying %(payee)s %(amount)s no longer counts; it stays in the history.")
                % {"payer": line.payer_label, "payee": line.payee_label, "amount": line.amount_text},
            )
        return _ledger_answer(request, club, role, "#payment-history")
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    if line.cancelled:
        messages.info(request, _("This payment was cancelled already."))
        return redirect(reverse("club_ledger", args=[club.slug]) + "#payment-history")
    if role != Role.ADMIN and line.marked_by_id != request.user.pk:
        raise PermissionDenied("A scorer cancels only the payments they entered")
    return render(request, CANCEL_TEMPLATE + "#confirm" if request.htmx else CANCEL_TEMPLATE, context)
