import pytest
from django.urls import reverse

from pages import Page
from scorebook.rules import registry


@pytest.mark.django_db
def test_it_shows_every_variant_on_the_home_page(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    for rules in registry.all_presets():
        assert rules.names.get("en") in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "nl", "en"])
def test_it_names_the_variants_in_the_visitors_language_and_links_each_to_a_new_evening(scorer_client, language):
    html = scorer_client.get(reverse("home"), headers={"accept-language": language}).content.decode()
    for rules in registry.all_presets():
        assert rules.names.get(language) in html.replace("&#x27;", "'")
        assert f'href="{reverse("evening_new")}?ruleset={rules.key}"' in html
    assert "3–3" not in html and "mort ·" not in html


@pytest.mark.django_db
def test_it_starts_a_new_evening_of_the_variant_linked_from_the_home_page(scorer_client):
    html = scorer_client.get(reverse("evening_new") + "?ruleset=gand").content.decode()
    assert Page(html).checked("ruleset") == ["gand"]
