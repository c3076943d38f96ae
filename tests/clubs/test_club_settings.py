"""The club's settings (admins): renaming the club; an old short name keeps its addresses working."""

import re

import pytest
from django.urls import reverse

from pages import body, field_errors
from scorebook.clubs.models import Club, FormerSlug, Season

pytestmark = pytest.mark.django_db


def settings_url(slug="de-troef"):
    return reverse("club_settings", args=[slug])


@pytest.mark.parametrize("who, status", [("member", 403), ("scorer", 403), ("outsider", 404), ("admin", 200)])
def test_it_shows_the_settings_to_admins_only(client, cast, who, status):
    client.force_login(cast[who])
    assert client.get(settings_url()).status_code == status


def test_it_links_the_settings_from_the_club_page_for_admins_only(client, cast):
    client.force_login(cast["admin"])
    assert settings_url() in body(client.get(reverse("club", args=["de-troef"])))
    client.force_login(cast["member"])
    assert settings_url() not in body(client.get(reverse("club", args=["de-troef"])))


@pytest.mark.both_databases
def test_it_renames_the_club_keeping_its_address(client, cast, club):
    client.force_login(cast["admin"])
    response = client.post(settings_url(), {"name": "De Troefkaart", "slug": "de-troef"})
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.name, club.slug) == ("De Troefkaart", "de-troef")
    assert not FormerSlug.objects.exists()


@pytest.mark.both_databases
def test_it_redirects_the_old_address_after_a_new_short_name(client, cast, club):
    season = Season.objects.create(
        club=club, name="Winter", start="2026-09-01", end="2026-12-31", ruleset="kleurenwiezen"
    )
    client.force_login(cast["admin"])
    assert client.post(settings_url(), {"name": "De Troef", "slug": "troef"}).status_code == 302
    club.refresh_from_db()
    assert club.slug == "troef"
    old = client.get(f"/c/de-troef/seasons/{season.pk}/?x=1")
    assert old.status_code == 301 and old["Location"] == f"/c/troef/seasons/{season.pk}/?x=1"
    client.force_login(cast["member"])
    assert client.get("/c/de-troef/", follow=True).status_code == 200


@pytest.mark.both_databases
def test_it_lets_the_club_take_back_a_former_short_name(client, cast, club):
    client.force_login(cast["admin"])
    client.post(settings_url(), {"name": "De Troef", "slug": "troef"})
    assert client.post(settings_url("troef"), {"name": "De Troef", "slug": "de-troef"}).status_code == 302
    assert Club.objects.get(pk=club.pk).slug == "de-troef"
    assert list(FormerSlug.objects.values_list("slug", flat=True)) == ["troef"]


def test_it_refuses_a_short_name_another_club_has_or_had(client, cast, club):
    client.force_login(cast["admin"])
    response = client.post(settings_url(), {"name": "De Troef", "slug": "trefle"})
    assert response.status_code == 422 and "is taken" in field_errors(body(response), "slug")
    FormerSlug.objects.create(club=Club.objects.get(slug="trefle"), slug="klaver")
    response = client.post(settings_url(), {"name": "De Troef", "slug": "klaver"})
    assert response.status_code == 422 and "is taken" in field_errors(body(response), "slug")
    client.force_login(cast["other_admin"])
    response = client.post(reverse("club_new"), {"name": "Klaver", "slug": "klaver"})
    assert response.status_code == 422


def test_it_refuses_a_long_name_with_a_message_never_cutting_it(client, cast, club):
    client.force_login(cast["admin"])
    html = body(client.get(settings_url()))
    assert 'maxlength="80"' not in html  # the browser would cut the name without a word
    long_name = "Koninklijke Whistvereniging De Vrolijke Troefkaarten van Sint-Amandsberg en Omstreken"
    response = client.post(settings_url(), {"name": long_name, "slug": "de-troef"})
    assert response.status_code == 422
    assert f"At most 80 characters (this name has {len(long_name)})" in field_errors(body(response), "name")
    club.refresh_from_db()
    assert club.name == "De Troef"


@pytest.mark.both_databases
def test_it_makes_a_new_clubs_short_name_between_two_words(client, cast):
    client.force_login(cast["outsider"])
    response = client.post(reverse("club_new"), {"name": "Whistclub De Vrolijke Troefkaarten Amandsberg", "slug": ""})
    assert response.status_code == 302
    slug = Club.objects.get(name__startswith="Whistclub").slug
    assert slug == "whistclub-de-vrolijke-troefkaarten"
    assert 'maxlength="80"' not in body(client.get(reverse("club_new")))


@pytest.mark.both_databases
def test_it_escapes_the_new_name(client, cast, club):
    client.force_login(cast["admin"])
    client.post(settings_url(), {"name": "<b>Troef</b>", "slug": "de-troef"})
    html = body(client.get(reverse("club", args=["de-troef"])))
    assert "<b>Troef</b>" not in html and "&lt;b&gt;Troef&lt;/b&gt;" in html


@pytest.mark.both_databases
@pytest.mark.parametrize("who", ["outsider", "other_admin", None])
def test_it_answers_an_old_address_to_a_stranger_as_an_unknown_club(client, cast, club, who):
    """The redirect would tell a stranger the club's new name: he gets the 404 of a club that never was."""
    client.force_login(cast["admin"])
    assert client.post(settings_url(), {"name": "De Troef", "slug": "troef"}).status_code == 302
    client.logout()
    if who is not None:
        client.force_login(cast[who])
    for path in ("/c/de-troef/", "/c/de-troef/players/"):
        unknown = client.get(path.replace("de-troef", "no-such-club"))
        old = client.get(path)
        assert old.status_code == unknown.status_code == (302 if who is None else 404)  # anonymous: the login page
        assert old.get("Location", "") == unknown.get("Location", "").replace("no-such-club", "de-troef")
        assert unmasked(old) == unmasked(unknown).replace("no-such-club", "de-troef")
    assert client.post("/c/de-troef/settings/", {"name": "X", "slug": "x"}).status_code in (302, 404)


def unmasked(response) -> str:
    """The page without its CSRF tokens (masked afresh for every answer)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", body(response))
