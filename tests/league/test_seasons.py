"""Seasons: creating and editing them (admins), the standings page and its CSV (members).

The club is built by hand: evenings through the real services, deals recorded one by one,
so every figure on the page comes from the summaries the services write.

Kleurenwiezen, four players, everybody plays, stake 0.10 EUR:
  Evening of 10 Sept (four deals, see KLEUREN_DEALS): Anne +2, Bert -10, Carl +2, Dina +6.
  Evening of 17 Sept (samen 9, Anne & Carl, 10 tricks): Anne +14, Carl +14, Bert -14, Dina -14.
  Season total: Anne 16, Carl 16, Dina -8, Bert -24. Anne and Carl tie on points and on evenings
  won (one each: Carl shares the first place of 17 Sept): they share the first place, listed by name.
  After 10 Sept the order was Dina, Anne, Carl, Bert: Anne ▲1, Carl ▲1, Dina ▼2, Bert =.
  Money: Anne +1.60, Carl +1.60, Dina -0.80, Bert -2.40.
"""

import csv
import io
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from builders import club_evening
from pages import Page, body, field_errors
from scorebook.clubs.models import Club, Season
from scorebook.league.views.seasons import season_evenings

pytestmark = pytest.mark.django_db

KLEUREN_DEALS = [
    {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10},
    {"contract": "alleen-5", "declarers": ["Bert"], "tricks": 4},
    {"contract": "pass"},
    {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8},
]
SAMEN = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}


def samen(a, b):
    """samen 9 made with 10 tricks: +14 for ``a`` and ``b``, -14 for the two others."""
    return {"contract": "samen-9", "declarers": [a, b], "tricks": 10}


PLAYERS = ("Anne", "Bert", "Carl", "Dina")


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="Autumn 2026", start=date(2026, 9, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )


@pytest.fixture
def played(club, scorer, season):
    first = club_evening(club, scorer, date(2026, 9, 10), KLEUREN_DEALS)
    second = club_evening(club, scorer, date(2026, 9, 17), [SAMEN])
    # outside the season: before it, and another club's
    club_evening(club, scorer, date(2026, 8, 27), [samen("Emma", "Carl")], players=("Emma", "Bert", "Carl", "Dina"))
    other = Club.objects.create(name="Elders", slug="elders")
    club_evening(other, scorer, date(2026, 9, 12), [samen("Frans", "Carl")], players=("Frans", "Bert", "Carl", "Dina"))
    return first, second


def url(name, club, *args):
    return reverse(name, args=[club.slug, *args])


def standings_rows(html):
    """[(rank, movement, name, cells...)] from the standings table, tags dropped."""
    table = Page(html).all("table.league")[0]
    return [
        [cell.spaced_text.replace(" *", "*") for cell in tr.elements() if cell.tag in ("td", "th")]
        for tr in table.all("tbody tr")
    ]


# --- who sees what -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"), [("outsider", 404), ("other_admin", 404), ("member", 200), ("scorer", 200), ("admin", 200)]
)
@pytest.mark.parametrize("page", ["season", "season_csv"])
def test_members_see_the_standings_and_others_get_404(client, cast, season, who, status, page):
    client.force_login(cast[who])
    assert client.get(url(page, season.club, season.pk)).status_code == status


@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("who", "status"), [("outsider", 404), ("other_admin", 404), ("member", 403), ("scorer", 403), ("admin", 200)]
)
def test_only_admins_create_and_edit_seasons(client, cast, season, who, status):
    client.force_login(cast[who])
    assert client.get(url("season_new", season.club)).status_code == status
    assert client.get(url("season_edit", season.club, season.pk)).status_code == status
    data = {
        "name": "Sneaky",
        "start": "2026-01-01",
        "end": "2026-06-30",
        "ruleset": "kleurenwiezen",
        "ranking": "total",
        "min_evenings": "0",
        "drop_worst": "0",
        "tie_break": "evenings-won",
    }
    response = client.post(url("season_new", season.club), data)
    assert response.status_code == (302 if who == "admin" else status)
    assert Season.objects.filter(name="Sneaky").exists() == (who == "admin")


def test_a_season_of_another_club_is_not_found_through_this_club(client, cast, season):
    other = Club.objects.get(slug="trefle")
    theirs = Season.objects.create(
        club=other, name="Theirs", start=date(2026, 1, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    client.force_login(cast["admin"])
    assert client.get(url("season", season.club, theirs.pk)).status_code == 404
    assert client.get(url("season_csv", season.club, theirs.pk)).status_code == 404
    assert client.get(url("season_edit", season.club, theirs.pk)).status_code == 404
    client.force_login(cast["other_admin"])
    assert client.get(url("season", other, season.pk)).status_code == 404
    assert client.get(url("season_edit", other, season.pk)).status_code == 404


def test_the_csv_is_read_only(client, cast, season):
    client.force_login(cast["admin"])
    assert client.post(url("season_csv", season.club, season.pk)).status_code == 405


# --- creating and editing ------------------------------------------------------------------------


def season_data(**changes):
    data = {
        "name": "Spring 2027",
        "start": "2027-01-01",
        "end": "2027-06-30",
        "ruleset": "kleurenwiezen",
        "ranking": "league",
        "league_points": "10, 6, 4,2",
        "min_evenings": "3",
        "drop_worst": "2",
        "tie_break": "total-points",
    }
    data.update(changes)
    return data


@pytest.mark.both_databases
def test_an_admin_creates_a_season(client, cast, club):
    client.force_login(cast["admin"])
    response = client.post(url("season_new", club), season_data())
    season = Season.objects.get(name="Spring 2027")
    assert response.status_code == 302 and response.url == url("season", club, season.pk)
    assert (season.club, season.start, season.end, season.ranking) == (
        club,
        date(2027, 1, 1),
        date(2027, 6, 30),
        "league",
    )
    assert (season.league_points, season.min_evenings, season.drop_worst, season.tie_break) == (
        [10, 6, 4, 2],
        3,
        2,
        "total-points",
    )


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"end": "2026-12-31"}, "end", "The last day comes on or after the first day."),
        ({"league_points": "10, x"}, "league_points", "“x” is not a whole number of points."),
        ({"league_points": "4, 6"}, "league_points", "A place never gives more points than the place before it."),
        ({"league_points": "10,,4"}, "league_points", "Leave no place empty between two commas."),
        ({"league_points": "-1"}, "league_points", "Points per place go from 0 to 1000."),
        ({"league_points": ""}, "league_points", "The league ranking needs the points of at least the 1st place."),
        ({"ranking": "best"}, "ranking", "Select a valid choice."),
        ({"ruleset": "poker"}, "ruleset", "Select a valid choice."),
        ({"name": ""}, "name", "This field is required."),
        ({"drop_worst": "-1"}, "drop_worst", "greater than or equal to 0"),
        ({"min_evenings": "999"}, "min_evenings", "At most 365 evenings."),
    ],
)
def test_a_wrong_season_is_refused_with_the_error_next_to_its_field(client, cast, club, changes, field, message):
    client.force_login(cast["admin"])
    response = client.post(url("season_new", club), season_data(**changes))
    assert response.status_code == 422
    assert message in field_errors(body(response), field)
    assert not Season.objects.filter(name="Spring 2027").exists()


@pytest.mark.both_databases
def test_an_admin_edits_a_season(client, cast, season):
    client.force_login(cast["admin"])
    page = body(client.get(url("season_edit", season.club, season.pk)))
    assert 'value="Autumn 2026"' in page and 'value="2026-09-01"' in page
    response = client.post(
        url("season_edit", season.club, season.pk),
        season_data(name="Autumn, renamed", start="2026-09-01", end="2026-12-31"),
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.ranking, season.league_points) == ("Autumn, renamed", "league", [10, 6, 4, 2])


def test_a_wrong_edit_changes_nothing_and_keeps_the_title(client, cast, season):
    client.force_login(cast["admin"])
    response = client.post(url("season_edit", season.club, season.pk), season_data(name="", end="2020-01-01"))
    assert response.status_code == 422
    assert "Edit “Autumn 2026”" in body(response)
    season.refresh_from_db()
    assert season.name == "Autumn 2026" and season.end == date(2026, 12, 31)


def test_the_edit_form_shows_the_league_points_as_a_list(client, cast, season):
    Season.objects.filter(pk=season.pk).update(league_points=[12, 8, 5])
    client.force_login(cast["admin"])
    assert 'value="12, 8, 5"' in body(client.get(url("season_edit", season.club, season.pk)))


# --- the season's evenings -------------------------------------------------------------------------


def test_a_season_holds_the_clubs_evenings_of_its_variant_within_its_dates(club, scorer, season):
    inside = club_evening(club, scorer, date(2026, 9, 1))
    last_day = club_evening(club, scorer, date(2026, 12, 31))
    club_evening(club, scorer, date(2026, 8, 31))
    club_evening(club, scorer, date(2027, 1, 1))
    club_evening(club, scorer, date(2026, 10, 1), ruleset="classique")
    club_evening(None, scorer, date(2026, 10, 1))  # a private evening
    assert set(season_evenings(season).values_list("pk", flat=True)) == {inside.pk, last_day.pk}


# --- the standings page ------------------------------------------------------------------------------


def test_the_standings_show_rank_movement_points_average_and_money(client, cast, season, played):
    client.force_login(cast["member"])
    response = client.get(url("season", season.club, season.pk))
    assert response.status_code == 200
    rows = standings_rows(body(response))
    #          rank, movement, name, points, average, evenings, deals, money
    assert rows == [
        # Anne and Carl: same points, one evening won each: the tie-break cannot separate them
        ["1. shared place", "▲1 up 1 place", "Anne", "+16*", "+8.0", "2", "5", "+€1.60"],
        ["1. shared place", "▲1 up 1 place", "Carl", "+16*", "+8.0", "2", "5", "+€1.60"],
        ["3.", "▼2 down 2 places", "Dina", "−8", "−4.0", "2", "5", "−€0.80"],
        ["4.", "= no change", "Bert", "−24", "−12.0", "2", "5", "−€2.40"],
    ]
    html = body(response)
    assert "Emma" not in html and "Frans" not in html  # their evenings are outside the season
    assert "Players are ranked by their points of the season added up." in html
    assert (
        "Equal scores: most evenings won decides; players it cannot separate share the place "
        "(the same number, listed by name) and the next place is skipped." in html
    )
    assert (
        "* Equal score: most evenings won decides; players it cannot separate share the place, listed by name." in html
    )
    assert "2 evenings" in html
    assert reverse("club_player", args=[season.club.slug, played[0].summary["players"][0]["player"]]) in html


def test_the_first_evening_makes_everyone_new(client, cast, club, scorer, season):
    club_evening(club, scorer, date(2026, 9, 10), KLEUREN_DEALS)
    client.force_login(cast["member"])
    rows = standings_rows(body(client.get(url("season", club, season.pk))))
    assert [row[:3] for row in rows] == [
        ["1.", "new", "Dina"],
        ["2. shared place", "new", "Anne"],
        ["2. shared place", "new", "Carl"],
        ["4.", "new", "Bert"],
    ]


def test_league_standings_show_the_league_points_and_the_rule_in_words(client, cast, season, played):
    Season.objects.filter(pk=season.pk).update(ranking="league", league_points=[10, 6, 4, 2], tie_break="total-points")
    client.force_login(cast["member"])
    html = body(client.get(url("season", season.club, season.pk)))
    # 10 Sept: Dina 10, Anne & Carl tied 2nd -> 6 each, Bert 2. 17 Sept: Anne & Carl tied 1st -> 10 each, Bert & Dina 4.
    rows = standings_rows(html)
    assert [(r[2], r[3]) for r in rows] == [("Anne", "16*"), ("Carl", "16*"), ("Dina", "14"), ("Bert", "6")]
    assert "Each evening gives league points by place: 1st 10, 2nd 6, 3rd 4, 4th 2; the places after get 0." in html
    assert "Players tied in an evening share the better place and each get its points." in html
    assert "Equal scores: most points in all decides; players it cannot separate share the place" in html
    assert 'title="League points"' in html


def test_average_standings_list_the_players_under_the_minimum_apart(client, cast, club, scorer, season, played):
    club_evening(club, scorer, date(2026, 9, 24), [SAMEN], players=("Anne", "Bert", "Carl", "Emma"))
    Season.objects.filter(pk=season.pk).update(ranking="average", min_evenings=2)
    client.force_login(cast["member"])
    html = body(client.get(url("season", club, season.pk)))
    assert [r[2] for r in standings_rows(html)] == ["Anne", "Carl", "Dina", "Bert"]
    assert "Not ranked yet (fewer than 2 evenings)" in html
    apart = html[html.index('<table class="league apart">') :]
    assert "Emma" in apart and "−14.00" in apart
    assert "minimum 2 evenings" in html
    assert "A player needs at least 2 evenings to be ranked; the others are listed apart." in html


def test_drop_worst_adds_a_counted_points_column(client, cast, season, played):
    Season.objects.filter(pk=season.pk).update(drop_worst=1)
    client.force_login(cast["member"])
    html = body(client.get(url("season", season.club, season.pk)))
    # each keeps his better evening: Anne 14, Carl 14, Dina 6, Bert -10
    assert [(r[2], r[3], r[4]) for r in standings_rows(html)] == [
        ("Anne", "+14*", "+16"),
        ("Carl", "+14*", "+16"),
        ("Dina", "+6", "−8"),
        ("Bert", "−10", "−24"),
    ]
    assert "Each player&#x27;s worst evening is not counted (at least one evening always counts)." in html


def test_an_empty_season_says_so(client, cast, season):
    client.force_login(cast["member"])
    html = body(client.get(url("season", season.club, season.pk)))
    assert "No evening of this season yet" in html


def test_only_admins_see_the_edit_link(client, cast, season):
    edit = url("season_edit", season.club, season.pk)
    client.force_login(cast["scorer"])
    assert edit not in body(client.get(url("season", season.club, season.pk)))
    client.force_login(cast["admin"])
    assert edit in body(client.get(url("season", season.club, season.pk)))


# --- the CSV ----------------------------------------------------------------------------------------


def test_the_csv_has_the_same_columns_and_rows(client, cast, season, played):
    client.force_login(cast["member"])
    response = client.get(url("season_csv", season.club, season.pk))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="de-troef-autumn-2026-standings.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows == [
        ["Rank", "Movement", "Player", "Points", "Average", "Evenings", "Deals played", "Money"],
        ["1", "+1", "Anne", "16", "8.00", "2", "5", "1.60"],
        ["1", "+1", "Carl", "16", "8.00", "2", "5", "1.60"],
        ["3", "-2", "Dina", "-8", "-4.00", "2", "5", "-0.80"],
        ["4", "=", "Bert", "-24", "-12.00", "2", "5", "-2.40"],
    ]


def test_the_csv_of_a_league_with_players_apart(client, cast, club, scorer, season, played):
    club_evening(club, scorer, date(2026, 9, 24), [SAMEN], players=("Anne", "Bert", "Carl", "Emma"))
    Season.objects.filter(pk=season.pk).update(ranking="average", min_evenings=2, drop_worst=1)
    client.force_login(cast["member"])
    rows = list(csv.reader(io.StringIO(client.get(url("season_csv", club, season.pk)).content.decode("utf-8-sig"))))
    assert rows[0] == [
        "Rank",
        "Movement",
        "Player",
        "Counted average",
        "Points",
        "Average",
        "Evenings",
        "Deals played",
        "Money",
    ]
    # Anne: 2, 14, 14 -> the worst (2) dropped -> 14.00; Carl the same; Bert -10, -14, -14 -> -12; Dina 6, -14 -> 6
    assert [r[:4] for r in rows[1:]] == [
        ["1", "=", "Anne", "14.00"],
        ["1", "=", "Carl", "14.00"],
        ["3", "=", "Dina", "6.00"],
        ["4", "=", "Bert", "-12.00"],
        ["", "", "Emma", "-14.00"],
    ]


# --- no query per evening ---------------------------------------------------------------------------


def test_the_standings_take_the_same_queries_for_30_evenings_as_for_3(client, cast, club, scorer, season):
    client.force_login(cast["member"])
    page, csv_page = url("season", club, season.pk), url("season_csv", club, season.pk)

    def count(address):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(address).status_code == 200
        return len(queries)

    for n in range(3):
        club_evening(club, scorer, date(2026, 9, 1 + n), [SAMEN])
    # the session with its user, club, role, season, names, the evenings' fingerprint, the cache (missed),
    # their summaries, the table kept in the cache (6 statements of the database cache: its size,
    # the entry, a savepoint and its release), the club's seasons; the CSV finds the table kept
    few, few_csv = count(page), count(csv_page)
    assert (few, few_csv) == (14, 7)
    for n in range(27):
        players = ("Anne", "Bert", "Carl", ("Dina", "Emma", "Fien")[n % 3])
        club_evening(club, scorer, date(2026, 10, 1 + n), [SAMEN], players=players)
    assert count(page) == few
    assert count(csv_page) == few_csv
    assert count(page) == few - 6  # the table kept: no summary read, nothing written
    assert "Fien" in body(client.get(page))


def test_the_standings_never_read_the_deals(client, cast, season, played):
    client.force_login(cast["member"])
    with CaptureQueriesContext(connection) as queries:
        client.get(url("season", season.club, season.pk))
    assert not any("evenings_deal" in q["sql"] for q in queries.captured_queries)
