"""A club night is one line wherever evenings are listed (issue 30): the evening list (/evenings/,
the installed app's start page) and the club's "Latest evenings" showed each of its tables as an
evening of its own, unnamed. Now the night is one line, named, with its count of tables, closed once
its last session is; it opens the night's page for its director (Marie, ``director``), its ranking
for a member (Mia). A page reads the same number of queries whatever the night's size."""

import re
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from builders import club_evening
from scorebook.clubs.models import Membership, Role
from scorebook.nights import services

pytestmark = pytest.mark.django_db


def cards(html: str) -> list[str]:
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).strip()
        for c in re.findall(r'<li class="card">(.*?)</li>', html, re.S)
    ]


@pytest.fixture
def member(club, make_user):
    mia = make_user("mia")
    Membership.objects.create(club=club, user=mia, role=Role.MEMBER)
    return mia


@pytest.mark.parametrize("page", ["evening_list", "club"])
def test_a_night_is_one_named_line_of_the_lists_of_evenings(client, club, director, member, make_night, page):
    club_evening(club, director, date(2026, 3, 1))
    night = make_night(players=16, sessions=2)  # 8 tables
    url = reverse(page) if page == "evening_list" else reverse("club", args=[club.slug])
    for person, target in (
        (director, reverse("night", args=[night.pk])),
        (member, reverse("night_results", args=[night.pk])),
    ):
        client.force_login(person)
        html = client.get(url).content.decode()
        lines = cards(html)
        if page == "club":
            lines = [line for line in lines if "2026" in line]  # its evenings, not its seasons
        assert len(lines) == 2, lines
        assert "Kaartavond" in lines[0] and "club night of 8 tables" in lines[0]
        assert f'href="{target}"' in html
        assert html.count(reverse("evening", args=[night.night_sessions.get(number=1).tables.first().evening_id])) == 0


@pytest.mark.both_databases
def test_the_night_line_says_closed_once_its_last_session_is_closed(director_client, director, make_night):
    night = make_night(players=8, sessions=2)
    services.close_session(night, 1, director)
    assert "closed" not in cards(director_client.get(reverse("evening_list")).content.decode())[0]
    services.close_session(night, 2, director)
    assert cards(director_client.get(reverse("evening_list")).content.decode())[0].endswith("closed")


def test_the_list_reads_as_many_rows_for_a_big_night_as_for_a_small_one(director_client, make_night):
    make_night(players=8, sessions=1)
    with CaptureQueriesContext(connection) as small:
        director_client.get(reverse("evening_list"))
    make_night(players=40, sessions=3)
    with CaptureQueriesContext(connection) as big:
        director_client.get(reverse("evening_list"))
    assert len(big) == len(small)
