"""Deleting an evening without deals, and archiving one with deals out of the lists (scorers and admins)."""

from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from pages import Page, body
from scorebook.clubs.models import Player
from scorebook.evenings.models import Evening

pytestmark = pytest.mark.django_db

PASS = {"contract": "pass"}


@pytest.fixture
def empty(club, scorer):
    return club_evening(club, scorer, date(2026, 11, 12))


@pytest.fixture
def played(club, scorer):
    return club_evening(club, scorer, date(2026, 11, 5), [PASS])


def test_it_offers_to_delete_an_evening_without_deals(client, cast, empty):
    client.force_login(cast["scorer"])
    html = body(client.get(reverse("settlement", args=[empty.pk])))
    assert reverse("evening_delete", args=[empty.pk]) in html
    assert reverse("evening_archive", args=[empty.pk]) not in html
    assert reverse("evening_delete", args=[empty.pk]) in body(client.get(reverse("club_evenings", args=["de-troef"])))


@pytest.mark.both_databases
def test_it_asks_then_deletes_an_evening_without_deals_keeping_the_roster(client, cast, empty):
    client.force_login(cast["scorer"])
    url = reverse("evening_delete", args=[empty.pk])
    assert "Delete this evening?" in body(client.get(url))
    assert Evening.objects.filter(pk=empty.pk).exists()
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == reverse("club", args=["de-troef"])
    assert not Evening.objects.filter(pk=empty.pk).exists()
    assert Player.objects.filter(club=empty.club, name="Anne").exists()


def test_it_never_deletes_an_evening_with_deals(client, cast, played):
    client.force_login(cast["admin"])
    response = client.post(reverse("evening_delete", args=[played.pk]))
    assert response.status_code == 422
    assert "cannot be deleted" in body(response)
    assert played.deals.count() == 1 and Evening.objects.filter(pk=played.pk).exists()


@pytest.mark.parametrize("who, status", [("member", 403), ("outsider", 404), ("other_admin", 404)])
def test_it_refuses_deleting_or_archiving_to_others(client, cast, empty, played, who, status):
    client.force_login(cast[who])
    assert client.post(reverse("evening_delete", args=[empty.pk])).status_code == status
    assert client.post(reverse("evening_archive", args=[played.pk])).status_code == status
    assert Evening.objects.filter(pk=empty.pk).exists()
    played.refresh_from_db()
    assert not played.archived


@pytest.mark.both_databases
def test_it_archives_an_evening_out_of_the_lists_and_brings_it_back(client, cast, played, empty):
    client.force_login(cast["scorer"])
    html = body(client.get(reverse("settlement", args=[played.pk])))
    assert reverse("evening_archive", args=[played.pk]) in html
    assert "Archive this evening?" in body(client.get(reverse("evening_archive", args=[played.pk])))
    assert client.post(reverse("evening_archive", args=[played.pk]), {"archived": "1"}).status_code == 302
    played.refresh_from_db()
    assert played.archived
    link = f'href="{reverse("evening", args=[played.pk])}"'
    for url in (
        reverse("club", args=["de-troef"]),
        reverse("club_evenings", args=["de-troef"]),
        reverse("evening_list"),
    ):
        html = body(client.get(url))
        assert link not in html, url
    assert "1 archived evening" in body(client.get(reverse("club_evenings", args=["de-troef"])))
    assert link in body(client.get(reverse("club_evenings", args=["de-troef"]) + "?archived=1"))
    assert link in body(client.get(reverse("evening_list") + "?archived=1"))
    # still reachable, and said to be archived
    assert "This evening is archived" in body(client.get(reverse("settlement", args=[played.pk])))
    assert client.get(reverse("evening", args=[played.pk])).status_code == 200
    client.post(reverse("evening_archive", args=[played.pk]), {"archived": "0"})
    played.refresh_from_db()
    assert not played.archived
    assert link in body(client.get(reverse("club", args=["de-troef"])))


@pytest.mark.both_databases
def test_it_keeps_an_archived_evenings_figures(client, cast, played):
    summary = dict(played.summary)
    client.force_login(cast["scorer"])
    client.post(reverse("evening_archive", args=[played.pk]), {"archived": "1"})
    played.refresh_from_db()
    assert played.summary == summary and played.deals.count() == 1


def test_it_shows_the_date_and_the_club_on_the_settlement(client, cast, played):
    client.force_login(cast["member"])
    html = body(client.get(reverse("settlement", args=[played.pk])))
    head = html.split('class="settle-eyebrow"')[1].split("</p>")[0]
    assert "Nov. 5, 2026" in head and "De Troef" in head and reverse("club", args=["de-troef"]) in head


def test_it_never_says_an_evening_with_deals_has_none(client, cast, played):
    """Issue 23: the delete page said "It has no deal…" on an evening with deals."""
    client.force_login(cast["scorer"])
    page = Page(body(client.get(reverse("evening_delete", args=[played.pk]))))
    text = page.find("main").text
    assert "no deal" not in text
    assert page.find("h1").text == "This evening cannot be deleted"
    assert "It has 1 deal: archive it to take it out of the lists." in text
    assert page.find("main form") is None  # nothing to confirm
    assert page.find(f"a[href={reverse('evening_archive', args=[played.pk])}]") is not None
