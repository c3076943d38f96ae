# ruff: noqa: F811 (the club fixtures are imported)
"""Closing and reopening an evening as a club's secretary expects (issue 23, item 3).

Adèle (``admin``) is the secretary of De Troef, Marie (``scorer``) keeps the score, Mia
(``member``) plays. An evening Adèle closed is reopened by an admin only; one Marie closed, Marie
or any scorer reopens (the table's own close, minutes after the last deal). An old evening
imported into the club arrives closed, as if an admin had closed it. A member is never told an
open evening is closed, and sees no button the site would refuse her.
"""

import json
from datetime import date

import pytest
from django.urls import reverse
from django.utils import timezone

from builders import club_evening
from club_fixtures import admin, cast, club  # noqa: F401
from pages import Page
from scorebook.clubs.models import Player
from scorebook.evenings.models import Evening

pytestmark = pytest.mark.django_db

PAIR = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}


@pytest.fixture
def evening(club, scorer):
    return club_evening(club, scorer, deals=[PAIR], stake=None)


def as_(client, user):
    client.force_login(user)
    return client


def status(evening) -> str:
    return Evening.objects.get(pk=evening.pk).status


@pytest.mark.both_databases
def test_it_lets_only_an_admin_reopen_an_evening_an_admin_closed(client, cast, evening):
    as_(client, cast["admin"]).post(reverse("evening_close", args=[evening.pk]))
    assert status(evening) == "closed"

    response = as_(client, cast["scorer"]).post(reverse("evening_reopen", args=[evening.pk]))
    assert response.status_code == 403
    assert status(evening) == "closed"

    as_(client, cast["admin"]).post(reverse("evening_reopen", args=[evening.pk]))
    assert status(evening) == "open"


@pytest.mark.both_databases
def test_it_lets_a_scorer_reopen_an_evening_a_scorer_closed(client, cast, evening, make_user):
    as_(client, cast["scorer"]).post(reverse("evening_close", args=[evening.pk]))
    other_scorer = make_user("sam")
    evening.club.memberships.create(user=other_scorer, role="scorer")
    as_(client, other_scorer).post(reverse("evening_reopen", args=[evening.pk]))
    assert status(evening) == "open"


@pytest.mark.both_databases
def test_it_tells_a_scorer_who_closed_it_and_offers_no_reopen_button_he_may_not_use(client, cast, evening):
    as_(client, cast["admin"]).post(reverse("evening_close", args=[evening.pk]))
    page = Page(as_(client, cast["scorer"]).get(reverse("settlement", args=[evening.pk])).content.decode())
    notice = page.find(".settle-notice.is-closed").text
    assert "Closed by Adèle on " in notice
    assert "only an admin of the club can reopen it" in notice
    assert not [f for f in page.all("form") if f.get("action") == reverse("evening_reopen", args=[evening.pk])]
    # the scoring page says the same, not "reopen it from the settlement page"
    board = Page(client.get(reverse("evening", args=[evening.pk])).content.decode()).find("#board .notice").text
    assert "only an admin of the club can reopen it" in board and "settlement page" not in board

    admin_page = Page(as_(client, cast["admin"]).get(reverse("settlement", args=[evening.pk])).content.decode())
    assert [f for f in admin_page.all("form") if f.get("action") == reverse("evening_reopen", args=[evening.pk])]


def test_it_never_tells_a_member_that_an_open_evening_is_closed(client, cast, evening):
    page = Page(as_(client, cast["member"]).get(reverse("evening", args=[evening.pk])).content.decode())
    notice = page.find("#board .notice").text
    assert "closed" not in notice.lower()
    assert notice == "Only the club's scorers record deals: the score follows here as they play."


def test_it_shows_a_member_no_button_to_make_the_read_only_link(client, cast, evening):
    page = Page(as_(client, cast["member"]).get(reverse("evening_share", args=[evening.pk])).content.decode())
    assert not [f for f in page.all("form") if f.get("action") == reverse("evening_share_reset", args=[evening.pk])]
    assert "a scorer of the club can make one" in page.find("main").text
    # and the scorer still has it
    page = Page(as_(client, cast["scorer"]).get(reverse("evening_share", args=[evening.pk])).content.decode())
    assert [f for f in page.all("form") if f.get("action") == reverse("evening_share_reset", args=[evening.pk])]


def evening_file(day: date) -> str:
    return json.dumps(
        {
            "format": "scorebook-evening/1",
            "ruleset": "kleurenwiezen",
            "date": day.isoformat(),
            "players": ["Anne", "Bert", "Carl", "Dina"],
            "first_dealer": "Anne",
            "stake": "0.10",
            "currency": "EUR",
            "deals": [PAIR],
        }
    )


@pytest.mark.both_databases
def test_it_imports_an_old_evening_closed_so_that_only_an_admin_reopens_it(client, cast, club):
    for name in ("Anne", "Bert", "Carl", "Dina"):
        Player.objects.get_or_create(club=club, name=name)
    response = as_(client, cast["scorer"]).post(
        reverse("evening_import"), {"club": club.pk, "text": evening_file(date(2019, 3, 14))}, follow=True
    )
    imported = Evening.objects.get(club=club, date=date(2019, 3, 14))
    assert imported.status == "closed"
    assert "only an admin of the club can reopen it" in Page(response.content.decode()).find("main").text

    assert client.post(reverse("evening_reopen", args=[imported.pk])).status_code == 403
    client.post(reverse("deal_record", args=[imported.pk]), {"contract": "pass"})
    assert imported.deals.count() == 1  # closed: no deal is added
    as_(client, cast["admin"]).post(reverse("evening_reopen", args=[imported.pk]))
    assert status(imported) == "open"


@pytest.mark.both_databases
def test_it_imports_tonights_evening_open_to_go_on_scoring(client, cast, club):
    today = timezone.localdate()
    as_(client, cast["scorer"]).post(
        reverse("evening_import"), {"club": club.pk, "text": evening_file(today), "add_players": "on"}
    )
    assert Evening.objects.get(club=club, date=today).status == "open"
