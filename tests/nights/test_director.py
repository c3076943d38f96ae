"""The director's pages: creating a night, following its tables, closing and reopening a
session, substitutes, late arrivals, table cards and the plan."""

from itertools import combinations

import pytest
from django.urls import reverse

from night_builders import NAMES, card_links, deal, samen, tables
from scorebook.evenings import services as evenings
from scorebook.evenings.models import Evening
from scorebook.nights.models import Night, Participant

pytestmark = pytest.mark.django_db


def new_night_data(**extra):
    data = {
        "name": "Kaartavond maart",
        "date": "2026-03-14",
        "ruleset": "kleurenwiezen",
        "sessions": "5",
        "deals_per_session": "8",
        "ranking": "total",
        "place_points": "4, 3, 2, 1, 0",
        "currency": "EUR",
        "guests": "\n".join(NAMES),
    }
    return data | extra


@pytest.mark.both_databases
def test_it_creates_a_40_player_night_with_a_plan_without_repeats_and_one_evening_per_table(director_client, club):
    response = director_client.post(reverse("night_new", args=[club.slug]), new_night_data())
    night = Night.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("night", args=[night.pk])
    assert night.participants.count() == 40
    assert [p.number for p in night.participants.all()] == list(range(1, 41))
    assert night.night_sessions.count() == 5
    met = set()
    for session in night.night_sessions.all():
        assert session.tables.count() == 10
        for table in session.tables.all():
            seats = [s.name for s in table.evening.seats.all()]
            assert len(seats) == 4 and table.evening.club == club and table.evening.rules == night.rules
            pairs = {frozenset(p) for p in combinations(seats, 2)}
            assert not pairs & met
            met |= pairs


@pytest.mark.both_databases
def test_it_keeps_the_house_rules_as_they_were_when_the_night_began(director_client, club):
    club.house_rules.create(ruleset="kleurenwiezen", overrides={"all_pass_multiplier": 1})
    director_client.post(reverse("night_new", args=[club.slug]), new_night_data(guests="\n".join(NAMES[:8])))
    night = Night.objects.get()
    club.house_rules.update(overrides={})
    assert night.rules["all_pass_multiplier"] == 1
    assert all(t.evening.rules["all_pass_multiplier"] == 1 for t in tables(night))


@pytest.mark.parametrize(
    ("field", "data"),
    [
        ("guests", {"guests": "Anne\nBert\nCarl"}),
        ("guests", {"guests": "\n".join(NAMES[:6])}),
        ("guests", {"guests": "Anne\nanne\nBert\nCarl"}),
        ("sessions", {"sessions": "0"}),
        ("place_points", {"ranking": "places", "place_points": "four"}),
    ],
)
def test_it_shows_an_invalid_night_again_with_the_error_next_to_the_field(director_client, club, field, data):
    response = director_client.post(reverse("night_new", args=[club.slug]), new_night_data(**data))
    assert response.status_code == 422
    assert f'id="id_{field}_error"' in response.content.decode()
    assert not Night.objects.exists()


def test_it_lets_only_the_clubs_admins_and_scorers_direct(client, club, cast, make_night):
    night = make_night(players=8)
    client.force_login(cast["member"])
    assert client.get(reverse("night_new", args=[club.slug])).status_code == 403
    assert client.get(reverse("night", args=[night.pk])).status_code == 403
    client.force_login(cast["outsider"])
    assert client.get(reverse("night", args=[night.pk])).status_code == 404
    client.force_login(cast["admin"])
    assert client.get(reverse("night", args=[night.pk])).status_code == 200


@pytest.mark.both_databases
def test_it_shows_every_tables_progress_and_highlights_the_late_ones(director_client, make_night, director):
    night = make_night(players=12)
    first, second, _third = tables(night)
    for _ in range(3):
        evenings.record_deal(first.evening, deal(first.evening), director)
    evenings.record_deal(second.evening, deal(second.evening), director)
    html = director_client.get(reverse("night", args=[night.pk])).content.decode()
    assert "3/8" in html and "1/8" in html and "0/8" in html
    assert html.count('class="night-table is-late"') == 2  # two deals or more behind the first table
    partial = director_client.get(reverse("night_progress", args=[night.pk]))
    assert partial.status_code == 200 and "<html" not in partial.content.decode()
    unchanged = director_client.get(reverse("night_progress", args=[night.pk]), HTTP_IF_NONE_MATCH=partial["ETag"])
    assert unchanged.status_code == 304


@pytest.mark.both_databases
def test_it_closes_a_session_locking_its_tables_and_reopens_it_with_a_reason(director_client, make_night):
    night = make_night(players=8)
    response = director_client.post(reverse("night_session_close", args=[night.pk, 1]))
    assert response.status_code == 302
    assert all(t.evening.status == Evening.Status.CLOSED for t in tables(night))
    assert all(t.evening.status == Evening.Status.OPEN for t in tables(night, 2))
    refused = director_client.post(reverse("night_session_reopen", args=[night.pk, 1]), {"reason": ""})
    assert refused.status_code == 422 and 'id="id_reason_error"' in refused.content.decode()
    director_client.post(reverse("night_session_reopen", args=[night.pk, 1]), {"reason": "deal 3 of table 2 was wrong"})
    assert all(t.evening.status == Evening.Status.OPEN for t in tables(night))
    assert "deal 3 of table 2 was wrong" in director_client.get(reverse("night", args=[night.pk])).content.decode()


@pytest.mark.both_databases
def test_it_lets_the_director_correct_any_deal_of_the_night(director_client, make_night, director):
    night = make_night(players=8)
    table = tables(night)[1]
    evenings.record_deal(table.evening, deal(table.evening), director)
    recorded = table.evening.deals.get()
    response = director_client.post(
        reverse("deal_edit", args=[table.evening.pk, 1]),
        {**samen(table.evening, made=False), "version": recorded.version},
    )
    assert response.status_code == 302
    assert table.evening.deals.get().data["tricks"] == 7


@pytest.mark.both_databases
def test_it_swaps_in_a_substitute_at_the_tables_not_begun(director_client, make_night, director):
    night = make_night(players=8, sessions=3)
    leaving = night.participants.get(number=3)
    begun = next(t for t in tables(night) if leaving.name in [s.name for s in t.evening.seats.all()])
    evenings.record_deal(begun.evening, deal(begun.evening), director)
    response = director_client.post(reverse("night_substitute", args=[night.pk]), {"leaving": "3", "name": "Zoë"})
    assert response.status_code == 302
    sub = night.participants.get(name="Zoë")
    assert sub.number == 9 and sub.replaces == leaving
    assert Participant.objects.get(pk=leaving.pk).last_session == 1
    assert leaving.name in [s.name for s in begun.evening.seats.all()]  # the begun table keeps its deals' names
    for session in (2, 3):
        seated = [s.name for t in tables(night, session) for s in t.evening.seats.all()]
        assert "Zoë" in seated and leaving.name not in seated
    night.refresh_from_db()
    assert all(9 in t for t in night.plan["sessions"][1]["tables"] if len(t) and 9 in t)


@pytest.mark.both_databases
def test_it_adds_a_late_arrival_from_the_next_session_redrawing_only_the_sessions_left(
    director_client, make_night, director
):
    night = make_night(players=8, sessions=3)
    first_session = [[s.name for s in t.evening.seats.all()] for t in tables(night)]
    t = tables(night)[0]
    evenings.record_deal(t.evening, deal(t.evening), director)
    response = director_client.post(reverse("night_late", args=[night.pk]), {"name": "Laat"})
    assert response.status_code == 302
    late = night.participants.get(name="Laat")
    assert late.number == 9 and late.first_session == 2
    assert [[s.name for s in t.evening.seats.all()] for t in tables(night)] == first_session
    for session in (2, 3):
        sizes = sorted(t.evening.seats.count() for t in tables(night, session))
        assert sizes == [4, 5]
        assert "Laat" in [s.name for t in tables(night, session) for s in t.evening.seats.all()]
    night.refresh_from_db()
    assert sorted(p for t in night.plan["sessions"][2]["tables"] for p in t) == list(range(1, 10))


@pytest.mark.both_databases
def test_it_refuses_a_late_arrival_once_the_last_session_has_begun(director_client, make_night, director):
    night = make_night(players=8, sessions=1)
    t = tables(night)[0]
    evenings.record_deal(t.evening, deal(t.evening), director)
    response = director_client.post(reverse("night_late", args=[night.pk]), {"name": "Laat"})
    assert response.status_code == 422 and 'id="id_late_name_error"' in response.content.decode()


@pytest.mark.both_databases
def test_it_prints_a_card_per_table_and_session_with_a_qr_code_and_a_working_link(director_client, client, make_night):
    night = make_night(players=8, sessions=2)
    response = director_client.post(reverse("night_cards", args=[night.pk]))
    html = response.content.decode()
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    assert html.count('class="night-card"') == 4 and html.count("<svg") >= 4
    paths = card_links(html)
    assert len(paths) == 4
    one_session = director_client.post(reverse("night_cards", args=[night.pk]), {"session": "2"}).content.decode()
    assert len(card_links(one_session)) == 2
    director_client.logout()
    assert client.get(paths[0]).status_code == 302  # session 1's cards are still good


def test_it_shows_the_plan_for_printing(director_client, make_night):
    night = make_night(players=9, sessions=2)
    html = director_client.get(reverse("night_plan", args=[night.pk])).content.decode()
    assert html.count('class="night-seat"') == 18
