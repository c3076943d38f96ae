"""Starting an evening: the form on /evenings/new/ and the list of evenings.

Seats are typed clockwise; empty seats are skipped, and the first dealer is chosen by seat
number, so the stored first dealer is the index among the seats actually filled.
"""

from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from pages import Page, body, field_errors
from scorebook.clubs.models import Player
from scorebook.evenings.models import Evening, Seat
from scorebook.rules import registry
from scorebook.rules.model import to_dict

pytestmark = pytest.mark.django_db

NEW = "/evenings/new/"


def all_field_errors(html: str) -> list[str]:
    """The fields that have an error list next to them."""
    return [ul.id.removeprefix("id_").removesuffix("_error") for ul in Page(html).all("ul.field-errors[id]")]


def form_data(ruleset="kleurenwiezen", players=("Anne", "Bert", "Carl", "Dina"), first_dealer=0, **extra):
    data = {
        "ruleset": ruleset,
        "first_dealer": str(first_dealer),
        "stake": "0.05",
        "currency": "EUR",
        "date": "2026-11-20",
    }
    for seat, name in enumerate(players):
        data[f"player_{seat}"] = name
    data.update(extra)
    return data


def seat_names(evening) -> list[str]:
    return [seat.player.name for seat in evening.seats.select_related("player").order_by("position")]


# --- creating ---------------------------------------------------------------------------------


def test_it_shows_the_empty_form_to_a_logged_in_scorer(scorer_client):
    response = scorer_client.get(NEW)
    assert response.status_code == 200
    html = body(response)
    for seat in range(7):
        assert f'name="player_{seat}"' in html
    assert 'name="ruleset"' in html and 'name="first_dealer"' in html


@pytest.mark.both_databases
def test_it_creates_the_evening_with_the_seats_in_the_order_typed(scorer_client, scorer):
    data = form_data(players=("Dina", "Anne", "Carl", "Bert"))
    response = scorer_client.post(NEW, data)
    evening = Evening.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("evening", args=[evening.pk])
    assert seat_names(evening) == ["Dina", "Anne", "Carl", "Bert"]
    assert list(evening.seats.values_list("position", flat=True)) == [0, 1, 2, 3]
    assert evening.owner == scorer
    assert evening.ruleset == "kleurenwiezen"
    assert evening.date == date(2026, 11, 20)
    assert evening.is_open
    assert evening.deals.count() == 0


@pytest.mark.both_databases
def test_it_skips_the_empty_seats_and_keeps_the_first_dealer_on_the_right_player(scorer_client):
    # seats typed: 1 Anne, 2 (empty), 3 Bert, 4 (blank), 5 Carl, 6 Dina, 7 Eric; seat 5 deals first (Carl)
    data = form_data(players=("Anne", "", "Bert", "   ", "Carl", "Dina", "Eric"), first_dealer=4)
    response = scorer_client.post(NEW, data)
    assert response.status_code == 302
    evening = Evening.objects.get()
    assert seat_names(evening) == ["Anne", "Bert", "Carl", "Dina", "Eric"]
    assert evening.first_dealer == 2  # Carl is the third player actually seated
    page = body(scorer_client.get(reverse("evening", args=[evening.pk])))
    assert "<strong>Carl</strong> deals" in page
    assert "sits out: Carl" in page


@pytest.mark.both_databases
def test_it_stores_the_first_dealer_stake_and_currency(scorer_client):
    data = form_data(first_dealer=2, stake="0.25", currency="CHF")
    scorer_client.post(NEW, data)
    evening = Evening.objects.get()
    assert evening.first_dealer == 2
    assert evening.stake == Decimal("0.25")
    assert evening.currency == "CHF"


@pytest.mark.both_databases
def test_it_accepts_an_evening_without_a_stake(scorer_client):
    scorer_client.post(NEW, form_data(stake=""))
    assert Evening.objects.get().stake is None


@pytest.mark.both_databases
@pytest.mark.parametrize("key", ["kleurenwiezen", "encheres", "liege", "gand", "classique", "short", "francais"])
def test_it_stores_a_copy_of_the_rules_of_the_variant(scorer_client, key):
    response = scorer_client.post(NEW, form_data(ruleset=key))
    assert response.status_code == 302
    evening = Evening.objects.get()
    assert evening.ruleset == key
    assert evening.rules == to_dict(registry.get(key))


@pytest.mark.both_databases
def test_it_stores_a_copy_of_the_rules_for_whist_with_a_dummy(scorer_client):
    scorer_client.post(NEW, form_data(ruleset="mort", players=("Anne", "Bert", "Carl")))
    evening = Evening.objects.get()
    assert evening.rules == to_dict(registry.get("mort"))
    assert seat_names(evening) == ["Anne", "Bert", "Carl"]


@pytest.mark.both_databases
def test_it_reuses_a_known_player_rather_than_creating_a_second_one(scorer_client, make_evening):
    make_evening("kleurenwiezen")  # Anne, Bert, Carl, Dina exist
    scorer_client.post(NEW, form_data(players=("Anne", "Bert", "Carl", "Eric")))
    assert Player.objects.filter(name="Anne").count() == 1
    assert Player.objects.filter(name="Eric").count() == 1


@pytest.mark.both_databases
def test_it_trims_the_spaces_around_the_names(scorer_client):
    scorer_client.post(NEW, form_data(players=("  Anne ", "Bert", "Carl", "Dina  ")))
    assert seat_names(Evening.objects.get()) == ["Anne", "Bert", "Carl", "Dina"]


# --- refused ----------------------------------------------------------------------------------


def assert_refused(response, field, words):
    assert response.status_code == 422
    html = body(response)
    assert words in field_errors(html, field), f"{words!r} not next to {field}: {all_field_errors(html)}"
    assert Evening.objects.count() == 0
    assert Seat.objects.count() == 0


def test_it_refuses_too_few_players_for_the_variant(scorer_client):
    response = scorer_client.post(NEW, form_data(players=("Anne", "Bert", "Carl")))
    assert_refused(response, "player_0", "4 to 7 players")


def test_it_refuses_too_many_players_for_the_variant(scorer_client):
    response = scorer_client.post(NEW, form_data(ruleset="classique", players=("A", "B", "C", "D", "E", "F", "G")))
    assert_refused(response, "player_0", "4 to 6 players")


def test_it_refuses_four_players_for_whist_with_a_dummy(scorer_client):
    response = scorer_client.post(NEW, form_data(ruleset="mort", players=("Anne", "Bert", "Carl", "Dina")))
    assert_refused(response, "player_0", "is played by 3 players.")


def test_it_refuses_an_evening_without_players(scorer_client):
    response = scorer_client.post(NEW, form_data(players=()))
    assert response.status_code == 422
    assert field_errors(body(response), "player_0")
    assert Evening.objects.count() == 0


def test_it_refuses_two_players_with_the_same_name(scorer_client):
    response = scorer_client.post(NEW, form_data(players=("Anne", "Bert", "anne", "Dina")))
    assert_refused(response, "player_0", "Two players have the same name.")


def test_it_refuses_a_first_dealer_on_an_empty_seat(scorer_client):
    response = scorer_client.post(NEW, form_data(players=("Anne", "Bert", "", "Carl", "Dina"), first_dealer=2))
    assert_refused(response, "first_dealer", "The first dealer's seat is empty.")


def test_it_refuses_a_first_dealer_beyond_the_last_player(scorer_client):
    response = scorer_client.post(NEW, form_data(first_dealer=5))
    assert_refused(response, "first_dealer", "The first dealer's seat is empty.")


def test_it_refuses_an_unknown_variant(scorer_client):
    response = scorer_client.post(NEW, form_data(ruleset="bridge"))
    assert response.status_code == 422
    assert field_errors(body(response), "ruleset")
    assert Evening.objects.count() == 0


def test_it_refuses_a_negative_stake(scorer_client):
    response = scorer_client.post(NEW, form_data(stake="-1"))
    assert response.status_code == 422
    assert field_errors(body(response), "stake")
    assert Evening.objects.count() == 0


def test_it_keeps_what_was_typed_when_it_refuses(scorer_client):
    response = scorer_client.post(NEW, form_data(players=("Anne", "Bert", "Carl")))
    html = body(response)
    assert 'name="player_0" value="Anne"' in html
    assert 'name="player_2" value="Carl"' in html


# --- access -----------------------------------------------------------------------------------


def test_it_creates_nothing_for_an_anonymous_post(client):
    response = client.post(NEW, form_data())
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert Evening.objects.count() == 0


def test_it_lists_only_the_scorers_own_evenings(scorer_client, make_evening, outsider):
    mine = make_evening("kleurenwiezen")
    theirs = make_evening("liege", user=outsider)
    response = scorer_client.get(reverse("evening_list"))
    assert response.status_code == 200
    html = body(response)
    assert reverse("evening", args=[mine.pk]) in html
    assert reverse("evening", args=[theirs.pk]) not in html
