"""Invitation links that cannot be turned against the club (issue 13, finding 1 and part of 17):
used a limited number of times, until they expire; never above their creator's role; revoked
with the member who made or used them; stored as a digest and shown once."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scorebook.clubs import services
from scorebook.clubs.models import Invitation, Membership, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_user):
    ada_admin = make_user("ada_admin")
    return services.create_club(name="Les As", slug="les-as", user=ada_admin)


@pytest.fixture
def ada_admin(club):
    return club.memberships.get().user


def role_of(club, user):
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def join(client, user, token):
    client.force_login(user)
    return client.post(reverse("club_join", args=[token]))


@pytest.mark.both_databases
def test_it_keeps_a_removed_admin_from_coming_back_with_his_link(client, club, ada_admin, make_user):
    rex_removed = make_user("rex_removed")
    _invitation, token = services.create_invitation(club, ada_admin, role=Role.ADMIN, days=7, uses=5)
    assert join(client, rex_removed, token).status_code == 302
    assert role_of(club, rex_removed) == "admin"
    services.remove_member(Membership.objects.get(club=club, user=rex_removed))

    assert join(client, rex_removed, token).status_code == 409
    assert role_of(club, rex_removed) is None


@pytest.mark.both_databases
def test_it_uses_a_single_use_link_once(client, club, ada_admin, make_user):
    _invitation, token = services.create_invitation(club, ada_admin, role=Role.MEMBER, days=7, uses=1)
    assert join(client, make_user("mia_member"), token).status_code == 302
    assert join(client, make_user("max_member"), token).status_code == 409


def test_it_stops_a_link_when_it_expires(client, club, ada_admin, make_user):
    invitation, token = services.create_invitation(club, ada_admin, role=Role.MEMBER, days=1, uses=5)
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert join(client, make_user("mia_member"), token).status_code == 409


@pytest.mark.both_databases
def test_it_revokes_the_links_of_a_demoted_admin(client, club, ada_admin, make_user):
    dan_demoted = make_user("dan_demoted")
    Membership.objects.create(club=club, user=dan_demoted, role=Role.ADMIN)
    _invitation, token = services.create_invitation(club, dan_demoted, role=Role.SCORER, days=7, uses=5)
    services.change_role(Membership.objects.get(club=club, user=dan_demoted), Role.MEMBER)
    assert join(client, make_user("sam_scorer"), token).status_code == 409


def test_it_never_grants_more_than_its_creators_role_now(client, club, ada_admin, make_user):
    dan_demoted = make_user("dan_demoted")
    Membership.objects.create(club=club, user=dan_demoted, role=Role.ADMIN)
    _invitation, token = services.create_invitation(club, dan_demoted, role=Role.ADMIN, days=7, uses=5)
    Membership.objects.filter(user=dan_demoted).update(role=Role.SCORER)  # e.g. in Django's admin
    mia_member = make_user("mia_member")
    assert join(client, mia_member, token).status_code == 409
    assert role_of(club, mia_member) is None
    with pytest.raises(services.Refused):
        services.create_invitation(club, dan_demoted, role=Role.ADMIN, days=7, uses=1)


def test_it_stores_no_link_and_shows_none_to_the_other_admins(client, club, ada_admin, make_user):
    other_admin = make_user("otto_admin")
    Membership.objects.create(club=club, user=other_admin, role=Role.ADMIN)
    client.force_login(ada_admin)
    created = client.post(reverse("club_invitation_new", args=["les-as"]), {"role": "member", "days": "7", "uses": "1"})
    token = created.context["new_link"].rstrip("/").rsplit("/", 1)[1]
    stored = str(list(Invitation.objects.values_list()))
    assert token not in stored
    client.force_login(other_admin)
    page = client.get(reverse("club_members", args=["les-as"]))
    assert token not in page.content.decode()
    assert page["Cache-Control"] == "no-store"


def test_it_offers_only_the_roles_up_to_the_creators_own(client, club, ada_admin, make_user):
    form = (
        client.force_login(ada_admin) or client.get(reverse("club_members", args=["les-as"])).context["invitation_form"]
    )
    assert [value for value, _label in form.fields["role"].choices] == ["admin", "scorer", "member"]


@pytest.mark.both_databases
@pytest.mark.parametrize("shown", ["Marc", "MARC", "Mаrc"])  # as written, in capitals, with a Cyrillic а
def test_it_keeps_two_members_of_a_club_from_going_by_one_name(client, club, ada_admin, make_user, shown):
    """Issue 39: names are compared when they are typed, but accounts made otherwise (the demo, a
    restore) may share one: the second never joins a club where the first is shown by it."""
    marc_member = make_user("marc_member", first_name="Marc")
    Membership.objects.create(club=club, user=marc_member, role=Role.MEMBER)
    marc_newcomer = make_user("marc_newcomer", first_name=shown)
    invitation, token = services.create_invitation(club, ada_admin, role=Role.MEMBER, days=7, uses=5)
    answer = join(client, marc_newcomer, token)
    assert answer.status_code == 409
    assert "looks like yours" in answer.content.decode()
    assert role_of(club, marc_newcomer) is None
    invitation.refresh_from_db()
    assert invitation.uses == 0
