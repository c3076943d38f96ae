"""Members and invitations (admins only), joining with a link, and the rule that a club keeps an admin."""

import re

import pytest
from django.urls import reverse

from pages import Page, body, field_errors
from scorebook.accounts.models import Profile
from scorebook.clubs import services
from scorebook.clubs.models import Invitation, Membership, Player, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(admin):
    return services.create_club(name="Les As", slug="les-as", user=admin)


@pytest.fixture
def cast(club, admin, scorer, outsider, make_user):
    member = make_user("mia", first_name="Mia", email="mia@example.org")
    Membership.objects.create(club=club, user=member, role=Role.MEMBER)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    other_admin = make_user("otto", first_name="Otto")
    services.create_club(name="Le Trèfle", slug="trefle", user=other_admin)
    return {"outsider": outsider, "other_admin": other_admin, "member": member, "scorer": scorer, "admin": admin}


def ms(club, user):
    return Membership.objects.get(club=club, user=user)


def role_of(club, user):
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def remove_error(html, membership):
    found = Page(html).by_id(f"id_m{membership.pk}_remove_error")
    return found.text if found is not None else ""


ADMIN_ONLY = [("outsider", 404), ("other_admin", 404), ("member", 403), ("scorer", 403)]


# --- who may manage the members ---------------------------------------------------------------


@pytest.mark.parametrize("who, status", ADMIN_ONLY + [("admin", 200)])
def test_it_shows_the_members_page_to_admins_only(client, cast, who, status):
    client.force_login(cast[who])
    assert client.get(reverse("club_members", args=["les-as"])).status_code == status


@pytest.mark.parametrize("who, status", ADMIN_ONLY)
def test_it_refuses_every_members_write_to_non_admins(client, cast, club, who, status):
    invitation, _token = invite(club, cast["admin"])
    target = ms(club, cast["member"])
    client.force_login(cast[who])
    posts = [
        (reverse("club_member_role", args=["les-as", target.pk]), {"role": "admin"}),
        (reverse("club_member_remove", args=["les-as", target.pk]), {}),
        (reverse("club_invitation_new", args=["les-as"]), {"role": "admin"}),
        (reverse("club_invitation_revoke", args=["les-as", invitation.pk]), {}),
    ]
    for path, data in posts:
        assert client.post(path, data).status_code == status, path
    assert role_of(club, cast["member"]) == "member"
    assert Invitation.objects.filter(club=club).count() == 1
    assert Invitation.objects.get().revoked_at is None


def test_it_answers_404_for_a_membership_of_another_club(client, cast, club):
    elsewhere = Membership.objects.get(club__slug="trefle")
    client.force_login(cast["admin"])
    assert (
        client.post(reverse("club_member_role", args=["les-as", elsewhere.pk]), {"role": "member"}).status_code == 404
    )
    assert client.post(reverse("club_member_remove", args=["les-as", elsewhere.pk])).status_code == 404
    assert role_of(elsewhere.club, cast["other_admin"]) == "admin"


def test_it_only_takes_writes_by_post(client, cast, club):
    client.force_login(cast["admin"])
    target = ms(club, cast["member"])
    assert client.get(reverse("club_member_role", args=["les-as", target.pk])).status_code == 405
    assert client.put(reverse("club_member_remove", args=["les-as", target.pk])).status_code == 405
    assert client.get(reverse("club_invitation_new", args=["les-as"])).status_code == 405


# --- the members page -------------------------------------------------------------------------


def test_it_lists_members_by_display_name_and_role_never_by_email(client, cast, club):
    Profile.objects.create(user=cast["member"], display_name="Mia la Reine")
    client.force_login(cast["admin"])
    html = body(client.get(reverse("club_members", args=["les-as"])))
    assert "Mia la Reine" in html and "Marie" in html and "Adèle" in html
    assert "mia@example.org" not in html and "example.org" not in html
    assert "Otto" not in html
    marie_row = html[html.index("Marie</strong>") :].split("</li>")[0]
    assert '<option value="scorer" selected>' in marie_row


def test_it_escapes_display_names(client, cast):
    Profile.objects.create(user=cast["member"], display_name="<script>alert(1)</script>")
    client.force_login(cast["admin"])
    html = body(client.get(reverse("club_members", args=["les-as"])))
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.both_databases
def test_it_changes_a_role(client, cast, club):
    client.force_login(cast["admin"])
    response = client.post(
        reverse("club_member_role", args=["les-as", ms(club, cast["member"]).pk]), {"role": "scorer"}
    )
    assert response.status_code == 302 and response.url == reverse("club_members", args=["les-as"])
    assert role_of(club, cast["member"]) == "scorer"


def test_it_refuses_an_unknown_role_next_to_the_field(client, cast, club):
    target = ms(club, cast["member"])
    client.force_login(cast["admin"])
    response = client.post(reverse("club_member_role", args=["les-as", target.pk]), {"role": "king"})
    assert response.status_code == 422
    assert field_errors(body(response), f"m{target.pk}_role")
    assert role_of(club, cast["member"]) == "member"


@pytest.mark.both_databases
def test_it_refuses_to_demote_the_last_admin(client, cast, club):
    own = ms(club, cast["admin"])
    client.force_login(cast["admin"])
    response = client.post(reverse("club_member_role", args=["les-as", own.pk]), {"role": "member"})
    assert response.status_code == 422
    assert "needs an admin" in field_errors(body(response), f"m{own.pk}_role")
    assert role_of(club, cast["admin"]) == "admin"


@pytest.mark.both_databases
def test_it_refuses_to_remove_the_last_admin(client, cast, club):
    own = ms(club, cast["admin"])
    client.force_login(cast["admin"])
    response = client.post(reverse("club_member_remove", args=["les-as", own.pk]))
    assert response.status_code == 422
    assert "needs an admin" in remove_error(body(response), own)
    assert role_of(club, cast["admin"]) == "admin"


@pytest.mark.both_databases
def test_it_lets_an_admin_step_down_when_another_admin_remains(client, cast, club):
    Membership.objects.filter(club=club, user=cast["scorer"]).update(role=Role.ADMIN)
    client.force_login(cast["admin"])
    response = client.post(reverse("club_member_role", args=["les-as", ms(club, cast["admin"]).pk]), {"role": "member"})
    assert response.status_code == 302 and response.url == reverse("club", args=["les-as"])
    assert role_of(club, cast["admin"]) == "member"
    assert client.get(reverse("club_members", args=["les-as"])).status_code == 403


@pytest.mark.both_databases
def test_it_lets_an_admin_leave_when_another_admin_remains(client, cast, club):
    Membership.objects.filter(club=club, user=cast["scorer"]).update(role=Role.ADMIN)
    client.force_login(cast["admin"])
    response = client.post(reverse("club_member_remove", args=["les-as", ms(club, cast["admin"]).pk]))
    assert response.status_code == 302 and response.url == reverse("club_list")
    assert role_of(club, cast["admin"]) is None


@pytest.mark.both_databases
def test_it_removes_a_member_and_unlinks_his_player(client, cast, club):
    player = Player.objects.create(club=club, name="Mia", user=cast["member"])
    client.force_login(cast["admin"])
    response = client.post(reverse("club_member_remove", args=["les-as", ms(club, cast["member"]).pk]))
    assert response.status_code == 302
    assert role_of(club, cast["member"]) is None
    player.refresh_from_db()
    assert player.user is None  # the player stays in the roster and his evenings with him
    client.force_login(cast["member"])
    assert client.get(reverse("club", args=["les-as"])).status_code == 404


# --- invitations ------------------------------------------------------------------------------


def invite(club, creator, role=Role.MEMBER, *, days=7, uses=1):
    """A link made through the service: (invitation, token). The token exists nowhere else."""
    return services.create_invitation(club, creator, role=Role(role), days=days, uses=uses)


def join_path(token):
    return reverse("club_join", args=[token])


def test_it_creates_an_invitation_and_shows_its_absolute_link_once(client, cast, club):
    client.force_login(cast["admin"])
    response = client.post(
        reverse("club_invitation_new", args=["les-as"]), {"role": "scorer", "days": "7", "uses": "3"}
    )
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    invitation = Invitation.objects.get(club=club)
    assert invitation.role == "scorer" and invitation.created_by == cast["admin"] and invitation.active
    assert invitation.max_uses == 3
    link = re.search(
        r'id="new-invitation-link" type="text" readonly value="http://testserver(/join/[^"]+/)"', body(response)
    )
    assert link and client.get(link.group(1)).status_code == 200
    assert link.group(1) not in body(client.get(reverse("club_members", args=["les-as"])))  # shown once


def test_it_refuses_an_invitation_with_an_unknown_role(client, cast, club):
    client.force_login(cast["admin"])
    response = client.post(reverse("club_invitation_new", args=["les-as"]), {"role": "king", "days": "7", "uses": "1"})
    assert response.status_code == 422
    assert field_errors(body(response), "role")
    assert not Invitation.objects.exists()


@pytest.mark.both_databases
def test_it_revokes_an_invitation(client, cast, club):
    invitation, token = invite(club, cast["admin"])
    client.force_login(cast["admin"])
    response = client.post(reverse("club_invitation_revoke", args=["les-as", invitation.pk]))
    assert response.status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    client.force_login(cast["outsider"])
    assert client.get(join_path(token)).status_code == 404


def test_it_answers_404_when_revoking_another_clubs_invitation(client, cast, club):
    elsewhere, _token = invite(Membership.objects.get(club__slug="trefle").club, cast["other_admin"])
    client.force_login(cast["admin"])
    assert client.post(reverse("club_invitation_revoke", args=["les-as", elsewhere.pk])).status_code == 404
    elsewhere.refresh_from_db()
    assert elsewhere.active


# --- joining ----------------------------------------------------------------------------------


@pytest.fixture
def invitation(club, admin):
    return invite(club, admin, Role.SCORER)


def test_it_shows_an_anonymous_visitor_of_a_join_link_his_ways_in(client, invitation):
    path = join_path(invitation[1])
    page = Page(body(client.get(path)))
    assert page.find(f'a[href="{reverse("login")}?next={path}"]') is not None
    assert page.find(f'a[href="{path}account/"]') is not None  # make an account and join (SIGNUP=open)
    response = client.post(path)  # joining itself needs an account
    assert response.status_code == 302 and response.url == f"{reverse('login')}?next={path}"


def test_it_shows_the_club_and_the_role_before_joining(client, outsider, invitation):
    client.force_login(outsider)
    html = body(client.get(join_path(invitation[1])))
    assert "Les As" in html and "scorer" in html and "Join the club" in html
    assert role_of(invitation[0].club, outsider) is None  # looking is not joining


@pytest.mark.both_databases
def test_it_joins_with_the_invitations_role(client, outsider, invitation):
    client.force_login(outsider)
    response = client.post(join_path(invitation[1]))
    assert response.status_code == 302 and response.url == reverse("club", args=["les-as"])
    assert role_of(invitation[0].club, outsider) == "scorer"
    assert client.get(reverse("club", args=["les-as"])).status_code == 200


@pytest.mark.both_databases
def test_it_lets_the_link_be_used_as_many_times_as_allowed(client, club, admin, outsider, make_user):
    _invitation, token = invite(club, admin, uses=2)
    for name in ("paul", "pia"):
        client.force_login(make_user(name))
        assert client.post(join_path(token)).status_code == 302
    client.force_login(outsider)
    response = client.post(join_path(token))  # the link once worked: said in words, the club unnamed
    assert response.status_code == 409 and "This invitation link no longer works" in body(response)
    assert "Les As" not in body(response)
    assert role_of(club, outsider) is None


@pytest.mark.both_databases
@pytest.mark.parametrize(
    "current, offered, after",
    [
        ("member", "scorer", "scorer"),
        ("scorer", "member", "scorer"),
        ("admin", "member", "admin"),
        ("member", "admin", "admin"),
    ],
)
def test_it_keeps_the_higher_role_of_an_existing_member(client, club, cast, current, offered, after):
    Membership.objects.filter(club=club, user=cast["member"]).update(role=current)
    _invitation, token = invite(club, cast["admin"], offered)
    client.force_login(cast["member"])
    assert client.post(join_path(token)).status_code == 302
    assert role_of(club, cast["member"]) == after
    assert Membership.objects.filter(club=club, user=cast["member"]).count() == 1


def test_it_offers_no_join_button_to_a_member_who_would_gain_nothing(client, club, cast):
    _invitation, token = invite(club, cast["admin"], Role.MEMBER)
    client.force_login(cast["scorer"])
    html = body(client.get(join_path(token)))
    card = html.split('class="card join-card')[1].split("</div>")[0]
    assert "You already are scorer" in card and "<form" not in card


@pytest.mark.both_databases
def test_it_refuses_a_revoked_token(client, outsider, invitation):
    services.revoke(invitation[0])
    client.force_login(outsider)
    path = join_path(invitation[1])
    assert client.get(path).status_code == 404
    assert client.post(path).status_code == 409
    assert role_of(invitation[0].club, outsider) is None


def test_it_answers_404_for_an_unknown_token(client, outsider, invitation):
    client.force_login(outsider)
    assert client.get(join_path("not-a-token")).status_code == 404
    assert client.post(join_path(invitation[1] + "x")).status_code == 404


def test_it_escapes_the_club_name_on_the_join_page(client, outsider, invitation):
    invitation[0].club.name = "<script>alert(1)</script>"
    invitation[0].club.save()
    client.force_login(outsider)
    html = body(client.get(join_path(invitation[1])))
    assert "<script>alert" not in html and "&lt;script&gt;" in html
