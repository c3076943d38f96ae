import pytest
from django.urls import reverse

from scorebook.rules import registry


@pytest.mark.django_db
def test_it_shows_every_variant_on_the_home_page(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    for rules in registry.all_presets():
        assert rules.key in response.content.decode()
