"""The live ranking's link (issue 29): only its digest is stored; the director makes it, sees it
once, and a new one stops the one before (404); the club's members read the same ranking from the
club's pages without it; nights made before keep their link through the migration."""

import importlib
import types

import pytest
from django.urls import reverse

from night_builders import deal, tables
from pages import Page, body
from scorebook.evenings import services as evenings
from scorebook.evenings.models import link_token_hash
from scorebook.nights import services
from scorebook.nights.models import Night

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def test_the_director_makes_the_link_and_sees_it_once(director_client, make_night):
    night = make_night(players=8)
    Night.objects.filter(pk=night.pk).update(ranking_hash=None, ranking_link_at=None)  # a night without one
    page = Page(body(director_client.get(reverse("night", args=[night.pk]))))
    assert "No link yet" in page.by_id("ranking-link").parent.text
    made = director_client.post(reverse("night_ranking_link", args=[night.pk]))
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    link = Page(body(made)).one(".night-url a").get("href")
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert Page(body(made)).find("svg.qr-code") is not None
    night.refresh_from_db()
    assert night.ranking_hash == link_token_hash(token) and token not in str(Night.objects.values().get())
    # the night's page says that a link exists, never which
    again = body(director_client.get(reverse("night", args=[night.pk])))
    assert token not in again and "A link to the live ranking was made on" in again
    assert director_client.get(link).status_code == 200


def test_a_new_link_stops_the_one_before(client, director_client, make_night):
    night = make_night(players=8)
    old = night.ranking_token
    assert client.get(reverse("night_ranking", args=[old])).status_code == 200
    made = director_client.post(reverse("night_ranking_link", args=[night.pk]))
    new = Page(body(made)).one(".night-url a").get("href")
    for path in ("night_ranking", "night_ranking_live", "night_ranking_csv"):
        assert client.get(reverse(path, args=[old])).status_code == 404
    assert client.get(reverse("night_line", args=[old, 1])).status_code == 404
    assert client.get(new).status_code == 200


def test_a_member_reads_the_ranking_from_the_clubs_pages_without_the_link(client, cast, make_night, director):
    night = make_night(players=8)
    t1 = tables(night)[0]
    evenings.record_deal(t1.evening, deal(t1.evening), director)
    client.force_login(cast["member"])
    listed = Page(body(client.get(reverse("night_list", args=[night.club.slug]))))
    ranking_url = reverse("night_results", args=[night.pk])
    assert ranking_url in [a.get("href") for a in listed.all("a")]
    ranking = Page(body(client.get(ranking_url)))
    winner = t1.evening.seats.all()[1].name
    number = night.participants.get(name=winner).number
    # the ranking's own addresses are relative: the same under the link and under the club
    assert f"players/{number}/" in [a.get("href") for a in ranking.all("#live a")]
    line = client.get(ranking_url + f"players/{number}/")
    assert line.status_code == 200 and winner in body(line)
    assert client.get(ranking_url + "sessions/1/").status_code == 200
    assert client.get(ranking_url + "ranking.csv").status_code == 200
    assert night.ranking_token not in body(client.get(ranking_url))
    # no one else: an outsider and another club's admin get 404, nobody logged in goes to the login page
    for who in ("outsider", "other_admin"):
        client.force_login(cast[who])
        assert client.get(ranking_url).status_code == 404
        assert client.get(ranking_url + "live/").status_code == 404
    client.logout()
    assert reverse("login") in client.get(ranking_url)["Location"]


def test_the_migration_keeps_each_nights_link_as_its_digest(client, make_night):
    """nights.0007: a night's token in clear becomes its digest (the link goes on working)."""
    migration = importlib.import_module("scorebook.nights.migrations.0008_ranking_link_digest")
    night = make_night(players=8)
    Night.objects.filter(pk=night.pk).update(ranking_hash=None, ranking_link_at=None)
    old_token = "an-old-ranking-token-of-22"
    stored = [types.SimpleNamespace(pk=night.pk, ranking_token=old_token, created_at=night.created_at)]

    class Before:  # the night as the migration reads it: its token still in clear
        class objects:
            @staticmethod
            def exclude(**_):
                return types.SimpleNamespace(only=lambda *f: types.SimpleNamespace(iterator=lambda: iter(stored)))

            filter = Night.objects.filter

    migration.digests(types.SimpleNamespace(get_model=lambda *a: Before), None)
    night.refresh_from_db()
    assert night.ranking_hash == link_token_hash(old_token) and night.ranking_link_at == night.created_at
    assert client.get(reverse("night_ranking", args=[old_token])).status_code == 200
    services.new_ranking_link(night)
    assert client.get(reverse("night_ranking", args=[old_token])).status_code == 404
