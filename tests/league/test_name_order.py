"""Names in the reader's order everywhere (issue 23, item 4): Éric beside Eric, before Zoë; Ødegaard
beside Oscar, not after Z; the same order on SQLite and PostgreSQL, in pages and CSVs, in French
and in Dutch.

Kleurenwiezen, stake 0.10 EUR. 10 Sept: samen 9 made with 10 tricks by Éric and Eric (+14 each),
Zoë and Ødegaard -14: two ties in the standings and in the ledger. 17 Sept: Adam, Émile, Oscar
and Zoë, all pass.
"""

import csv
import io
from datetime import date

import pytest
from django.urls import reverse

import night_builders
from builders import club_evening
from pages import Page
from scorebook.clubs.models import Season
from scorebook.core.collation import by_name

# names in the reader's order whatever the database's collation: both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

ROSTER = ["Adam", "Émile", "Eric", "Éric", "Ødegaard", "Oscar", "Zoë"]
LANGUAGES = ["fr", "nl"]


@pytest.fixture
def season(club, scorer):
    club_evening(
        club,
        scorer,
        date(2026, 9, 10),
        [{"contract": "samen-9", "declarers": ["Éric", "Eric"], "tricks": 10}],
        players=["Zoë", "Éric", "Eric", "Ødegaard"],
    )
    club_evening(club, scorer, date(2026, 9, 17), [{"contract": "pass"}], players=["Zoë", "Oscar", "Émile", "Adam"])
    return Season.objects.create(
        club=club, name="Herfst 2026", start=date(2026, 9, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )


@pytest.fixture
def adele_client(client, admin):
    client.force_login(admin)
    return client


def rows(response):
    text = response.content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text), delimiter=";"))


def in_order(text: str, names: list[str]) -> list[str]:
    """The names as they come in ``text``."""
    return sorted(names, key=text.index)


def test_it_sorts_names_by_the_collation_algorithm():
    shuffled = ["Zoë", "Oscar", "Éric", "Łukasz", "Ærø", "Ødegaard", "Eric", "Adam", "Lucas", "Émile", "O'Brien"]
    assert by_name(shuffled) == [
        "Adam",
        "Ærø",
        "Émile",
        "Eric",
        "Éric",
        "Lucas",
        "Łukasz",
        "O'Brien",
        "Ødegaard",
        "Oscar",
        "Zoë",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_lists_the_roster_in_the_readers_order(adele_client, club, season, language):
    html = adele_client.get(reverse("club_players", args=[club.slug]), HTTP_ACCEPT_LANGUAGE=language)
    names = [e.text for e in Page(html.content.decode()).all(".card strong")]
    assert [n for n in names if n in ROSTER] == ROSTER


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_writes_the_roster_csv_in_the_readers_order(adele_client, club, season, language):
    response = adele_client.get(reverse("club_players_csv", args=[club.slug]), HTTP_ACCEPT_LANGUAGE=language)
    assert [row[0] for row in rows(response)[1:]] == ROSTER


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_lists_tied_players_by_name_in_the_standings_and_their_csv(adele_client, club, season, language):
    page = adele_client.get(reverse("season", args=[club.slug, season.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert in_order(page.content.decode(), ["Éric", "Eric"]) == ["Eric", "Éric"]
    csv_rows = rows(adele_client.get(reverse("season_csv", args=[club.slug, season.pk]), HTTP_ACCEPT_LANGUAGE=language))
    names = [row[2] for row in csv_rows[1:]]
    assert names.index("Eric") + 1 == names.index("Éric")


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_lists_equal_balances_by_name_in_the_ledger(adele_client, club, season, language):
    html = adele_client.get(reverse("club_ledger", args=[club.slug]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    balances = html[html.index('id="ledger"') :]
    assert in_order(balances, ["Zoë", "Ødegaard"]) == ["Ødegaard", "Zoë"]
    assert in_order(balances, ["Éric", "Eric"]) == ["Eric", "Éric"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_offers_the_roster_in_the_readers_order_for_a_night(adele_client, club, season, language):
    html = adele_client.get(reverse("night_new", args=[club.slug]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    values = [e.get("value") for e in Page(html).all("input[name=roster]")]
    assert values == ROSTER


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_ranks_tied_players_of_a_night_by_name(client, club, scorer, language):
    players = ["Zoë", "Éric", "Oscar", "Eric", "Adam", "Ødegaard", "Émile", "Bert"]
    night = night_builders.night(club, scorer, players)
    response = client.get(reverse("night_ranking_csv", args=[night.ranking_token]), HTTP_ACCEPT_LANGUAGE=language)
    text = response.content.decode("utf-8-sig")
    assert (
        in_order(text, players)
        == by_name(players)
        == ["Adam", "Bert", "Émile", "Eric", "Éric", "Ødegaard", "Oscar", "Zoë"]
    )
