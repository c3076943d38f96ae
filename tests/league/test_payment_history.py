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

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

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


def cancel(client, club, payment, reason="marked twice", **extra):
    """The ledger's cancel: its form goes back to the ledger's payments."""
    back = reverse("club_ledger", args=[club.slug]) + "#payment-history"
    return client.post(
        reverse("payment_cancel", args=[payment.pk]), {"reason": reason, "next": back, "target": "ledger"}, **extra
    )


def from_the_ledger(club, payment) -> str:
    """The cancel link as the ledger's history writes it."""
    back = reverse("club_ledger", args=[club.slug])
    return reverse("payment_cancel", args=[payment.pk]) + f"?target=ledger&next={back}%23payment-history"


def test_it_cancels_a_payment_from_the_ledger_after_a_confirmation_and_keeps_it(client, club, scorer, evening):
    client.force_login(scorer)
    mark(client, club, evening)
    payment = Payment.objects.get()
    ledger = client.get(reverse("club_ledger", args=[club.slug])).content.decode()
    assert from_the_ledger(club, payment).replace("&", "&amp;") in ledger
    confirm = client.get(from_the_ledger(club, payment))
    assert confirm.status_code == 200 and "Cancel Bert paying Anne €1.40 ? It stays in the history" in text(
        confirm.content.decode()
    )
    assert Payment.objects.active().count() == 1  # asking changes nothing
    page = confirm.content.decode()
    url = reverse("payment_cancel", args=[payment.pk])
    assert f'action="{url}"' in page and f'hx-post="{url}"' in page and 'hx-target="#ledger"' in page
    assert 'hx-select="#ledger"' in page  # htmx takes the ledger's list from the page the cancel goes back to
    assert f'href="{reverse("club_ledger", args=[club.slug])}#payment-history"' in page  # "Keep it"
    response = cancel(client, club, payment, "marked twice")
    assert response.status_code == 302 and response.url.endswith("#payment-history")
    assert Payment.objects.count() == 1 and not Payment.objects.active().exists()
    assert payment.__class__.objects.get().cancellation.by == scorer
    page = text(client.get(reverse("club_ledger", args=[club.slug])).content.decode())
    assert "Cancelled: Bert paying Anne €1.40 no longer counts; it stays in the history." in page
    assert "Bert pays Anne €1.40" in page  # open again
    assert re.search(r"cancelled on \S+ at .+ by Marie · “marked twice”", page)
    # a second tap is told, and changes nothing
    assert cancel(client, club, payment).status_code == 302
    assert "This payment was cancelled already." in text(
        client.get(reverse("club_ledger", args=[club.slug])).content.decode()
    )
    assert Payment.objects.count() == 1


def test_it_asks_and_cancels_with_htmx_in_place(client, club, scorer, evening):
    client.force_login(scorer)
    mark(client, club, evening)
    payment = Payment.objects.get()
    asked = client.get(from_the_ledger(club, payment), HTTP_HX_REQUEST="true")
    assert asked.content.decode().lstrip().startswith('<li class="transfer is-paid is-confirm">')
    response = cancel(client, club, payment, HTTP_HX_REQUEST="true")
    assert response.status_code == 302 and response.url == reverse("club_ledger", args=[club.slug]) + "#payment-history"
    page = client.get(response.url, HTTP_HX_REQUEST="true").content.decode()
    assert '<div id="ledger"' in page and "Cancelled: Bert paying Anne" in page


def test_a_closed_evening_is_settled_and_cancelled_in_the_ledger_and_on_its_page(client, club, scorer, evening):
    services.set_status(evening, Evening.Status.CLOSED)
    client.force_login(scorer)
    mark(client, club, evening)
    assert Payment.objects.count() == 1
    page = client.get(reverse("settlement", args=[evening.pk])).content.decode()
    assert "Payments can still be marked and cancelled, here or in the club" in page
    assert re.search(r"marked paid on \S+ at .+ by Marie", text(page))
    payment = Payment.objects.get()
    refused = client.post(reverse("payment_cancel", args=[payment.pk]), {"reason": "  "})
    assert refused.status_code == 422 and "This field is required." in refused.content.decode()
    assert Payment.objects.active().exists()  # a cancellation needs a reason
    response = client.post(reverse("payment_cancel", args=[payment.pk]), {"reason": "paid in cash, twice"})
    assert response.url == reverse("settlement", args=[evening.pk]) + "#transfers"
    assert not Payment.objects.active().exists()
    evening.refresh_from_db()
    assert evening.status == Evening.Status.CLOSED


@pytest.mark.parametrize(("who", "status"), [("member", 403), ("outsider", 404)])
def test_only_scorers_and_admins_cancel(client, cast, club, scorer, evening, who, status):
    client.force_login(scorer)
    mark(client, club, evening)
    client.force_login(cast[who])
    assert cancel(client, club, Payment.objects.get()).status_code == status
    assert Payment.objects.active().count() == 1


def test_a_scorer_cancels_only_their_own_entries_and_an_admin_any(client, cast, club, scorer, evening, admin):
    client.force_login(admin)
    mark(client, club, evening)
    payment = Payment.objects.get()
    client.force_login(scorer)
    page = client.get(reverse("club_ledger", args=[club.slug])).content.decode()
    assert reverse("payment_cancel", args=[payment.pk]) not in page
    assert client.get(reverse("payment_cancel", args=[payment.pk])).status_code == 403
    assert cancel(client, club, payment).status_code == 403
    assert client.post(reverse("payment_cancel", args=[payment.pk])).status_code == 403
    assert Payment.objects.active().count() == 1
    # the scorer's own entry: theirs to cancel; the admin cancels anyone's
    mark(client, club, evening, payer="Dina", payee="Carl")
    own = Payment.objects.get(payer="Dina")
    assert cancel(client, club, own).status_code == 302
    client.force_login(admin)
    assert cancel(client, club, payment).status_code == 302
    assert not Payment.objects.active().exists() and Payment.objects.count() == 2


def test_cancel_knows_only_its_clubs_payments(client, cast, club, scorer, evening, admin):
    """A scorer of another club does not even learn that the payment exists."""
    client.force_login(scorer)
    mark(client, club, evening)
    client.force_login(cast["other_admin"])
    assert cancel(client, club, Payment.objects.get()).status_code == 404
    assert client.get(reverse("payment_cancel", args=[Payment.objects.get().pk])).status_code == 404
    assert Payment.objects.active().count() == 1
