"""One ledger under every page (issue 28, point 1): random sequences of what a club does with money —
evenings and nights played, corrected and deleted, payments of every kind (a transfer in full, part
of it, a free amount, on account, a night's line, into and out of the kitty), cancellations, fees,
prizes and expenses — and after each step every page's figure for every player equals the ledger
module's, which equals a balance added up here the slow, obvious way (docs/rules/money.md: the money of his
evenings and nights, plus the payments he made, less those he received, less his fees to the kitty,
plus the prizes it owes him).

Every run starts with each of them (issue 37): the fees of an evening and of a night, an evening and
a night played with them, a prize (and one withdrawn), and a payment of every kind, one of each kind
cancelled; so that a wrong balance of any kind fails the first step of the first run, not only the
rare run that draws it (``test_balance_sources`` works the same sources out by hand).

The pages read: the player page (its balance tile and its money section), the ledger page and its
CSV (each party's balance), the settle-up (its lines clear every balance to the cent), each evening's
settlement page (what remains for each player equals the ledger's line of that evening), and the
decomposition: what remains evening by evening and night by night, with the payments on account and
the kitty, adds up to the balance.
"""

from __future__ import annotations

import csv
import io
import random
from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from bench.synthetic import make_deals
from scorebook.clubs.models import Club, Membership, Player, Role, Season
from scorebook.evenings import creation, payments, services
from scorebook.evenings.models import Evening, Payment
from scorebook.league.views import player as player_view
from scorebook.ledger import books
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Prize
from scorebook.nights import services as nights
from scorebook.rules.scoring import BETE

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

ROSTER = ["Anne", "Bert", "Carl", "Dina", "Élise", "Fien", "Gust", "Hugo"]
KITTY = Payment.KITTY
CENT = Decimal("0.01")


def oracle(club) -> dict:
    """Every party's balance, the slow way: each evening's money from its summary, each payment,
    each fee (an evening's from those who took part, a night's once from those who took part at one
    of its tables)."""
    out: dict = defaultdict(lambda: Decimal("0.00"))
    for evening in Evening.objects.filter(club=club):
        summary = evening.summary or {}
        played = bool(summary.get("deals"))
        seats = {s.position: s.player_id for s in evening.seats.all()}
        for entry in summary.get("players") or ():
            who = seats[entry["seat"]]
            if evening.stake is not None and entry.get("money") is not None:
                out[who] += Decimal(entry["money"])
            if evening.kitty_fee is not None and played and entry.get("took_part", True):
                out[who] -= evening.kitty_fee
                out[KITTY] += evening.kitty_fee
        if evening.stake is not None:
            for t in summary.get("transfers") or ():  # the carried bête, a party of its own
                for name, sign in ((t["from"], -1), (t["to"], 1)):
                    if name == BETE:
                        out[BETE] += sign * Decimal(t["amount"])
    for night in club.nights.all():
        if night.kitty_fee is None:
            continue
        took_part = set()
        for table in Evening.objects.filter(night_table__session__night=night):
            summary = table.summary or {}
            seats = {s.position: s.player_id for s in table.seats.all()}
            for entry in summary.get("players") or ():
                if summary.get("deals") and entry.get("took_part", True):
                    took_part.add(seats[entry["seat"]])
        for who in took_part:
            out[who] -= night.kitty_fee
            out[KITTY] += night.kitty_fee
    for prize in Prize.objects.filter(club=club):
        if prize.withdrawn_at is None:
            out[prize.player_id] += prize.amount
            out[KITTY] -= prize.amount
    for p in Payment.objects.filter(club=club):
        if p.cancelled:
            continue
        out[p.payer_player_id or p.payer] += p.amount
        out[p.payee_player_id or p.payee] -= p.amount
    return {k: v for k, v in out.items() if v}


class ClubMoney(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        n = Club.objects.count()
        self.club = Club.objects.create(name=f"Club {n}", slug=f"club-{n}")
        self.admin = self.user(f"treasurer{n}", Role.ADMIN)
        self.client = Client()
        self.client.force_login(self.admin)
        self.players = [creation.player_named(name, self.admin, self.club) for name in ROSTER]
        self.evenings: list[Evening] = []
        self.nights = []
        self.day = date(2026, 1, 1)

    def user(self, name, role):
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.create_user(name, password="x")
        Membership.objects.create(club=self.club, user=user, role=role)
        return user

    def next_day(self) -> date:
        self.day += timedelta(days=1)
        return self.day

    # --- how every run starts: each source of a balance at least once ------------------------------

    @initialize(
        seed=st.integers(0, 10**6),
        evening_fee=st.sampled_from([Decimal("1.00"), Decimal("0.50")]),
        prize=st.integers(1, 4000),
        cents=st.integers(1, 3000),
    )
    def every_kind_of_money(self, seed, evening_fee, prize, cents):
        self.set_the_fees(evening_fee, Decimal("2.00"))
        for attempt in range(10):  # an evening with something to pay (a few deals can leave everyone even)
            self.play_an_evening(seed + attempt, size=5, deals=3)
            if payments.still_due(self.evenings[-1]):
                break
        self.play_a_night(seed)
        self.award_a_prize(seed % 8, prize, withdrawn=False)
        self.award_a_prize(seed % 7 + 1, prize + 1, withdrawn=True)
        for how in ("part", "free", "full"):
            self.pay_for_an_evening(-1, seed, how)
        self.pay_on_account(seed % 8, 3, cents)
        self.pay_a_nights_line(0, seed)
        self.pay_the_kitty(seed % 8, cents + 7, into=True)
        self.pay_the_kitty((seed + 1) % 8, cents + 11, into=False)
        self.cancel_one_of_each_kind(seed, Decimal(cents + 13) / 100)
        self.spend_from_the_kitty(cents)

    def cancel_one_of_each_kind(self, seed, amount):
        """A payment of each kind made and cancelled: for an evening, on account, into the kitty, for a night."""
        a, b = self.players[seed % 8], self.players[(seed + 5) % 8]
        evening = self.evenings[-1]
        names = [s.name for s in evening.seats.all()]
        made = [
            payments.record_payment(evening, names[0], names[1], amount, self.admin, closed_too=True, free=True)[0],
            ledger.record_on_account(self.club, a, b, amount, "EUR", self.admin)[0],
            ledger.record_kitty_payment(self.club, b, amount, "EUR", self.admin, into=True)[0],
        ]
        [line] = books.night_ledgers(self.nights[-1:])
        due = [t for t in line.transfers if t.recordable]
        if due:
            payer, payee = Player.objects.get(pk=due[0].payer_key), Player.objects.get(pk=due[0].payee_key)
            made.append(ledger.record_for_night(self.nights[-1], payer, payee, due[0].amount, self.admin)[0])
        for payment in made:
            payments.cancel_payment(payment.pk, self.admin, admin=True, reason="entered by mistake")

    # --- what a club does ------------------------------------------------------------------------

    @rule(seed=st.integers(0, 10**6), size=st.integers(4, 6), deals=st.integers(0, 3))
    def play_an_evening(self, seed, size, deals):
        rng = random.Random(seed)
        names = rng.sample(ROSTER, size)
        evening = creation.create_evening(
            ruleset="kleurenwiezen",
            players=names,
            first_dealer=0,
            stake=rng.choice([Decimal("0.05"), Decimal("0.10"), Decimal("0.25")]),
            currency="EUR",
            date=self.next_day(),
            user=self.admin,
            club=self.club,
        )
        for deal in make_deals(deals, rng, players=names, first_dealer=0):
            services.record_deal(evening, deal, self.admin)
        self.evenings.append(evening)

    @precondition(lambda self: len(self.nights) < 2)
    @rule(seed=st.integers(0, 10**6))
    def play_a_night(self, seed):
        rng = random.Random(seed)
        night = nights.create_night(
            club=self.club,
            user=self.admin,
            name=f"Night {len(self.nights) + 1}",
            date=self.next_day(),
            ruleset="kleurenwiezen",
            sessions=1,
            deals_per_session=2,
            ranking="total",
            place_points=[],
            stake=Decimal("0.10"),
            currency="EUR",
            players=rng.sample(ROSTER, 8),
        )
        for table in night.night_sessions.get().tables.select_related("evening"):
            names = [s.name for s in table.evening.seats.all()]
            for deal in make_deals(2, rng, players=names, first_dealer=0):
                services.record_deal(table.evening, deal, self.admin)
        self.nights.append(night)

    @precondition(lambda self: self.evenings)
    @rule(which=st.integers(0, 100), tricks=st.integers(0, 13))
    def correct_a_deal(self, which, tricks):
        evening = self.evenings[which % len(self.evenings)]
        deal = evening.deals.order_by("number").first()
        if deal is None or not isinstance(deal.data.get("tricks"), int):
            return
        services.edit_deal(evening, deal.number, {**deal.data, "tricks": tricks}, self.admin, None)

    @precondition(lambda self: self.evenings)
    @rule(which=st.integers(0, 100))
    def delete_a_deal(self, which):
        evening = self.evenings[which % len(self.evenings)]
        last = evening.deals.order_by("-number").first()
        if last is not None:
            services.delete_deal(evening, last.number, self.admin)

    @precondition(lambda self: self.evenings)
    @rule(which=st.integers(0, 100))
    def delete_an_evening(self, which):
        evening = self.evenings[which % len(self.evenings)]
        had_payments = evening.payments.exists()
        try:
            services.delete_evening(evening)
        except services.HasDeals:
            assert evening.deals.exists()
        except services.HasPayments:
            assert had_payments  # payments outlive everything
        else:
            assert not had_payments
            self.evenings.remove(evening)

    @precondition(lambda self: self.evenings)
    @rule(which=st.integers(0, 100), k=st.integers(0, 10), how=st.sampled_from(["full", "part", "free"]))
    def pay_for_an_evening(self, which, k, how):
        evening = self.evenings[which % len(self.evenings)]
        due = payments.still_due(evening)
        if not due:
            return
        t = due[k % len(due)]
        if how == "full":
            payments.record_payment(evening, t.payer, t.payee, t.amount, self.admin, closed_too=True)
        else:
            amount = max(CENT, (t.amount / 3).quantize(CENT)) if how == "part" else Decimal("1.25")
            payer, payee = (t.payer, t.payee) if how == "part" else (t.payee, t.payer)
            payments.record_payment(evening, payer, payee, amount, self.admin, closed_too=True, free=True)

    @rule(a=st.integers(0, 7), b=st.integers(1, 7), cents=st.integers(1, 5000))
    def pay_on_account(self, a, b, cents):
        payer, payee = self.players[a], self.players[(a + b) % len(self.players)]
        ledger.record_on_account(self.club, payer, payee, Decimal(cents) / 100, "EUR", self.admin)

    @precondition(lambda self: self.nights)
    @rule(which=st.integers(0, 10), k=st.integers(0, 10))
    def pay_a_nights_line(self, which, k):
        night = self.nights[which % len(self.nights)]
        [line] = books.night_ledgers([night])
        due = [t for t in line.transfers if t.recordable]
        if due:
            t = due[k % len(due)]
            payer, payee = Player.objects.get(pk=t.payer_key), Player.objects.get(pk=t.payee_key)
            ledger.record_for_night(night, payer, payee, t.amount, self.admin)

    @rule(a=st.integers(0, 7), cents=st.integers(1, 3000), into=st.booleans())
    def pay_the_kitty(self, a, cents, into):
        ledger.record_kitty_payment(self.club, self.players[a], Decimal(cents) / 100, "EUR", self.admin, into=into)

    @rule(
        evening_fee=st.sampled_from([None, Decimal("1.00"), Decimal("0.50")]),
        night_fee=st.sampled_from([None, Decimal("2.00")]),
    )
    def set_the_fees(self, evening_fee, night_fee):
        ledger.set_fees(self.club, evening_fee, night_fee)

    @rule(place=st.integers(0, 7), cents=st.integers(1, 4000), withdrawn=st.booleans())
    def award_a_prize(self, place, cents, withdrawn):
        season = Season.objects.create(
            club=self.club,
            name=f"Season {Season.objects.count() + 1}",
            start=self.day,
            end=self.day,
            ruleset="kleurenwiezen",
            prizes=[str(Decimal(cents) / 100)],
        )
        award = ledger.Award(1, self.players[place], Decimal(cents) / 100)
        [prize] = ledger.award_prizes(season, [award], "EUR", self.admin)
        if withdrawn:
            ledger.withdraw(prize, self.admin, "the wrong season")

    @rule(cents=st.integers(1, 10000))
    def spend_from_the_kitty(self, cents):
        ledger.record_expense(self.club, Decimal(cents) / 100, "EUR", self.day, "cards", self.admin)

    @rule(k=st.integers(0, 1000))
    def cancel_a_payment(self, k):
        alive = list(Payment.objects.active().filter(club=self.club).order_by("pk"))
        if alive:
            payments.cancel_payment(alive[k % len(alive)].pk, self.admin, admin=True, reason="entered by mistake")

    # --- every page agrees with the ledger ------------------------------------------------------

    @invariant()
    def every_page_shows_the_ledgers_figures(self):
        club = self.club
        expected = oracle(club)
        found = books.balances(club)
        assert {b.key: b.net for b in found if b.net} == expected
        assert sum(expected.values(), Decimal(0)) == 0
        # the ledger page and its CSV
        page = self.client.get(reverse("club_ledger", args=[club.slug]))
        assert page.status_code == 200
        shown = {b.key: b.net for b in page.context["balances"]}
        kitty = page.context["kitty_balance"]
        if kitty is not None:
            shown[KITTY] = kitty.net
        assert shown == expected
        content = self.client.get(reverse("club_ledger_csv", args=[club.slug])).content.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(content)))
        names = {b.name: b.net for b in found if b.net}
        assert {r[10]: Decimal(r[11]) for r in rows[1:] if r[2] == "balance"} == names
        # the settle-up clears every balance, with the kitty and without it
        settled = books.settle(found, with_kitty=True)
        left = dict(expected)
        for line in settled.lines:
            left[line.payer_key] = left.get(line.payer_key, 0) + line.amount
            left[line.payee_key] = left.get(line.payee_key, 0) - line.amount
        assert not any(left.values())
        # each player's page, and where his balance comes from
        evenings, _n = books.open_evenings(club, limit=None)
        night_lines = books.night_ledgers(list(club.nights.all()))
        for player in self.players:
            balance = expected.get(player.pk, Decimal("0.00"))
            assert books.balance_of(club, player).net == balance
            money = player_view.money(club, player)
            assert money["balance"].net == balance
            parts = sum((e.remaining(player.pk) for e in evenings), Decimal(0))
            parts += sum((n.remaining(player.pk) for n in night_lines), Decimal(0))
            between_players = Payment.objects.active().filter(
                club=club, evening__isnull=True, night_link__isnull=True, payer_player__isnull=False
            )
            for p in between_players.filter(payee_player__isnull=False):
                parts += (
                    p.amount if p.payer_player_id == player.pk else -p.amount if p.payee_player_id == player.pk else 0
                )
            assert parts + money["balance"].kitty.get("EUR", Decimal(0)) == balance
        # each evening's settlement page says what the ledger says of it
        lines = {e.pk: e for e in evenings}
        for evening in self.evenings:
            due = payments.still_due(evening)
            seats = {s.name: s.player_id for s in evening.seats.all()}
            for name, who in seats.items():
                mine = sum(
                    (t.amount if t.payee == name else -t.amount for t in due if name in (t.payer, t.payee)), Decimal(0)
                )
                ledger_line = lines.get(evening.pk)
                assert mine == (ledger_line.remaining(who) if ledger_line else 0)


def run(examples: int, steps: int):
    run_state_machine_as_test(
        ClubMoney,
        settings=settings(
            max_examples=examples,
            stateful_step_count=steps,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            # shrinking a club's history takes minutes: a wrong figure is reported at once, with the steps
            # as they were drawn (every run starts with every source of a balance: they are few)
            phases=[p for p in Phase if p is not Phase.shrink],
        ),
    )


def test_every_page_shows_the_ledgers_figures_after_every_step():
    run(examples=2, steps=6)


@pytest.mark.slow
@pytest.mark.parametrize("part", [1, 2])  # 30 histories in two parts, which two processes run side by side
def test_every_page_shows_the_ledgers_figures_after_every_step_of_long_club_histories(part):
    run(examples=15, steps=20)
