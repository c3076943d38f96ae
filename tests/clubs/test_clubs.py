"""My clubs, a new club, a club's home page: who sees what, and what the forms refuse."""

from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from pages import body, field_errors
from scorebook.clubs import services
from scorebook.clubs.models import Club, Membership, Role, Season

pytestmark = pytest.mark.django_db


# --- the cast: an admin (Adèle), a scorer (Marie), a member, an outsider, an admin of another club


@pytest.fixture
def club(admin):
    return services.create_club(name="Les As", slug="les-as", user=admin)


@pytest.fixture
def cast(club, admin, scorer, outsider, make_user):
    member = make_user("mia", first_name="Mia")
    Membership.objects.create(club=club, user=member, role=Role.MEMBER)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    other_admin = make_user("otto", first_name="Otto")
    services.create_club(name="Le Trèfle", slug="trefle", user=other_admin)
    return {"outsider": outsider, "other_admin": other_admin, "member": member, "scorer": scorer, "admin": admin}


# --- my clubs ---------------------------------------------------------------------------------


def test_it_lists_only_my_clubs_with_my_role(client, cast):
    client.force_login(cast["scorer"])
    html = body(client.get(reverse("club_list")))
    assert "Les As" in html and reverse("club", args=["les-as"]) in html
    assert "Le Trèfle" not in html
    assert "scorer" in html


def test_it_shows_the_new_club_form_to_someone_without_a_club(client, outsider):
    client.force_login(outsider)
    html = body(client.get(reverse("club_list")))
    assert f'action="{reverse("club_new")}"' in html and 'name="slug"' in html


@pytest.mark.both_databases
def test_it_opens_a_club_with_its_creator_as_admin(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("club_new"), {"name": "Whist du jeudi", "slug": "jeudi"})
    club = Club.objects.get(slug="jeudi")
    assert response.status_code == 302 and response.url == reverse("club", args=["jeudi"])
    assert club.name == "Whist du jeudi"
    assert Membership.objects.get(club=club).user == outsider
    assert Membership.objects.get(club=club).role == Role.ADMIN


@pytest.mark.both_databases
def test_it_makes_the_short_name_from_the_name_when_left_empty(client, outsider):
    client.force_login(outsider)
    client.post(reverse("club_new"), {"name": "Café des Amis", "slug": ""})
    assert Club.objects.filter(slug="cafe-des-amis").exists()


def test_it_refuses_a_short_name_already_taken_next_to_the_field(client, outsider, club):
    client.force_login(outsider)
    response = client.post(reverse("club_new"), {"name": "Autre", "slug": "les-as"})
    assert response.status_code == 422
    assert "taken" in field_errors(body(response), "slug")
    assert Club.objects.count() == 1


@pytest.mark.parametrize(
    "data, field",
    [
        ({"name": "", "slug": "x"}, "name"),
        ({"name": "   ", "slug": "x"}, "name"),
        ({"name": "Club", "slug": "pas de slug"}, "slug"),
    ],
)
def test_it_refuses_an_invalid_new_club_next_to_the_field(client, outsider, data, field):
    client.force_login(outsider)
    response = client.post(reverse("club_new"), data)
    assert response.status_code == 422
    assert field_errors(body(response), field)
    assert not Club.objects.exists()


def test_it_shows_the_new_club_page(client, outsider):
    client.force_login(outsider)
    response = client.get(reverse("club_new"))
    assert response.status_code == 200 and 'name="name"' in body(response)


# --- a club's home ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "who, status", [("outsider", 404), ("other_admin", 404), ("member", 200), ("scorer", 200), ("admin", 200)]
)
def test_it_shows_the_club_home_to_its_members_only(client, cast, who, status):
    client.force_login(cast[who])
    assert client.get(reverse("club", args=["les-as"])).status_code == status


def test_it_answers_404_for_an_unknown_club(client, cast):
    client.force_login(cast["admin"])
    assert client.get(reverse("club", args=["nowhere"])).status_code == 404


def test_it_lists_the_latest_evenings_with_links(client, cast, club):
    evening = club_evening(club, cast["admin"])
    elsewhere = club_evening(
        Club.objects.get(slug="trefle"), cast["other_admin"], players=("Xavier", "Yves", "Zoé", "Wim")
    )
    client.force_login(cast["member"])
    html = body(client.get(reverse("club", args=["les-as"])))
    assert f'href="{reverse("evening", args=[evening.pk])}"' in html
    assert "Anne, Bert, Carl, Dina" in html
    assert reverse("evening", args=[elsewhere.pk]) not in html


@pytest.mark.parametrize(
    "who, role, new_evening, admin_links",
    [("member", "member", False, False), ("scorer", "scorer", True, False), ("admin", "admin", True, True)],
)
def test_it_shows_each_role_its_links(client, cast, club, who, role, new_evening, admin_links):
    client.force_login(cast[who])
    html = body(client.get(reverse("club", args=["les-as"])))
    assert f"You are {role}" in html
    assert (f"{reverse('evening_new')}?club={club.pk}" in html) is new_evening
    assert (reverse("club_members", args=["les-as"]) in html) is admin_links
    assert (reverse("club_rules", args=["les-as"]) in html) is admin_links
    assert reverse("club_players", args=["les-as"]) in html
    assert reverse("club_ledger", args=["les-as"]) in html


def test_it_links_the_seasons(client, cast, club):
    season = Season.objects.create(
        club=club, name="Hiver 2026", start=date(2026, 10, 1), end=date(2027, 3, 31), ruleset="kleurenwiezen"
    )
    client.force_login(cast["member"])
    html = body(client.get(reverse("club", args=["les-as"])))
    assert "Hiver 2026" in html and reverse("season", args=["les-as", season.pk]) in html


def test_it_escapes_the_names_of_clubs_and_players(client, cast, club):
    club.name = "<script>alert(1)</script>"
    club.save()
    club_evening(club, cast["admin"], players=("<script>x</script>", "Bert", "Carl", "Dina"))
    client.force_login(cast["member"])
    html = body(client.get(reverse("club", args=["les-as"])))
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;script&gt;x&lt;/script&gt;" in html
    html = body(client.get(reverse("club_list")))
    assert "<script>" not in html


def test_it_lets_staff_see_any_club_as_an_admin(client, cast, staff):
    client.force_login(staff)
    html = body(client.get(reverse("club", args=["les-as"])))
    assert reverse("club_members", args=["les-as"]) in html
