"""Redraws that keep cards honest (issue 20, item 3; issue 23): after a late arrival or a substitute,
the cards of the tables seated again stop working with a page that says so, and the director is
shown which cards to print again, and prints only those. Marie (``director``) directs the night."""

import pytest
from django.test import Client
from django.urls import reverse

from night_builders import card_links, deal, tables
from scorebook.evenings import services as evenings
from scorebook.nights import services

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def test_a_late_arrival_replaces_the_cards_of_the_tables_seated_again(director_client, make_night, director):
    night = make_night(players=8, sessions=2)
    html = director_client.post(reverse("night_cards", args=[night.pk])).content.decode()
    cards = card_links(html)
    assert len(cards) == 4  # 2 sessions x 2 tables
    first = tables(night, 1)[0].evening
    evenings.record_deal(first, deal(first), director)  # session 1 has begun
    services.late_arrival(night, "Zoë", director)
    reprint = services.to_reprint(night)
    assert reprint and {t.session.number for t in reprint} == {2}
    phone = Client()
    for url in cards[:2]:  # session 1: not seated again, its cards still open their tables
        assert phone.get(url).status_code == 302
    # session 2 was drawn again for 9 players: the table the newcomer joins is seated again, its card
    # replaced; the other keeps its players, and its card (issue 30)
    answers = [Client().get(url) for url in cards[2:]]
    assert sorted(a.status_code for a in answers) == [302, 410]
    replaced = next(a for a in answers if a.status_code == 410).content.decode()
    assert "This card was replaced" in replaced and "Ask the director" in replaced
    assert len(reprint) == 1
    page = director_client.get(reverse("night", args=[night.pk])).content.decode()
    assert "cards to print again" in page or "card to print again" in page
    again = card_links(
        director_client.post(reverse("night_cards", args=[night.pk]), {"session": "reprint"}).content.decode()
    )
    assert len(again) == len(reprint)  # only those
    assert all(Client().get(url).status_code == 302 for url in again)
    assert services.to_reprint(night) == []
    assert all(phone.get(url).status_code == 302 for url in cards[:2])  # untouched by the reprint


def test_a_substitute_replaces_only_the_cards_of_his_tables(director_client, make_night, director):
    night = make_night(players=8, sessions=2)
    cards = card_links(director_client.post(reverse("night_cards", args=[night.pk])).content.decode())
    leaving = night.participants.get(number=1)
    services.substitute(night, leaving, "Zoë", director)
    replaced = {t.evening_id for t in services.to_reprint(night)}
    assert len(replaced) == 2  # his table in each session
    answers = [Client().get(url).status_code for url in cards]
    assert sorted(answers) == [302, 302, 410, 410]


def test_a_revoked_card_is_still_unknown_not_replaced(director_client, make_night):
    night = make_night(players=8, sessions=1)
    cards = card_links(director_client.post(reverse("night_cards", args=[night.pk])).content.decode())
    table = tables(night, 1)[0]
    director_client.post(reverse("night_table_revoke", args=[night.pk, table.pk]))
    assert sorted(Client().get(url).status_code for url in cards) == [302, 404]


def test_a_late_arrival_keeps_the_cards_of_the_tables_that_keep_their_players(director_client, make_night, director):
    """Issue 30: a late arrival at a night of 40 (10 tables a session) voided every card of the
    sessions left, though most tables kept their players (under another table number). Now a table
    that keeps its players keeps its number, its seats and its card; only the others are reprinted."""
    night = make_night(players=40, sessions=3)
    cards = card_links(director_client.post(reverse("night_cards", args=[night.pk]), {"session": "2"}).content.decode())
    before = [(t.number, [s.name for s in t.evening.seats.order_by("position")]) for t in tables(night, 2)]
    first = tables(night, 1)[0].evening
    evenings.record_deal(first, deal(first), director)  # session 1 has begun: sessions 2 and 3 are redrawn
    services.late_arrival(night, "Zoë", director)
    after = {t.number: [s.name for s in t.evening.seats.order_by("position")] for t in tables(night, 2)}
    kept = [number for number, names in before if after.get(number) == names]
    reprint = {t.number for t in services.to_reprint(night) if t.session.number == 2}
    assert len(kept) >= 8  # the newcomer joins one table; the others keep theirs
    assert reprint == set(after) - set(kept)
    phone = Client()
    for (number, _names), url in zip(before, cards, strict=True):
        assert phone.get(url).status_code == (302 if number in kept else 410), number
