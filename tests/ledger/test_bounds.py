"""Bounded amounts (issue 28, point 5). Every amount typed is at most ``AMOUNT_LIMIT`` (100,000.00; a
kitty's fee at most ``FEE_LIMIT``, 1,000.00), refused beyond with a sentence next to its field, on every
form that takes one; a service refuses it too, without the form. With that bound every sum stored
beside the payments fits its column for a club's lifetime: the issue's case, a hundred payments of the
largest amount on the largest evening the site accepts, leaves every page, the CSV, the backup and
``refresh_summaries`` working (on SQLite and PostgreSQL: the fast tests run on both in CI)."""

import json
from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.urls import reverse

from builders import LARGEST, club_evening
from pages import body
from scorebook.clubs.models import Player, Season
from scorebook.core.money import AMOUNT_LIMIT, FEE_LIMIT
from scorebook.evenings import payments
from scorebook.evenings.models import Payment, Seat
from scorebook.ledger import services as ledger

# the largest amounts summed in SQL (ledger/books.py): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}
OVER = AMOUNT_LIMIT + Decimal("0.01")
SENTENCE = "At most 100,000.00 can be recorded at once."


def test_a_hundred_payments_of_the_largest_amount_on_the_largest_evening_fit(client, club, admin):
    evening = club_evening(club, admin, date(2026, 11, 6), LARGEST, stake="10000")  # the most money an evening holds
    for n in range(100):
        payments.record_payment(evening, "Carl", "Dina", AMOUNT_LIMIT, admin, free=True, note=f"{n}")
    assert Seat.objects.get(evening=evening, name="Dina").unpaid == -100 * AMOUNT_LIMIT
    client.force_login(admin)
    for page in ("settlement", "evening_print"):
        assert client.get(reverse(page, args=[evening.pk])).status_code == 200
    for page in ("club_ledger", "club_settle_up", "club_ledger_csv", "club_backup", "club_kitty"):
        assert client.get(reverse(page, args=[club.slug])).status_code == 200, page
    anne = Player.objects.get(club=club, name="Anne")
    assert client.get(reverse("club_player", args=[club.slug, anne.pk])).status_code == 200
    call_command("refresh_summaries", stdout=StringIO())
    out = StringIO()
    call_command("export_club", club.slug, stdout=out)
    assert len(json.loads(out.getvalue())["evenings"][0]["payments"]) == 100


def test_the_database_refuses_a_payment_of_nothing(club):
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.create(club=club, payer="A", payee="B", amount=Decimal("0.00"))


@pytest.mark.parametrize("amount", [Decimal("0"), Decimal("-1"), OVER, Decimal("1.001")])
def test_the_services_refuse_an_amount_out_of_bounds_without_the_form(club, admin, scorer, amount):
    evening = club_evening(club, scorer, date(2026, 9, 1), [SAMEN_9])
    anne, bert = (Player.objects.get(club=club, name=n) for n in ("Anne", "Bert"))
    for write in (
        lambda: payments.record_payment(evening, "Bert", "Anne", amount, admin, free=True),
        lambda: ledger.record_on_account(club, anne, bert, amount, "EUR", admin),
        lambda: ledger.record_kitty_payment(club, anne, amount, "EUR", admin, into=True),
        lambda: ledger.record_expense(club, amount, "EUR", date(2026, 9, 1), "cards", admin),
    ):
        with pytest.raises(payments.OutOfBounds):
            write()
    assert not Payment.objects.exists()


@pytest.mark.parametrize(("amount", "recorded"), [(AMOUNT_LIMIT, True), (OVER, False)])
def test_every_payment_form_takes_the_largest_amount_and_refuses_more_next_to_its_field(
    client, club, admin, scorer, amount, recorded
):
    evening = club_evening(club, scorer, date(2026, 9, 1), [SAMEN_9])
    anne, bert = (Player.objects.get(club=club, name=n) for n in ("Anne", "Bert"))
    client.force_login(admin)
    posts = [
        (reverse("payment_add", args=[evening.pk]), {"payer": "Bert", "payee": "Anne", "note": "", "key": "a"}),
        (reverse("club_ledger_pay", args=[club.slug]), {"payer": bert.pk, "payee": anne.pk, "note": "", "key": "b"}),
        (
            reverse("club_kitty_payment", args=[club.slug]),
            {"pay-direction": "in", "pay-player": anne.pk, "pay-note": "", "pay-key": "c", "prefix": "pay-"},
        ),
        (
            reverse("club_kitty_expense", args=[club.slug]),
            {"expense-day": "2026-09-01", "expense-note": "cards", "prefix": "expense-"},
        ),
    ]
    for url, data in posts:
        prefix = data.pop("prefix", "")
        response = client.post(url, data | {f"{prefix}amount": f"{amount}"})
        if recorded:
            assert response.status_code in (200, 302), url
        else:
            assert response.status_code == 422, url
            assert SENTENCE in body(response), url
    assert Payment.objects.count() == (3 if recorded else 0)


@pytest.mark.parametrize(("fee", "saved"), [(FEE_LIMIT, True), (FEE_LIMIT + Decimal("0.01"), False)])
def test_a_fee_takes_the_largest_fee_and_refuses_more(client, club, admin, fee, saved):
    client.force_login(admin)
    response = client.post(reverse("club_kitty_fees", args=[club.slug]), {"evening_fee": str(fee), "night_fee": ""})
    assert response.status_code == (302 if saved else 422)
    club.refresh_from_db()
    assert (club.kitty_evening_fee == fee) == saved


@pytest.mark.parametrize(
    ("prizes", "refusal"),
    [
        ("20, 10", None),
        ("100000, 5", None),
        ("100000.01", "A prize is more than 0 and at most 100,000.00."),
        ("10, 20", "A place never gets more than the place before it."),
        ("7,505", "“7,505” is not an amount (at most two decimals)."),
    ],
)
def test_a_seasons_prizes_are_bounded_amounts(client, club, admin, prizes, refusal):
    client.force_login(admin)
    data = {
        "name": "Spring",
        "start": "2026-03-01",
        "end": "2026-05-31",
        "ruleset": "kleurenwiezen",
        "ranking": "total",
        "min_evenings": "0",
        "league_points": "",
        "drop_worst": "0",
        "tie_break": "evenings-won",
        "prizes": prizes,
    }
    response = client.post(reverse("season_new", args=[club.slug]), data)
    if refusal is None:
        assert response.status_code == 302
        assert Season.objects.get().prizes == [f"{Decimal(p.strip()):.2f}" for p in prizes.split(",")]
    else:
        assert response.status_code == 422 and refusal in body(response)
        assert not Season.objects.exists()
