"""The night's live ranking: read-only, from the tables' summaries, 304 while unchanged, final
once every session is closed."""

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
from scorebook.nights.views.ranking import FRESH_SECONDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def follower(client):
    """Someone in the hall with the ranking's link on his phone: no account."""
    return client


def live(client, night, **headers):
    return client.get(reverse("night_ranking_live", args=[night.ranking_token]), **headers)


def names_at(table):
    return [s.name for s in table.evening.seats.all()]


@pytest.mark.both_databases
def test_it_ranks_by_total_points_over_the_night_with_each_players_line(follower, make_night, director):
    night = make_night(players=8)
    t1 = tables(night)[0]
    evenings.record_deal(t1.evening, deal(t1.evening), director)  # seats 2 and 4 make samen-9: +11 each (kleurenwiezen)
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


@pytest.fixture
def later(monkeypatch):
    """Moves the live ranking's clock on by ``seconds`` (its kept render is then that much older)."""
    from types import SimpleNamespace

    from scorebook.nights.views import ranking as views

    real, offset = views.time.time, [0.0]
    monkeypatch.setattr(views, "time", SimpleNamespace(time=lambda: real() + offset[0]))

    def move(seconds):
        offset[0] += seconds

    return move


@pytest.mark.both_databases
def test_it_answers_304_while_no_table_changed_and_stops_polling_once_final(follower, make_night, director, later):
    night = make_night(players=8)
    first = live(follower, night)
    assert first.status_code == 200 and "<html" not in first.content.decode()
    unchanged = live(follower, night, HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304 and unchanged["ETag"] == first["ETag"]
    t = tables(night)[0]
    evenings.record_deal(t.evening, deal(t.evening), director)
    later(FRESH_SECONDS + 1)
    changed = live(follower, night, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    from scorebook.nights import services

    services.close_session(night, 1, director)
    services.close_session(night, 2, director)
    later(FRESH_SECONDS + 1)
    final = live(follower, night, HTTP_IF_NONE_MATCH=changed["ETag"])
    assert final.status_code == 286  # htmx: stop polling
    assert "Final ranking" in final.content.decode()


@pytest.mark.both_databases
def test_a_render_serves_the_hall_for_a_few_seconds_then_the_new_state_shows(follower, make_night, director, later):
    night = make_night(players=8)
    t = tables(night)[0]
    first = live(follower, night)
    evenings.record_deal(t.evening, deal(t.evening), director)
    # within FRESH_SECONDS, a follower holding the render is told nothing changed, a new one gets it
    assert live(follower, night, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert live(follower, night)["ETag"] == first["ETag"]
    later(FRESH_SECONDS + 1)
    newer = live(follower, night)
    assert newer["ETag"] != first["ETag"] and "+11" in newer.content.decode()
    page = follower.get(reverse("night_ranking", args=[night.ranking_token])).content.decode()
    assert "+11" in page and 'id="live"' in page  # the page shows the same region


@pytest.mark.both_databases
def test_a_follower_whose_copy_is_current_costs_one_query_and_no_poll_writes(follower, make_night, director):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    night = make_night(players=8)
    etag = live(follower, night)["ETag"]
    with CaptureQueriesContext(connection) as queries:
        assert live(follower, night, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert len(queries) == 1
    t = tables(night)[0]
    evenings.record_deal(t.evening, deal(t.evening), director)
    with CaptureQueriesContext(connection) as queries:
        live(follower, night, HTTP_IF_NONE_MATCH=etag)
        follower.get(reverse("night_ranking", args=[night.ranking_token]))
    writes = [q["sql"] for q in queries if q["sql"].split()[0].upper() in {"INSERT", "UPDATE", "DELETE"}]
    assert all("scorebook_cache" in sql for sql in writes), writes  # the kept render only, never the night


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
def test_its_cost_does_not_grow_with_the_deals_played_and_a_state_is_built_once(follower, make_night, director, later):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    night = make_night(players=16)

    def count():
        with CaptureQueriesContext(connection) as q:
            assert live(follower, night).status_code == 200
        return len(q)

    def play(deals):
        for t in tables(night):
            for _ in range(deals):
                evenings.record_deal(t.evening, deal(t.evening), director)

    live(follower, night)
    play(1)
    later(FRESH_SECONDS + 1)
    built_early = count()
    served_again = count()  # another follower, the same state: the kept render
    play(6)
    later(FRESH_SECONDS + 1)
    assert count() == built_early
    assert served_again <= 2 < built_early


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
