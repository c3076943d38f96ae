"""Never lose or double a deal: concurrent scorers, retried posts, a failure in the middle of a save."""

import threading
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from scorebook.evenings import access, services, stored, summary
from scorebook.evenings.access import EveningAccess
from scorebook.evenings.models import Deal, Evening

pytestmark = pytest.mark.both_databases  # the site's write path runs in every test here (tests/write_path.py)

PAIR = {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": "8"}


def _post_in_threads(evening, user, payloads):
    """Post every payload at once, each from its own thread and database connection."""
    start = threading.Barrier(len(payloads))
    answers, errors = [], []

    def post(data):
        client = Client()
        client.force_login(user)
        try:
            start.wait()
            answers.append(client.post(reverse("deal_record", args=[evening.pk]), data).status_code)
        except Exception as error:  # noqa: BLE001 - any failure of a thread is reported below
            errors.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(data,)) for data in payloads]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers, errors


@pytest.mark.django_db(transaction=True)
def test_it_stores_twenty_concurrent_deals_once_each_with_numbers_in_order(make_evening, scorer):
    evening = make_evening("kleurenwiezen", stake=None)
    payloads = [PAIR | {"request_key": f"key-{i}"} for i in range(20)]
    answers, errors = _post_in_threads(evening, scorer, payloads)
    assert not errors
    assert answers == [302] * 20
    numbers = list(Deal.objects.filter(evening=evening).order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, 21))
    keys = set(Deal.objects.filter(evening=evening).values_list("request_key", flat=True))
    assert keys == {f"key-{i}" for i in range(20)}
    evening.refresh_from_db()
    assert evening.version == 20
    assert evening.summary["version"] == 20
    assert stored.scored(evening).result.totals == {"Anne": 160, "Bert": -160, "Carl": 160, "Dina": -160}


@pytest.mark.django_db(transaction=True)
def test_it_records_a_deal_once_when_the_same_form_is_posted_five_times_at_once(make_evening, scorer):
    evening = make_evening("kleurenwiezen", stake=None)
    answers, errors = _post_in_threads(evening, scorer, [PAIR | {"request_key": "double-tap"}] * 5)
    assert not errors and answers == [302] * 5
    assert Deal.objects.filter(evening=evening).count() == 1


@pytest.mark.django_db
def test_it_answers_a_retried_post_with_the_same_result(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen")
    data = PAIR | {"request_key": "retry"}
    first = scorer_client.post(reverse("deal_record", args=[evening.pk]), data, HTTP_HX_REQUEST="true")
    again = scorer_client.post(reverse("deal_record", args=[evening.pk]), data, HTTP_HX_REQUEST="true")
    assert first.status_code == again.status_code == 200
    assert Deal.objects.filter(evening=evening).count() == 1
    assert 'id="board"' in again.content.decode()


@pytest.mark.django_db
def test_it_leaves_the_evening_as_it_was_when_saving_fails_halfway(scorer, make_evening):
    evening = make_evening("kleurenwiezen", deals=[{"contract": "pass"}])
    evening.refresh_from_db()
    before = (evening.version, dict(evening.summary), list(Deal.objects.filter(evening=evening).values()))
    failing = mock.patch.object(summary, "with_deal", side_effect=RuntimeError("disk full"))  # after the row is written
    with failing, pytest.raises(RuntimeError):
        services.record_deal(evening, {"contract": "alleen-5", "declarers": ["Bert"], "tricks": 5}, scorer)
    fresh = Evening.objects.get(pk=evening.pk)
    after = (fresh.version, fresh.summary, list(Deal.objects.filter(evening=evening).values()))
    assert after == before


@pytest.mark.django_db
def test_it_leaves_the_deals_as_they_were_when_a_correction_fails_halfway(scorer, make_evening):
    evening = make_evening("kleurenwiezen", deals=[{"contract": "pass"}, PAIR | {"tricks": 8}])
    rows = list(Deal.objects.filter(evening=evening).order_by("number").values("number", "data", "version"))
    with mock.patch.object(summary, "summarize", side_effect=RuntimeError("crash")), pytest.raises(RuntimeError):
        services.delete_deal(evening, 1, scorer)
    assert list(Deal.objects.filter(evening=evening).order_by("number").values("number", "data", "version")) == rows
    assert not evening.revisions.exists()


@pytest.mark.django_db(transaction=True)
def test_it_decides_on_the_read_its_access_made_under_the_lock_and_reads_any_other_again(make_evening, scorer):
    """The service decides on the evening as its caller read it only when the access it is given says
    it was read under the lock in the caller's transaction (``EveningAccess.locked``, the scoring
    view's); given the evening itself, or an access read without the lock, it reads it again."""
    deal = PAIR | {"tricks": 8}
    evening = make_evening("kleurenwiezen", deals=[deal])
    Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.CLOSED)  # meanwhile, elsewhere
    with pytest.raises(services.EveningClosed):
        services.record_deal(evening, deal, scorer)
    with pytest.raises(services.EveningClosed):
        services.record_deal(EveningAccess(evening, may_score=True), deal, scorer)
    with transaction.atomic():
        read = access.lock(Evening.objects.all(), evening.pk)
        Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.OPEN)
        with pytest.raises(services.EveningClosed):  # the read it was given, in its transaction
            services.record_deal(EveningAccess(read, may_score=True, locked=True), deal, scorer)
    assert Deal.objects.filter(evening=evening).count() == 1
