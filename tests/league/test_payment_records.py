"""Payments are records, never deleted (issue 21, point 1): the full transfer, part of it, a free
amount with a note, or a payment on account (no evening); cancelling is a record of its own; every
balance nets the payments that count; a repeated form records nothing; money typed with a comma.

Kleurenwiezen, stake 0.10 EUR, 10 Sept: samen 9 made with 10 tricks by Anne and Carl (14 each):
Anne +1.40, Carl +1.40, Bert -1.40, Dina -1.40: Bert pays Anne 1.40, Dina pays Carl 1.40.
"""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from builders import club_evening
from pages import body
from scorebook.clubs.models import Player
from scorebook.evenings.models import Payment, Seat

# the ledger's money, summed in SQL (ledger/books.py): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}
MINUS = "\u2212"


@pytest.fixture
def evening(club, scorer):
    return club_evening(club, scorer, date(2026, 9, 10), [SAMEN_9])


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def add(client, evening, **data):
    return client.post(reverse("payment_add", args=[evening.pk]), {"note": "", "key": ""} | data)


def unpaid(evening):
    return dict(Seat.objects.filter(evening=evening).values_list("name", "unpaid"))


def balances(client, club):
    html = body(client.get(reverse("club_ledger", args=[club.slug])))
    found = re.findall(
        r'class="balance-name">(?:<a [^>]*>)?([^<]+)(?:</a>)?</span>'
        r'.*?class="balance-money figure">(.*?)</span></span>',
        html,
        re.S,
    )
    return {name: text(money).strip() for name, money in found}


def test_it_records_part_of_a_transfer_and_what_remains_is_the_rest(scorer_client, scorer, evening):
    response = add(
        scorer_client, evening, payer="Bert", payee="Anne", amount="0,40", note="the rest on Friday", key="k1"
    )
    assert response.status_code == 302
    payment = Payment.objects.get()
    assert (payment.amount, payment.kind, payment.note, payment.marked_by) == (
        Decimal("0.40"),
        Payment.Kind.PART,
        "the rest on Friday",
        scorer,
    )
    page = text(body(scorer_client.get(reverse("settlement", args=[evening.pk]))))
    assert "Bert paid Anne €0.40 part of a transfer “the rest on Friday”" in page
    assert "Bert pays Anne €1.00" in page and "Dina pays Carl €1.40" in page
    assert unpaid(evening) == {
        "Anne": Decimal("1.00"),
        "Bert": Decimal("-1.00"),
        "Carl": Decimal("1.40"),
        "Dina": Decimal("-1.40"),
    }


def test_a_free_amount_counts_in_every_balance(scorer_client, club, evening):
    # Carl gives Bert 2.00 (a free amount): Bert, who owed 1.40, now owes 3.40; Carl is owed 3.40
    add(scorer_client, evening, payer="Carl", payee="Bert", amount="2", note="cash", key="k2")
    assert Payment.objects.get().kind == Payment.Kind.FREE
    assert unpaid(evening) == {
        "Anne": Decimal("1.40"),
        "Bert": Decimal("-3.40"),
        "Carl": Decimal("3.40"),
        "Dina": Decimal("-1.40"),
    }
    assert balances(scorer_client, club) == {
        "Anne": "+€1.40",
        "Bert": f"{MINUS}€3.40",
        "Carl": "+€3.40",
        "Dina": f"{MINUS}€1.40",
    }


def test_a_repeated_form_records_the_payment_once(scorer_client, evening):
    for _ in range(3):
        add(scorer_client, evening, payer="Bert", payee="Anne", amount="0.40", key="same-key")
    assert Payment.objects.count() == 1


def test_it_refuses_a_payment_between_someone_and_himself_or_a_stranger_next_to_the_field(scorer_client, evening):
    response = add(scorer_client, evening, payer="Bert", payee="Bert", amount="1", key="k3")
    assert response.status_code == 422 and "Someone else than who paid." in body(response)
    response = add(scorer_client, evening, payer="Zoe", payee="Bert", amount="1", key="k4")
    assert response.status_code == 422
    response = add(scorer_client, evening, payer="Anne", payee="Bert", amount="0", key="k5")
    assert response.status_code == 422
    assert not Payment.objects.exists()


def test_a_cancelled_payment_stays_in_the_history_and_counts_no_more(scorer_client, scorer, evening):
    add(scorer_client, evening, payer="Bert", payee="Anne", amount="0.40", key="k6")
    payment = Payment.objects.get()
    url = reverse("payment_cancel", args=[payment.pk])
    asked = scorer_client.get(url)
    assert asked.status_code == 200 and "Cancel Bert paying Anne €0.40" in text(body(asked))
    assert f'action="{url}"' in body(asked) and 'hx-target="#transfers"' in body(asked)
    assert f'href="{reverse("settlement", args=[evening.pk])}#transfers"' in body(asked)  # "Keep it"
    assert scorer_client.post(url, {"reason": "wrong player"}).status_code == 302
    payment.refresh_from_db()
    assert payment.cancelled and payment.cancellation.reason == "wrong player" and payment.cancellation.by == scorer
    page = text(body(scorer_client.get(reverse("settlement", args=[evening.pk]))))
    assert re.search(r"Bert paid Anne €0.40 .* cancelled on \S+ at .+ by Marie · “wrong player” cancelled", page)
    assert "Bert pays Anne €1.40" in page  # open again in full
    assert unpaid(evening)["Anne"] == Decimal("1.40")
    assert Payment.objects.count() == 1


def test_a_payment_on_account_counts_in_the_players_balances_and_names_no_evening(scorer_client, club, evening):
    bert, carl = Player.objects.get(club=club, name="Bert"), Player.objects.get(club=club, name="Carl")
    response = scorer_client.post(
        reverse("club_ledger_pay", args=[club.slug]),
        {"payer": bert.pk, "payee": carl.pk, "amount": "1,00", "note": "for the coffee", "key": "acc1"},
    )
    assert response.status_code == 302
    payment = Payment.objects.get()
    assert (payment.evening, payment.club, payment.kind, payment.payer_player, payment.payee_player) == (
        None,
        club,
        Payment.Kind.ACCOUNT,
        bert,
        carl,
    )
    assert balances(scorer_client, club) == {
        "Anne": "+€1.40",
        "Bert": f"{MINUS}€0.40",
        "Carl": "+€0.40",
        "Dina": f"{MINUS}€1.40",
    }
    page = text(body(scorer_client.get(reverse("club_ledger", args=[club.slug]))))
    assert "Bert paid Carl €1.00 “for the coffee” on account" in page
    csv = scorer_client.get(reverse("club_ledger_csv", args=[club.slug])).content.decode("utf-8-sig")
    assert "on account" in csv and "for the coffee" in csv


def test_a_payment_marked_in_full_is_of_kind_full_and_the_migration_keeps_old_ones(scorer_client, club, evening):
    scorer_client.post(
        reverse("club_ledger_paid", args=[club.slug]),
        {"evening": evening.pk, "payer": "Bert", "payee": "Anne", "amount": "1.40"},
    )
    payment = Payment.objects.get()
    assert (payment.kind, payment.club, payment.payer_player.name, payment.payee_player.name) == (
        Payment.Kind.FULL,
        club,
        "Bert",
        "Anne",
    )
