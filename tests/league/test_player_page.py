"""A player's page: evenings, deals played and sat out, contracts, records, the season chart, money.

The club is built by hand (kleurenwiezen, stake 0.10 EUR unless said):

  A, 10 Sept, four players, everybody plays every deal:
     1. samen 9 (Anne, Carl), 10 tricks: Anne +14.     2. alleen 5 (Bert), 4 tricks, failed: Anne +4.
     3. pass: Anne 0 (the next deal counts double).    4. samen 8 (Bert, Dina), 8 tricks, doubled: Anne -16.
     Anne: +2 over 4 deals played, best deal +14, worst -16, samen 9 declared and made. Money +0.20.
     Settlement: Bert pays Anne 0.20, Carl 0.20, Dina 0.60.
  B, 17 Sept, five players: the dealer sits out (Anne deals first).
     1. Anne sits out; samen 9 (Bert, Carl), 10 tricks.          Anne 0 (not a deal played)
     2. Bert sits out; alleen 5 (Anne), 6 tricks: made.          Anne +12
     3. Carl sits out; samen 8 (Anne, Dina), 7 tricks: failed.   Anne -11
     Anne: +1 over 2 deals played, 1 sat out; alleen 5 made, samen 8 failed. Money +0.10.
     Settlement: Dina pays Anne 0.10 (marked paid), Bert 2.50, Carl 0.30; Emma pays Carl 0.70.
  C, 1 Oct, no stake: samen 9 (Bert, Carl), 10 tricks: Anne -14.

  The season "September" (1-30 Sept) holds A and B.
"""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from builders import club_evening
from pages import body
from scorebook.clubs.models import Club, Player, Season
from scorebook.evenings import payments
from scorebook.rules import registry

# a player's money, summed in SQL (ledger/books.py): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

MINUS = "\u2212"
KLEUREN_DEALS = [
    {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10},
    {"contract": "alleen-5", "declarers": ["Bert"], "tricks": 4},
    {"contract": "pass"},
    {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8},
]
FIVE_DEALS = [
    {"contract": "samen-9", "declarers": ["Bert", "Carl"], "tricks": 10},
    {"contract": "alleen-5", "declarers": ["Anne"], "tricks": 6},
    {"contract": "samen-8", "declarers": ["Anne", "Dina"], "tricks": 7},
]


@pytest.fixture
def built(club, scorer):
    a = club_evening(club, scorer, date(2026, 9, 10), KLEUREN_DEALS)
    b = club_evening(club, scorer, date(2026, 9, 17), FIVE_DEALS, players=("Anne", "Bert", "Carl", "Dina", "Emma"))
    c = club_evening(
        club,
        scorer,
        date(2026, 10, 1),
        [{"contract": "samen-9", "declarers": ["Bert", "Carl"], "tricks": 10}],
        stake=None,
    )
    payments.record_payment(b, "Dina", "Anne", Decimal("0.10"), scorer, closed_too=True)
    season = Season.objects.create(
        club=club, name="September", start=date(2026, 9, 1), end=date(2026, 9, 30), ruleset="kleurenwiezen"
    )
    return {"a": a, "b": b, "c": c, "season": season, "anne": Player.objects.get(club=club, name="Anne")}


def page(club, player, **params):
    address = reverse("club_player", args=[club.slug, player.pk])
    return address + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def stat(html, name):
    match = re.search(rf'id="stat-{name}">(.*?)</dd>', html, re.DOTALL)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", match.group(1))).strip()


def records(html):
    """{label: text} of the biggest win and loss."""
    return {
        re.sub(r"\s+", " ", dt).strip(): re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", dd)).strip()
        for dt, dd in re.findall(r'<div class="record-line"><dt>(.*?)</dt>\s*<dd>(.*?)</dd>', html, re.DOTALL)
    }


def contract_rows(html):
    section = html[html.index('<table class="league contracts">') :]
    section = section[: section.index("</table>")]
    return [
        [
            re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).replace("&nbsp;", " ").strip()
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.DOTALL)
        ]
        for tr in re.findall(r"<tr>(.*?)</tr>", section[section.index("<tbody>") :], re.DOTALL)
    ]


# --- who sees it -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"), [("outsider", 404), ("other_admin", 404), ("member", 200), ("scorer", 200), ("admin", 200)]
)
def test_members_see_a_players_page_and_others_get_404(client, cast, club, built, who, status):
    client.force_login(cast[who])
    assert client.get(page(club, built["anne"])).status_code == status


def test_a_player_of_another_club_is_not_found_through_this_club(client, cast, club, scorer):
    other = Club.objects.get(slug="trefle")
    stranger = Player.objects.create(club=other, name="Frans")
    client.force_login(cast["admin"])
    assert client.get(page(club, stranger)).status_code == 404
    client.force_login(cast["other_admin"])
    assert client.get(reverse("club_player", args=[other.slug, stranger.pk])).status_code == 200


# --- the figures -----------------------------------------------------------------------------------


def test_the_page_opens_on_the_latest_season_played(client, cast, club, built):
    client.force_login(cast["member"])
    html = body(client.get(page(club, built["anne"])))
    assert f'<option value="{built["season"].pk}" selected>September</option>' in html
    assert stat(html, "evenings") == "2"
    assert stat(html, "deals") == "6"  # 4 + 2: the deal Anne sat out is not a deal played
    assert stat(html, "sat-out") == "1"
    assert stat(html, "points") == "+3"
    assert stat(html, "average") == "+1.5"
    assert stat(html, "won") == "0"
    assert stat(html, "money") == "+€0.30"
    assert stat(html, "balance") == "+€0.20"  # Bert owes 0.20 of A; Dina's 0.10 of B is marked paid


def test_all_evenings(client, cast, club, built):
    client.force_login(cast["member"])
    html = body(client.get(page(club, built["anne"], season="all")))
    assert '<option value="all" selected>' in html
    assert (stat(html, "evenings"), stat(html, "deals"), stat(html, "sat-out")) == ("3", "7", "1")
    assert (stat(html, "points"), stat(html, "average")) == (f"{MINUS}11", f"{MINUS}3.7")
    assert stat(html, "money") == "+€0.30"  # the evening without a stake has no money


def test_biggest_win_and_loss_per_evening_and_per_deal(client, cast, club, built):
    client.force_login(cast["member"])
    html = body(client.get(page(club, built["anne"], season="all")))
    assert records(html) == {
        "Biggest win over an evening": "+2 Sept. 10, 2026",
        "Biggest loss over an evening": f"{MINUS}14 Oct. 1, 2026",
        "Biggest win in one deal": "+14 Sept. 10, 2026",
        "Biggest loss in one deal": f"{MINUS}16 Sept. 10, 2026",
    }
    assert reverse("evening", args=[built["c"].pk]) in html


def test_contracts_declared_and_their_success_rate_in_the_active_language(client, cast, club, built):
    client.force_login(cast["member"])
    rules = registry.get("kleurenwiezen")
    for lang in ("en", "fr", "nl"):
        html = body(client.get(page(club, built["anne"]), HTTP_ACCEPT_LANGUAGE=lang))
        name = {key: rules.contracts[key].names.get(lang) for key in ("samen-9", "alleen-5", "samen-8")}
        rows = contract_rows(html)
        assert sorted(rows) == sorted(
            [
                [name["samen-9"], "1", "1", "100 %"],
                [name["alleen-5"], "1", "1", "100 %"],
                [name["samen-8"], "1", "0", "0 %"],
            ]
        )


def test_the_season_chart_draws_the_points_added_up_after_each_evening(client, cast, club, built):
    client.force_login(cast["member"])
    html = body(client.get(page(club, built["anne"], season="all")))
    chart = html[html.index('<figure class="chart" id="season-chart">') : html.index("</figure>")]
    assert "<svg" in chart and "Anne" in chart and f"{MINUS}11" in chart
    points = re.search(r'<polyline class="chart-line" points="([^"]+)"', chart).group(1).split()
    assert len(points) == 4  # the start at 0 and three evenings
    steps = html[html.index('<details class="steps">') :]
    assert [re.sub(r"<[^>]+>", "", t) for t in re.findall(r'<td class="c-num">(.*?)</td>', steps)[:3]] == [
        "+2",
        "+3",
        f"{MINUS}11",
    ]


def test_sat_out_deals_are_counted_apart_for_every_player(client, cast, club, built):
    client.force_login(cast["member"])
    for name, played, sat_out in [("Bert", "6", "1"), ("Dina", "7", "0"), ("Emma", "3", "0")]:
        player = Player.objects.get(club=club, name=name)
        html = body(client.get(page(club, player, season=built["season"].pk)))
        assert (stat(html, "deals"), stat(html, "sat-out")) == (played, sat_out), name


def test_the_balance_of_a_debtor_is_negative(client, cast, club, built):
    client.force_login(cast["member"])
    dina = Player.objects.get(club=club, name="Dina")
    html = body(client.get(page(club, dina)))
    # A: Bert pays her 0.60; B: she pays Bert 2.50 and Carl 0.30 (her 0.10 to Anne is marked paid)
    assert stat(html, "balance") == f"{MINUS}€2.20"
    assert "Not paid yet" in html and reverse("club_ledger", args=[club.slug]) in html


def test_a_player_without_evenings(client, cast, club):
    nobody = Player.objects.create(club=club, name="Nobody")
    client.force_login(cast["member"])
    html = body(client.get(page(club, nobody)))
    assert "No evening played here yet." in html
    assert stat(html, "deals") == "0" and stat(html, "balance") == "clear"
    assert "season-chart" not in html


def test_the_player_page_takes_as_many_queries_for_30_evenings_as_for_3(client, cast, club, scorer):
    client.force_login(cast["member"])
    anne_deal = [{"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}]
    for day in range(1, 4):
        club_evening(club, scorer, date(2026, 3, day), anne_deal)
    anne = Player.objects.get(club=club, name="Anne")

    def count():
        with CaptureQueriesContext(connection) as queries:
            assert client.get(page(club, anne, season="all")).status_code == 200
        return len(queries)

    few = count()
    for day in range(4, 31):
        club_evening(club, scorer, date(2026, 3, day), anne_deal)
    assert count() == few


def test_the_page_of_his_latest_season_takes_as_many_queries_for_30_evenings_as_for_3(client, cast, club, scorer):
    """His latest season and all his evenings (two variants), more unpaid transfers than the page
    lists, payments: the same queries."""
    client.force_login(cast["member"])
    Season.objects.create(
        club=club, name="March", start=date(2026, 3, 1), end=date(2026, 3, 31), ruleset="kleurenwiezen"
    )
    anne_deal = [{"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}]
    classic = [{"tricks": [9, 4], "honours": [0, 0]}]

    def evenings(days):
        for day in days:
            evening = club_evening(club, scorer, date(2026, 3, day), anne_deal)
            club_evening(club, scorer, date(2026, 3, day), classic, ruleset="classique")
            due = payments.still_due(evening)[-1]  # Anne's own transfer stays open
            payments.record_payment(evening, due.payer, due.payee, due.amount, scorer)

    evenings(range(1, 4))
    anne = Player.objects.get(club=club, name="Anne")

    def count(**season):
        with CaptureQueriesContext(connection) as queries:
            html = body(client.get(page(club, anne, **season)))
        assert ("stat-points-classique" in html) == bool(season) and "Not paid yet" in html
        return len(queries)

    few = count(), count(season="all")
    evenings(range(4, 31))
    assert (count(), count(season="all")) == few
