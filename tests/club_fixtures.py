"""Fixtures of the club tests: a club, its members in every role, and an admin of another club.

The personas: Adèle (``admin``) is the club's secretary, its admin; Marie (``scorer``) keeps
the score, a scorer of the club; Mia is a member; Olivier (``outsider``) has nothing to do
with the club; Otto is the admin of another club.
"""

import pytest

from scorebook.clubs.models import Club, Membership, Role


@pytest.fixture(autouse=True)
def english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture
def admin(make_user):
    """Adèle, the club's secretary: she runs the club (members, rules, seasons)."""
    return make_user("adele", first_name="Adèle")


@pytest.fixture
def club(admin, scorer):
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    return club


@pytest.fixture
def cast(club, admin, scorer, outsider, make_user):
    member = make_user("mia")
    Membership.objects.create(club=club, user=member, role=Role.MEMBER)
    other_admin = make_user("otto")
    other = Club.objects.create(name="Le Trèfle", slug="trefle")
    Membership.objects.create(club=other, user=other_admin, role=Role.ADMIN)
    return {"outsider": outsider, "other_admin": other_admin, "member": member, "scorer": scorer, "admin": admin}
