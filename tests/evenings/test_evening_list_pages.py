"""The list of evenings (the installed app's start page) a page at a time: the newest first, 30 a
page, "Older evenings" without JavaScript; the same queries for 3 evenings as for 300."""

from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorebook.evenings import creation
from scorebook.evenings.models import Evening, Seat

pytestmark = pytest.mark.django_db


def evenings_of(user, n: int) -> list[Evening]:
    first = date(2020, 1, 1)
    made = Evening.objects.bulk_create(
        Evening(ruleset="kleurenwiezen", rules={}, date=first + timedelta(days=i), owner=user) for i in range(n)
    )
    made = list(Evening.objects.filter(owner=user))
    players = [creation.player_named(name, user) for name in ["Anne", "Bert", "Carl", "Dina"]]
    Seat.objects.bulk_create(
        Seat(evening=e, player=p, position=i, name=p.name) for e in made for i, p in enumerate(players)
    )
    return made


def queries_of(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_it_costs_the_same_queries_for_3_evenings_as_for_300(scorer_client, scorer, make_user, client):
    evenings_of(scorer, 3)
    few = queries_of(scorer_client, reverse("evening_list"))
    other = make_user("busy")
    evenings_of(other, 300)
    client.force_login(other)
    assert queries_of(client, reverse("evening_list")) == few
    assert queries_of(client, reverse("evening_list") + "?page=5") <= few


def test_it_shows_the_newest_30_first_and_the_older_ones_a_link_away(scorer_client, scorer):
    made = sorted(evenings_of(scorer, 65), key=lambda e: e.date)
    first = scorer_client.get(reverse("evening_list")).content.decode()
    assert first.count('class="card"') == 30
    assert f'href="/e/{made[-1].pk}/"' in first and f'href="/e/{made[-31].pk}/"' not in first
    assert 'href="?page=2"' in first and "Older evenings" in first and "Newer evenings" not in first
    second = scorer_client.get(reverse("evening_list") + "?page=2").content.decode()
    assert second.count('class="card"') == 30
    assert 'href="?page=1"' in second and 'href="?page=3"' in second
    last = scorer_client.get(reverse("evening_list") + "?page=3").content.decode()
    assert last.count('class="card"') == 5 and "Older evenings" not in last
    assert f'href="/e/{made[0].pk}/"' in last  # the oldest
    assert scorer_client.get(reverse("evening_list") + "?page=99").status_code == 200  # the last page
