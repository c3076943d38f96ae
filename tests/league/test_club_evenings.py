"""The club's past evenings: who sees them, what each line says, the filters (GET, no script needed)."""

import re
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from builders import club_evening
from pages import Page, body, field_errors
from scorebook.clubs.models import Club, Player, Season

pytestmark = pytest.mark.django_db

PLAYERS = ("Anne", "Bert", "Carl", "Dina")


def samen(a, b, tricks=10):
    """samen 9: made with 10 tricks, +14 for ``a`` and ``b`` and -14 for the others; 8 tricks: -14 / +14."""
    return {"contract": "samen-9", "declarers": [a, b], "tricks": tricks}


@pytest.fixture
def evenings(club, scorer):
    """Three evenings of the club and one of another club."""
    september = club_evening(club, scorer, date(2026, 9, 10), [samen("Anne", "Carl")])
    october = club_evening(
        club, scorer, date(2026, 10, 8), [samen("Bert", "Emma")], players=("Anne", "Bert", "Carl", "Emma")
    )
    tie = club_evening(club, scorer, date(2026, 11, 5), [samen("Anne", "Bert"), samen("Carl", "Anne", 8)])
    other = Club.objects.create(name="Elders", slug="elders")
    club_evening(other, scorer, date(2026, 9, 12), [samen("Frans", "Carl")], players=("Frans", "Bert", "Carl", "Dina"))
    return {"september": september, "october": october, "tie": tie}


def page_url(club, **params):
    address = reverse("club_evenings", args=[club.slug])
    return address + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def listed(html):
    """The evening ids listed, in order."""
    links = [a.get("href") for a in Page(html).all("a.card-link.past-evening-head")]
    return [int(re.fullmatch(r"/e/(\d+)/", href).group(1)) for href in links]


def text_of(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize(
    ("who", "status"), [("outsider", 404), ("other_admin", 404), ("member", 200), ("scorer", 200), ("admin", 200)]
)
def test_members_see_the_evenings_and_others_get_404(client, cast, club, who, status):
    client.force_login(cast[who])
    assert client.get(page_url(club)).status_code == status


def test_it_lists_the_clubs_evenings_newest_first_with_winner_and_totals(client, cast, club, evenings):
    client.force_login(cast["member"])
    html = body(client.get(page_url(club)))
    assert listed(html) == [evenings["tie"].pk, evenings["october"].pk, evenings["september"].pk]
    assert "Frans" not in html  # another club's evening
    text = text_of(html)
    # 5 Nov: Anne & Bert +14, then Carl & Anne fail (-14 each, +14 for Bert and Dina):
    # Anne 0, Bert +28, Carl -28, Dina 0
    assert "Winner: Bert" in text
    assert "Bert +28 Anne 0 Dina 0 Carl −28" in text  # by points; equal points keep the seat order
    assert "Winners: Bert, Emma" in text and "Bert +14 Emma +14 Anne −14 Carl −14" in text
    assert "Winners: Anne, Carl" in text
    assert "Flemish colour whist" in text
    assert "1 deal" in text and "2 deals" in text
    assert "3 evenings" in text
    assert f'href="{reverse("evening", args=[evenings["tie"].pk])}"' in html


def test_an_evening_without_deals_has_no_winner(client, cast, club, scorer):
    club_evening(club, scorer, date(2026, 9, 1))
    client.force_login(cast["member"])
    text = text_of(body(client.get(page_url(club))))
    assert "no deal yet" in text and "Winner" not in text and "open" in text


def test_the_season_filter_keeps_its_dates_and_variant(client, cast, club, scorer, evenings):
    autumn = Season.objects.create(
        club=club, name="Oct-Nov", start=date(2026, 10, 1), end=date(2026, 11, 30), ruleset="kleurenwiezen"
    )
    club_evening(club, scorer, date(2026, 10, 20), ruleset="classique")
    client.force_login(cast["member"])
    html = body(client.get(page_url(club, season=autumn.pk)))
    assert listed(html) == [evenings["tie"].pk, evenings["october"].pk]
    assert f'<option value="{autumn.pk}" selected>Oct-Nov</option>' in html


def test_the_player_filter(client, cast, club, evenings):
    emma = Player.objects.get(club=club, name="Emma")
    dina = Player.objects.get(club=club, name="Dina")
    client.force_login(cast["member"])
    assert listed(body(client.get(page_url(club, player=emma.pk)))) == [evenings["october"].pk]
    assert listed(body(client.get(page_url(club, player=dina.pk)))) == [evenings["tie"].pk, evenings["september"].pk]


def test_the_date_range_filter_includes_both_ends(client, cast, club, evenings):
    client.force_login(cast["member"])
    html = body(client.get(page_url(club, date_from="2026-09-10", date_to="2026-10-08")))
    assert listed(html) == [evenings["october"].pk, evenings["september"].pk]
    assert 'value="2026-09-10"' in html and 'value="2026-10-08"' in html
    assert listed(body(client.get(page_url(club, date_from="2026-10-09")))) == [evenings["tie"].pk]


def test_the_filters_combine(client, cast, club, evenings):
    carl = Player.objects.get(club=club, name="Carl")
    client.force_login(cast["member"])
    assert listed(body(client.get(page_url(club, player=carl.pk, date_to="2026-10-31")))) == [
        evenings["october"].pk,
        evenings["september"].pk,
    ]


def test_a_filter_that_matches_nothing_says_so(client, cast, club, evenings):
    client.force_login(cast["member"])
    html = body(client.get(page_url(club, date_from="2030-01-01")))
    assert listed(html) == [] and "No evening matches these filters." in html


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        ({"date_from": "yesterday"}, "date_from", "Enter a valid date."),
        (
            {"date_from": "2026-10-01", "date_to": "2026-09-01"},
            "date_to",
            "The end of the range comes on or after its start.",
        ),
        ({"player": "999999"}, "player", "Select a valid choice."),
        ({"season": "abc"}, "season", "Select a valid choice."),
    ],
)
def test_a_wrong_filter_answers_422_with_the_error_next_to_it(client, cast, club, evenings, params, field, message):
    client.force_login(cast["member"])
    response = client.get(page_url(club, **params))
    assert response.status_code == 422
    assert message in field_errors(body(response), field)


def test_a_player_or_season_of_another_club_is_not_a_choice(client, cast, club, evenings):
    other = Club.objects.get(slug="elders")
    frans = Player.objects.get(club=other, name="Frans")
    theirs = Season.objects.create(
        club=other, name="Theirs", start=date(2026, 1, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    client.force_login(cast["member"])
    assert client.get(page_url(club, player=frans.pk)).status_code == 422
    assert client.get(page_url(club, season=theirs.pk)).status_code == 422


def test_the_list_is_paged_and_the_pages_keep_the_filters(client, cast, club, scorer):
    for day in range(1, 33):
        club_evening(club, scorer, date(2026, 1, day) if day <= 31 else date(2026, 2, 1), [samen("Anne", "Carl")])
    client.force_login(cast["member"])
    first = body(client.get(page_url(club, date_from="2026-01-01")))
    assert len(listed(first)) == 30 and "Page 1 of 2" in first
    assert "?date_from=2026-01-01&amp;page=2" in first
    second = body(client.get(page_url(club, date_from="2026-01-01", page=2)))
    assert len(listed(second)) == 2


def test_the_list_takes_as_many_queries_for_30_evenings_as_for_3(client, cast, club, scorer):
    client.force_login(cast["member"])

    def count():
        with CaptureQueriesContext(connection) as queries:
            client.get(page_url(club))
        return len(queries)

    for day in range(1, 4):
        club_evening(club, scorer, date(2026, 3, day), [samen("Anne", "Carl")])
    few = count()
    for day in range(4, 31):
        club_evening(club, scorer, date(2026, 3, day), [samen("Anne", "Carl")])
    assert count() == few
