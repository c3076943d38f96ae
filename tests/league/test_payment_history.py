"""Payment history: who marked what paid and when, with an undo, on the ledger and on the settlement
page; a closed evening's payments are settled on both (issue 15, point 9).

Kleurenwiezen, stake 0.10 EUR, 10 Sept: samen 9 made with 10 tricks by Anne and Carl: Bert pays
Anne 1.40, Dina pays Carl 1.40.
"""

import re
from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from scorebook.evenings import services
from scorebook.evenings.models import Evening, Payment

pytestmark = pytest.mark.django_db

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}


@pytest.fixture
def evening(club, scorer):
    return club_evening(club, scorer, date(2026, 9, 10), [SAMEN_9])


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def mark(client, club, evening, payer="Bert", payee="Anne", amount="1.40"):
    return client.post(
        reverse("club_ledger_paid", args=[club.slug]),
        {"evening": evening.pk, "payer": payer, "payee": payee, "amount": amount},
    )


def test_it_lists_each_payment_with_who_marked_it_and_when(client, club, scorer, evening):
    client.force_login(scorer)
    mark(client, club, evening)
    page = text(client.get(reverse("club_ledger", args=[club.slug])).content.decode())
    assert "Payments marked" in page
    assert "Bert paid Anne €1.40" in page
    assert re.search(r"evening of Sept\. 10, 2026 · marked on \S+ at .+ by Marie", page)


def test_it_undoes_a_payment_from_the_ledger_and_the_transfer_is_open_again(client, club, scorer, evening):
    client.force_login(scorer)
    mark(client, club, evening)
    payment = Payment.objects.get()
    response = client.post(reverse("club_ledger_undo", args=[club.slug]), {"payment": payment.pk})
    assert response.status_code == 302 and response.url.endswith("#payment-history")
    assert not Payment.objects.exists()
    page = text(client.get(reverse("club_ledger", args=[club.slug])).content.decode())
    assert "Undone: Bert paying Anne €1.40 is no longer marked; it is open again." in page
    assert "Bert pays Anne €1.40" in page
    # a second tap changes nothing
    assert client.post(reverse("club_ledger_undo", args=[club.slug]), {"payment": payment.pk}).status_code == 302


def test_it_undoes_with_htmx_in_place(client, club, scorer, evening):
    client.force_login(scorer)
    mark(client, club, evening)
    response = client.post(
        reverse("club_ledger_undo", args=[club.slug]), {"payment": Payment.objects.get().pk}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and response.content.decode().lstrip().startswith('<div id="ledger"')


def test_a_closed_evening_is_settled_and_undone_in_the_ledger_and_on_its_page(client, club, scorer, evening):
    services.set_status(evening, Evening.Status.CLOSED)
    client.force_login(scorer)
    mark(client, club, evening)
    assert Payment.objects.count() == 1
    page = client.get(reverse("settlement", args=[evening.pk])).content.decode()
    assert "Payments can still be marked and undone, here or in the club" in page
    assert re.search(r"marked paid on \S+ at .+ by Marie", text(page))
    payment = Payment.objects.get()
    client.post(
        reverse("payment_toggle", args=[evening.pk]),
        {
            "payer": "Bert",
            "payee": "Anne",
            "amount": "1.40",
            "paid": "0",
            "payment": payment.pk,
        },
    )
    assert not Payment.objects.exists()
    evening.refresh_from_db()
    assert evening.status == Evening.Status.CLOSED


@pytest.mark.parametrize(("who", "status"), [("member", 403), ("outsider", 404)])
def test_only_scorers_and_admins_undo(client, cast, club, scorer, evening, who, status):
    client.force_login(scorer)
    mark(client, club, evening)
    client.force_login(cast[who])
    response = client.post(reverse("club_ledger_undo", args=[club.slug]), {"payment": Payment.objects.get().pk})
    assert response.status_code == status
    assert Payment.objects.count() == 1


def test_undo_is_a_post_and_knows_only_its_clubs_payments(client, cast, club, scorer, evening, admin):
    from scorebook.clubs.models import Club, Membership, Role

    client.force_login(scorer)
    assert client.get(reverse("club_ledger_undo", args=[club.slug])).status_code == 405
    mark(client, club, evening)
    other = Club.objects.create(name="Elders", slug="elders")
    Membership.objects.create(club=other, user=scorer, role=Role.SCORER)
    client.post(reverse("club_ledger_undo", args=[other.slug]), {"payment": Payment.objects.get().pk})
    assert Payment.objects.count() == 1
    assert client.post(reverse("club_ledger_undo", args=[club.slug]), {"payment": "x"}).status_code == 400
