"""A club's name in a French sentence (issue 23: "Bienvenue à Cercle…"): the sentences that name a
club put "club" before its name, so that no article has to agree with a name the club chose
("Cercle Royal…", "De Troef", "Les As"). Olivier joins through Adèle's invitation, reading French."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from pages import Page, body
from scorebook.clubs import services
from scorebook.clubs.models import Club, Membership, Role

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

NAME = "Cercle Royal du Whist Liégeois"


@pytest.fixture
def cercle(admin):
    club = Club.objects.create(name=NAME, slug="cercle")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    return club


def test_it_welcomes_a_new_member_without_an_article_before_the_clubs_name(client, admin, outsider, cercle):
    _invitation, token = services.create_invitation(cercle, admin, role=Role.MEMBER, days=7, uses=1)
    client.force_login(outsider)
    client.cookies["django_language"] = "fr"
    page = Page(body(client.get(reverse("club_join", args=[token]))))
    assert f"rejoindre le club {NAME} avec le rôle membre" in page.find("main").text
    response = client.post(reverse("club_join", args=[token]))
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        f"Bienvenue au club {NAME}\u00a0: vous y êtes membre."
    ]
