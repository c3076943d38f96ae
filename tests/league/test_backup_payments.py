"""A backup keeps every payment as it was made (issue 21): who entered it and when, part or free
amounts with their note, payments on account, and cancellations (who, when, why); a restore brings
back the same ledger."""

import re
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

import night_builders
from builders import club_evening, lose_the_site
from night_builders import EIGHT
from pages import body
from scorebook.clubs.models import Player
from scorebook.evenings import payments
from scorebook.evenings.models import Payment
from scorebook.ledger import services as ledger_services

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}


def picture():
    return sorted(
        (
            str(p.evening.date) if p.evening else "",
            p.payer,
            p.payee,
            p.payer_player.name if p.payer_player else None,
            p.payee_player.name if p.payee_player else None,
            p.amount,
            p.kind,
            p.note,
            p.marked_by.username if p.marked_by else None,
            p.marked_at,
            (p.cancellation.by.username, p.cancellation.at, p.cancellation.reason) if p.cancelled else None,
        )
        for p in Payment.objects.select_related("evening", "marked_by", "cancellation__by")
    )


def ledger_text(client, slug):
    html = body(client.get(reverse("club_ledger", args=[slug])))
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_it_restores_payments_with_their_authors_times_notes_and_cancellations(club, scorer, admin, client, tmp_path):
    evening = club_evening(club, scorer, date(2026, 9, 10), [SAMEN_9])
    payments.record_payment(evening, "Bert", "Anne", payments.Decimal("1.40"), scorer)
    part, _ = payments.record_payment(
        evening, "Dina", "Carl", payments.Decimal("0.40"), scorer, free=True, note="the rest on Friday"
    )
    payments.cancel_payment(part.pk, admin, admin=True, reason="entered twice")
    bert, carl = Player.objects.get(club=club, name="Bert"), Player.objects.get(club=club, name="Carl")
    ledger_services.record_on_account(club, bert, carl, payments.Decimal("2.00"), "EUR", admin, note="coffee")
    before = picture()
    client.force_login(admin)
    page_before = ledger_text(client, club.slug)
    path = tmp_path / "club.json"
    call_command("export_club", club.slug, "-o", str(path), "--with-secrets")

    lose_the_site()
    call_command("import_club", str(path))

    assert picture() == before
    client.force_login(get_user_model().objects.get(username=admin.username))
    assert ledger_text(client, club.slug) == page_before


def test_it_restores_a_payment_made_for_a_night(club, scorer, admin, tmp_path):
    from scorebook.nights.models import NightPayment

    night = night_builders.night(
        club,
        scorer,
        EIGHT,
        1,
        2,
        stake=payments.Decimal("0.10"),
        name="Herfstavond",
        day=date(2026, 10, 3),
        seed=0,
        ranking_link=False,
    )
    anne, bert = Player.objects.get(club=club, name="Anne"), Player.objects.get(club=club, name="Bert")
    paid = Payment.objects.create(
        club=club, payer="Anne", payee="Bert", payer_player=anne, payee_player=bert, amount="0.30", note="for the night"
    )  # a night's line paid, as the ledger records it (its services check the amount against the night's line)
    NightPayment.objects.create(night=night, payment=paid)
    before = picture()
    path = tmp_path / "club.json"
    call_command("export_club", club.slug, "-o", str(path))
    lose_the_site()
    call_command("import_club", str(path))
    assert picture() == before
    link = NightPayment.objects.get()
    assert (link.night.name, link.payment.note) == ("Herfstavond", "for the night")
