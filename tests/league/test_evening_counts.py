"""Counts of evenings that agree with the season they describe (issue 23: "13 evenings" on a season of 6).

A club night counts in its season as one evening (docs/rules/club-nights.md), however many tables it
had: the season's page, the list of its evenings and the page that deletes it say the same number.
Adèle (``admin``) is the secretary of De Troef; Marie (``scorer``) scores its evenings.
"""

from datetime import date

import pytest
from django.urls import reverse

import night_builders
from builders import club_evening
from pages import Page, body
from scorebook.clubs.models import Season
from scorebook.nights import services as nights

pytestmark = pytest.mark.django_db

PASS = {"contract": "pass"}


@pytest.fixture
def autumn(club, scorer):
    """Five evenings and a club night of 16 players over 2 sessions (8 tables, each with a deal), over."""
    season = Season.objects.create(
        club=club, name="Autumn", start=date(2026, 9, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    for day in (3, 10, 17, 24):
        club_evening(club, scorer, date(2026, 9, day), [PASS])
    club_evening(club, scorer, date(2026, 10, 1), [PASS])
    night = night_builders.night(club, scorer, 16, day=date(2026, 11, 14), seed=0, ranking_link=False)
    for session in (1, 2):
        night_builders.play(night, scorer, session)
        nights.close_session(night, session, scorer)  # a night counts once its last session is closed
    return season


def test_it_counts_a_club_night_once_in_the_season_and_in_its_list_of_evenings(client, cast, autumn):
    client.force_login(cast["admin"])
    season_page = Page(body(client.get(reverse("season", args=["de-troef", autumn.pk]))))
    assert "6 evenings" in season_page.find(".club-head").text

    listed = Page(body(client.get(reverse("club_evenings", args=["de-troef"]) + f"?season={autumn.pk}")))
    count = listed.find(".result-count").text
    assert count.startswith("6 evenings")
    assert "13 evenings" not in count
    cards = [c for c in listed.all("li") if "past-evening" in c.classes]
    assert len(cards) == 6  # the night is ONE line (docs/rules/club-nights.md), its 8 tables behind it on tap
    night = next(card for card in cards if "Kaartavond" in card.text)
    assert len(night.all(".night-tables li")) == 8

    delete = Page(body(client.get(reverse("season_delete", args=["de-troef", autumn.pk]))))
    assert "its 6 evenings stay in the club" in delete.find("main").text


def test_it_does_not_list_the_players_of_a_table_without_a_deal_as_absent(client, cast, club, scorer):
    club_evening(club, scorer, date(2026, 9, 3))  # started, nothing played yet
    client.force_login(cast["member"])
    page = Page(body(client.get(reverse("club_evenings", args=["de-troef"]))))
    assert page.find(".did-not-play") is None
    assert "no deal yet" in page.find(".past-evening").text
