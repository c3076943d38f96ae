"""The hot path's hand-written statements (scorebook.evenings.statements) do what the ORM would."""

import pytest
from django.db.models.signals import post_save, pre_save
from django.utils import timezone

from scorebook.clubs.models import Club, Membership, Role
from scorebook.evenings import statements
from scorebook.evenings.models import Deal, Evening

pytestmark = pytest.mark.django_db

PASS = {"contract": "pass"}


def test_it_inserts_a_deal_as_the_orm_would(scorer, make_evening):
    evening = make_evening("kleurenwiezen")
    before = timezone.now()
    deal = Deal(evening=evening, number=1, data={"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 8},
                recorded_by=scorer, request_key="k1")
    statements.insert(deal)
    stored = Deal.objects.get(pk=deal.pk)
    assert not deal._state.adding
    assert (stored.evening_id, stored.number, stored.data, stored.recorded_by_id, stored.version, stored.request_key) == (
        evening.pk, 1, deal.data, scorer.pk, 1, "k1"
    )
    assert stored.recorded_at == deal.recorded_at and stored.recorded_at >= before  # auto_now_add, as save() does
    twin = Deal.objects.create(evening=evening, number=2, data=PASS)
    assert twin.pk == deal.pk + 1


def test_it_sends_no_signal_and_none_is_listened_to():
    """``insert`` skips pre_save and post_save: it may do so only while nothing listens to them."""
    assert not pre_save.has_listeners(Deal) and not post_save.has_listeners(Deal)


def test_it_reads_the_evening_and_the_role_of_the_user_in_its_club(scorer, outsider, make_evening):
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    evening = make_evening("kleurenwiezen", club=club, deals=[PASS])
    orm = Evening.objects.get(pk=evening.pk)
    read = statements.evening_and_role(evening.pk, scorer.pk)
    for field in Evening._meta.concrete_fields:
        if field.name != "rules":
            assert getattr(read, field.attname) == getattr(orm, field.attname), field.name
    assert read.get_deferred_fields() == {"rules"} and read.rules == orm.rules  # read when asked for
    assert read.my_role == Role.SCORER
    assert statements.evening_and_role(evening.pk, outsider.pk).my_role is None
    assert statements.evening_and_role(evening.pk, None).my_role is None
    assert statements.evening_and_role(evening.pk + 1000, scorer.pk) is None


def test_it_writes_an_evening_only_while_it_is_open_and_as_it_was_read(make_evening):
    evening = make_evening("kleurenwiezen")
    evening.refresh_from_db()
    read = (evening.version, evening.updated_at)
    evening.version, evening.updated_at, evening.summary = read[0] + 1, timezone.now(), {"written": True}
    assert not statements.write_if_unchanged(evening, read[0] + 7, read[1])  # another version
    assert not statements.write_if_unchanged(evening, read[0], timezone.now())  # changed at another time
    Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.CLOSED)
    assert not statements.write_if_unchanged(evening, *read)  # closed
    Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.OPEN)
    assert statements.write_if_unchanged(evening, *read)
    stored = Evening.objects.get(pk=evening.pk)
    assert (stored.version, stored.updated_at, stored.summary) == (evening.version, evening.updated_at, {"written": True})
