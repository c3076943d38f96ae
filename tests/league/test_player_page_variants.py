"""A player's page with evenings of two variants: points of different grids are never added up
(figures per variant; only the counts of evenings and deals have an overall line).

Anne, by hand (docs/rules/kleurenwiezen.md and liege.md):
  10 Sept, kleurenwiezen: samen 9 with Carl, 10 tricks (one over): +14
  17 Sept, liège: emballage 8 with Carl, 8 tricks: +7 (the opponents 0)
"""

import re
from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from pages import body
from scorebook.clubs.models import Player
from scorebook.rules import registry

# a player's winnings, summed in SQL (ledger/books.py): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def anne(club, scorer):
    club_evening(
        club, scorer, date(2026, 9, 10), [{"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}]
    )
    club_evening(
        club,
        scorer,
        date(2026, 9, 17),
        [{"contract": "emballage-8", "declarers": ["Anne", "Carl"], "tricks": 8}],
        ruleset="liege",
    )
    return Player.objects.get(club=club, name="Anne")


def figure(html, name):
    match = re.search(rf'id="stat-{name}">(.*?)</dd>', html, re.DOTALL)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", match.group(1))).strip() if match else None


def test_it_gives_points_and_averages_per_variant_and_never_their_sum(scorer_client, club, anne):
    html = body(scorer_client.get(reverse("club_player", args=[club.slug, anne.pk]) + "?season=all"))
    assert (figure(html, "points-kleurenwiezen"), figure(html, "average-kleurenwiezen")) == ("+14", "+14.0")
    assert (figure(html, "points-liege"), figure(html, "average-liege")) == ("+7", "+7.0")
    assert figure(html, "points") is None and figure(html, "average") is None  # no total across grids
    assert "+21" not in html and "+10.5" not in html
    # the counts have an overall line
    assert (figure(html, "evenings"), figure(html, "deals")) == ("2", "2")
    assert (figure(html, "evenings-kleurenwiezen"), figure(html, "evenings-liege")) == ("1", "1")
    titles = re.findall(r'<h2 id="variant-title-[a-z]+">(.*?)</h2>', html)
    assert sorted(titles) == sorted(
        [registry.get("kleurenwiezen").names.get("en"), registry.get("liege").names.get("en")]
    )


def test_it_keeps_the_contracts_of_each_variant_in_its_own_table(scorer_client, club, anne):
    html = body(scorer_client.get(reverse("club_player", args=[club.slug, anne.pk]) + "?season=all"))
    assert html.count('<table class="league contracts">') == 2
