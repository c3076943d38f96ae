"""Look-alike identities (issue 13, finding 14) and the reserved demo name (finding 7):
a name that looks like another account's, or like ``demo``, is refused next to its field."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scorebook.accounts.models import Profile

# names compared without case or look-alikes, in the database's lookups: both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

STRONG = "green-table-42-spades"


def signup(client, **changes):
    data = {"username": "jeanne", "display_name": "Jeanne V.", "password1": STRONG, "password2": STRONG} | changes
    return client.post(reverse("signup"), data)


def errors(response, field):
    assert response.status_code == 422
    return " ".join(response.context["form"].errors.get(field, []))


@pytest.fixture
def ada_admin(make_user):
    user = make_user("a_admin")
    Profile.objects.create(user=user, display_name="Ada Admin")
    return user


@pytest.mark.parametrize(
    "lookalike", ["а_admin", "A_ADMIN", "ａ_admin", "a_admіn"]
)  # Cyrillic а, capitals, full width, Ukrainian і
def test_it_refuses_a_user_name_that_looks_like_an_existing_one(client, ada_admin, lookalike):
    response = signup(client, username=lookalike)
    assert "looks just like it" in errors(response, "username") or "already exists" in errors(response, "username")
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize("copy", ["Ada Admin", "АDA ADMIN", "Ada  Admіn"])
def test_it_refuses_a_display_name_that_copies_another_accounts(client, ada_admin, copy):
    response = signup(client, display_name=copy)
    assert "looks like it" in errors(response, "display_name")
    assert get_user_model().objects.count() == 1


def test_it_refuses_a_display_name_copied_on_the_profile_page(client, ada_admin, make_user):
    mia_member = make_user("mia_member")
    Profile.objects.create(user=mia_member, display_name="Mia")
    client.force_login(mia_member)
    response = client.post(reverse("profile"), {"display_name": "Аda Admin", "email": ""})
    assert "looks like it" in errors(response, "display_name")
    assert Profile.objects.get(user=mia_member).display_name == "Mia"


def test_it_lets_a_member_keep_his_own_display_name(client, ada_admin):
    client.force_login(ada_admin)
    assert client.post(reverse("profile"), {"display_name": "Ada Admin", "email": ""}).status_code == 302


def test_it_still_signs_up_a_name_unlike_any_other(client, ada_admin):
    assert signup(client, username="jeanne", display_name="Jeanne V.").status_code == 302


@pytest.mark.parametrize("name", ["demo", "Demo", "dem0", "ｄｅｍｏ", "dеmo"])
def test_it_reserves_the_demo_user_name_at_sign_up(client, name):
    response = signup(client, username=name)
    assert "reserved" in errors(response, "username")
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize("copy", ["aIice", "AIice", "A1ice", "Alicе"])  # capital I, digit 1, Cyrillic е
def test_it_refuses_a_display_name_whose_capital_i_passes_for_an_l(client, make_user, copy):
    """Issue 32, item 5: ``aIice`` (a capital I) reads as ``alice``: folding its case alone made it
    ``aiice``, another name."""
    alice = make_user("alice_member")
    Profile.objects.create(user=alice, display_name="Alice")
    response = signup(client, display_name=copy)
    assert "looks like it" in errors(response, "display_name")
    assert get_user_model().objects.count() == 1


def test_it_refuses_a_user_name_whose_capital_i_passes_for_an_l(client, make_user):
    make_user("alice")
    response = signup(client, username="aIice")
    assert "looks just like it" in errors(response, "username")


# Issue 39: the name others see is the profile's display name, else the first name, else the user name
# (accounts.models.display_name); only the first was compared, so "Demo" (seed_demo's account, which
# has no profile) was taken a second time, and "aIice" beside an account shown as "alice".


@pytest.fixture
def demo_account(make_user):
    """The demo account as seed_demo makes it: no profile, shown by its first name."""
    return make_user("demo", first_name="Demo")


@pytest.mark.parametrize("copy", ["Demo", "DEMO", "dem0", "Dеmo"])
@pytest.mark.both_databases
def test_it_refuses_the_name_shown_for_an_account_without_a_profile(client, demo_account, copy):
    response = signup(client, display_name=copy)
    assert "looks like it" in errors(response, "display_name")
    assert get_user_model().objects.count() == 1


@pytest.mark.both_databases
def test_it_refuses_a_user_name_shown_as_the_name_of_an_account_without_one(client, make_user):
    make_user("alice")  # no profile, no first name: shown as "alice"
    response = signup(client, username="jeanne", display_name="aIice")
    assert "looks like it" in errors(response, "display_name")


@pytest.mark.both_databases
def test_it_refuses_the_demo_name_on_the_profile_page(client, demo_account, make_user):
    mia_member = make_user("mia_member")
    Profile.objects.create(user=mia_member, display_name="Mia")
    client.force_login(mia_member)
    response = client.post(reverse("profile"), {"display_name": "demo", "email": ""})
    assert "looks like it" in errors(response, "display_name")
    assert Profile.objects.get(user=mia_member).display_name == "Mia"
