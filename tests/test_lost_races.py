"""Issue 32, item 4: a write that loses a race inside the database (a deadlock, a serialization
failure, a request key taken by a transaction that committed first) runs once more, or is answered
409 in words: never a 500. The mechanism is one middleware (``core.races.RetryLostRaces``) for every
view; the probe's case, one payment key posted to two forms at once (the evening's and the club
ledger's), deadlocked on PostgreSQL. Both databases (``DATABASE_URL``)."""

import sys
from datetime import date
from types import SimpleNamespace

import pytest
from django.db import IntegrityError, OperationalError
from django.http import HttpResponse
from django.urls import path, reverse

from builders import club_evening
from club_fixtures import *  # noqa: F403
from races import Shot, race
from scorebook import urls as site_urls
from scorebook.clubs.models import Player
from scorebook.evenings.models import Payment

# a write that lost a race in the database: each database's errors and transactions: both databases
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.both_databases,
]  # the views' own transactions, as deployed

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}  # Bert pays Anne 1.40
SENTENCE = "Another change to the same thing was being saved at the same moment"


class DatabaseSaid(Exception):
    """What the database driver raises, with its SQLSTATE (psycopg's ``sqlstate``)."""

    def __init__(self, sqlstate: str):
        super().__init__(f"SQLSTATE {sqlstate}")
        self.sqlstate = sqlstate


def fail(kind, sqlstate: str):
    try:
        raise DatabaseSaid(sqlstate)
    except DatabaseSaid as cause:
        raise kind(str(cause)) from cause


calls: list[str] = []


def deadlocked_once(request):
    calls.append(request.method)
    if len(calls) == 1:
        fail(OperationalError, "40P01")
    return HttpResponse("saved")


def always_deadlocked(request):
    calls.append(request.method)
    fail(OperationalError, "40001")


def key_taken_twice(request):
    calls.append(request.method)
    fail(IntegrityError, "23505")


urlpatterns = [
    path("once/", deadlocked_once),
    path("always/", always_deadlocked),
    path("taken/", key_taken_twice),
    *site_urls.urlpatterns,  # the pages' layout links the site's own addresses
]


@pytest.fixture
def views(settings):
    """The views above as the site's addresses (this very module: the calls are counted here)."""
    settings.ROOT_URLCONF = sys.modules[__name__]
    calls.clear()


def test_it_runs_a_view_that_lost_a_deadlock_once_more(client, views):
    response = client.post("/once/")
    assert response.status_code == 200 and response.content == b"saved" and len(calls) == 2


def test_it_answers_409_in_words_to_a_view_that_loses_twice(client, views):
    response = client.post("/always/", headers={"Accept-Language": "en"})
    assert response.status_code == 409 and SENTENCE in response.content.decode() and len(calls) == 2
    calls.clear()
    htmx = client.post("/always/", headers={"HX-Request": "true", "Accept-Language": "en"})
    assert htmx.status_code == 409 and htmx["HX-Retarget"] == "#notices" and SENTENCE in htmx.content.decode()
    assert len(calls) == 2


def test_it_leaves_a_key_taken_twice_a_server_error(client, views):
    """A unique key that is still taken when the view runs again is a fault of the site, not a race."""
    client.raise_request_exception = False
    assert client.post("/taken/").status_code == 500 and len(calls) == 2


def test_it_records_one_payment_when_one_key_is_posted_to_two_forms_at_once(club, scorer, admin):
    """The evening's payment form (the evening locked) and the ledger's payment on account (the club
    locked) with one request key: on PostgreSQL each waited for the other (a deadlock: a 500)."""
    evening = club_evening(club, scorer, date(2026, 9, 1), [SAMEN_9])
    bert, anne = Player.objects.get(club=club, name="Bert"), Player.objects.get(club=club, name="Anne")

    def setup(n):
        return SimpleNamespace(key=f"one-key-{n}")

    def shots(s):
        part = {"payer": "Bert", "payee": "Anne", "amount": "0,40", "note": "", "key": s.key}
        on_account = {"payer": bert.pk, "payee": anne.pk, "amount": "0,40", "note": "", "key": s.key}
        return [
            Shot(scorer, "post", reverse("payment_add", args=[evening.pk]), part),
            Shot(admin, "post", reverse("club_ledger_pay", args=[club.slug]), on_account),
        ]

    def check(s, answers):
        assert Payment.objects.filter(request_key=s.key).count() == 1
        assert all(a.status in (200, 302, 409) for a in answers), [a.status for a in answers]

    race(setup, shots, check)
