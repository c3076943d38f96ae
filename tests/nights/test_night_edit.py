"""A night made by mistake can be edited, or deleted while no deal is recorded (issue 20, item 2).
Marie (``director``) directs the night."""

from datetime import date

import pytest
from django.urls import reverse

from night_builders import deal, tables
from scorebook.evenings import services as evenings
from scorebook.evenings.models import Evening
from scorebook.nights.models import Night, NightEvent

pytestmark = pytest.mark.django_db


@pytest.mark.both_databases
def test_it_edits_the_name_date_and_deals_per_session_of_a_night(director_client, make_night):
    night = make_night(players=8, deals=8)
    response = director_client.post(
        reverse("night_edit", args=[night.pk]), {"name": "Lenteavond", "date": "2026-03-21", "deals_per_session": "4"}
    )
    assert response.status_code == 302
    night.refresh_from_db()
    assert (night.name, night.date, night.deals_per_session) == ("Lenteavond", date(2026, 3, 21), 4)
    tables_of = Evening.objects.filter(night_table__session__night=night)
    assert {(e.date, e.deal_limit) for e in tables_of} == {(date(2026, 3, 21), 4)}
    event = night.events.get(kind=NightEvent.Kind.EDITED)
    assert "Kaartavond → Lenteavond" in event.detail and "8 → 4" in event.detail


@pytest.mark.both_databases
def test_it_refuses_fewer_deals_per_session_than_a_table_has_played(director_client, make_night, director):
    night = make_night(players=8, deals=8)
    table = tables(night)[0].evening
    for _ in range(3):
        evenings.record_deal(table, deal(table), director)
    response = director_client.post(
        reverse("night_edit", args=[night.pk]), {"name": "Kaartavond", "date": "2026-03-14", "deals_per_session": "2"}
    )
    assert response.status_code == 422
    assert "A table has played 3 deals already" in response.content.decode()
    night.refresh_from_db()
    assert night.deals_per_session == 8


@pytest.mark.both_databases
def test_it_deletes_a_night_without_a_deal_with_its_tables(director_client, make_night, club):
    night = make_night(players=8)
    assert director_client.get(reverse("night_delete", args=[night.pk])).status_code == 200
    response = director_client.post(reverse("night_delete", args=[night.pk]))
    assert response.status_code == 302 and response.url == reverse("night_list", args=[club.slug])
    assert not Night.objects.exists() and not Evening.objects.exists()


@pytest.mark.both_databases
def test_it_keeps_a_night_once_a_deal_is_recorded(director_client, make_night, director):
    night = make_night(players=8)
    table = tables(night, 2)[0].evening
    evenings.record_deal(table, deal(table), director)
    response = director_client.post(reverse("night_delete", args=[night.pk]))
    assert response.status_code == 422 and "cannot be deleted" in response.content.decode()
    assert Night.objects.filter(pk=night.pk).exists() and Evening.objects.count() == 4


def test_a_member_who_is_not_a_director_cannot_edit_or_delete(client, cast, make_night):
    night = make_night(players=8)
    client.force_login(cast["member"])
    assert client.get(reverse("night_edit", args=[night.pk])).status_code == 403
    assert client.post(reverse("night_delete", args=[night.pk])).status_code == 403
    assert Night.objects.filter(pk=night.pk).exists()
