"""Issue 32, item 7: a page made for one visitor (a logged-in user, a table's phone holding its link
in its session) says ``Cache-Control: private, no-cache``: no shared cache keeps it, a browser asks
before showing a kept copy. A page that shows a secret keeps its ``no-store``; the pages the service
worker keeps for a table without network stay storable (it keeps anything but ``no-store``)."""

import pytest
from django.urls import reverse

from club_fixtures import *  # noqa: F403
from scorebook.evenings import links

pytestmark = pytest.mark.django_db

PASS = {"contract": "pass"}


def directives(response) -> set[str]:
    return {d.strip() for d in response.get("Cache-Control", "").split(",") if d.strip()}


@pytest.mark.parametrize("page", ["club", "club_players", "club_settings"])
def test_it_keeps_a_members_club_pages_private(client, cast, club, page):
    client.force_login(cast["member"] if page != "club_settings" else cast["admin"])
    response = client.get(reverse(page, args=[club.slug]))
    assert response.status_code == 200
    assert directives(response) == {"private", "no-cache"}


def test_it_keeps_the_scoring_page_private_and_storable_by_the_worker(client, make_evening, scorer):
    evening = make_evening(deals=[PASS])
    client.force_login(scorer)
    for url in (reverse("evening_list"), reverse("evening", args=[evening.pk])):
        response = client.get(url)
        assert response.status_code == 200
        assert directives(response) == {"private", "no-cache"}, url  # not no-store: the worker keeps it


@pytest.mark.both_databases
def test_it_keeps_a_table_phones_page_private(client, make_evening):
    evening = make_evening()
    token = links.issue(evening)
    scoring = client.get(f"/t/{token}/", follow=True)
    assert scoring.status_code == 200 and scoring.request["PATH_INFO"] == reverse("evening", args=[evening.pk])
    assert "private" in directives(scoring) and "no-cache" in directives(scoring)


@pytest.mark.both_databases
def test_it_keeps_no_store_where_a_page_shows_a_secret(client, make_evening, scorer):
    evening = make_evening()
    client.force_login(scorer)
    response = client.post(reverse("evening_share_reset", args=[evening.pk]), follow=True)
    assert response.status_code == 200 and "/s/" in response.content.decode()
    assert "no-store" in directives(response)


def test_it_leaves_a_strangers_public_page_as_it_was(client):
    assert "private" not in directives(client.get(reverse("home")))
