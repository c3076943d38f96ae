"""'This is me' is a claim the club's admins approve or refuse; a player renamed in place."""

from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from pages import body, field_errors
from scorebook.clubs.models import Player, PlayerClaim
from scorebook.evenings.models import Seat

pytestmark = pytest.mark.django_db

SLUG = "de-troef"


def roster(client):
    return body(client.get(reverse("club_players", args=[SLUG])))


def claim(client, player, user):
    return client.post(reverse("club_player_link", args=[SLUG, player.pk]), {"user": user.pk})


@pytest.fixture
def anne(club):
    return Player.objects.create(club=club, name="Anne")


@pytest.mark.both_databases
def test_it_sends_a_claim_instead_of_linking(client, cast, anne):
    client.force_login(cast["member"])
    response = claim(client, anne, cast["member"])
    assert response.status_code == 302
    anne.refresh_from_db()
    assert anne.user is None
    assert PlayerClaim.objects.filter(player=anne, user=cast["member"]).exists()
    html = roster(client)
    assert "Your claim waits for an admin" in html and "This is me" not in html  # one claim at a time


def test_it_tells_the_admins_and_lists_the_claims_for_them_only(client, cast, anne):
    PlayerClaim.objects.create(player=anne, user=cast["member"])
    client.force_login(cast["admin"])
    assert "1 member says a roster entry is him" in body(client.get(reverse("club", args=[SLUG])))
    html = roster(client)
    assert 'id="claims"' in html and "says <strong>Anne</strong> is him" in html
    client.force_login(cast["scorer"])
    assert 'id="claims"' not in roster(client)
    assert "says a roster entry" not in body(client.get(reverse("club", args=[SLUG])))


@pytest.mark.both_databases
def test_it_links_the_account_when_an_admin_approves(client, cast, anne):
    pending = PlayerClaim.objects.create(player=anne, user=cast["member"])
    client.force_login(cast["admin"])
    response = client.post(reverse("club_claim_answer", args=[SLUG, pending.pk]), {"answer": "approve"})
    assert response.status_code == 302
    anne.refresh_from_db()
    assert anne.user == cast["member"]
    assert not PlayerClaim.objects.exists()


@pytest.mark.both_databases
def test_it_drops_the_claim_when_an_admin_refuses(client, cast, anne):
    pending = PlayerClaim.objects.create(player=anne, user=cast["member"])
    client.force_login(cast["admin"])
    client.post(reverse("club_claim_answer", args=[SLUG, pending.pk]), {"answer": "refuse"})
    anne.refresh_from_db()
    assert anne.user is None and not PlayerClaim.objects.exists()


@pytest.mark.parametrize("who, status", [("member", 403), ("scorer", 403), ("outsider", 404)])
def test_it_lets_only_admins_answer(client, cast, anne, who, status):
    pending = PlayerClaim.objects.create(player=anne, user=cast["member"])
    client.force_login(cast[who])
    assert (
        client.post(reverse("club_claim_answer", args=[SLUG, pending.pk]), {"answer": "approve"}).status_code == status
    )
    anne.refresh_from_db()
    assert anne.user is None


def test_it_lets_a_member_withdraw_his_claim(client, cast, anne):
    PlayerClaim.objects.create(player=anne, user=cast["member"])
    client.force_login(cast["member"])
    assert client.post(reverse("club_player_unclaim", args=[SLUG, anne.pk])).status_code == 302
    assert not PlayerClaim.objects.exists()
    assert "This is me" in roster(client)


@pytest.mark.both_databases
def test_it_refuses_a_claim_on_a_linked_player(client, cast, anne):
    anne.user = cast["scorer"]
    anne.save()
    client.force_login(cast["member"])
    response = claim(client, anne, cast["member"])
    assert response.status_code == 422
    assert "already linked" in field_errors(body(response), f"p{anne.pk}_user")
    assert not PlayerClaim.objects.exists()


# --- renaming a player in place ----------------------------------------------------------------


@pytest.mark.both_databases
def test_it_renames_a_player_and_past_evenings_keep_their_name(client, cast, club, scorer):
    evening = club_evening(club, scorer, date(2026, 11, 5), [{"contract": "pass"}])
    anne = Player.objects.get(club=club, name="Anne")
    client.force_login(cast["admin"])
    response = client.post(reverse("club_player_rename", args=[SLUG, anne.pk]), {"name": "Anne-Marie"})
    assert response.status_code == 302
    anne.refresh_from_db()
    assert anne.name == "Anne-Marie"
    assert Seat.objects.get(evening=evening, player=anne).name == "Anne"  # the name used that evening
    assert "Anne-Marie" in roster(client)


def test_it_refuses_a_new_name_already_in_the_roster(client, cast, club):
    anne = Player.objects.create(club=club, name="Anne")
    Player.objects.create(club=club, name="Bert")
    client.force_login(cast["scorer"])
    response = client.post(reverse("club_player_rename", args=[SLUG, anne.pk]), {"name": "bert"})
    assert response.status_code == 422
    assert "already in the roster" in field_errors(body(response), f"r{anne.pk}_name")
    anne.refresh_from_db()
    assert anne.name == "Anne"


@pytest.mark.both_databases
def test_it_lets_a_player_change_only_the_case_of_his_name(client, cast, club):
    anne = Player.objects.create(club=club, name="anne")
    client.force_login(cast["admin"])
    assert client.post(reverse("club_player_rename", args=[SLUG, anne.pk]), {"name": "Anne"}).status_code == 302
    anne.refresh_from_db()
    assert anne.name == "Anne"


def test_it_offers_renaming_to_scorers_and_admins_only(client, cast, anne):
    url = reverse("club_player_rename", args=[SLUG, anne.pk])
    client.force_login(cast["member"])
    assert url not in roster(client)
    assert client.post(url, {"name": "Annie"}).status_code == 403
    client.force_login(cast["scorer"])
    assert url in roster(client)


@pytest.mark.both_databases
def test_it_withdraws_a_removed_members_pending_claim(client, cast, anne):
    """A claim left behind would stay listed for the admins, and could not be approved (no member)."""
    PlayerClaim.objects.create(player=anne, user=cast["member"])
    membership = cast["member"].memberships.get()
    client.force_login(cast["admin"])
    assert client.post(reverse("club_member_remove", args=[SLUG, membership.pk])).status_code == 302
    assert not PlayerClaim.objects.exists()
    assert 'id="claims"' not in roster(client)
    assert "says a roster entry" not in body(client.get(reverse("club", args=[SLUG])))
