"""Logging in and out, changing a password, and resetting a forgotten one by e-mail (django.contrib.auth's views)."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from conftest import PASSWORD
from pages import body, field_errors
from scorebook.accounts.models import Profile

pytestmark = pytest.mark.django_db

NEW = "another-long-password-77"


@pytest.fixture(autouse=True)
def english(settings):
    """The texts are read in English (the French catalogue comes later)."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def marie(scorer):
    scorer.email = "marie@example.org"
    scorer.save()
    Profile.objects.create(user=scorer, display_name="Marie D.")
    return scorer


def logs_in(client, username, password) -> bool:
    client.logout()
    response = client.post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302 and "_auth_user_id" in client.session


# --- logging in and out ---------------------------------------------------------------


def test_it_logs_in_and_goes_to_next(client, marie):
    response = client.post(reverse("login"), {"username": "marie", "password": PASSWORD, "next": "/evenings/new/"})
    assert response.status_code == 302
    assert response["Location"] == "/evenings/new/"


def test_it_says_when_the_login_fails(client, marie):
    response = client.post(reverse("login"), {"username": "marie", "password": "wrong"})
    assert "Please enter a correct username and password" in body(response)
    assert "_auth_user_id" not in client.session


def test_it_links_the_login_page_to_the_signup_and_the_reset(client):
    html = body(client.get(reverse("login"), {"next": "/evenings/new/"}))
    assert f'href="{reverse("password_reset")}"' in html
    assert f'href="{reverse("signup")}?next=/evenings/new/"' in html


def test_it_logs_out_by_post_only(client, marie):
    client.force_login(marie)
    assert client.get(reverse("logout")).status_code == 405
    assert "_auth_user_id" in client.session
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("profile")).status_code == 302


def test_it_renders_the_logged_out_page_when_no_redirect_is_set(client, marie, settings):
    settings.LOGOUT_REDIRECT_URL = None
    client.force_login(marie)
    response = client.post(reverse("logout"))
    assert response.status_code == 200
    assert "You are logged out." in body(response)


# --- changing the password ------------------------------------------------------------


def test_it_changes_the_password_and_keeps_the_session(client, marie):
    client.force_login(marie)
    page = client.get(reverse("password_change"))
    assert page.status_code == 200
    for name in ("old_password", "new_password1", "new_password2"):
        assert f'<label for="id_{name}">' in body(page)
    response = client.post(
        reverse("password_change"), {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
    )
    assert response["Location"] == reverse("password_change_done")
    done = client.get(response["Location"])
    assert done.status_code == 200  # still logged in: the session follows the new password
    assert "Password changed" in body(done)
    assert logs_in(client, "marie", NEW)
    assert not logs_in(client, "marie", PASSWORD)


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"old_password": "wrong", "new_password1": NEW, "new_password2": NEW}, "old_password", "incorrectly"),
        ({"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW + "x"}, "new_password2", "didn’t match"),
        (
            {"old_password": PASSWORD, "new_password1": "password", "new_password2": "password"},
            "new_password2",
            "too common",
        ),
    ],
)
def test_it_shows_password_change_errors_next_to_the_fields(client, marie, data, field, message):
    client.force_login(marie)
    response = client.post(reverse("password_change"), data)
    assert message in field_errors(body(response), field)
    marie.refresh_from_db()
    assert marie.check_password(PASSWORD)


# --- resetting a forgotten password ---------------------------------------------------


def reset_link(message) -> str:
    match = re.search(r"https?://testserver(/accounts/reset/\S+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_it_resets_a_forgotten_password_through_a_mailed_link(client, marie):
    page = client.get(reverse("password_reset"))
    assert '<label for="id_email">E-mail address</label>' in body(page)
    response = client.post(reverse("password_reset"), {"email": "MARIE@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert "Check your mailbox" in body(client.get(response["Location"]))

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["marie@example.org"]
    assert message.subject == "Scorebook: choose a new password"
    assert "Hello Marie D.," in message.body
    assert "Your user name, in case you forgot it: marie" in message.body
    assert "&" not in message.body and "&#" not in message.subject

    # the link leads to the form, at its own address (the token never goes into the session: the database)
    form_page = client.get(reset_link(message), follow=True)
    assert form_page.status_code == 200
    assert 'name="new_password1"' in body(form_page)
    set_url = form_page.wsgi_request.path
    done = client.post(set_url, {"new_password1": NEW, "new_password2": NEW})
    assert done["Location"] == reverse("password_reset_complete")
    assert "Your new password is set." in body(client.get(done["Location"]))

    assert logs_in(client, "marie", NEW)
    assert not logs_in(client, "marie", PASSWORD)

    # the link works once
    again = client.get(reset_link(message), follow=True)
    assert "This link no longer works" in body(again)
    assert 'name="new_password1"' not in body(again)


def test_it_shows_reset_errors_next_to_the_fields(client, marie):
    client.post(reverse("password_reset"), {"email": "marie@example.org"})
    form_page = client.get(reset_link(mail.outbox[0]), follow=True)
    set_url = form_page.wsgi_request.path
    response = client.post(set_url, {"new_password1": NEW, "new_password2": "different-one-99"})
    assert "didn’t match" in field_errors(body(response), "new_password2")
    marie.refresh_from_db()
    assert marie.check_password(PASSWORD)


def test_it_says_nothing_about_an_unknown_address(client, marie):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_it_shows_an_invalid_address_next_to_the_field(client):
    response = client.post(reverse("password_reset"), {"email": "not-an-address"})
    assert "Enter a valid email address." in field_errors(body(response), "email")
    assert mail.outbox == []


def test_it_refuses_a_forged_reset_link(client, marie):
    response = client.get(reverse("password_reset_confirm", args=["MQ", "forged-token"]))
    assert "This link no longer works" in body(response)
    assert f'href="{reverse("password_reset")}"' in body(response)


def test_it_writes_the_reset_mail_as_plain_text(client, make_user):
    lea = make_user("lea", email="lea@example.org")
    Profile.objects.create(user=lea, display_name="Léa & <Co>")
    client.post(reverse("password_reset"), {"email": "lea@example.org"})
    (message,) = mail.outbox
    assert "Hello Léa & <Co>," in message.body
    assert "&amp;" not in message.body and "&lt;" not in message.body
    assert message.alternatives == []
