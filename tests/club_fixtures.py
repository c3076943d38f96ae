"""Fixtures of the club tests: a club, its members in every role, and an admin of another club."""

import pytest

from scorebook.clubs.models import Club, Membership, Role


@pytest.fixture(autouse=True)
def english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture
def club(scorer):
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=scorer, role=Role.ADMIN)
    return club


@pytest.fixture
def cast(club, scorer, outsider, make_user):
    member = make_user("mia")
    Membership.objects.create(club=club, user=member, role=Role.MEMBER)
    club_scorer = make_user("sam")
    Membership.objects.create(club=club, user=club_scorer, role=Role.SCORER)
    other_admin = make_user("otto")
    other = Club.objects.create(name="Le Trèfle", slug="trefle")
    Membership.objects.create(club=other, user=other_admin, role=Role.ADMIN)
    return {"outsider": outsider, "other_admin": other_admin, "member": member, "scorer": club_scorer, "admin": scorer}
