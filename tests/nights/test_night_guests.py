"""A night's guests are checked against the roster before anything is saved, as the roster paste
checks a list (issue 23): a roster player's name is that player, a name that differs from one only
by accents or capitals is added only once the director says they are other people."""

import pytest
from django.urls import reverse

from pages import Page, body
from scorebook.clubs.models import Player
from scorebook.nights.forms import NightForm
from scorebook.nights.models import Night

pytestmark = pytest.mark.django_db


def data(guests: str, **more) -> dict:
    return {
        "name": "Kaartavond",
        "date": "2026-03-14",
        "ruleset": "kleurenwiezen",
        "sessions": "2",
        "deals_per_session": "4",
        "ranking": "total",
        "currency": "EUR",
        "roster": ["Anne", "Bert", "Carl"],
        "guests": guests,
        **more,
    }


@pytest.fixture
def roster(club):
    for name in ("Anne", "Bert", "Carl", "Éric"):
        Player.objects.create(club=club, name=name)
    return club


def test_it_asks_before_adding_a_guest_who_looks_like_a_roster_player(roster):
    form = NightForm(data("Eric\nFien"), club=roster)
    assert not form.is_valid()
    assert form.errors["guests"] == [
        "Eric looks like Éric of the roster: tick Éric above if it is the same person, "
        "or tick the box below to add Eric as someone else."
    ]
    confirmed = NightForm(data("Eric\nFien", different_people="on"), club=roster)
    assert confirmed.is_valid(), confirmed.errors
    assert confirmed.cleaned_data["players"] == ["Anne", "Bert", "Carl", "Eric", "Fien"]


def test_it_takes_a_guest_typed_as_a_roster_player_for_that_player(roster):
    form = NightForm(data("éric\nFien"), club=roster)  # the roster's Éric in other capitals
    assert form.is_valid(), form.errors
    assert form.cleaned_data["players"] == ["Anne", "Bert", "Carl", "Éric", "Fien"]
    twice = NightForm(data("anne\nFien"), club=roster)  # ticked above and typed again
    assert not twice.is_valid() and twice.errors["guests"] == ["Anne is listed twice."]


@pytest.mark.both_databases
def test_it_shows_the_confirmation_box_only_when_a_guest_needs_it(client, director, roster):
    client.force_login(director)
    url = reverse("night_new", args=[roster.slug])
    assert "different_people" not in body(client.get(url))
    refused = client.post(url, data("Eric\nFien"))
    assert refused.status_code == 422 and Night.objects.count() == 0
    page = Page(body(refused))
    assert page.find("#id_different_people") is not None
    assert "looks like Éric" in page.one("#id_guests_error").text
    created = client.post(url, data("Eric\nFien", different_people="on"))
    assert created.status_code == 302
    assert sorted(Player.objects.filter(club=roster).values_list("name", flat=True)) == [
        "Anne",
        "Bert",
        "Carl",
        "Eric",
        "Fien",
        "Éric",
    ]
