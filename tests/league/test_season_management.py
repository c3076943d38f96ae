"""Managing seasons (admins): overlapping dates warned, editing, deleting (no evening goes), archiving."""

from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from pages import body, field_errors
from scorebook.clubs.models import Season
from scorebook.evenings.models import Evening

pytestmark = pytest.mark.django_db

SLUG = "de-troef"


@pytest.fixture
def winter(club):
    return Season.objects.create(
        club=club, name="Winter 2026", start=date(2026, 10, 1), end=date(2027, 3, 31), ruleset="kleurenwiezen"
    )


def season_data(**changes):
    data = {
        "name": "Autumn",
        "start": "2026-09-01",
        "end": "2026-12-31",
        "ruleset": "kleurenwiezen",
        "ranking": "total",
        "league_points": "",
        "min_evenings": "0",
        "drop_worst": "0",
        "tie_break": "evenings-won",
    }
    return data | changes


def new_season(client, **changes):
    return client.post(reverse("season_new", args=[SLUG]), season_data(**changes))


def test_it_warns_of_a_season_of_the_same_variant_whose_dates_meet(client, cast, winter):
    client.force_login(cast["admin"])
    response = new_season(client)
    assert response.status_code == 422
    error = field_errors(body(response), "confirm_overlap")
    assert "Winter 2026" in error and "Tick the box" in error
    assert not Season.objects.filter(name="Autumn").exists()


@pytest.mark.both_databases
def test_it_creates_an_overlapping_season_once_confirmed(client, cast, winter):
    client.force_login(cast["admin"])
    assert new_season(client, confirm_overlap="on").status_code == 302
    assert Season.objects.filter(name="Autumn").exists()


@pytest.mark.both_databases
def test_it_allows_overlapping_dates_for_another_variant(client, cast, winter):
    client.force_login(cast["admin"])
    assert new_season(client, ruleset="classique").status_code == 302


@pytest.mark.both_databases
def test_it_does_not_warn_of_an_archived_season_nor_of_the_season_itself(client, cast, winter):
    client.force_login(cast["admin"])
    edit = reverse("season_edit", args=[SLUG, winter.pk])
    assert client.post(edit, season_data(name="Winter", start="2026-10-01", end="2027-03-31")).status_code == 302
    Season.objects.filter(pk=winter.pk).update(archived=True)
    assert new_season(client).status_code == 302


@pytest.mark.both_databases
def test_it_edits_a_season(client, cast, winter):
    client.force_login(cast["admin"])
    html = body(client.get(reverse("season_edit", args=[SLUG, winter.pk])))
    assert 'value="[]"' not in html
    response = client.post(
        reverse("season_edit", args=[SLUG, winter.pk]), season_data(name="Winter", start="2026-10-01")
    )
    assert response.status_code == 302
    winter.refresh_from_db()
    assert winter.name == "Winter" and winter.end == date(2026, 12, 31)


@pytest.mark.both_databases
def test_it_asks_before_deleting_a_season_and_keeps_its_evenings(client, cast, club, scorer, winter):
    evening = club_evening(club, scorer, date(2026, 11, 5), [{"contract": "pass"}])
    client.force_login(cast["admin"])
    url = reverse("season_delete", args=[SLUG, winter.pk])
    assert url in body(client.get(reverse("season", args=[SLUG, winter.pk])))
    page = body(client.get(url))
    assert "Delete the season “Winter 2026”?" in page
    assert "1 evening stays in the club" in page
    assert Season.objects.filter(pk=winter.pk).exists()  # asking deletes nothing
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == reverse("club", args=[SLUG])
    assert not Season.objects.filter(pk=winter.pk).exists()
    assert Evening.objects.filter(pk=evening.pk).exists()


@pytest.mark.parametrize("who, status", [("member", 403), ("scorer", 403), ("outsider", 404)])
def test_it_lets_only_admins_delete_or_archive_a_season(client, cast, winter, who, status):
    client.force_login(cast[who])
    assert client.post(reverse("season_delete", args=[SLUG, winter.pk])).status_code == status
    assert client.post(reverse("season_archive", args=[SLUG, winter.pk])).status_code == status
    winter.refresh_from_db()
    assert not winter.archived


@pytest.mark.both_databases
def test_it_archives_a_season_out_of_the_lists_and_back(client, cast, winter):
    client.force_login(cast["admin"])
    response = client.post(reverse("season_archive", args=[SLUG, winter.pk]), {"archived": "1"})
    assert response.status_code == 302
    winter.refresh_from_db()
    assert winter.archived
    club_page = body(client.get(reverse("club", args=[SLUG])))
    assert "1 archived season" in club_page  # kept, one tap away
    main_list = club_page.split('id="seasons"')[1].split("archived-seasons")[0]
    assert "Winter 2026" not in main_list
    standings = body(client.get(reverse("season", args=[SLUG, winter.pk])))
    assert "This season is archived" in standings
    client.post(reverse("season_archive", args=[SLUG, winter.pk]), {"archived": "0"})
    winter.refresh_from_db()
    assert not winter.archived


def test_it_shows_no_season_management_to_a_member(client, cast, winter):
    client.force_login(cast["member"])
    html = body(client.get(reverse("season", args=[SLUG, winter.pk])))
    assert reverse("season_delete", args=[SLUG, winter.pk]) not in html
    assert reverse("season_archive", args=[SLUG, winter.pk]) not in html
    assert reverse("season_edit", args=[SLUG, winter.pk]) not in html
