"""Money fits what the database stores (issue 13, finding 6): a change that would take a player's
money beyond 9,999,999,999.99 is refused where it enters; the largest accepted evening settles,
is marked paid, and every page and the backup read it back, on SQLite and PostgreSQL."""

import json
from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from builders import LARGEST, club_evening
from scorebook.clubs import services as clubs
from scorebook.clubs.models import Player
from scorebook.evenings import payments, services
from scorebook.evenings.models import Payment
from scorebook.rules.scoring import DealError

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

TOP = Decimal("9999999999.99")


@pytest.fixture
def largest(make_user):
    """Stake 10,000 a point (the most the form takes) and Anne 999,999 points up on Bert."""
    ada_admin = make_user("ada_admin")
    club = clubs.create_club(name="Les As", slug="les-as", user=ada_admin)
    evening = club_evening(club, ada_admin, date(2026, 11, 6), LARGEST, stake="10000")
    return evening, ada_admin


def test_it_refuses_a_deal_that_takes_the_money_beyond_what_is_stored(largest):
    evening, ada_admin = largest
    with pytest.raises(DealError, match=r"beyond 9,999,999,999\.99"):
        services.record_deal(evening, {"adjustment": {"Anne": 1, "Bert": -1}}, ada_admin)
    assert evening.deals.count() == 11


def test_it_refuses_it_on_the_adjustment_form_with_the_reason(client, largest):
    evening, ada_admin = largest
    client.force_login(ada_admin)
    response = client.post(reverse("adjustment", args=[evening.pk]), {"adj-points_0": "5", "adj-points_1": "-5"})
    assert response.status_code == 422
    assert "beyond 9,999,999,999.99" in response.content.decode()
    assert evening.deals.count() == 11


def test_it_settles_marks_paid_and_reads_back_the_largest_accepted_evening(client, largest):
    evening, ada_admin = largest
    client.force_login(ada_admin)
    settle = client.get(reverse("settlement", args=[evening.pk]))
    assert settle.status_code == 200
    due = payments.still_due(evening)
    biggest = max(due, key=lambda t: t.amount)
    assert biggest.amount <= TOP
    response = client.post(
        reverse("payment_toggle", args=[evening.pk]),
        {"payer": biggest.payer, "payee": biggest.payee, "amount": str(biggest.amount), "paid": "1"},
    )
    assert response.status_code in (200, 302)
    assert Payment.objects.get().amount == biggest.amount  # read back from the database
    assert client.get(reverse("settlement", args=[evening.pk])).status_code == 200
    assert client.get(reverse("club_ledger", args=["les-as"])).status_code == 200
    anne = Player.objects.get(club=evening.club, name="Anne")
    assert client.get(reverse("club_player", args=["les-as", anne.pk])).status_code == 200
    out = StringIO()
    call_command("export_club", "les-as", stdout=out)
    assert json.loads(out.getvalue())["evenings"][0]["payments"][0]["amount"] == str(biggest.amount)
