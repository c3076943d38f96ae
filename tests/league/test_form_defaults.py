"""What the club's forms propose before anyone types (issue 23: poor defaults).

De Troef plays classique on Thursdays (four evenings, stake 0.05 EUR) and once tried
kleurenwiezen, most recently. Adèle (``admin``), its secretary, makes a new season; Marie
(``scorer``) starts a new evening from the club's page.
"""

from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from builders import club_evening
from pages import Page, body
from scorebook.clubs.models import Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def habits(club, scorer):
    for day in (3, 10, 17, 24):
        club_evening(club, scorer, date(2026, 9, day), [{"tricks": [7, 6]}], ruleset="classique", stake="0.05")
    # two tables of kleurenwiezen on one night, the latest evening of the club
    for _table in range(2):
        club_evening(club, scorer, date(2026, 10, 1), [{"contract": "pass"}])
    return club


def season_form(client, club):
    return Page(body(client.get(reverse("season_new", args=[club.slug]))))


def test_it_proposes_the_variant_the_club_plays_most_for_a_new_season(client, cast, habits):
    client.force_login(cast["admin"])
    assert season_form(client, habits).field_value("ruleset") == "classique"  # not the latest evening's


def test_it_proposes_a_first_season_from_the_clubs_first_evening_for_a_year(client, cast, habits):
    client.force_login(cast["admin"])
    page = season_form(client, habits)
    assert (page.field_value("start"), page.field_value("end")) == ("2026-09-03", "2027-09-02")
    assert page.field_value("name") == "2026–2027"


@pytest.mark.both_databases
def test_it_proposes_the_next_season_from_the_day_after_the_last_one_ends(client, cast, habits):
    Season.objects.create(
        club=habits, name="2026–2027", start=date(2026, 9, 1), end=date(2027, 6, 30), ruleset="classique"
    )
    client.force_login(cast["admin"])
    page = season_form(client, habits)
    assert (page.field_value("start"), page.field_value("end")) == ("2027-07-01", "2028-06-30")
    assert page.field_value("name") == "2027–2028"
    # sent as proposed (no overlap to confirm), it is a season
    data = {
        "name": page.field_value("name"),
        "start": page.field_value("start"),
        "end": page.field_value("end"),
        "ruleset": page.field_value("ruleset"),
        "ranking": page.checked("ranking")[0],
        "tie_break": page.checked("tie_break")[0],
        "min_evenings": page.field_value("min_evenings"),
        "drop_worst": page.field_value("drop_worst"),
        "league_points": page.field_value("league_points"),
    }
    assert client.post(reverse("season_new", args=[habits.slug]), data).status_code == 302


def test_it_proposes_a_season_of_a_year_from_today_to_a_new_club(client, cast, club):
    client.force_login(cast["admin"])
    page = season_form(client, club)
    start = date.fromisoformat(page.field_value("start"))
    today = timezone.localdate()
    assert start.day == 1 and today - timedelta(days=31) < start <= today
    assert page.field_value("ruleset") == "kleurenwiezen"


def test_it_starts_a_clubs_evening_with_its_usual_variant_and_stake(client, cast, habits):
    client.force_login(cast["scorer"])
    page = Page(body(client.get(reverse("evening_new") + f"?club={habits.pk}")))
    assert page.checked("ruleset") == ["classique"]
    assert (page.field_value("stake"), page.field_value("currency")) == ("0.05", "EUR")
    # the home page's link to a variant still chooses that variant
    page = Page(body(client.get(reverse("evening_new") + f"?club={habits.pk}&ruleset=liege")))
    assert page.checked("ruleset") == ["liege"]
