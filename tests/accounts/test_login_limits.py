"""Login limits (issue 13, findings 2 to 5): failures count per user name *and* client address,
the name folded as the login form folds it; the client address is the proxy's X-Forwarded-For
entry only when the site is told it stands behind one; a password reset lifts a lockout; the
admin's login page is limited the same way."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from conftest import PASSWORD

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"  # the TLS proxy: every request reaches the site from it


@pytest.fixture
def bea_member(make_user):
    return make_user("b_member", email="bea@example.org")


def log_in(client, username, password, *, client_address="203.0.113.7", path=None, via_proxy=False):
    meta = (
        {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": client_address} if via_proxy else {"REMOTE_ADDR": client_address}
    )
    client.logout()
    return client.post(path or reverse("login"), {"username": username, "password": password}, **meta)


def fail(client, username, times, **where):
    return [log_in(client, username, "wrong-password", **where).status_code for _ in range(times)]


def test_it_locks_a_name_out_of_one_address_after_five_failures(client, bea_member):
    assert fail(client, "b_member", 4) == [422] * 4
    response = log_in(client, "b_member", "wrong-password")
    assert response.status_code == 429
    assert log_in(client, "b_member", PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session


def test_it_tells_the_truth_on_the_lockout_page(client, bea_member):
    fail(client, "b_member", 5)
    html = log_in(client, "b_member", PASSWORD).content.decode()
    assert "from your connection" in html and "a quarter of an hour" in html
    assert "Resetting your password lifts this at once" in html
    assert reverse("password_reset") in html


def test_it_never_lets_a_stranger_lock_a_member_out(client, bea_member):
    fail(client, "b_member", 10, client_address="198.51.100.66")  # the attacker
    assert log_in(client, "b_member", PASSWORD, client_address="203.0.113.7").status_code == 302


@pytest.mark.parametrize("look_alike", ["ｂ_member", "B_MEMBER", "Ｂ_Member", " b_member"])
def test_it_counts_look_alikes_of_a_name_as_that_name(client, bea_member, look_alike):
    fail(client, look_alike, 5)
    assert log_in(client, "b_member", PASSWORD).status_code == 429


def test_it_lets_a_success_clear_only_its_own_address(client, bea_member, make_user):
    fail(client, "b_member", 5, client_address="198.51.100.66")
    make_user("ｂ_member_twin")
    assert log_in(client, "ｂ_member", PASSWORD, client_address="203.0.113.7").status_code == 302
    assert log_in(client, "b_member", PASSWORD, client_address="198.51.100.66").status_code == 429


def test_it_never_locks_everyone_out_behind_the_proxy(client, bea_member, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for i in range(25):  # invented names from one address
        log_in(client, f"nobody-{i}", "wrong-password", client_address="198.51.100.66", via_proxy=True)
    assert log_in(client, "b_member", PASSWORD, client_address="203.0.113.7", via_proxy=True).status_code == 302
    assert log_in(client, "b_member", PASSWORD, client_address="198.51.100.66", via_proxy=True).status_code == 302


def test_it_tells_clients_apart_behind_the_proxy_and_ignores_what_they_forge(client, bea_member, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for i in range(5):  # the attacker forges a different address each time, the proxy appends his real one
        log_in(client, "b_member", "wrong-password", client_address=f"192.0.2.{i}, 198.51.100.66", via_proxy=True)
    assert log_in(client, "b_member", PASSWORD, client_address="198.51.100.66", via_proxy=True).status_code == 429
    assert log_in(client, "b_member", PASSWORD, client_address="203.0.113.7", via_proxy=True).status_code == 302


def test_it_believes_no_forwarded_address_without_a_trusted_proxy(client, bea_member, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    for i in range(5):
        client.logout()
        client.post(
            reverse("login"),
            {"username": "b_member", "password": "wrong"},
            REMOTE_ADDR="198.51.100.66",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{i}",
        )
    assert log_in(client, "b_member", PASSWORD, client_address="198.51.100.66").status_code == 429


def test_it_lifts_the_lockout_with_a_password_reset(client, bea_member):
    fail(client, "b_member", 5)
    client.post(reverse("password_reset"), {"email": "bea@example.org"})
    link = re.search(r"https?://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    new = "a-brand-new-long-password"
    client.post(form_page.wsgi_request.path, {"new_password1": new, "new_password2": new})
    assert log_in(client, "b_member", new).status_code == 302


def test_it_limits_the_admin_login_page_too(client, make_user):
    make_user("ada_admin", is_staff=True, is_superuser=True)
    path = reverse("admin:login")
    statuses = [log_in(client, "ada_admin", "wrong-password", path=path).status_code for _ in range(5)]
    assert statuses[-1] == 429
    assert log_in(client, "ada_admin", PASSWORD, path=path).status_code == 429
    assert "_auth_user_id" not in client.session
