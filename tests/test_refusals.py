"""A visitor sees only what his role allows, and a refused action answers a page of the site, translated."""

from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from club_fixtures import *  # noqa: F403
from pages import body

pytestmark = pytest.mark.django_db

PASS = {"contract": "pass"}


@pytest.fixture
def evening(club, scorer):
    return club_evening(club, scorer, date(2026, 11, 5), [PASS])


def test_it_shows_a_member_no_close_reopen_or_payment_buttons(client, cast, evening):
    client.force_login(cast["member"])
    html = body(client.get(reverse("settlement", args=[evening.pk])))
    for name in ("evening_close", "evening_reopen", "payment_toggle", "evening_archive", "evening_delete"):
        assert reverse(name, args=[evening.pk]) not in html, name
    client.force_login(cast["scorer"])
    html = body(client.get(reverse("settlement", args=[evening.pk])))
    assert reverse("evening_close", args=[evening.pk]) in html


@pytest.mark.both_databases
def test_it_shows_a_member_no_reopen_button_on_a_closed_evening(client, cast, evening):
    client.force_login(cast["scorer"])
    client.post(reverse("evening_close", args=[evening.pk]))
    client.force_login(cast["member"])
    html = body(client.get(reverse("settlement", args=[evening.pk])))
    assert reverse("evening_reopen", args=[evening.pk]) not in html and "Reopen it" not in html


@pytest.mark.parametrize(
    "lang, words", [("fr", "Action non permise"), ("nl", "Niet toegestaan"), ("en", "Not allowed")]
)
def test_it_answers_a_forbidden_action_with_a_translated_page_of_the_site(client, cast, evening, lang, words):
    client.force_login(cast["member"])
    response = client.post(reverse("evening_reopen", args=[evening.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 403
    html = body(response)
    assert words in html and 'class="topbar"' in html and "403 Forbidden" not in html


@pytest.mark.both_databases
def test_it_writes_the_reason_of_a_refused_htmx_form_into_the_notices(client, cast, evening):
    client.force_login(cast["member"])
    response = client.post(reverse("deal_record", args=[evening.pk]), {"contract": "pass"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert response["HX-Retarget"] == "#notices" and response["HX-Reswap"] == "innerHTML"
    html = body(response)
    assert "Your role does not allow this" in html and "<html" not in html


def test_every_page_has_the_notice_area(client, cast, evening):
    client.force_login(cast["member"])
    for url in (
        reverse("evening", args=[evening.pk]),
        reverse("settlement", args=[evening.pk]),
        reverse("club", args=["de-troef"]),
    ):
        assert 'id="notices"' in body(client.get(url)), url


def test_it_answers_an_unknown_page_with_a_translated_page_of_the_site(client, cast):
    client.force_login(cast["member"])
    response = client.get("/c/no-such-club/", HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 404
    assert "Pagina niet gevonden" in body(response) and 'class="topbar"' in body(response)


@pytest.mark.both_databases
def test_it_asks_before_removing_a_member(client, cast, club):
    from scorebook.clubs.models import Membership

    target = Membership.objects.get(club=club, user=cast["member"])
    client.force_login(cast["admin"])
    url = reverse("club_member_remove", args=["de-troef", target.pk])
    assert f'href="{url}"' in body(client.get(reverse("club_members", args=["de-troef"])))
    page = body(client.get(url))
    assert "Remove mia?" in page and 'method="post"' in page
    assert Membership.objects.filter(pk=target.pk).exists()
    assert client.post(url).status_code == 302
    assert not Membership.objects.filter(pk=target.pk).exists()
