import pytest
from django.urls import reverse

from scorebook.accounts import throttle
from scorebook.accounts.models import FailedLogin

from conftest import PASSWORD


def _login(client, username, password, address="10.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.django_db
def test_it_refuses_even_the_right_password_after_five_failures(client, scorer):
    for _ in range(throttle.PER_USERNAME):
        assert _login(client, "marie", "wrong").status_code == 422
    response = _login(client, "marie", PASSWORD)
    assert response.status_code == 429
    assert "Too many failed attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_it_counts_failures_per_user_name_whatever_the_case(client, scorer):
    for _ in range(throttle.PER_USERNAME):
        _login(client, "MARIE", "wrong")
    assert _login(client, "marie", PASSWORD).status_code == 429


@pytest.mark.django_db
def test_it_blocks_an_address_that_guesses_many_names(client, scorer):
    for i in range(throttle.PER_ADDRESS):
        _login(client, f"name-{i}", "wrong", address="10.9.9.9")
    assert _login(client, "marie", PASSWORD, address="10.9.9.9").status_code == 429
    assert _login(client, "marie", PASSWORD, address="10.1.1.1").status_code == 302


@pytest.mark.django_db
def test_it_lets_a_user_in_again_after_the_window(client, scorer):
    for _ in range(throttle.PER_USERNAME):
        _login(client, "marie", "wrong")
    FailedLogin.objects.update(at=FailedLogin.objects.first().at - throttle.WINDOW)
    assert _login(client, "marie", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_it_forgets_the_failures_after_a_successful_login(client, scorer):
    for _ in range(throttle.PER_USERNAME - 1):
        _login(client, "marie", "wrong")
    assert _login(client, "marie", PASSWORD).status_code == 302
    assert not FailedLogin.objects.filter(username="marie").exists()


@pytest.mark.django_db
def test_it_answers_an_invalid_password_change_with_422(client, scorer):
    client.force_login(scorer)
    response = client.post(
        reverse("password_change"), {"old_password": "wrong", "new_password1": "x", "new_password2": "y"}
    )
    assert response.status_code == 422
    assert 'class="field-errors"' in response.content.decode()


@pytest.mark.django_db
def test_it_answers_an_invalid_password_reset_with_422(client):
    assert client.post(reverse("password_reset"), {"email": "not an address"}).status_code == 422
