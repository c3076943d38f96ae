"""A new night: the form's limit on its size, and its plan drawn before any lock is taken, so
that the other evenings' phones never wait on it."""

import threading
from decimal import Decimal

import pytest
from django.db import close_old_connections, connection

from night_builders import NAMES, deal
from scorebook.evenings import services as evenings
from scorebook.nights import seating, services
from scorebook.nights.forms import NightForm
from scorebook.nights.models import Night


def night_data(players: int, sessions: int) -> dict:
    return {
        "name": "Kaartavond",
        "date": "2026-03-14",
        "ruleset": "kleurenwiezen",
        "sessions": str(sessions),
        "deals_per_session": "8",
        "ranking": "total",
        "place_points": "4, 3, 2, 1, 0",
        "currency": "EUR",
        "guests": "\n".join(f"Speler {i}" for i in range(1, players + 1)),
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("players", "sessions", "valid"), [(160, 5, True), (40, 20, True), (161, 5, False), (400, 20, False)]
)
def test_it_refuses_a_night_bigger_than_what_is_planned_within_two_seconds(club, players, sessions, valid):
    form = NightForm(night_data(players, sessions), club=club)
    assert form.is_valid() is valid
    if not valid:
        error = form.errors["sessions"][0]
        assert f"{players} players × {sessions} sessions" in error and str(seating.MAX_SEATS) in error


@pytest.mark.parametrize(("players", "sessions"), [(160, 5), (40, 20), (57, 14)])
def test_it_plans_every_night_the_form_allows(players, sessions):
    """How long it takes is `make bench`'s (seating_plan_*_s, target 2 s)."""
    plan = seating.make_plan(players, sessions, seed=1)
    assert len(plan.sessions) == sessions
    assert all(sorted(p for table in s for p in table) == list(range(1, players + 1)) for s in plan.sessions)


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_it_draws_the_plan_before_the_transaction_so_another_evenings_deal_never_waits(
    club, director, make_night, monkeypatch
):
    other = make_night(players=8, sessions=1)
    table = other.night_sessions.get().tables.first().evening
    recorded = threading.Event()
    planned_outside = []
    real_plan = seating.make_plan

    def record_elsewhere():
        try:
            evenings.record_deal(table, deal(table), director)
            recorded.set()
        finally:
            close_old_connections()

    def slow_plan(*args, **kwargs):
        planned_outside.append(not connection.in_atomic_block)
        writer = threading.Thread(target=record_elsewhere)
        writer.start()
        writer.join(timeout=10)  # a lock held while planning would keep the deal waiting
        return real_plan(*args, **kwargs)

    monkeypatch.setattr(services.seating, "make_plan", slow_plan)
    make_night(players=NAMES[:12], sessions=3)
    assert planned_outside == [True]
    assert recorded.is_set()


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_it_draws_a_late_arrivals_plan_before_the_transaction(make_night, monkeypatch):
    night = make_night(players=20, sessions=5)
    planned_outside = []
    real_plan = seating.make_plan

    def watched(*args, **kwargs):
        planned_outside.append(not connection.in_atomic_block)
        return real_plan(*args, **kwargs)

    monkeypatch.setattr(services.seating, "make_plan", watched)
    services.late_arrival(night, "Laat", None)
    assert planned_outside == [True]
    night.refresh_from_db()
    plan = seating.Plan(tuple(tuple(tuple(t) for t in s["tables"]) for s in night.plan["sessions"]))
    assert plan.repeats() == 0 and night.plan["repeats"] == 0


@pytest.mark.django_db
def test_it_proposes_today_and_leaves_the_sessions_to_the_number_of_players(club, director_client):
    from django.urls import reverse
    from django.utils import timezone

    from pages import Page, body

    page = Page(body(director_client.get(reverse("night_new", args=[club.slug]))))
    assert page.field_value("date") == timezone.localdate().isoformat()
    assert page.field_value("sessions") == ""  # drawn from the players when the form is sent


@pytest.mark.django_db
@pytest.mark.parametrize(("players", "sessions"), [(8, 3), (12, 3), (16, 5), (40, 5)])
def test_it_gives_a_night_its_sessions_from_its_players(club, players, sessions):
    form = NightForm({**night_data(players, 1), "sessions": ""}, club=club)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["sessions"] == sessions
    assert form.cleaned_data["sessions"] <= max(3, seating.repeat_free_sessions(players))


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_asks_to_confirm_a_stake_of_a_euro_a_point_or_more(club, director_client):
    """As the new-evening form does (issue 29): a night at €1 a point or more waits for the box."""
    from django.urls import reverse

    from pages import body, field_errors

    url = reverse("night_new", args=[club.slug])
    response = director_client.post(url, night_data(8, 2) | {"stake": "1"})
    assert response.status_code == 422
    html = body(response)
    assert "1 a point is a lot (a 30-point deal costs 30)" in field_errors(html, "stake")
    assert 'name="confirm_stake"' in html
    assert not Night.objects.exists()
    assert director_client.post(url, night_data(8, 2) | {"stake": "0.99"}).status_code == 302  # below: no question
    assert director_client.post(url, night_data(8, 2) | {"stake": "1", "confirm_stake": "on"}).status_code == 302
    assert sorted(Night.objects.values_list("stake", flat=True)) == [Decimal("0.99"), Decimal("1")]
    assert 'name="confirm_stake"' not in body(director_client.get(url))
