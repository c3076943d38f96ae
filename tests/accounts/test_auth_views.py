"""The authentication views answer an invalid form with 422 (the login limits: test_login_limits.py)."""

import pytest
from django.urls import reverse


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
