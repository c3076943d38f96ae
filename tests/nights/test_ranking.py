"""The night's ranking: read-only, from the tables' stored figures; its pages, its CSV. The live
region's polls are tests/nights/test_hall.py's."""

import csv
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from night_builders import NAMES, deal, tables
from scorebook.evenings import services as evenings
from scorebook.nights import ranking
from scorebook.nights.models import Night

pytestmark = pytest.mark.django_db


@pytest.fixture
def follower(client):
    """Someone in the hall with the ranking's link on his phone: no account."""
    return client


def names_at(table):
    return [s.name for s in table.evening.seats.all()]


@pytest.mark.both_databases
def test_it_ranks_by_total_points_over_the_night_with_each_players_line(follower, make_night, clock):
    night = make_night(players=8)
    t1 = tables(night)[0]
    clock.record(t1)  # seats 2 and 4 make samen-9: +11 each (kleurenwiezen)
    clock.later()  # the hall counts it from the next mark (tests/nights/test_hall.py)
    html = follower.get(reverse("night_ranking", args=[night.ranking_token])).content.decode()
    winners = names_at(t1)[1], names_at(t1)[3]
    assert html.index(winners[0]) < html.index(names_at(t1)[0])
    assert "Provisional" in html
    number = night.participants.get(name=winners[0]).number
    line = follower.get(reverse("night_line", args=[night.ranking_token, number])).content.decode()
    assert (
        "table 1" in line
        and names_at(t1)[0] in line
        and "did not play" not in line.split("Session 1")[1].split("Session 2")[0]
    )


def test_it_shares_the_place_points_between_tied_players():
    def place(k):
        return [Decimal(4), Decimal(3), Decimal(2), Decimal(1)][k - 1]

    summary = {
        "deals": 3,
        "players": [
            {"player": 1, "name": "A", "points": 10},
            {"player": 2, "name": "B", "points": 10},
            {"player": 3, "name": "C", "points": -5},
            {"player": 4, "name": "D", "points": -15},
        ],
    }
    numbers = {i: (i, n) for i, n in enumerate("ABCD", start=1)}
    t = ranking.table_result(1, 1, summary, True, numbers, place)
    assert [(p["name"], p["place"], p["place_points"]) for p in t.players] == [
        ("A", 1, Decimal("3.5")),
        ("B", 1, Decimal("3.5")),
        ("C", 3, Decimal(2)),
        ("D", 4, Decimal(1)),
    ]
    rows = ranking.rank([(i, i, n) for i, n in enumerate("ABCD", start=1)], [t], places=True)
    assert [(r.rank, r.name) for r in rows] == [(1, "A"), (1, "B"), (3, "C"), (4, "D")]


@pytest.mark.both_databases
def test_it_ranks_by_place_points_when_the_night_says_so(follower, make_night, director):
    night = make_night(players=8, ranking=Night.Ranking.PLACES)
    for t in tables(night):
        evenings.record_deal(t.evening, deal(t.evening), director)
    response = follower.get(reverse("night_ranking_csv", args=[night.ranking_token]), HTTP_ACCEPT_LANGUAGE="en")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Rank", "Number", "Player", "Session 1", "Session 2", "Points", "Place points"]
    top = rows[1:5]
    assert {r[0] for r in top} == {"1"} and {r[-1] for r in top} == {"3.50"}


@pytest.mark.both_databases
def test_it_shows_and_writes_the_points_that_break_ties_and_every_figure_one_way(follower, make_night, director):
    """Under place points, the points tell equal place points apart (issue 30): the page shows them
    in a column of their own, and the CSV writes every figure as the page does: a whole number
    without decimals ("7", never "7.0" beside "11"), a shared place's points with two ("3.50")."""
    night = make_night(players=8, ranking=Night.Ranking.PLACES)
    for session in (1, 2):
        for t in tables(night, session):
            evenings.record_deal(t.evening, deal(t.evening), director)
    html = follower.get(reverse("night_ranking", args=[night.ranking_token])).content.decode()
    assert '<th scope="col" class="night-tie">Points</th>' in html
    assert html.count('<td class="night-tie">') == 8
    response = follower.get(reverse("night_ranking_csv", args=[night.ranking_token]), HTTP_ACCEPT_LANGUAGE="en")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    figures = [cell for row in rows[1:] for cell in row[3:]]
    assert figures and all(re.fullmatch(r"-?\d+(\.\d\d)?", f) for f in figures), figures
    assert not [f for f in figures if f.endswith((".0", ".00"))]
    assert "7" in {row[-1] for row in rows[1:]}  # 3.5 + 3.5: a whole number


@pytest.mark.both_databases
def test_its_csv_is_like_the_clubs_other_csv_files(follower, make_night, director):
    """The reader's separators and decimals (Belgian Excel reads it in columns), never a formula."""
    night = make_night(players=["=HYPERLINK(1)", *NAMES[1:8]], ranking=Night.Ranking.PLACES)
    for t in tables(night):
        evenings.record_deal(t.evening, deal(t.evening), director)
    response = follower.get(reverse("night_ranking_csv", args=[night.ranking_token]), HTTP_ACCEPT_LANGUAGE="fr")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:3] == ["Rang", "Numéro", "Joueur"] or rows[0][0] != "rank"
    assert {r[-1] for r in rows[1:5]} == {"3,50"}
    assert not any(cell.startswith("=") for row in rows for cell in row)
    assert response["Content-Disposition"].endswith('.csv"') and "kaartavond" in response["Content-Disposition"]


@pytest.mark.both_databases
def test_every_write_of_a_table_changes_the_nights_version(make_night, director):
    from scorebook.nights import results, services

    night = make_night(players=8)
    t = tables(night)[0]
    seen = [results.fingerprint(night.pk)]
    recorded = evenings.record_deal(t.evening, deal(t.evening), director)
    seen.append(results.fingerprint(night.pk))
    evenings.edit_deal(t.evening, 1, deal(t.evening, made=False), director, recorded.deal.version)
    seen.append(results.fingerprint(night.pk))
    evenings.delete_deal(t.evening, 1, director)
    seen.append(results.fingerprint(night.pk))
    services.close_session(night, 1, director)
    seen.append(results.fingerprint(night.pk))
    assert len(set(seen)) == len(seen)


@pytest.mark.both_databases
def test_it_shows_each_sessions_tables_with_their_results(follower, make_night, director):
    night = make_night(players=8)
    t = tables(night)[1]
    evenings.record_deal(t.evening, deal(t.evening), director)
    html = follower.get(reverse("night_session_results", args=[night.ranking_token, 1])).content.decode()
    assert "Table 1" in html and "Table 2" in html and "+11" in html


def test_it_answers_404_for_an_unknown_ranking_link(follower):
    assert follower.get(reverse("night_ranking", args=["no-such-night-link"])).status_code == 404
    assert follower.get(reverse("night_ranking_live", args=["no-such-night-link"])).status_code == 404
