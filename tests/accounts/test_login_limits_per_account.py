"""Password guessing spread over many addresses (issue 23, item 7): the per-name-and-address
limit never trips when each address tries only four passwords, so the account itself is
limited too; and the real person still gets in: from a device or an address where she logged
in before, or after a password reset."""

import re

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

from conftest import PASSWORD

pytestmark = pytest.mark.django_db

HOME = "203.0.113.7"  # where Bea usually logs in


@pytest.fixture
def bea_member(make_user):
    return make_user("b_member", email="bea@example.org")


def log_in(client, username, password, address):
    client.cookies.pop(settings.SESSION_COOKIE_NAME, None)  # logged out; the device keeps its other cookies
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def attacker_address(i):
    return f"198.51.100.{i + 1}"


def spread_attack(client, username="b_member", addresses=5, per_address=4):
    """Four wrong passwords from each address (under the per-address limit): 20 by default."""
    statuses = []
    for i in range(addresses):
        for _ in range(per_address):
            statuses.append(log_in(client, username, "wrong-password", attacker_address(i)).status_code)
    return statuses


def test_it_stops_240_guesses_from_60_addresses(client, bea_member):
    statuses = spread_attack(client, addresses=60)
    tried = statuses.count(422)  # passwords actually checked
    assert tried <= 10, statuses
    assert statuses.count(429) == 240 - tried
    # the right password, guessed from yet another address, gets nothing either
    assert log_in(client, "b_member", PASSWORD, "192.0.2.200").status_code == 429
    assert "_auth_user_id" not in client.session


def test_it_counts_look_alikes_of_the_name_as_the_account(client, bea_member):
    for i, spelling in enumerate(["ｂ_member", "B_MEMBER", "b_member", "Ｂ_Member"] * 3):
        log_in(client, spelling, "wrong-password", attacker_address(i))
    assert log_in(client, "b_member", PASSWORD, "192.0.2.200").status_code == 429


def test_it_says_what_happened_and_what_lifts_it(client, bea_member):
    spread_attack(client)
    html = log_in(client, "b_member", PASSWORD, "192.0.2.200").content.decode()
    assert "from several connections" in html
    assert "device where you logged in before" in html
    assert "Resetting your password lifts this at once" in html


def test_it_lets_the_member_in_from_her_usual_address(client, bea_member):
    assert log_in(client, "b_member", PASSWORD, HOME).status_code == 302
    client.cookies.clear()  # another device at home
    assert spread_attack(client, addresses=60).count(429) >= 230
    assert log_in(client, "b_member", PASSWORD, HOME).status_code == 302
    assert client.session["_auth_user_id"] == str(bea_member.pk)


def test_it_lets_the_member_in_from_her_usual_device_on_a_new_address(client, bea_member):
    assert log_in(client, "b_member", PASSWORD, HOME).status_code == 302  # the phone keeps the device cookie
    spread_attack(client)
    assert log_in(client, "b_member", PASSWORD, "192.0.2.99").status_code == 302  # the same phone, on 4G


def test_it_still_limits_her_usual_address_per_name(client, bea_member):
    """The club's Wi-Fi is her usual address, and the attacker's too: five guesses there, as before."""
    assert log_in(client, "b_member", PASSWORD, HOME).status_code == 302
    client.cookies.clear()  # the attacker's own phone, at the club
    statuses = [log_in(client, "b_member", "wrong-password", HOME).status_code for _ in range(6)]
    assert statuses == [422] * 4 + [429] * 2


def test_it_lets_the_member_in_after_a_password_reset(client, bea_member):
    spread_attack(client)
    client.cookies.clear()  # a device she never used here
    client.post(reverse("password_reset"), {"email": "bea@example.org"}, REMOTE_ADDR="192.0.2.99")
    link = re.search(r"https?://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True, REMOTE_ADDR="192.0.2.99")
    new = "a-brand-new-long-password"
    client.post(form_page.wsgi_request.path, {"new_password1": new, "new_password2": new}, REMOTE_ADDR="192.0.2.99")
    spread_attack(client)  # the attacker goes on at once
    assert log_in(client, "b_member", new, "192.0.2.99").status_code == 302


def test_it_ignores_a_device_cookie_made_for_another_account(client, bea_member, make_user):
    make_user("mallory")
    assert log_in(client, "mallory", PASSWORD, "192.0.2.50").status_code == 302  # his device knows him
    assert spread_attack(client).count(422) <= 10
    assert log_in(client, "b_member", PASSWORD, "192.0.2.50").status_code == 429


def test_it_never_locks_the_account_for_one_address_typing_on(client, bea_member):
    """One address alone is held by the per-address limit; the account stays open elsewhere."""
    for _ in range(30):
        log_in(client, "b_member", "wrong-password", "198.51.100.66")
    assert log_in(client, "b_member", PASSWORD, "192.0.2.99").status_code == 302


def test_it_ignores_a_forged_device_cookie(client, bea_member):
    spread_attack(client)
    client.cookies["sb_known"] = "b_member"  # not signed by the site
    assert log_in(client, "b_member", PASSWORD, "192.0.2.99").status_code == 429
