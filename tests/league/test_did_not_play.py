"""A player who sat out every deal of an evening did not play it (docs/rules/README.md and
docs/rules/money.md): the evening is not one of his in the standings, under every ranking rule,
with and without dropped evenings, and under every tie-break; nor on his player page or in the
club's list of his evenings.

The season, recorded through the services (kleurenwiezen, stake 0.10), and every figure below
worked out BY HAND from docs/rules/kleurenwiezen.md (samen 8 made exact is +8 for each declarer and -8 for each
opponent; alleen 5 pays 3 per opponent, 5 with two overtricks, the declarer 3 times that):

  E1, 3 Sept, Anne Bert Carl Dina Eric; Eric sits out the only deal (the table is named):
      samen 8, Anne + Bert, 8 tricks: Anne +8, Bert +8, Carl -8, Dina -8, Eric did not play
  E2, 10 Sept, Anne Bert Carl Eric: alleen 5, Eric, 5 tricks: Eric +9, the others -3
  E3, 17 Sept, Anne Carl Dina Eric: samen 8, Carl + Eric, 8 tricks: Carl +8, Eric +8, Anne -8, Dina -8
  E4, 24 Sept, Bert Carl Dina Eric: alleen 5, Carl, 7 tricks: Carl +15, the others -5

  player  evenings (points)               total  evenings  deals  won  league points (5, 3, 2, 1)
  Anne    E1 +8, E2 -3, E3 -8              -3        3       3     1   E1 1st 5, E2 2nd 3, E3 3rd 2 = 10
  Bert    E1 +8, E2 -3, E4 -5               0        3       3     1   E1 1st 5, E2 2nd 3, E4 2nd 3 = 11
  Carl    E1 -8, E2 -3, E3 +8, E4 +15      12        4       4     2   E1 3rd 2, E2 2nd 3, E3 1st 5, E4 1st 5 = 15
  Dina    E1 -8, E3 -8, E4 -5             -21        3       3     0   E1 3rd 2, E3 3rd 2, E4 2nd 3 = 7
  Eric    E2 +9, E3 +8, E4 -5              12        3       3     2   E2 1st 5, E3 1st 5, E4 2nd 3 = 13

  Places count the players who took part: in E1 Carl and Dina are 3rd (with Eric's 0 they were
  4th, Eric 3rd). Counting E1 as a 0 evening for Eric would give him 4 evenings, an average of 3,
  15 league points and a worse place on "fewer evenings": every expectation below says otherwise.
"""

import csv
import io
import re
from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from scorebook.clubs.models import Player, Season

pytestmark = pytest.mark.django_db

FIVE = ("Anne", "Bert", "Carl", "Dina", "Eric")


@pytest.fixture
def season(club, scorer):
    table = ["Anne", "Bert", "Carl", "Dina"]
    club_evening(
        club,
        scorer,
        date(2026, 9, 3),
        [
            {"contract": "samen-8", "declarers": ["Anne", "Bert"], "tricks": 8, "playing": table},
        ],
        players=FIVE,
    )
    club_evening(
        club,
        scorer,
        date(2026, 9, 10),
        [
            {"contract": "alleen-5", "declarers": ["Eric"], "tricks": 5},
        ],
        players=("Anne", "Bert", "Carl", "Eric"),
    )
    club_evening(
        club,
        scorer,
        date(2026, 9, 17),
        [
            {"contract": "samen-8", "declarers": ["Carl", "Eric"], "tricks": 8},
        ],
        players=("Anne", "Carl", "Dina", "Eric"),
    )
    club_evening(
        club,
        scorer,
        date(2026, 9, 24),
        [
            {"contract": "alleen-5", "declarers": ["Carl"], "tricks": 7},
        ],
        players=("Bert", "Carl", "Dina", "Eric"),
    )
    return Season.objects.create(
        club=club, name="September", start=date(2026, 9, 1), end=date(2026, 9, 30), ruleset="kleurenwiezen"
    )


def table(client, club, season, **rules):
    Season.objects.filter(pk=season.pk).update(**rules)
    response = client.get(reverse("season_csv", args=[club.slug, season.pk]))
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    return rows


def ranked(rows, column):
    """[(rank, player, the ranking's measure)] of the ranked players, in order."""
    return [(r["Rank"], r["Player"], r[column]) for r in rows if r["Rank"]]


def apart(rows, column):
    return [(r["Player"], r[column]) for r in rows if not r["Rank"]]


# --- the ranking rules, by hand --------------------------------------------------------------------

TOTAL_BY_HAND = {
    # Carl and Eric tie at 12: both won 2 evenings, same points (a shared 1st place, listed by name);
    # with fewer evenings Eric (3) comes before Carl (4)
    "evenings-won": [
        ("1", "Carl", "12"),
        ("1", "Eric", "12"),
        ("3", "Bert", "0"),
        ("4", "Anne", "-3"),
        ("5", "Dina", "-21"),
    ],
    "total-points": [
        ("1", "Carl", "12"),
        ("1", "Eric", "12"),
        ("3", "Bert", "0"),
        ("4", "Anne", "-3"),
        ("5", "Dina", "-21"),
    ],
    "fewer-evenings": [
        ("1", "Eric", "12"),
        ("2", "Carl", "12"),
        ("3", "Bert", "0"),
        ("4", "Anne", "-3"),
        ("5", "Dina", "-21"),
    ],
}

# two worst evenings dropped: Anne keeps 8; Bert 8; Carl 8 + 15 = 23; Dina -5; Eric 9 (he has no 0 evening to drop)
# Anne and Bert tie at 8: 1 evening won each, points -3 and 0, 3 evenings each
TOTAL_DROP_BY_HAND = {
    "evenings-won": [
        ("1", "Carl", "23"),
        ("2", "Eric", "9"),
        ("3", "Anne", "8"),
        ("3", "Bert", "8"),
        ("5", "Dina", "-5"),
    ],
    "total-points": [
        ("1", "Carl", "23"),
        ("2", "Eric", "9"),
        ("3", "Bert", "8"),
        ("4", "Anne", "8"),
        ("5", "Dina", "-5"),
    ],
    "fewer-evenings": [
        ("1", "Carl", "23"),
        ("2", "Eric", "9"),
        ("3", "Anne", "8"),
        ("3", "Bert", "8"),
        ("5", "Dina", "-5"),
    ],
}

# league points 5, 3, 2, 1: Carl 15, Eric 13, Bert 11, Anne 10, Dina 7 (no tie)
LEAGUE_BY_HAND = [
    ("1", "Carl", "15"),
    ("2", "Eric", "13"),
    ("3", "Bert", "11"),
    ("4", "Anne", "10"),
    ("5", "Dina", "7"),
]

# two worst dropped: Anne keeps 5; Bert 5; Carl 5 + 5 = 10; Dina 3; Eric 5. Anne, Bert and Eric tie at 5:
# won 1, 1, 2; points -3, 0, 12; evenings 3 each
LEAGUE_DROP_BY_HAND = {
    "evenings-won": [
        ("1", "Carl", "10"),
        ("2", "Eric", "5"),
        ("3", "Anne", "5"),
        ("3", "Bert", "5"),
        ("5", "Dina", "3"),
    ],
    "total-points": [
        ("1", "Carl", "10"),
        ("2", "Eric", "5"),
        ("3", "Bert", "5"),
        ("4", "Anne", "5"),
        ("5", "Dina", "3"),
    ],
    "fewer-evenings": [
        ("1", "Carl", "10"),
        ("2", "Anne", "5"),
        ("2", "Bert", "5"),
        ("2", "Eric", "5"),
        ("5", "Dina", "3"),
    ],
}

TIE_BREAKS = ("evenings-won", "total-points", "fewer-evenings")


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_it_ranks_the_total_without_the_evening_he_sat_out(scorer_client, club, season, tie_break):
    rows = table(scorer_client, club, season, ranking="total", tie_break=tie_break)
    assert ranked(rows, "Points") == TOTAL_BY_HAND[tie_break]
    assert {r["Player"]: (r["Evenings"], r["Deals played"]) for r in rows} == {
        "Anne": ("3", "3"),
        "Bert": ("3", "3"),
        "Carl": ("4", "4"),
        "Dina": ("3", "3"),
        "Eric": ("3", "3"),
    }


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_it_drops_only_evenings_he_played(scorer_client, club, season, tie_break):
    rows = table(scorer_client, club, season, ranking="total", drop_worst=2, tie_break=tie_break)
    assert ranked(rows, "Counted points") == TOTAL_DROP_BY_HAND[tie_break]


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_it_keeps_him_under_the_minimum_of_evenings_for_the_average(scorer_client, club, season, tie_break):
    # averages: Anne -3/3 = -1, Bert 0, Carl 12/4 = 3, Dina -21/3 = -7, Eric 12/3 = 4. A minimum of 4
    # evenings: only Carl is ranked; Eric played 3 and is listed apart with the others, by average
    rows = table(scorer_client, club, season, ranking="average", min_evenings=4, tie_break=tie_break)
    assert ranked(rows, "Average") == [("1", "Carl", "3.00")]
    assert apart(rows, "Average") == [("Eric", "4.00"), ("Bert", "0.00"), ("Anne", "-1.00"), ("Dina", "-7.00")]


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_it_averages_the_evenings_counted_after_the_worst_are_dropped(scorer_client, club, season, tie_break):
    # two worst dropped: Anne 8/1, Bert 8/1, Carl (8 + 15)/2 = 11.5, Dina -5/1, Eric 9/1 (not (9 + 8)/2)
    rows = table(scorer_client, club, season, ranking="average", min_evenings=3, drop_worst=2, tie_break=tie_break)
    anne_bert = (
        [("3", "Bert", "8.00"), ("4", "Anne", "8.00")]
        if tie_break == "total-points"
        else [("3", "Anne", "8.00"), ("3", "Bert", "8.00")]
    )  # the tie-break cannot separate them: a shared 3rd place
    assert ranked(rows, "Counted average") == [
        ("1", "Carl", "11.50"),
        ("2", "Eric", "9.00"),
        *anne_bert,
        ("5", "Dina", "-5.00"),
    ]


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_it_gives_league_points_by_the_places_of_those_who_played(scorer_client, club, season, tie_break):
    rows = table(scorer_client, club, season, ranking="league", league_points=[5, 3, 2, 1], tie_break=tie_break)
    assert ranked(rows, "League points") == LEAGUE_BY_HAND


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_it_drops_league_points_of_evenings_played_only(scorer_client, club, season, tie_break):
    rows = table(
        scorer_client, club, season, ranking="league", league_points=[5, 3, 2, 1], drop_worst=2, tie_break=tie_break
    )
    assert ranked(rows, "League points") == LEAGUE_DROP_BY_HAND[tie_break]


def test_it_measures_the_movement_from_the_standings_he_played_in(scorer_client, club, season):
    # before 24 Sept: Eric 17 (2 evenings), Bert 5 (2), Anne -3 (3), Carl -3 (3), Dina -16 (2);
    # Anne and Carl tie: fewer evenings, 3 each, a shared place: Eric 1, Bert 2, Anne 3, Carl 3, Dina 5.
    # after: Eric 1, Carl 2, Bert 3, Anne 4, Dina 5
    rows = table(scorer_client, club, season, ranking="total", tie_break="fewer-evenings")
    assert {r["Player"]: r["Movement"] for r in rows} == {
        "Eric": "=",
        "Carl": "+1",
        "Bert": "-1",
        "Anne": "-1",
        "Dina": "=",
    }


# --- his page and the club's list of evenings -----------------------------------------------------


def test_it_leaves_the_evening_off_his_player_page(scorer_client, club, season):
    eric = Player.objects.get(club=club, name="Eric")
    html = scorer_client.get(
        reverse("club_player", args=[club.slug, eric.pk]) + f"?season={season.pk}"
    ).content.decode()

    def figure(name):
        return re.sub(r"<[^>]+>|\s+", "", re.search(rf'id="stat-{name}">(.*?)</dd>', html, re.S).group(1))

    assert figure("evenings") == "3"
    assert figure("deals") == "3"
    assert figure("sat-out") == "1"  # the deal of 3 Sept, counted apart
    assert figure("points") == "+12"
    assert figure("average") == "+4.0"  # 12 / 3, not 12 / 4
    assert "3 Sept" not in html and "Sept. 3" not in html and "09/03/2026" not in html


def test_it_leaves_the_evening_out_of_his_evenings_in_the_club_list(scorer_client, club, season):
    eric = Player.objects.get(club=club, name="Eric")
    html = scorer_client.get(reverse("club_evenings", args=[club.slug]) + f"?player={eric.pk}").content.decode()
    days = re.findall(r'href="/e/(\d+)/"', html)
    assert len(set(days)) == 3
