"""Payments outlive everything (issue 28, point 3): an evening or a night with payments (cancelled ones
too: they are records) cannot be deleted: its page says so and names them, and the database refuses it
too (``PROTECT``: Django's delete, and a delete behind Django's back); a cancellation needs a reason; the
admin site shows payments read-only."""

from datetime import date
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError
from django.urls import reverse

import night_builders
from builders import club_evening
from night_builders import EIGHT
from pages import body
from scorebook.clubs.models import Player
from scorebook.evenings import payments, services
from scorebook.evenings.models import Evening, Payment
from scorebook.ledger import books
from scorebook.nights import services as nights
from scorebook.nights.models import Night

# payments kept by the database's constraints, their money summed in SQL: both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}


@pytest.fixture
def emptied(club, scorer):
    """An evening whose only deal was deleted after two payments were marked (one cancelled since)."""
    evening = club_evening(club, scorer, date(2026, 9, 10), [SAMEN_9])
    payments.record_payment(evening, "Bert", "Anne", Decimal("1.40"), scorer)
    wrong, _ = payments.record_payment(evening, "Dina", "Carl", Decimal("1.40"), scorer)
    payments.cancel_payment(wrong.pk, scorer, admin=True, reason="it was Bert")
    services.delete_deal(evening, 1, scorer)
    return evening


def test_an_evening_with_payments_is_not_deleted_and_its_page_names_them(client, scorer, emptied):
    client.force_login(scorer)
    url = reverse("evening_delete", args=[emptied.pk])
    page = body(client.get(url))
    assert "This evening cannot be deleted" in page and "archive the evening" in page
    assert "Bert paid Anne €1.40, marked on" in page
    assert "Dina paid Carl €1.40, marked on" in page and "(cancelled, kept in the history)" in page
    assert reverse("evening_archive", args=[emptied.pk]) in page
    response = client.post(url)
    assert response.status_code == 422
    assert Evening.objects.filter(pk=emptied.pk).exists() and Payment.objects.count() == 2
    with pytest.raises(services.HasPayments):
        services.delete_evening(emptied)


def test_the_database_refuses_it_too(emptied):
    with pytest.raises(ProtectedError):
        emptied.delete()
    with pytest.raises(IntegrityError), transaction.atomic():  # behind Django's back: the foreign key
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM evenings_seat WHERE evening_id = %s", [emptied.pk])
            cursor.execute("DELETE FROM evenings_evening WHERE id = %s", [emptied.pk])
        connection.check_constraints()
    assert Payment.objects.count() == 2 and Evening.objects.filter(pk=emptied.pk).exists()


def test_an_evening_without_payments_or_deals_is_still_deleted(client, club, scorer):
    evening = club_evening(club, scorer, date(2026, 9, 10), [])
    client.force_login(scorer)
    assert client.post(reverse("evening_delete", args=[evening.pk])).status_code == 302
    assert not Evening.objects.filter(pk=evening.pk).exists()


def test_a_night_with_payments_is_not_deleted_and_its_page_names_them(client, club, scorer):
    night = night_builders.night(
        club,
        scorer,
        EIGHT,
        1,
        2,
        stake=Decimal("0.10"),
        name="Herfstavond",
        day=date(2026, 10, 3),
        seed=0,
        ranking_link=False,
    )
    table = night.night_sessions.get().tables.select_related("evening").first()
    names = [s.name for s in table.evening.seats.all()]
    services.record_deal(table.evening, {**SAMEN_9, "declarers": [names[1], names[3]]}, scorer)
    [line] = books.night_ledgers([night])
    first = line.transfers[0]
    from scorebook.ledger import services as ledger

    payer, payee = Player.objects.get(pk=first.payer_key), Player.objects.get(pk=first.payee_key)
    ledger.record_for_night(night, payer, payee, first.amount, scorer)
    services.delete_deal(table.evening, 1, scorer)  # the night played no deal any more
    client.force_login(scorer)
    url = reverse("night_delete", args=[night.pk])
    page = body(client.get(url))
    assert "This night cannot be deleted" in page and f"{payer.name} paid {payee.name}" in page
    assert client.post(url).status_code == 422
    assert Night.objects.filter(pk=night.pk).exists() and Payment.objects.count() == 1
    with pytest.raises(nights.NightError):
        nights.delete_night(night)
    with pytest.raises(ProtectedError):
        Night.objects.filter(pk=night.pk).delete()


def test_a_cancellation_needs_a_reason(club, scorer, emptied):
    kept = Payment.objects.active().get()
    with pytest.raises(payments.ReasonNeeded):
        payments.cancel_payment(kept.pk, scorer, admin=True, reason="   ")
    assert not Payment.objects.get(pk=kept.pk).cancelled


def test_the_admin_site_shows_payments_read_only(client, staff, emptied):
    client.force_login(staff)
    payment = Payment.objects.active().get()
    listing = client.get(reverse("admin:evenings_payment_changelist"))
    assert listing.status_code == 200 and "Bert" in body(listing) and "1.40" in body(listing)
    change = client.get(reverse("admin:evenings_payment_change", args=[payment.pk]))
    assert change.status_code == 200 and 'name="amount"' not in body(change)  # shown, not editable
    assert client.post(reverse("admin:evenings_payment_change", args=[payment.pk]), {"amount": "9"}).status_code == 403
    assert client.get(reverse("admin:evenings_payment_add")).status_code == 403
    assert client.get(reverse("admin:evenings_payment_delete", args=[payment.pk])).status_code == 403
    assert Payment.objects.get(pk=payment.pk).amount == Decimal("1.40")
