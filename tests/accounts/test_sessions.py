"""A session is read with its account in one query, and still only lets in whom Django would let in:
the same account, still active, its password unchanged since the login."""

import importlib

import pytest
from django.contrib.auth import SESSION_KEY
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorebook.accounts.models import Session

pytestmark = pytest.mark.django_db


def _profile(client):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("profile"))
    return response, [q["sql"] for q in queries]


def test_it_reads_the_session_and_its_account_in_one_query(scorer_client, scorer):
    response, queries = _profile(scorer_client)
    assert response.status_code == 200 and response.context["user"] == scorer
    assert 'FROM "accounts_session" LEFT OUTER JOIN "auth_user"' in queries[0]
    assert not any('FROM "auth_user"' in sql for sql in queries)  # no query of its own
    assert Session.objects.get().user == scorer


def test_it_logs_out_a_session_whose_password_changed_since(scorer_client, scorer):
    scorer.set_password("another-long-password")
    scorer.save()
    response, _queries = _profile(scorer_client)
    assert response.status_code == 302 and reverse("login") in response.url
    assert not Session.objects.exists()  # flushed, as Django does


def test_it_logs_out_a_session_whose_account_was_closed(scorer_client, scorer):
    scorer.is_active = False
    scorer.save()
    response, _queries = _profile(scorer_client)
    assert response.status_code == 302


def test_it_deletes_the_sessions_of_a_deleted_account(scorer_client, scorer):
    assert Session.objects.filter(user=scorer).exists()
    scorer.delete()
    assert not Session.objects.exists()
    assert _profile(scorer_client)[0].status_code == 302


def test_it_lets_in_a_session_of_the_other_backend_as_django_would(client, scorer, outsider):
    """A session naming another account than the one its row keeps is Django's to judge."""
    client.force_login(scorer)
    session = Session.objects.get()
    Session.objects.filter(pk=session.pk).update(user=outsider)
    response, _queries = _profile(client)
    assert response.status_code == 200 and response.context["user"] == scorer


def test_it_keeps_the_sessions_logged_in_across_the_upgrade(scorer, settings):
    """accounts.0002: the sessions of Django's table move, with their account, into the new one."""
    from django.apps import apps
    from django.contrib.sessions.backends.db import SessionStore as DjangoStore

    old = DjangoStore()
    old[SESSION_KEY] = str(scorer.pk)
    old.save()
    anonymous = DjangoStore()
    anonymous["scoring_links"] = {"1": 2}
    anonymous.save()
    migration = importlib.import_module("scorebook.accounts.migrations.0002_sessions_with_their_user")
    migration.moved(apps, None)
    moved = {s.session_key: s for s in Session.objects.all()}
    assert moved[old.session_key].user == scorer and moved[anonymous.session_key].user is None
    assert moved[old.session_key].get_decoded() == {SESSION_KEY: str(scorer.pk)}
    assert not apps.get_model("sessions", "Session").objects.exists()
