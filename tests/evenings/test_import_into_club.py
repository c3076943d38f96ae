"""Importing an evening file into a club: the form offers the clubs where the user scores (the private
table book by default), the evening joins the club's seasons and ledger, and its players are the
roster's players of the same names; a new name is added only when asked, a name the roster writes
otherwise is never merged silently.

Marie is an admin of De Troef (roster: Anne, Bert, Carl, Dina); Mia is only a member of Le Trèfle.
The file, by hand (kleurenwiezen): samen 9 by Anne and Carl with 10 tricks, one over: Anne +14,
Carl +14, Bert -14, Dina -14; stake 0.10: Bert pays Anne 1.40, Dina pays Carl 1.40.
"""

import json
import re
from datetime import date

import pytest
from django.urls import reverse

from pages import body
from scorebook.clubs.models import Club, Membership, Player, Role, Season
from scorebook.evenings.models import Evening

pytestmark = pytest.mark.django_db


def evening_file(players=("Anne", "Bert", "Carl", "Dina")):
    return json.dumps(
        {
            "format": "scorebook-evening/1",
            "ruleset": "kleurenwiezen",
            "date": "2026-09-10",
            "players": list(players),
            "first_dealer": players[0],
            "stake": "0.10",
            "currency": "EUR",
            "deals": [{"contract": "samen-9", "declarers": [players[0], players[2]], "tricks": 10}],
        }
    )


@pytest.fixture
def club(scorer, make_user):
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=scorer, role=Role.ADMIN)
    for name in ("Anne", "Bert", "Carl", "Dina"):
        Player.objects.create(club=club, name=name)
    other = Club.objects.create(name="Le Trèfle", slug="trefle")
    Membership.objects.create(club=other, user=scorer, role=Role.MEMBER)
    return club


def post(client, **data):
    return client.post(reverse("evening_import"), data)


def test_it_offers_the_clubs_where_the_user_scores_and_the_private_book_first(scorer_client, club):
    html = body(scorer_client.get(reverse("evening_import")))
    options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', html)
    assert options == [("", "My private table book"), (str(club.pk), "De Troef")]  # not Le Trèfle: a member only


@pytest.mark.both_databases
def test_it_imports_into_the_club_and_the_evening_counts_in_its_standings(scorer_client, club):
    response = post(scorer_client, club=club.pk, text=evening_file())
    assert response.status_code == 302
    evening = Evening.objects.get()
    assert evening.club == club
    assert [seat.player for seat in evening.seats.all()] == [
        Player.objects.get(club=club, name=n) for n in ("Anne", "Bert", "Carl", "Dina")
    ]
    assert Player.objects.filter(club=club).count() == 4  # nobody added, nobody doubled
    season = Season.objects.create(
        club=club, name="Autumn", start=date(2026, 9, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    csv = scorer_client.get(reverse("season_csv", args=[club.slug, season.pk])).content.decode("utf-8-sig")
    assert [line.split(",")[2:4] for line in csv.splitlines()[1:]] == [
        ["Anne", "14"],
        ["Carl", "14"],
        ["Bert", "-14"],
        ["Dina", "-14"],
    ]
    ledger = body(scorer_client.get(reverse("club_ledger", args=[club.slug])))
    assert "Bert pays Anne" in re.sub(r"<[^>]+>|\s+", " ", ledger).replace("  ", " ")


@pytest.mark.both_databases
def test_it_asks_before_adding_a_new_name_to_the_roster(scorer_client, club):
    text = evening_file(("Anne", "Bert", "Carl", "Eric"))
    response = post(scorer_client, club=club.pk, text=text)
    assert response.status_code == 422
    assert "Eric is not on the club&#x27;s roster" in body(response) or "Eric is not on the club's roster" in body(
        response
    )
    assert not Evening.objects.exists() and not Player.objects.filter(name="Eric").exists()
    assert post(scorer_client, club=club.pk, text=text, add_players="on").status_code == 302
    assert Evening.objects.get().club == club
    assert Player.objects.filter(club=club, name="Eric").count() == 1


def test_it_never_merges_a_name_the_roster_writes_otherwise(scorer_client, club):
    response = post(scorer_client, club=club.pk, text=evening_file(("anne", "Bert", "Carl", "Dina")), add_players="on")
    assert response.status_code == 422
    assert "anne is written Anne on the club" in body(response)
    assert not Evening.objects.exists()


@pytest.mark.both_databases
def test_it_keeps_the_private_book_by_default(scorer_client, club, scorer):
    assert post(scorer_client, text=evening_file()).status_code == 302
    evening = Evening.objects.get()
    assert evening.club is None and evening.owner == scorer


def test_it_refuses_a_club_where_the_user_does_not_score(scorer_client, club):
    other = Club.objects.get(slug="trefle")
    assert post(scorer_client, club=other.pk, text=evening_file()).status_code == 422
    assert not Evening.objects.exists()


def test_it_never_merges_a_look_alike_of_a_roster_name(scorer_client, club):
    """Issue 32, item 5: ``CarI`` (a capital I for the l) reads as the roster's Carl: refused as
    ``anne`` is, never added beside him."""
    response = post(scorer_client, club=club.pk, text=evening_file(("Anne", "Bert", "CarI", "Dina")), add_players="on")
    assert response.status_code == 422
    assert "CarI is written Carl on the club" in body(response)
    assert not Evening.objects.exists() and Player.objects.filter(club=club).count() == 4


@pytest.mark.parametrize("players", [("Anne", "Bert", "Carl", "CarI"), ("Anne", "Bert", "Carl", "Di\u200fna")])
def test_it_refuses_a_file_whose_names_a_form_would_refuse(scorer_client, players):
    """The file's players are cleaned as the forms clean names: no two that read as one, no bidi mark."""
    response = post(scorer_client, text=evening_file(players))
    assert response.status_code == 422
    assert not Evening.objects.exists()


@pytest.mark.both_databases
def test_it_seats_the_roster_player_a_typed_look_alike_reads_as(scorer_client, club):
    data = {"ruleset": "kleurenwiezen", "first_dealer": "0", "currency": "EUR", "date": "2026-11-20", "club": club.pk}
    data |= {"player_0": "Anne", "player_1": "Bert", "player_2": "CarI", "player_3": "Dina"}
    assert scorer_client.post(reverse("evening_new"), data).status_code == 302
    assert [s.name for s in Evening.objects.get().seats.order_by("position")] == ["Anne", "Bert", "Carl", "Dina"]
    assert Player.objects.filter(club=club).count() == 4


# the club's house rules or the file's (issue 29): samen 9 made with 10 tricks is +14 in the preset; the
# club pays it +20 (its house rule)

SAMEN_10 = {"contracts": {"samen-9": {"made": {"10": [20, -20]}}}}


@pytest.fixture
def house_rules(club):
    from scorebook.clubs.models import HouseRules

    return HouseRules.objects.create(club=club, ruleset="kleurenwiezen", overrides=SAMEN_10)


def totals(evening):
    return {p["name"]: p["points"] for p in evening.summary["players"]}


def test_it_asks_which_rules_apply_the_clubs_by_default(scorer_client, club):
    from pages import Page

    page = Page(body(scorer_client.get(reverse("evening_import"))))
    assert page.checked("rules") == ["club"]
    assert "The club's house rules" in page.text and "The rules written in the file" in page.text


@pytest.mark.both_databases
def test_it_scores_the_evening_with_the_clubs_house_rules_and_says_so(scorer_client, club, house_rules):
    response = post(scorer_client, club=club.pk, text=evening_file())  # the question left as it is
    assert response.status_code == 302
    evening = Evening.objects.get()
    assert totals(evening) == {"Anne": 20, "Bert": -20, "Carl": 20, "Dina": -20}
    assert evening.rules_from == Evening.RulesFrom.CLUB
    settlement = body(scorer_client.get(reverse("settlement", args=[evening.pk])))
    assert "the club&#x27;s house rules" in settlement or "the club's house rules" in settlement
    rules = body(scorer_client.get(reverse("evening_rules", args=[evening.pk])))
    assert "Imported from an evening file and scored with the club" in rules


@pytest.mark.both_databases
def test_it_keeps_the_files_rules_when_asked(scorer_client, club, house_rules):
    assert post(scorer_client, club=club.pk, text=evening_file(), rules="file").status_code == 302
    evening = Evening.objects.get()
    assert totals(evening) == {"Anne": 14, "Bert": -14, "Carl": 14, "Dina": -14}
    assert evening.rules_from == Evening.RulesFrom.FILE
    scoring = body(scorer_client.get(reverse("evening", args=[evening.pk])))
    assert "the file's rules" in scoring.replace("&#x27;", "'")
    # house rules changed afterwards change neither evening
    house_rules.overrides = {}
    house_rules.save()
    assert totals(Evening.objects.get()) == {"Anne": 14, "Bert": -14, "Carl": 14, "Dina": -14}
