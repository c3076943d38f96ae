"""A password reset answers a known and an unknown address alike (issue 13, finding 11): the
mail is rendered and sent once the answer has gone out, when the server closes the response."""

import pytest
from django.contrib.sessions.middleware import SessionMiddleware
from django.core import mail
from django.test import RequestFactory

from scorebook.accounts.views.login import password_reset

pytestmark = pytest.mark.django_db


def post_reset(email):
    request = RequestFactory().post("/accounts/password_reset/", {"email": email})
    SessionMiddleware(lambda r: None).process_request(request)
    request._dont_enforce_csrf_checks = True
    return password_reset(request)


def test_it_answers_before_the_mail_is_made_and_sends_it_after(make_user):
    make_user("marie", email="marie@example.org")
    response = post_reset("marie@example.org")
    assert response.status_code == 302
    assert mail.outbox == []  # nothing rendered or sent while the visitor waits
    response.close()  # what the server does once the answer has gone out
    assert [m.to for m in mail.outbox] == [["marie@example.org"]]


def test_it_answers_a_known_and_an_unknown_address_the_same_way(make_user):
    make_user("marie", email="marie@example.org")
    known, unknown = post_reset("marie@example.org"), post_reset("nobody@example.org")
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    unknown.close()
    assert mail.outbox == []
