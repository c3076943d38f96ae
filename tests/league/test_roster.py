"""The club's roster: who sees it, adding players, linking accounts, merging two records of one person."""

from datetime import date

import pytest
from django.urls import reverse

from builders import club_evening
from pages import Page, body, datas, field_errors
from scorebook.accounts.models import Profile
from scorebook.clubs import services
from scorebook.clubs.models import Club, Membership, Player, Role
from scorebook.evenings import stored
from scorebook.evenings.models import Evening, Seat
from scorebook.league import roster

pytestmark = pytest.mark.django_db

DEALS = [
    {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10},
    {"contract": "pass"},
    {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8},
]


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


def named(club, name):
    return Player.objects.get(club=club, name=name)


def card(html, player) -> str:
    """The text of the roster card of one player: the list item around the first link to his page."""
    href = reverse("club_player", args=[player.club.slug, player.pk])
    link = Page(html).all(f"a[href={href}]")[0]
    return next(e for e in link.ancestors() if e.tag == "li").text


def link_error(html, player):
    return field_errors(html, f"p{player.pk}_user")


def non_field_errors(html):
    return " ".join(Page(html).texts("div.errors"))


# --- seeing the roster and adding to it -------------------------------------------------------


@pytest.mark.parametrize(
    "who, status", [("outsider", 404), ("other_admin", 404), ("member", 200), ("scorer", 200), ("admin", 200)]
)
def test_it_shows_the_roster_to_members_only(client, cast, who, status):
    client.force_login(cast[who])
    assert client.get(reverse("club_players", args=["les-as"])).status_code == status


def test_it_shows_each_players_evenings_and_linked_account(client, cast, club):
    club_evening(club, cast["admin"], deals=[{"contract": "pass"}])
    club_evening(
        club,
        cast["admin"],
        players=("Anne", "Bert", "Carl", "Eric"),
        deals=[{"contract": "pass"}],
        day=date(2026, 11, 27),
    )
    club_evening(club, cast["admin"], players=("Anne", "Bert", "Carl", "Fred"), day=date(2026, 11, 28))  # no deal yet
    anne = named(club, "Anne")
    anne.user = cast["member"]
    anne.save()
    Profile.objects.create(user=cast["member"], display_name="Mia la Reine")
    client.force_login(cast["scorer"])
    html = body(client.get(reverse("club_players", args=["les-as"])))
    assert "2 evenings" in card(html, anne) and "Mia la Reine" in card(html, anne)
    assert "1 evening" in card(html, named(club, "Dina")) and "No account" in card(html, named(club, "Dina"))
    assert "mia@example.org" not in html


def test_it_shows_only_the_clubs_players(client, cast, club):
    club_evening(Club.objects.get(slug="trefle"), cast["other_admin"], players=("Xavier", "Yves", "Zoé", "Wim"))
    Player.objects.create(club=club, name="Anne")
    client.force_login(cast["admin"])
    html = body(client.get(reverse("club_players", args=["les-as"])))
    assert "Anne" in html and "Xavier" not in html


@pytest.mark.both_databases
@pytest.mark.parametrize("who", ["scorer", "admin"])
def test_it_lets_scorers_and_admins_add_a_player(client, cast, club, who):
    client.force_login(cast[who])
    response = client.post(reverse("club_players", args=["les-as"]), {"name": "  Fanny  "})
    assert response.status_code == 302 and response.url == reverse("club_players", args=["les-as"])
    assert named(club, "Fanny").created_by == cast[who]


@pytest.mark.parametrize("who, status", [("outsider", 404), ("other_admin", 404), ("member", 403)])
def test_it_refuses_a_new_player_from_anyone_else(client, cast, club, who, status):
    client.force_login(cast[who])
    assert client.post(reverse("club_players", args=["les-as"]), {"name": "Fanny"}).status_code == status
    assert not Player.objects.filter(name="Fanny").exists()


def test_it_shows_the_add_form_to_scorers_only(client, cast):
    path = reverse("club_players", args=["les-as"])
    client.force_login(cast["member"])
    assert 'name="name"' not in body(client.get(path))
    client.force_login(cast["scorer"])
    assert 'name="name"' in body(client.get(path))


@pytest.mark.parametrize(
    "name, message",
    [
        ("anne", "already in the roster"),
        ("", "required"),
        ("(bête)", "name of the pot"),
        ("x" * 41, "At most 40 characters"),
    ],
)
def test_it_refuses_a_bad_name_next_to_the_field(client, cast, club, name, message):
    Player.objects.create(club=club, name="Anne")
    client.force_login(cast["admin"])
    response = client.post(reverse("club_players", args=["les-as"]), {"name": name})
    assert response.status_code == 422
    assert message in field_errors(body(response), "name")
    assert Player.objects.filter(club=club).count() == 1


@pytest.mark.both_databases
def test_it_lets_another_club_have_a_player_of_the_same_name(client, cast, club):
    Player.objects.create(club=Club.objects.get(slug="trefle"), name="Anne")
    client.force_login(cast["admin"])
    assert client.post(reverse("club_players", args=["les-as"]), {"name": "Anne"}).status_code == 302


def test_it_escapes_player_names(client, cast, club):
    club_evening(club, cast["admin"], players=("<script>alert(1)</script>", "Bert", "Carl", "Dina"))
    client.force_login(cast["admin"])
    html = body(client.get(reverse("club_players", args=["les-as"])))
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    player = named(club, "<script>alert(1)</script>")
    html = body(client.get(reverse("club_player_merge", args=["les-as", player.pk])))
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    html = body(
        client.get(reverse("club_player_merge", args=["les-as", named(club, "Bert").pk]) + f"?with={player.pk}")
    )
    assert "<script>alert" not in html and "&lt;script&gt;" in html


# --- linking an account to a player -----------------------------------------------------------


def link(client, player, user):
    return client.post(
        reverse("club_player_link", args=[player.club.slug, player.pk]), {"user": "" if user is None else user.pk}
    )


@pytest.mark.both_databases
def test_it_lets_an_admin_link_any_members_account(client, cast, club):
    anne = Player.objects.create(club=club, name="Anne")
    client.force_login(cast["admin"])
    response = link(client, anne, cast["member"])
    assert response.status_code == 302
    anne.refresh_from_db()
    assert anne.user == cast["member"]


@pytest.mark.both_databases
def test_it_lets_an_admin_change_and_remove_a_link(client, cast, club):
    anne = Player.objects.create(club=club, name="Anne", user=cast["member"])
    client.force_login(cast["admin"])
    link(client, anne, cast["scorer"])
    anne.refresh_from_db()
    assert anne.user == cast["scorer"]
    link(client, anne, None)
    anne.refresh_from_db()
    assert anne.user is None


def test_it_refuses_to_link_an_account_outside_the_club(client, cast, club):
    anne = Player.objects.create(club=club, name="Anne")
    client.force_login(cast["admin"])
    response = link(client, anne, cast["outsider"])
    assert response.status_code == 422
    assert link_error(body(response), anne)
    anne.refresh_from_db()
    assert anne.user is None


@pytest.mark.both_databases
def test_it_refuses_a_second_player_for_one_account(client, cast, club):
    Player.objects.create(club=club, name="Mia", user=cast["member"])
    anne = Player.objects.create(club=club, name="Anne")
    client.force_login(cast["admin"])
    response = link(client, anne, cast["member"])
    assert response.status_code == 422
    assert "already linked to Mia" in link_error(body(response), anne)
    anne.refresh_from_db()
    assert anne.user is None


@pytest.mark.both_databases
def test_it_allows_one_player_per_account_in_each_club(client, cast, club):
    other = Club.objects.get(slug="trefle")
    Membership.objects.create(club=other, user=cast["member"])
    Player.objects.create(club=other, name="Mia", user=cast["member"])
    anne = Player.objects.create(club=club, name="Anne")
    client.force_login(cast["admin"])
    assert link(client, anne, cast["member"]).status_code == 302


@pytest.mark.both_databases
@pytest.mark.parametrize("who", ["member", "scorer"])
def test_it_turns_this_is_me_into_a_claim_for_the_admins(client, cast, club, who):
    anne = Player.objects.create(club=club, name="Anne")
    client.force_login(cast[who])
    html = body(client.get(reverse("club_players", args=["les-as"])))
    assert "This is me" in card(html, anne)
    assert link(client, anne, cast[who]).status_code == 302
    anne.refresh_from_db()
    assert anne.user is None
    assert "Your claim waits for an admin" in card(body(client.get(reverse("club_players", args=["les-as"]))), anne)


@pytest.mark.both_databases
def test_it_lets_an_admin_say_this_is_me_at_once(client, cast, club):
    anne = Player.objects.create(club=club, name="Anne")
    client.force_login(cast["admin"])
    assert link(client, anne, cast["admin"]).status_code == 302
    anne.refresh_from_db()
    assert anne.user == cast["admin"]


@pytest.mark.both_databases
def test_it_lets_a_member_unlink_himself(client, cast, club):
    anne = Player.objects.create(club=club, name="Anne", user=cast["member"])
    client.force_login(cast["member"])
    assert "This is not me" in card(body(client.get(reverse("club_players", args=["les-as"]))), anne)
    assert link(client, anne, None).status_code == 302
    anne.refresh_from_db()
    assert anne.user is None


@pytest.mark.both_databases
def test_it_refuses_a_member_a_player_linked_to_someone_else(client, cast, club):
    anne = Player.objects.create(club=club, name="Anne", user=cast["scorer"])
    client.force_login(cast["member"])
    assert "This is me" not in card(body(client.get(reverse("club_players", args=["les-as"]))), anne)
    response = link(client, anne, cast["member"])
    assert response.status_code == 422
    assert "already linked" in link_error(body(response), anne)
    anne.refresh_from_db()
    assert anne.user == cast["scorer"]


@pytest.mark.both_databases
def test_it_refuses_a_member_a_second_player(client, cast, club):
    Player.objects.create(club=club, name="Mia", user=cast["member"])
    anne = Player.objects.create(club=club, name="Anne")
    client.force_login(cast["member"])
    assert "This is me" not in card(body(client.get(reverse("club_players", args=["les-as"]))), anne)
    response = link(client, anne, cast["member"])
    assert response.status_code == 422 and "already linked to Mia" in link_error(body(response), anne)


@pytest.mark.parametrize("who", ["member", "scorer"])
def test_it_refuses_a_non_admin_linking_or_unlinking_someone_else(client, cast, club, who):
    anne = Player.objects.create(club=club, name="Anne")
    bert = Player.objects.create(club=club, name="Bert", user=cast["admin"])
    client.force_login(cast[who])
    assert link(client, anne, cast["admin"]).status_code == 403
    assert link(client, bert, None).status_code == 403
    anne.refresh_from_db()
    bert.refresh_from_db()
    assert anne.user is None and bert.user == cast["admin"]


@pytest.mark.parametrize("who", ["outsider", "other_admin"])
def test_it_answers_404_to_links_from_outside_the_club(client, cast, club, who):
    anne = Player.objects.create(club=club, name="Anne")
    client.force_login(cast[who])
    assert link(client, anne, cast[who]).status_code == 404
    anne.refresh_from_db()
    assert anne.user is None


def test_it_answers_404_for_a_player_of_another_club(client, cast, club):
    elsewhere = Player.objects.create(club=Club.objects.get(slug="trefle"), name="Xavier")
    client.force_login(cast["admin"])
    assert link(client, elsewhere, cast["member"]).status_code == 404
    assert client.get(reverse("club_player_merge", args=["les-as", elsewhere.pk])).status_code == 404


def test_it_only_links_by_post(client, cast, club):
    anne = Player.objects.create(club=club, name="Anne")
    client.force_login(cast["admin"])
    assert client.get(reverse("club_player_link", args=["les-as", anne.pk])).status_code == 405


# --- merging two records of one person --------------------------------------------------------


@pytest.fixture
def twins(club, cast):
    """Anne played one evening, and the next week someone typed her as "Annie"."""
    first = club_evening(club, cast["admin"], deals=DEALS)
    second = club_evening(
        club,
        cast["admin"],
        players=("Annie", "Bert", "Carl", "Dina"),
        day=date(2026, 11, 27),
        deals=[
            {**d, "declarers": ["Annie" if n == "Anne" else n for n in d["declarers"]]} if "declarers" in d else d
            for d in DEALS
        ],
    )
    return first, second


def merge(client, player, other, keep):
    return client.post(
        reverse("club_player_merge", args=[player.club.slug, player.pk]), {"other": other.pk, "keep": keep.pk}
    )


@pytest.mark.both_databases
@pytest.mark.parametrize(
    "who, status", [("outsider", 404), ("other_admin", 404), ("member", 403), ("scorer", 403), ("admin", 200)]
)
def test_it_lets_only_admins_merge(client, cast, club, twins, who, status):
    anne, annie = named(club, "Anne"), named(club, "Annie")
    client.force_login(cast[who])
    assert client.get(reverse("club_player_merge", args=["les-as", anne.pk])).status_code == status
    assert (
        client.get(reverse("club_player_merge", args=["les-as", anne.pk]) + f"?with={annie.pk}").status_code == status
    )
    response = merge(client, anne, annie, anne)
    assert response.status_code == (302 if who == "admin" else status)
    assert Player.objects.filter(pk=annie.pk).exists() is (who != "admin")


def test_it_offers_the_other_players_then_the_choice_of_the_record_to_keep(client, cast, club, twins):
    anne, annie = named(club, "Anne"), named(club, "Annie")
    client.force_login(cast["admin"])
    html = body(client.get(reverse("club_player_merge", args=["les-as", anne.pk])))
    assert f'href="?with={annie.pk}"' in html and f'?with={anne.pk}"' not in html
    html = body(client.get(reverse("club_player_merge", args=["les-as", anne.pk]) + f"?with={annie.pk}"))
    page = Page(html)
    assert [e.get("value") for e in page.inputs("keep")] == [str(anne.pk), str(annie.pk)]  # the two records only
    assert page.checked("keep") == [str(anne.pk)]
    assert page.field_value("other") == str(annie.pk)


@pytest.mark.both_databases
def test_it_merges_moving_the_seats_and_keeping_every_total(client, cast, club, twins):
    _first, second = twins
    anne, annie = named(club, "Anne"), named(club, "Annie")
    before = {e.pk: dict(stored.scored(e).result.totals) for e in twins}
    deals_before = {e.pk: datas(e) for e in twins}
    client.force_login(cast["admin"])
    response = merge(client, anne, annie, anne)
    assert response.status_code == 302 and response.url == reverse("club_players", args=["les-as"])
    assert not Player.objects.filter(pk=annie.pk).exists()
    seat = Seat.objects.get(evening=second, position=0)
    assert seat.player == anne and seat.name == "Annie"  # the deals of that evening say "Annie"
    for e in twins:
        e = Evening.objects.get(pk=e.pk)
        assert dict(stored.scored(e).result.totals) == before[e.pk]
        assert datas(e) == deals_before[e.pk]
        assert {p["name"]: p["player"] for p in e.summary["players"]}[e.seats.get(position=0).name] == anne.pk
    assert Seat.objects.filter(player=anne).count() == 2
    html = body(client.get(reverse("club_players", args=["les-as"])))
    assert "2 evenings" in card(html, anne)


@pytest.mark.both_databases
def test_it_merges_into_the_record_chosen_to_keep(client, cast, club, twins):
    anne, annie = named(club, "Anne"), named(club, "Annie")
    client.force_login(cast["admin"])
    assert merge(client, anne, annie, annie).status_code == 302
    assert not Player.objects.filter(pk=anne.pk).exists()
    assert Seat.objects.filter(player=annie).count() == 2
    assert Seat.objects.get(evening=twins[0], position=0).name == "Anne"


@pytest.mark.both_databases
def test_it_moves_the_linked_account_to_the_kept_record(client, cast, club, twins):
    anne, annie = named(club, "Anne"), named(club, "Annie")
    Player.objects.filter(pk=annie.pk).update(user=cast["member"])
    client.force_login(cast["admin"])
    merge(client, anne, annie, anne)
    anne.refresh_from_db()
    assert anne.user == cast["member"]


@pytest.mark.both_databases
def test_it_refuses_to_merge_two_accounts(client, cast, club, twins):
    anne, annie = named(club, "Anne"), named(club, "Annie")
    Player.objects.filter(pk=anne.pk).update(user=cast["scorer"])
    Player.objects.filter(pk=annie.pk).update(user=cast["member"])
    client.force_login(cast["admin"])
    response = merge(client, anne, annie, anne)
    assert response.status_code == 422 and "two different accounts" in non_field_errors(body(response))
    assert Player.objects.filter(pk=annie.pk).exists()


@pytest.mark.both_databases
def test_it_refuses_to_merge_two_people_of_the_same_evening_naming_it(client, cast, club, twins):
    _first, _second = twins
    bert, carl = named(club, "Bert"), named(club, "Carl")
    client.force_login(cast["admin"])
    html = body(client.get(reverse("club_player_merge", args=["les-as", bert.pk]) + f"?with={carl.pk}"))
    assert "both sat at the evening" in html and 'name="keep"' not in html
    response = merge(client, bert, carl, bert)
    assert response.status_code == 422
    message = non_field_errors(body(response))
    assert "Bert and Carl both sat at the evening of" in message
    assert "Nov. 20, 2026 · Flemish colour whist" in message
    assert Seat.objects.filter(player=carl).count() == 2 and Seat.objects.filter(player=bert).count() == 2


def test_it_refuses_a_merge_with_an_unknown_or_outside_player(client, cast, club, twins):
    anne = named(club, "Anne")
    elsewhere = Player.objects.create(club=Club.objects.get(slug="trefle"), name="Xavier")
    client.force_login(cast["admin"])
    for other in (elsewhere, anne):
        response = merge(client, anne, other, anne)
        assert response.status_code == 422 and field_errors(body(response), "other")
    assert Player.objects.filter(pk=elsewhere.pk).exists()


def test_it_refuses_to_keep_a_third_record(client, cast, club, twins):
    anne, annie, bert = named(club, "Anne"), named(club, "Annie"), named(club, "Bert")
    client.force_login(cast["admin"])
    response = merge(client, anne, annie, bert)
    assert response.status_code == 422 and field_errors(body(response), "keep")
    assert Player.objects.filter(club=club).count() == 5


@pytest.mark.both_databases
def test_the_merge_service_refuses_a_shared_evening_and_changes_nothing(club, cast, twins):
    bert, carl = named(club, "Bert"), named(club, "Carl")
    with pytest.raises(services.Refused):
        roster.merge_players(bert, carl)
    assert Seat.objects.filter(player=carl).count() == 2
