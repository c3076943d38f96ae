"""A table scored from its card's link, without an account: that table, that session, while open."""

import pytest
from django.urls import reverse

from night_builders import samen, tables
from scorebook.evenings import links
from scorebook.evenings.models import Deal, ScoringLink, link_token_hash
from scorebook.nights import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_scorer(client):
    """Whoever holds the phone at table 1 of session 1: no account."""
    return client


def open_link(client, token):
    return client.get(reverse("scoring_link", args=[token]))


def test_it_opens_the_tables_scoring_page_and_records_and_corrects_its_deals(table_scorer, make_night):
    night = make_night()
    table = tables(night)[0]
    token = services.table_link(table)
    response = open_link(table_scorer, token)
    assert response.status_code == 302 and response["Location"] == reverse("evening", args=[table.evening.pk])
    assert table_scorer.get(response["Location"]).status_code == 200
    recorded = table_scorer.post(reverse("deal_record", args=[table.evening.pk]), samen(table.evening))
    assert recorded.status_code == 302
    assert Deal.objects.filter(evening=table.evening).count() == 1
    deal = Deal.objects.get(evening=table.evening)
    corrected = table_scorer.post(
        reverse("deal_edit", args=[table.evening.pk, 1]), {**samen(table.evening, made=False), "version": deal.version}
    )
    assert corrected.status_code == 302
    assert Deal.objects.get(evening=table.evening).data["tricks"] == 7


def test_it_stores_only_a_hash_of_a_token_of_at_least_128_bits(make_night):
    night = make_night()
    token = services.table_link(tables(night)[0])
    assert len(token) >= 22  # url-safe base64: 6 bits a character
    stored = ScoringLink.objects.get()
    assert stored.token_hash == link_token_hash(token) and token not in stored.token_hash


def test_it_reaches_nothing_else_with_the_link(table_scorer, make_night, club):
    night = make_night()
    first, other = tables(night)[:2]
    open_link(table_scorer, services.table_link(first))
    assert table_scorer.get(reverse("evening", args=[other.evening.pk])).status_code == 404
    assert table_scorer.post(reverse("deal_record", args=[other.evening.pk]), samen(other.evening)).status_code == 404
    later = tables(night, 2)[0]
    assert table_scorer.get(reverse("evening", args=[later.evening.pk])).status_code == 404
    for name, args in [
        ("club", [club.slug]),
        ("night", [night.pk]),
        ("settlement", [first.evening.pk]),
        ("evening_close", [first.evening.pk]),
        ("evening_list", []),
    ]:
        response = table_scorer.get(reverse(name, args=args))
        assert response.status_code in (302, 405) and "/login/" in response.get("Location", "/login/"), name
    assert not Deal.objects.exists()


def test_it_refuses_a_revoked_link_at_once_even_on_an_opened_page(table_scorer, make_night):
    night = make_night()
    table = tables(night)[0]
    token = services.table_link(table)
    open_link(table_scorer, token)
    services.revoke_table_link(table)
    assert table_scorer.post(reverse("deal_record", args=[table.evening.pk]), samen(table.evening)).status_code == 404
    assert open_link(table_scorer, token).status_code == 404


def test_it_refuses_a_deal_once_the_session_is_closed(table_scorer, make_night, director):
    night = make_night()
    table = tables(night)[0]
    open_link(table_scorer, services.table_link(table))
    services.close_session(night, 1, director)
    response = table_scorer.post(reverse("deal_record", args=[table.evening.pk]), samen(table.evening))
    assert response.status_code == 302
    assert not Deal.objects.exists()


def test_it_refuses_an_address_that_tried_too_many_unknown_links(table_scorer, make_night):
    night = make_night()
    token = services.table_link(tables(night)[0])
    for i in range(links.ATTEMPTS):
        assert open_link(table_scorer, f"not-a-real-token-{i:04d}").status_code == 404
    response = open_link(table_scorer, token)  # even the right one, for a while
    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()


def test_it_makes_a_new_link_that_replaces_the_old_one(table_scorer, make_night):
    night = make_night()
    table = tables(night)[0]
    old = services.table_link(table)
    new = services.table_link(table)
    assert open_link(table_scorer, old).status_code == 404
    assert open_link(table_scorer, new).status_code == 302
