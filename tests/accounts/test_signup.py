"""Signing up: a user, his profile with the display name, logged in, sent to a safe place."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from pages import Page, body, field_errors
from scorebook.accounts.models import Profile

pytestmark = pytest.mark.django_db

User = get_user_model()
STRONG = "green-table-42-spades"


@pytest.fixture(autouse=True)
def english(settings):
    """The error texts are read in English (the French catalogue comes later)."""
    settings.LANGUAGE_CODE = "en"


def signup_data(**changes):
    data = {
        "username": "jeanne",
        "display_name": "Jeanne V.",
        "email": "jeanne@example.org",
        "password1": STRONG,
        "password2": STRONG,
    }
    data.update(changes)
    return data


def main_of(response) -> str:
    """The page's own content, without the site's top bar and footer."""
    return body(response).split("<main", 1)[1].split("</main>", 1)[0]


def logged_in_user_id(client):
    return client.session.get("_auth_user_id")


def test_it_shows_the_signup_form(client):
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    html = body(response)
    for name in ("username", "display_name", "email", "password1", "password2"):
        assert f'name="{name}"' in html
        assert f'<label for="id_{name}">' in html
    assert 'autocomplete="new-password"' in html
    assert "<script" not in main_of(response)
    assert " style=" not in html


@pytest.mark.both_databases
def test_it_creates_the_user_and_profile_and_logs_in(client):
    response = client.post(reverse("signup"), signup_data())
    assert response.status_code == 302
    assert response["Location"] == reverse("evening_list")
    user = User.objects.get(username="jeanne")
    assert user.email == "jeanne@example.org"
    assert user.check_password(STRONG)
    assert user.profile.display_name == "Jeanne V."
    assert logged_in_user_id(client) == str(user.pk)
    assert client.get(reverse("profile")).status_code == 200


@pytest.mark.both_databases
def test_it_lets_the_email_address_out(client):
    response = client.post(reverse("signup"), signup_data(email=""))
    assert response.status_code == 302
    assert User.objects.get(username="jeanne").email == ""


@pytest.mark.both_databases
def test_it_tidies_the_display_name_and_the_email_domain(client):
    client.post(reverse("signup"), signup_data(display_name="  Jeanne   V. ", email="Jeanne@EXAMPLE.org"))
    user = User.objects.get(username="jeanne")
    assert user.profile.display_name == "Jeanne V."
    assert user.email == "Jeanne@example.org"


@pytest.mark.both_databases
def test_it_sends_to_a_safe_next_url(client):
    response = client.post(reverse("signup") + "?next=/evenings/new/", signup_data())
    assert response["Location"] == "/evenings/new/"


@pytest.mark.both_databases
def test_it_keeps_the_next_url_through_the_form(client):
    html = body(client.get(reverse("signup") + "?next=/evenings/new/"))
    assert '<input type="hidden" name="next" value="/evenings/new/">' in html
    response = client.post(reverse("signup"), signup_data(next="/evenings/new/"))
    assert response["Location"] == "/evenings/new/"


@pytest.mark.both_databases
@pytest.mark.parametrize(
    "unsafe",
    ["https://evil.example/", "//evil.example/steal", "http://evil.example", "javascript:alert(1)", "///evil.example"],
)
def test_it_ignores_an_unsafe_next_url(client, unsafe):
    assert "evil" not in main_of(client.get(reverse("signup"), {"next": unsafe}))
    response = client.post(reverse("signup"), signup_data(next=unsafe))
    assert response.status_code == 302
    assert response["Location"] == reverse("evening_list")


def test_it_sends_a_logged_in_visitor_on(scorer_client):
    response = scorer_client.get(reverse("signup"))
    assert response.status_code == 302
    assert response["Location"] == reverse("evening_list")


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"username": "marie"}, "username", "A user with that username already exists."),
        ({"username": "MARIE"}, "username", "A user with that username already exists."),
        ({"username": "jeanne@example.org"}, "username", "cannot contain “@”"),
        ({"username": ""}, "username", "This field is required."),
        ({"password1": "12345678", "password2": "12345678"}, "password2", "This password is too common."),
        ({"password1": "short", "password2": "short"}, "password2", "This password is too short."),
        ({"password1": "jeanne-v1", "password2": "jeanne-v1"}, "password2", "too similar to the username"),
        ({"password2": STRONG + "!"}, "password2", "The two password fields didn’t match."),
        ({"display_name": ""}, "display_name", "This field is required."),
        ({"display_name": "   "}, "display_name", "This field is required."),
        ({"display_name": "x" * 61}, "display_name", "at most 60 characters"),
        ({"display_name": "jeanne@example.org"}, "display_name", "not an e-mail address"),
        ({"email": "jeanne-at-example"}, "email", "Enter a valid email address."),
    ],
)
def test_it_shows_errors_next_to_the_fields_and_creates_nothing(client, scorer, changes, field, message):
    users, profiles = User.objects.count(), Profile.objects.count()
    response = client.post(reverse("signup"), signup_data(**changes))
    assert response.status_code == 422
    html = body(response)
    assert message in field_errors(html, field)
    assert 'aria-invalid="true"' in html
    assert (
        f'aria-describedby="id_{field}_helptext id_{field}_error"' in html
        or f'aria-describedby="id_{field}_error"' in html
    )
    assert (User.objects.count(), Profile.objects.count()) == (users, profiles)
    assert logged_in_user_id(client) is None


def test_it_keeps_what_was_typed_except_the_passwords(client, scorer):
    html = body(client.post(reverse("signup"), signup_data(username="marie")))
    assert 'value="Jeanne V."' in html
    assert 'value="jeanne@example.org"' in html
    assert STRONG not in html


def test_it_never_shows_the_email_of_the_account_whose_name_is_taken(client, make_user):
    make_user("paul", email="paul.private@example.org")
    html = body(client.post(reverse("signup"), signup_data(username="paul")))
    assert "A user with that username already exists." in field_errors(html, "username")
    assert "paul.private" not in html


def test_it_treats_an_empty_post_as_an_invalid_form(client):
    response = client.post(reverse("signup"), {})
    assert response.status_code == 422
    assert field_errors(body(response), "username")


def test_it_refuses_other_methods(client):
    assert client.put(reverse("signup")).status_code == 405


def test_it_puts_the_focus_on_the_first_field_in_error(client):
    def focused(html):
        return [e.get("name") for e in Page(html).elements() if e.has("autofocus")]

    assert focused(body(client.get(reverse("signup")))) == ["username"]
    html = body(client.post(reverse("signup"), signup_data(password2="other-long-password-1")))
    assert focused(html) == ["password2"]
    assert html.count("autofocus") == 1
