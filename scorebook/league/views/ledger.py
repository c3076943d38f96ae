"""The club's ledger: money left unpaid at the end of evenings, until someone marks it paid.

For each evening of the club with a stake, the transfers of its settlement
(``Evening.summary["transfers"]``) that have no ``Payment`` row (same payer, payee
and amount) are still open. The ledger adds them up per player and lists them with
their evening. Everything comes from the summaries: no deal is scored here, and the
number of queries does not depend on the number of evenings.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date as date_cls
from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Player, Role
from scorebook.core.formatting import lang, money_text, party_label, tone
from scorebook.evenings.models import Evening, Payment
from scorebook.evenings.display import TransferWords
from scorebook.rules import registry
from scorebook.rules.model import RulesError

TEMPLATE = "league/ledger.html"
CENT = Decimal("0.01")
MARKERS = (Role.ADMIN, Role.SCORER)
SHOWN_EVENINGS = 40  # the newest evenings with open transfers; ?all=1 shows every one


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
class Ledger:
    transfers: list[OpenTransfer]
    balances: list[Balance]

    def balance_of(self, key) -> Balance | None:
        return next((b for b in self.balances if b.key == key), None)


def _amount(value) -> Decimal | None:
    try:
        amount = Decimal(str(value)).quantize(CENT)
    except (InvalidOperation, TypeError, ValueError):
        return None
    return amount if amount.is_finite() and amount > 0 else None


def open_ledger(club, player=None) -> Ledger:
    """Every open transfer of the club's evenings (only those ``player`` sat at, when given),
    and the balance of each party. Three queries."""
    evenings = Evening.objects.filter(club=club, stake__isnull=False, summary__transfers__0__isnull=False)
    if player is not None:
        evenings = evenings.filter(seats__player=player)
    rows = list(evenings.order_by("-date", "-created_at").values_list("id", "date", "ruleset", "currency", "summary"))
    paid: dict[int, set[tuple[str, str, Decimal]]] = defaultdict(set)
    for evening_id, payer, payee, amount in Payment.objects.filter(evening__in=evenings).values_list(
        "evening_id", "payer", "payee", "amount"
    ):
        paid[evening_id].add((payer, payee, Decimal(amount).quantize(CENT)))
    names = dict(Player.objects.filter(club=club).values_list("id", "name"))

    transfers: list[OpenTransfer] = []
    balances: dict[int | str, Balance] = {}

    def party(seats: dict[str, int], name: str) -> int | str:
        return seats.get(name, name)  # the bête has no seat: it stays a name

    def balance(key, name) -> Balance:
        if key not in balances:
            player = key if isinstance(key, int) else None
            balances[key] = Balance(key, names.get(key, party_label(name)), player)
        return balances[key]

    for evening_id, day, ruleset, currency, summary in rows:
        seats = {p.get("name"): p["player"] for p in summary.get("players") or () if p.get("player") is not None}
        for t in summary.get("transfers") or ():
            amount = _amount(t.get("amount"))
            payer, payee = t.get("from", ""), t.get("to", "")
            if amount is None or (payer, payee, amount) in paid[evening_id]:
                continue
            open_t = OpenTransfer(
                evening_id, day, ruleset, currency, payer, payee, party(seats, payer), party(seats, payee), amount
            )
            transfers.append(open_t)
            for key, name, sign in ((open_t.payer_key, payer, -1), (open_t.payee_key, payee, 1)):
                b = balance(key, name)
                b.money[currency] = b.money.get(currency, Decimal("0.00")) + sign * amount
                b.count += 1
    ordered = sorted(balances.values(), key=lambda b: (b.net, b.name.casefold()))
    return Ledger(transfers, ordered)


def _context(request, club, role, show_all: bool = False) -> dict:
    ledger = open_ledger(club)
    evenings = _by_evening(ledger.transfers)
    shown = evenings if show_all else evenings[:SHOWN_EVENINGS]
    return {
        "club": club,
        "role": role,
        "can_mark": role in MARKERS,
        "ledger": ledger,
        "evenings": shown,
        "hidden": len(evenings) - len(shown),
    }


def _by_evening(transfers: list[OpenTransfer]) -> list[dict]:
    groups: dict[int, dict] = {}
    for t in transfers:
        group = groups.setdefault(t.evening, {"pk": t.evening, "date": t.date, "variant": t.variant, "transfers": []})
        group["transfers"].append(t)
    return list(groups.values())


@require_safe
@login_required
def ledger(request, slug):
    club, role = club_for_user(request, slug)
    return render(request, TEMPLATE, _context(request, club, role, show_all=request.GET.get("all") == "1"))


@require_POST
@login_required
def ledger_paid(request, slug):
    """Mark one open transfer of one evening paid. A second tap changes nothing."""
    club, role = club_for_user(request, slug, *MARKERS)
    try:
        evening_id = int(request.POST.get("evening") or "")
    except ValueError:
        return HttpResponseBadRequest("evening must be an evening's number")
    payer = (request.POST.get("payer") or "").strip()
    payee = (request.POST.get("payee") or "").strip()
    amount = _amount(request.POST.get("amount"))
    if not payer or not payee or amount is None:
        return HttpResponseBadRequest("payer, payee and a positive amount are needed")
    evening = get_object_or_404(
        Evening.objects.only("id", "club_id", "stake", "summary"), pk=evening_id, club=club, stake__isnull=False
    )
    due = any(
        (t.get("from"), t.get("to"), _amount(t.get("amount"))) == (payer, payee, amount)
        for t in (evening.summary or {}).get("transfers") or ()
    )
    if due:
        _payment, created = Payment.objects.get_or_create(
            evening=evening, payer=payer, payee=payee, amount=amount, defaults={"marked_by": request.user}
        )
        if created:
            messages.success(
                request,
                _("Marked paid: %(payer)s paid %(payee)s %(amount)s.")
                % {"payer": party_label(payer), "payee": party_label(payee), "amount": money_text(amount, evening.currency)},
            )
    else:  # the settlement changed since the page was shown
        messages.warning(request, _("This transfer is no longer part of the evening's settlement: check the ledger again."))
    if request.htmx:
        return render(request, TEMPLATE + "#ledger", _context(request, club, role))
    return redirect(reverse("club_ledger", args=[club.slug]) + "#open-transfers")
