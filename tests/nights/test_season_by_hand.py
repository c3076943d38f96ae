"""A season with a club night, every figure worked out by hand (issue 20, docs/rules/club-nights.md).

De Troef's spring season of kleurenwiezen, ranked by league points (5, 3, 2, 1 by place;
ties broken by evenings won). Marie (``director``) scores the club's evenings and directs its
night; Adèle (``admin``) is the secretary who reads the figures.

The season (every deal chosen so that each figure below can be checked with a pencil; a
samen 9 made is +11 for each declarer and -11 for each opponent, failed with 7 tricks -17 and
+17; a solo 5 made exactly is +9 for the declarer and -3 for each opponent):

* 7 March, an evening: Ada, Bob, Cleo, Dirk. Ada and Bob make a samen 9.
* 14 March, the club night "Lenteavond": Ada, Bob, Cleo, Dirk, Eva, Finn, Gus and Hans, two
  sessions of 2 deals, ranked by place points 4, 3, 2, 1, 0 per table (ties by points),
  0.10 a point. Session 1 is played as the plan seats it. Then Ines arrives late (session 2 is
  drawn again for 9 players: a table of 5 and a table of 4) and Hans leaves, Jos taking his
  seat. At the table of 5, Ines sits out both deals (the scorer says who plays): she played
  no deal, so she did not take part in the night.
* 21 March, an evening: Ada, Bob, Cleo, Ines. Cleo makes a solo 5.
"""

import copy
import csv
import io
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

import night_builders
from builders import club_evening
from conftest import world_of_the_module
from pages import Page, body
from scorebook.clubs.models import Club, Membership, Player, Role, Season
from scorebook.evenings import services as evenings
from scorebook.league.views import player as player_view
from scorebook.nights import services as nights
from scorebook.nights.models import Night

# a season's figures and money, summed in SQL (ledger/books.py): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def samen(a, b, made=True):
    return {"contract": "samen-9", "declarers": [a, b], "tricks": 9 if made else 7}


def solo(a):
    return {"contract": "alleen-5", "declarers": [a], "tricks": 5}


def names(table):
    return [s.name for s in table.evening.seats.order_by("position")]


def _spring(club, director):
    season = Season.objects.create(
        club=club,
        name="Spring",
        start=date(2026, 1, 1),
        end=date(2026, 6, 30),
        ruleset="kleurenwiezen",
        ranking="league",
        league_points=[5, 3, 2, 1],
        tie_break="evenings-won",
    )
    club_evening(club, director, date(2026, 3, 7), [samen("Ada", "Bob")], players=("Ada", "Bob", "Cleo", "Dirk"))
    night = night_builders.night(
        club,
        director,
        # in an order that seed 1 seats as the figures below were worked out (the plan is the seating's)
        ["Ada", "Bob", "Eva", "Finn", "Cleo", "Hans", "Dirk", "Gus"],
        deals=2,
        ranking=Night.Ranking.PLACES,
        place_points=[4, 3, 2, 1, 0],
        stake=Decimal("0.10"),
        name="Lenteavond",
        ranking_link=False,
    )
    one = list(night.night_sessions.get(number=1).tables.order_by("number"))
    # the plan drawn for seed 1 (the figures below depend on it: a changed plan fails here first)
    assert [names(t) for t in one] == [["Finn", "Hans", "Dirk", "Bob"], ["Eva", "Gus", "Cleo", "Ada"]]
    evenings.record_deal(one[0].evening, samen("Dirk", "Bob"), director)  # Dirk, Bob +11; Finn, Hans -11
    evenings.record_deal(one[0].evening, solo("Finn"), director)  # Finn +9; Dirk, Hans, Bob -3
    evenings.record_deal(one[1].evening, samen("Cleo", "Ada"), director)  # Cleo, Ada +11; Eva, Gus -11
    evenings.record_deal(one[1].evening, solo("Cleo"), director)  # Cleo +9; Eva, Gus, Ada -3
    nights.close_session(night, 1, director)
    nights.late_arrival(night, "Ines", director)
    nights.substitute(night, night.participants.get(name="Hans"), "Jos", director)
    two = list(night.night_sessions.get(number=2).tables.order_by("number"))
    assert [names(t) for t in two] == [["Bob", "Gus", "Dirk", "Ada"], ["Ines", "Jos", "Cleo", "Finn", "Eva"]]
    four = ["Jos", "Cleo", "Finn", "Eva"]  # Ines sits out both deals of her table
    evenings.record_deal(two[1].evening, {**samen("Jos", "Finn"), "playing": four}, director)  # Jos, Finn +11
    evenings.record_deal(two[1].evening, {**solo("Eva"), "playing": four}, director)  # Eva +9; the others -3
    evenings.record_deal(two[0].evening, samen("Ada", "Gus"), director)  # Ada, Gus +11; Dirk, Bob -11
    evenings.record_deal(two[0].evening, solo("Bob"), director)  # Bob +9; Dirk, Ada, Gus -3
    nights.close_session(night, 2, director)
    club_evening(club, director, date(2026, 3, 21), [solo("Cleo")], players=("Ada", "Bob", "Cleo", "Ines"))
    night.ranking_token = nights.new_ranking_link(night)  # only its digest is stored: the tests keep the token
    return season, night


def _build(make_user):
    """De Troef (club_fixtures' club: Adèle its admin, Marie its scorer, who directs) and its spring."""
    admin, director = make_user("adele", first_name="Adèle"), make_user("marie", first_name="Marie")
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    Membership.objects.create(club=club, user=director, role=Role.SCORER)
    return {"admin": admin, "spring": _spring(club, director)}


built = world_of_the_module(_build)  # the season built once: every test reads it


@pytest.fixture
def admin(built, db):
    return copy.deepcopy(built["admin"])


@pytest.fixture
def spring(built, db):
    return copy.deepcopy(built["spring"])


# The night, table by table (points; place points 4, 3, 2, 1 shared by tied players):
#   session 1, table 1: Dirk +8 and Bob +8 (3.5 each), Finn -2 (2), Hans -14 (1)
#   session 1, table 2: Cleo +20 (4), Ada +8 (3), Eva -14 and Gus -14 (1.5 each)
#   session 2, table 1: Ada +8 and Gus +8 (3.5 each), Bob -2 (2), Dirk -14 (1)
#   session 2, table 2: Jos +8 and Finn +8 (3.5 each), Eva -2 (2), Cleo -14 (1); Ines did not play
# Its final ranking, by place points (ties by points):
#   1. Ada 6.5 (+16); 2. Bob 5.5 (+6) and Finn 5.5 (+6), shared; 4. Cleo 5 (+6); 5. Gus 5 (-6);
#   6. Dirk 4.5 (-6); 7. Jos 3.5 (+8); 8. Eva 3.5 (-16); 9. Hans 1 (-14). Ines took no part.
# By raw points Jos (+8) would be 2nd and Bob, Cleo, Finn (+6) 3rd: the season must not read that.
#
# The season, league points 5, 3, 2, 1 by place (ties by evenings won):
#   7 March: Ada +11 and Bob +11 (1st: 5 each, a win each), Cleo -11 and Dirk -11 (3rd: 2 each)
#   14 March (the night): Ada 5 (a win); Bob and Finn 3 each; Cleo 1; the others 0
#   21 March: Cleo +9 (5, a win); Ada, Bob, Ines -3 (2nd: 3 each)
SEASON = [
    # rank, player, league points, points, evenings, deals played, money
    ("1", "Ada", 13, "+24", 3, 6, "2.40"),  # +11 +16 -3; deals 1 + 4 + 1; 1.10 + 1.60 - 0.30
    ("2", "Bob", 11, "+14", 3, 6, "1.40"),  # +11 +6 -3; 1.10 + 0.60 - 0.30
    ("3", "Cleo", 8, "+4", 3, 6, "0.40"),  # -11 +6 +9; -1.10 + 0.60 + 0.90
    ("4", "Finn", 3, "+6", 1, 4, "0.60"),  # shared 4th: 3 league points and no evening won each
    ("4", "Ines", 3, "-3", 1, 1, "-0.30"),  # the night is not one of her evenings
    ("6", "Dirk", 2, "-17", 2, 5, "-1.70"),  # -11 -6; -1.10 - 0.60
    ("7", "Eva", 0, "-16", 1, 4, "-1.60"),
    ("7", "Gus", 0, "-6", 1, 4, "-0.60"),
    ("7", "Hans", 0, "-14", 1, 2, "-1.40"),
    ("7", "Jos", 0, "+8", 1, 2, "0.80"),
]
MINUS = "\u2212"


def csv_lines(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_standings_count_the_night_once_placed_by_its_own_ranking(client, admin, spring):
    season, _night = spring
    client.force_login(admin)
    page = Page(body(client.get(reverse("season", args=[season.club.slug, season.pk]))))
    assert "3 evenings" in page.find(".club-head").text
    header, *lines = csv_lines(client.get(reverse("season_csv", args=[season.club.slug, season.pk])))
    assert header == [
        "Rank",
        "Movement",
        "Player",
        "League points",
        "Points",
        "Average",
        "Evenings",
        "Deals played",
        "Money",
    ]
    assert [[line[0], line[2], line[3], line[4], line[6], line[7], line[8]] for line in lines] == [
        [rank, name, str(league), str(int(points)), str(evenings), str(deals), money]
        for rank, name, league, points, evenings, deals, money in SEASON
    ]
    averages = {line[2]: line[5] for line in lines}
    assert (averages["Ada"], averages["Bob"], averages["Dirk"]) == ("8.00", "4.67", "-8.50")
    assert {line[2]: line[1] for line in lines}["Ines"] == "new"  # she played on the last date only


def test_the_player_pages_count_the_night_once(client, admin, spring):
    season, night = spring
    club = season.club
    ada = Player.objects.get(club=club, name="Ada")
    (stats,) = player_view.figures(club, ada, [season], str(season.pk)).variants
    assert (stats.evenings, stats.won, stats.deals, stats.sat_out, stats.points) == (3, 2, 6, 0, 24)
    assert stats.average == 8
    assert stats.money == {"EUR": Decimal("2.40")}
    assert [(s.date.day, s.points, s.cumulative) for s in stats.steps] == [(7, 11, 11), (14, 16, 27), (21, -3, 24)]
    assert (stats.best_evening.value, stats.best_evening.date.day) == (16, 14)  # the night, once
    assert (stats.worst_evening.value, stats.worst_evening.date.day) == (-3, 21)  # not the same night
    assert (stats.best_deal.value, stats.best_deal.date.day) == (11, 7)  # the earliest of her +11
    assert (stats.worst_deal.value, stats.worst_deal.date.day) == (-3, 14)
    assert {(c.contract, c.declared, c.made) for c in stats.contracts} == {("samen-9", 3, 3)}
    client.force_login(admin)
    page = Page(body(client.get(reverse("club_player", args=[club.slug, ada.pk]))))
    assert page.by_id("stat-evenings").text == "3" and page.by_id("stat-won").text == "2"
    assert page.by_id("stat-points").text == "+24"
    line = reverse("night_results_line", args=[night.pk, 1])  # Ada is number 1 of the night
    assert [a.get("href") for a in page.all(".records a")] == [
        line,
        reverse("evening", args=[stats.worst_evening.evening]),
        reverse("evening", args=[stats.best_deal.evening]),
        line,
    ]

    ines = Player.objects.get(club=club, name="Ines")
    (stats,) = player_view.figures(club, ines, [season], str(season.pk)).variants
    assert (stats.evenings, stats.won, stats.deals, stats.sat_out, stats.absent, stats.points) == (1, 0, 1, 2, 1, -3)
    bob = Player.objects.get(club=club, name="Bob")
    (stats,) = player_view.figures(club, bob, [season], str(season.pk)).variants
    assert (stats.evenings, stats.won, stats.points) == (3, 1, 14)  # shared 2nd of the night: no win
    finn = Player.objects.get(club=club, name="Finn")
    (stats,) = player_view.figures(club, finn, [season], str(season.pk)).variants
    assert (stats.evenings, stats.won, stats.points, stats.deals) == (1, 0, 6, 4)
    assert (stats.best_evening.value, stats.worst_evening) == (6, None)


def test_the_roster_and_its_csv_count_the_night_once(client, admin, spring):
    season, _night = spring
    client.force_login(admin)
    _header, *lines = csv_lines(client.get(reverse("club_players_csv", args=[season.club.slug])))
    assert {line[0]: line[2] for line in lines} == {
        name: str(evenings) for _r, name, _l, _p, evenings, _d, _m in SEASON
    }


def test_the_clubs_list_shows_the_night_as_one_line_opening_its_ranking(client, admin, spring):
    season, night = spring
    client.force_login(admin)
    page = Page(body(client.get(reverse("club_evenings", args=[season.club.slug]))))
    assert page.find(".result-count").text == "3 evenings"
    cards = [c for c in page.all("li") if "past-evening" in c.classes]
    assert len(cards) == 3
    line = cards[1]
    assert line.find("a").get("href") == reverse("night_results", args=[night.pk])
    assert "Lenteavond" in line.text and "club night of 4 tables" in line.text
    assert "Winner: Ada" in line.text
    assert [(li.find(".who").text, li.find(".figure").text) for li in line.all(".totals-line li")] == [
        ("Ada", "+16"),
        ("Bob", "+6"),
        ("Finn", "+6"),
        ("Cleo", "+6"),
        ("Gus", MINUS + "6"),
        ("Dirk", MINUS + "6"),
        ("Jos", "+8"),
        ("Eva", MINUS + "16"),
        ("Hans", MINUS + "14"),
    ]
    assert len(line.all(".night-tables li")) == 4  # 2 sessions of 2 tables, behind it on tap
    assert "Did not play: Ines" in line.text
    # filtered on a player: the night is his when he took part at any of its tables
    for name, count in (("Finn", 1), ("Ines", 1), ("Ada", 3), ("Hans", 1)):
        pk = Player.objects.get(club=season.club, name=name).pk
        filtered = Page(body(client.get(reverse("club_evenings", args=[season.club.slug]) + f"?player={pk}")))
        assert len([c for c in filtered.all("li") if "past-evening" in c.classes]) == count, name


# The night's money, settled once for the night (docs/rules/club-nights.md): each player's net is the sum of
# his tables' at 0.10 a point: Ada +1.60, Jos +0.80, Bob, Cleo and Finn +0.60 each, Dirk and Gus
# -0.60 each, Hans -1.40, Eva -1.60; Ines 0.00. Fewest transfers: 5 creditors and 4 debtors make
# at most 4 groups that clear each other (Eva-Ada, Dirk and Gus each with one of Bob, Cleo, Finn,
# Hans with Jos and the third), so 9 - 4 = 5 transfers; table by table they were 12 (3 a table:
# at each table two players won 0.80 or more, and no loser's debt equalled a winner's gain).
# The evenings: 7 March Cleo and Dirk pay Ada and Bob 1.10 each; 21 March Ada, Bob and Ines pay
# Cleo 0.30 each. The ledger's balances (what the club's players owe each one, unpaid):
# Ada +1.60 +1.10 -0.30 = +2.40; Bob +0.60 +1.10 -0.30 = +1.40; Cleo +0.60 -1.10 +0.90 = +0.40;
# Jos +0.80; Finn +0.60; Ines -0.30; Gus -0.60; Hans -1.40; Eva -1.60; Dirk -0.60 -1.10 = -1.70.
NIGHT_NETS = {
    "Ada": Decimal("1.60"),
    "Jos": Decimal("0.80"),
    "Bob": Decimal("0.60"),
    "Cleo": Decimal("0.60"),
    "Finn": Decimal("0.60"),
    "Dirk": Decimal("-0.60"),
    "Gus": Decimal("-0.60"),
    "Hans": Decimal("-1.40"),
    "Eva": Decimal("-1.60"),
}
BALANCES = {
    "Ada": Decimal("2.40"),
    "Bob": Decimal("1.40"),
    "Jos": Decimal("0.80"),
    "Finn": Decimal("0.60"),
    "Cleo": Decimal("0.40"),
    "Ines": Decimal("-0.30"),
    "Gus": Decimal("-0.60"),
    "Hans": Decimal("-1.40"),
    "Eva": Decimal("-1.60"),
    "Dirk": Decimal("-1.70"),
}


def euros(text: str) -> Decimal:
    """ "€1.60", "−€0.30", "-1,70 €" ... as a Decimal."""
    sign = -1 if text.strip()[:1] in "-−" else 1
    digits = "".join(c for c in text if c.isdigit() or c in ".,").replace(",", ".")
    return sign * Decimal(digits)


def test_the_ledger_settles_the_night_once_and_names_it(client, admin, spring):
    _season, night = spring
    client.force_login(admin)
    page = Page(body(client.get(reverse("club_ledger", args=[night.club.slug]))))
    balances = {
        b.find(".balance-name").text: euros(b.find(".balance-money").text) for b in page.all(".balances .balance")
    }
    assert balances == BALANCES
    article = page.find(".ledger-night")
    assert "Lenteavond" in article.find("h3").text
    nets = dict.fromkeys(NIGHT_NETS, Decimal("0"))
    lines = [t.all("strong") for t in article.all(".ledger-transfers .transfer-text")]
    amounts = [euros(t.find(".transfer-amount").text) for t in article.all(".ledger-transfers .transfer-text")]
    for (payer, payee), amount in zip(lines, amounts, strict=True):
        nets[payer.text] -= amount
        nets[payee.text] += amount
    assert len(lines) == 5 and nets == NIGHT_NETS
    # the CSV says which line comes from the night
    sheet = client.get(reverse("club_ledger_csv", args=[night.club.slug])).content.decode("utf-8-sig")
    assert len([line for line in sheet.splitlines() if "Lenteavond" in line]) == 5


def test_each_player_opens_his_own_night_from_the_ranking_link(client, spring):
    """From the ranking's link, no account: Ada's night, session by session (issue 20, item 6).
    After session 1 the place points are Cleo 4, Bob and Dirk 3.5, Ada 3...: Ada is 4th; after
    session 2 she is 1st (6.5)."""
    _season, night = spring
    page = Page(body(client.get(reverse("night_line", args=[night.ranking_token, 1]))))
    cards = [c.text for c in page.all(".night-my-sessions li")]
    assert cards[0].startswith("Session 1 · table 2 · seat 4 with Cleo, Eva, Gus +8 points · 3 place points")
    assert cards[0].endswith("Place after session 1: 4")
    assert cards[1].startswith("Session 2 · table 1 · seat 4 with Gus, Bob, Dirk +8 points · 3.50 place points")
    assert cards[1].endswith("Place after session 2: 1")
    ranking = body(client.get(reverse("night_ranking", args=[night.ranking_token])))
    assert 'href="players/1/"' in ranking and "Tap your name" in ranking
