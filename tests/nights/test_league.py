"""A club night in the club's season: one result per player for the night."""

from datetime import date

import pytest
from django.urls import reverse

from night_builders import deal, tables
from scorebook.clubs.models import Player, Season
from scorebook.evenings import services as evenings
from scorebook.league import standings as st
from scorebook.league.views.seasons import rules_of, season_evenings, summaries
from scorebook.nights.results import one_result

# a night's money in the club's ledger, summed in SQL (ledger/books.py): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="Spring 2026", start=date(2026, 1, 1), end=date(2026, 6, 30), ruleset="kleurenwiezen"
    )


def test_it_counts_a_night_as_one_result_per_player_in_the_season(make_night, director, season):
    from scorebook.nights import services as nights

    night = make_night(players=8, sessions=2)
    for session in (1, 2):
        for t in tables(night, session):
            evenings.record_deal(t.evening, deal(t.evening), director)
    # not before its last session is closed (issue 30): its ranking is provisional until then
    nights.close_session(night, 1, director)
    unfinished = st.standings(rules_of(season), summaries(season_evenings(season)))
    assert unfinished.evenings == 0 and not unfinished.rows
    nights.close_session(night, 2, director)
    table = st.standings(rules_of(season), summaries(season_evenings(season)))
    assert table.evenings == 1
    assert len(table.rows) == 8 and all(row.evenings == 1 for row in table.rows)
    expected = {}
    for session in (1, 2):
        for t in tables(night, session):
            t.evening.refresh_from_db()
            for e in t.evening.summary["players"]:
                expected[e["player"]] = expected.get(e["player"], 0) + e["points"]
    assert {row.key: row.points for row in table.rows} == expected


def test_it_says_so_on_the_standings_rule_sentences(director_client, season):
    html = director_client.get(reverse("season", args=[season.club.slug, season.pk])).content.decode()
    assert "A club night counts as one evening, its tables added up, once its last session is closed." in html


def test_it_adds_up_each_players_tables_into_one_summary():
    a = {
        "deals": 8,
        "players": [{"player": 1, "name": "A", "points": 5, "money": "0.50", "took_part": True, "played": 8}],
    }
    b = {
        "deals": 8,
        "players": [{"player": 1, "name": "A", "points": -2, "money": "-0.20", "took_part": True, "played": 6}],
    }
    merged = one_result([a, b])
    assert merged["deals"] == 16
    assert merged["players"] == [
        {
            "player": 1,
            "name": "A",
            "points": 3,
            "money": "0.30",
            "took_part": True,
            "played": 14,
            "sat_out": 0,
            "best": None,
            "worst": None,
            "declared": {},
        }
    ]


def test_it_lists_the_players_nights_on_his_player_page(director_client, make_night, club):
    night = make_night(players=8)
    player = night.participants.get(number=3).player
    html = director_client.get(reverse("club_player", args=[club.slug, player.pk])).content.decode()
    assert "Club nights" in html and reverse("night_results_line", args=[night.pk, 3]) in html


def test_it_links_the_club_page_to_its_nights(director_client, club):
    html = director_client.get(reverse("club", args=[club.slug])).content.decode()
    assert reverse("night_list", args=[club.slug]) in html


def test_it_puts_a_night_played_for_money_in_the_clubs_ledger(director_client, make_night, director, club):
    from decimal import Decimal

    night = make_night(players=8, stake=Decimal("0.10"))
    t = tables(night)[0]
    evenings.record_deal(t.evening, deal(t.evening), director)
    html = director_client.get(reverse("club_ledger", args=[club.slug])).content.decode()
    losers = [s.name for s in t.evening.seats.all()][0::2]
    assert all(name in html for name in losers) and "€1.10" in html.replace("\xa0", "")


def test_it_merges_a_player_who_played_a_night_into_his_other_record(client, admin, make_night, director, club):
    night = make_night(players=8)
    t = tables(night)[0]
    evenings.record_deal(t.evening, deal(t.evening), director)
    p01 = night.participants.get(number=1).player
    twin = Player.objects.create(club=club, name="P01 bis")
    client.force_login(admin)
    response = client.post(reverse("club_player_merge", args=[club.slug, twin.pk]), {"other": p01.pk, "keep": twin.pk})
    assert response.status_code == 302  # was 500: the night's entry protected the record merged away
    assert night.participants.get(number=1).player == twin
    assert not Player.objects.filter(pk=p01.pk).exists()


def test_it_refuses_to_merge_two_players_of_one_night(client, admin, make_night, club):
    night = make_night(players=8)
    tables_of_one = {
        t.pk for t in tables(night, 1) + tables(night, 2) if "P01" in t.evening.seats.values_list("name", flat=True)
    }
    other = next(  # a player of the night who never shares a table with P01
        p
        for p in night.participants.exclude(number=1)
        if not any(
            p.name in t.evening.seats.values_list("name", flat=True)
            for t in tables(night, 1) + tables(night, 2)
            if t.pk in tables_of_one
        )
    )
    one, two = night.participants.get(number=1).player, other.player
    client.force_login(admin)
    response = client.post(reverse("club_player_merge", args=[club.slug, one.pk]), {"other": two.pk, "keep": one.pk})
    assert response.status_code == 422
    assert "both took part in the club night" in response.content.decode()
    assert Player.objects.filter(pk=two.pk).exists()
