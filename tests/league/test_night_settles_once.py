"""A night settles once (docs/rules/club-nights.md, issue 20 point 2): each player's net is the sum of his net money
at his tables, the night's transfers are the fewest across all its players, and the ledger shows them
as the night's line; the CSV says where each line comes from.

The club-night example of issue 20/21: 16 players, 3 sessions of 4 tables, stake 0.10, two deals a
table (a samen 9 of the second and fourth seats, made or failed by table and session, and a samen 8
of the first and third seats): table by table the ledger listed 22 transfers; settled once, the night
takes 10 (the exact fewest for the players' nets, checked below against ``oracles.min_transfer_count``).
"""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

import night_builders
from night_builders import tables
from oracles import min_transfer_count
from pages import body
from scorebook.evenings import services
from scorebook.evenings.models import Payment
from scorebook.ledger import books
from scorebook.rules import settlement

# a night's money, summed in SQL (ledger/books.py): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def night(club, scorer):
    night = night_builders.night(
        club,
        scorer,
        16,
        3,
        2,
        stake=Decimal("0.10"),
        name="Herfstavond",
        day=date(2026, 10, 3),
        seed=0,
        ranking_link=False,
    )
    for session in (1, 2, 3):
        for table in tables(night, session):
            evening = table.evening
            names = [s.name for s in evening.seats.all()]
            made = (table.number + session) % 3 != 0
            tricks = 9 + (table.number % 3) if made else 7
            services.record_deal(
                evening, {"contract": "samen-9", "declarers": [names[1], names[3]], "tricks": tricks}, scorer
            )
            services.record_deal(
                evening, {"contract": "samen-8", "declarers": [names[0], names[2]], "tricks": 8 + session % 2}, scorer
            )
    return night


def table_nets(night) -> dict[str, Decimal]:
    nets: dict[str, Decimal] = {}
    for session in (1, 2, 3):
        for table in tables(night, session):
            for entry in table.evening.summary["players"]:
                nets[entry["name"]] = nets.get(entry["name"], Decimal("0.00")) + Decimal(entry["money"])
    return nets


def test_it_settles_the_night_once_with_the_fewest_transfers_across_its_tables(night, club):
    table_by_table = sum(len(t.evening.summary["transfers"]) for s in (1, 2, 3) for t in tables(night, s))
    [shown], _count = books.open_nights(club, limit=None)
    nets = table_nets(night)
    assert books.open_evenings(club, limit=None) == ([], 0)  # no table of the night is an evening of its own
    assert len(shown.transfers) == min_transfer_count(nets)
    settled = settlement.balances_of(
        [settlement.Transfer(t.payer, t.payee, t.amount) for t in shown.transfers], order=nets
    )
    assert {name: settled.get(name, Decimal("0.00")) for name in nets} == nets
    assert len(shown.transfers) < table_by_table


def test_the_ledger_shows_the_night_as_one_line(night, club, scorer_client):
    html = body(scorer_client.get(reverse("club_ledger", args=[club.slug])))
    page = text(html)
    assert "Herfstavond" in page and "the night settles once, across its tables" in page
    csv = scorer_client.get(reverse("club_ledger_csv", args=[club.slug])).content.decode("utf-8-sig")
    assert "night Herfstavond" in csv


def test_a_night_line_marked_paid_is_netted_in_the_nights_settlement(night, club, scorer, scorer_client):
    [shown], _count = books.open_nights(club, limit=None)
    first = shown.transfers[0]
    data = {
        "night": night.pk,
        "payer": first.payer_key,
        "payee": first.payee_key,
        "amount": str(first.amount),
        "key": first.key,
    }
    assert scorer_client.post(reverse("club_ledger_night_paid", args=[club.slug]), data).status_code == 302
    scorer_client.post(reverse("club_ledger_night_paid", args=[club.slug]), data)  # a second tap: nothing more
    assert Payment.objects.count() == 1 and Payment.objects.get().night_link.night == night
    [after], _count = books.open_nights(club, limit=None)
    assert len(after.transfers) == len(shown.transfers) - 1
    assert (first.payer, first.payee) not in [(t.payer, t.payee) for t in after.transfers]
    page = text(body(scorer_client.get(reverse("club_ledger", args=[club.slug]))))
    assert "night Herfstavond of Oct. 3, 2026 · marked on" in page


@pytest.mark.parametrize(
    "change",
    [
        {"night": "1\x00"},
        {"payer": "x"},
        {"payee": "１"},
        {"amount": "NaN"},
        {"amount": "-1"},
        {"key": "k" * 300},
        {"key": "k\x00"},
    ],
)
def test_a_forged_night_line_is_refused_in_words_and_records_nothing(night, club, scorer_client, change):
    [shown], _count = books.open_nights(club, limit=None)
    first = shown.transfers[0]
    data = {"night": night.pk, "payer": first.payer_key, "payee": first.payee_key, "amount": first.amount, "key": "k"}
    response = scorer_client.post(reverse("club_ledger_night_paid", args=[club.slug]), data | change)
    assert response.status_code in (302, 400)
    assert Payment.objects.count() == (1 if response.status_code == 302 else 0)
