"""The profile page (the owner's own display name and e-mail address) and the display_name filter."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import Context, Template
from django.urls import reverse

from pages import body, field_errors
from scorebook.accounts.models import Profile, display_name

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(settings):
    """The texts are read in English (the French catalogue comes later)."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def marie(scorer):
    scorer.email = "marie.private@example.org"
    scorer.save()
    Profile.objects.create(user=scorer, display_name="Marie D.")
    return scorer


@pytest.fixture
def olivier(outsider):
    outsider.email = "olivier.private@example.org"
    outsider.save()
    Profile.objects.create(user=outsider, display_name="Olivier")
    return outsider


def render_name(user) -> str:
    return Template("{% load accounts_tags %}[{{ who|display_name }}]").render(Context({"who": user}))


# --- the profile page ---------------------------------------------------------------


def test_it_shows_the_owner_his_display_name_and_email(client, marie):
    client.force_login(marie)
    response = client.get(reverse("profile"))
    assert response.status_code == 200
    html = body(response)
    assert 'value="Marie D."' in html
    assert 'value="marie.private@example.org"' in html
    assert "<strong>marie</strong>" in html
    assert f'href="{reverse("password_change")}"' in html


@pytest.mark.both_databases
def test_it_saves_a_new_display_name_and_email(client, marie):
    client.force_login(marie)
    response = client.post(reverse("profile"), {"display_name": " Marie  Dupont ", "email": "marie@EXAMPLE.org"})
    assert response.status_code == 302
    assert response["Location"] == reverse("profile")
    marie.refresh_from_db()
    assert marie.profile.display_name == "Marie Dupont"
    assert marie.email == "marie@example.org"
    page = client.get(response["Location"])
    assert "Your profile is saved." in body(page)


@pytest.mark.both_databases
def test_it_lets_the_owner_remove_his_email(client, marie):
    client.force_login(marie)
    client.post(reverse("profile"), {"display_name": "Marie D.", "email": ""})
    marie.refresh_from_db()
    assert marie.email == ""


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"display_name": "", "email": "new@example.org"}, "display_name", "This field is required."),
        ({"display_name": "marie@example.org", "email": ""}, "display_name", "not an e-mail address"),
        ({"display_name": "Marie", "email": "not-an-address"}, "email", "Enter a valid email address."),
    ],
)
def test_it_shows_errors_next_to_the_fields_and_changes_nothing(client, marie, data, field, message):
    client.force_login(marie)
    response = client.post(reverse("profile"), data)
    assert response.status_code == 422
    assert message in field_errors(body(response), field)
    marie.refresh_from_db()
    assert (marie.profile.display_name, marie.email) == ("Marie D.", "marie.private@example.org")


@pytest.mark.both_databases
def test_it_creates_the_missing_profile_of_an_account_made_elsewhere(client, make_user):
    paul = make_user("paul", first_name="Paul")  # e.g. by createsuperuser: no profile yet
    client.force_login(paul)
    assert 'value="Paul"' in body(client.get(reverse("profile")))
    client.post(reverse("profile"), {"display_name": "Paul L.", "email": ""})
    assert Profile.objects.get(user=paul).display_name == "Paul L."


def test_it_refuses_other_methods(client, marie):
    client.force_login(marie)
    assert client.delete(reverse("profile")).status_code == 405


def test_it_shows_an_email_address_only_to_its_owner(client, marie, olivier):
    client.force_login(marie)
    html = body(client.get(reverse("profile")))
    assert "marie.private@example.org" in html
    assert "olivier.private" not in html
    client.force_login(olivier)
    html = body(client.get(reverse("profile")))
    assert "olivier.private@example.org" in html
    assert "marie.private" not in html


def test_it_puts_no_email_address_in_the_signup_or_login_pages(client, marie, olivier):
    for name in ("signup", "login", "password_reset"):
        assert "private@" not in body(client.get(reverse(name)))


# --- the display_name filter --------------------------------------------------------


def test_it_names_a_user_by_his_display_name(marie):
    assert render_name(marie) == "[Marie D.]"
    assert display_name(marie) == "Marie D."


def test_it_falls_back_to_the_first_name_then_the_user_name(make_user):
    assert render_name(make_user("paul", first_name="Paul", email="paul@example.org")) == "[Paul]"
    assert render_name(make_user("lea", email="lea@example.org")) == "[lea]"


def test_it_falls_back_when_the_display_name_is_empty(make_user):
    paul = make_user("paul", first_name="Paul")
    Profile.objects.create(user=paul, display_name="")
    assert render_name(paul) == "[Paul]"


def test_it_names_nobody_for_an_anonymous_visitor_or_none():
    assert render_name(AnonymousUser()) == "[]"
    assert render_name(None) == "[]"


def test_it_escapes_a_display_name(make_user):
    paul = make_user("paul")
    Profile.objects.create(user=paul, display_name="<b>Paul</b>")
    assert render_name(paul) == "[&lt;b&gt;Paul&lt;/b&gt;]"


def test_it_never_shows_an_email_address(marie, olivier):
    for user in (marie, olivier):
        assert "@" not in render_name(user)


# --- the admin ----------------------------------------------------------------------


def test_it_edits_the_profile_in_the_admin(client, staff, marie):
    client.force_login(staff)
    page = client.get(reverse("admin:auth_user_change", args=[marie.pk]))
    assert page.status_code == 200
    assert 'name="profile-0-display_name"' in body(page)
    listing = client.get(reverse("admin:accounts_profile_changelist"), {"q": "Marie"})
    assert listing.status_code == 200
    assert "Marie D." in body(listing)
