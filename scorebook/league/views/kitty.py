"""The club's kitty (docs/rules/money.md): its fees (a house rule), what players owe it, what it holds and
spent, its expenses and prizes, and payments into and out of it. Every figure is the ledger's
(``ledger.books.kitty``); the fees, expenses, prizes and withdrawals are the admins', payments into
and out of the kitty the scorers' too. A season's prizes are awarded from its page (``season_prizes``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Club, Player, Role
from scorebook.core.formatting import money_text
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.evenings.payments import NotDue
from scorebook.ledger import books, services
from scorebook.ledger.forms import ExpenseForm, FeesForm, KittyPaymentForm, WithdrawForm
from scorebook.ledger.models import Expense, Prize

from .ledger import MARKERS, page_number

TEMPLATE = "league/kitty.html"
RECORDS = 30  # the kitty's latest records a page


def _records(club: Club, number: int) -> tuple[list[Expense | Prize], bool]:
    """The kitty's expenses and prizes, the latest first, a page of them, and whether more follow."""
    end = number * RECORDS
    expenses = list(
        Expense.objects.filter(club=club)
        .select_related("withdrawn_by__profile")
        .order_by("-recorded_at", "-pk")[: end + 1]
    )
    prizes = list(
        Prize.objects.filter(club=club)
        .select_related("player", "withdrawn_by__profile")
        .order_by("-recorded_at", "-pk")[: end + 1]
    )
    merged: list[Expense | Prize] = sorted([*expenses, *prizes], key=lambda r: (r.recorded_at, r.pk), reverse=True)
    return merged[end - RECORDS : end], len(merged) > end


def _page(
    request: HttpRequest,
    club: Club,
    role: Role,
    *,
    fees: forms.Form | None = None,
    expense: forms.Form | None = None,
    payment: forms.Form | None = None,
    status: int = 200,
) -> HttpResponse:
    all_balances = books.balances(club)
    kitty = books.kitty(club, all_balances)
    admin = role == Role.ADMIN
    players = books.players(club)
    number = page_number(request)
    records, more = _records(club, number)
    currency = books.club_currency(club)
    owing = [
        {
            "balance": b,
            "texts": [
                {"text": money_text(a, c, signed=True), "tone": "loss" if a < 0 else "win"}
                for c, a in sorted(b.kitty.items())
                if a
            ],
        }
        for b in all_balances
        if not b.is_kitty and any(b.kitty.values())
    ]
    return render(
        request,
        TEMPLATE,
        {
            "club": club,
            "role": role,
            "is_admin": admin,
            "can_mark": role in MARKERS,
            "kitty": kitty,
            "owing": owing,
            "records": records,
            "page": number,
            "more": more,
            "fees_form": fees
            or (
                FeesForm(initial={"evening_fee": club.kitty_evening_fee, "night_fee": club.kitty_night_fee})
                if admin
                else None
            ),
            "expense_form": expense or (ExpenseForm(prefix="expense") if admin else None),
            "payment_form": payment or (KittyPaymentForm(players=players, prefix="pay") if role in MARKERS else None),
            "currency": currency,
            "evening_fee": money_text(club.kitty_evening_fee, currency) if club.kitty_evening_fee else "",
            "night_fee": money_text(club.kitty_night_fee, currency) if club.kitty_night_fee else "",
        },
        status=status,
    )


def _back(club: Club, anchor: str = "") -> HttpResponse:
    return redirect(reverse("club_kitty", args=[club.slug]) + anchor)


@require_safe
@login_required
def kitty(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club, role = club_for_user(request, slug)
    return _page(request, club, role)


@require_POST
@login_required
def kitty_fees(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The club's fees for its kitty (admins): from the next evening and night on."""
    club, role = club_for_user(request, slug, Role.ADMIN)
    form = FeesForm(request.POST)
    if not form.is_valid():
        return _page(request, club, role, fees=form, status=422)
    services.set_fees(club, form.cleaned_data["evening_fee"], form.cleaned_data["night_fee"])
    messages.success(request, _("The kitty's fees are saved: they apply from the next evening and night on."))
    return _back(club, "#fees")


@require_POST
@login_required
def kitty_expense(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """An expense paid out of the kitty (admins). A repeated form records nothing."""
    club, role = club_for_user(request, slug, Role.ADMIN)
    form = ExpenseForm(request.POST, prefix="expense")
    if not form.is_valid():
        return _page(request, club, role, expense=form, status=422)
    data = form.cleaned_data
    currency = books.club_currency(club)
    _expense, created = services.record_expense(
        club, data["amount"], currency, data["day"], data["note"], request.user, request_key=data["key"]
    )
    if created:
        messages.success(
            request,
            _("Recorded: the kitty spent %(amount)s on %(what)s.")
            % {"amount": money_text(data["amount"], currency), "what": data["note"]},
        )
    return _back(club, "#kitty-records")


@require_POST
@login_required
def kitty_payment(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """A player pays into the kitty, or the kitty pays him (scorers and admins). A repeated form records nothing."""
    club, role = club_for_user(request, slug, *MARKERS)
    form = KittyPaymentForm(request.POST, players=books.players(club), prefix="pay")
    if not form.is_valid():
        return _page(request, club, role, payment=form, status=422)
    data = form.cleaned_data
    player = Player.objects.filter(club=club, pk=int(data["player"])).first()
    currency = books.club_currency(club)
    into = data["direction"] == "in"
    try:
        if player is None:
            raise NotDue()
        _payment, created = services.record_kitty_payment(
            club, player, data["amount"], currency, request.user, into=into, note=data["note"], request_key=data["key"]
        )
    except NotDue:
        form.add_error("player", _("A player of the club is needed."))
        return _page(request, club, role, payment=form, status=422)
    if created:
        words = {"player": player.name, "amount": money_text(data["amount"], currency)}
        messages.success(
            request,
            (
                _("Recorded: %(player)s paid %(amount)s into the kitty.")
                if into
                else _("Recorded: the kitty paid %(player)s %(amount)s.")
            )
            % words,
        )
    return _back(club, "#kitty-payment")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def kitty_withdraw(request: AuthenticatedHttpRequest, slug: str, what: str, pk: int) -> HttpResponse:
    """Withdraw an expense or a prize recorded by mistake (admins), with a reason: it stays in the
    kitty's history, marked withdrawn, and counts no more."""
    club, _role = club_for_user(request, slug, Role.ADMIN)
    model = {"expense": Expense, "prize": Prize}.get(what)
    if model is None:
        return HttpResponse(status=404)
    record = get_object_or_404(model.objects.select_related("club"), pk=pk, club=club)
    form = WithdrawForm(request.POST or None)
    context = {"club": club, "record": record, "what": what, "form": form}
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "league/kitty_withdraw.html", context, status=422)
        try:
            services.withdraw(record, request.user, form.cleaned_data["reason"])
        except services.AlreadyWithdrawn:
            messages.info(request, _("This was withdrawn already."))
        else:
            messages.success(request, _("Withdrawn: it stays in the kitty's history and counts no more."))
        return _back(club, "#kitty-records")
    if record.withdrawn:
        messages.info(request, _("This was withdrawn already."))
        return _back(club, "#kitty-records")
    return render(request, "league/kitty_withdraw.html", context)
