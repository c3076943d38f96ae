"""Two secretaries, one roster: every write of the roster and of the seasons when two requests cross
(``races``). Whatever the order the database puts them in, what is left is what one request alone
would leave, the one that lost is told in words, and nothing answers 500.

Each case ran against the code before "decide under the lock" (issue 19): see the report of that change
for what each one did then (a 500, or a second effect).
"""

from datetime import date, timedelta
from types import SimpleNamespace

import pytest
from django.urls import reverse

from builders import club_evening
from races import Shot, race, said
from scorebook.clubs.models import Membership, Player, PlayerClaim, Role, Season
from scorebook.evenings.models import Seat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

SLUG = "de-troef"
DEALS = [{"contract": "pass"}, {"contract": "pass"}]


def url(name, *args) -> str:
    return reverse(name, args=[SLUG, *[a.pk if hasattr(a, "pk") else a for a in args]])


def names(club) -> list[str]:
    return sorted(Player.objects.filter(club=club).values_list("name", flat=True))


@pytest.fixture
def second_admin(make_user, club):
    """Alain, the club's other admin: he works on the roster from his own phone."""
    alain = make_user("alain", first_name="Alain")
    Membership.objects.create(club=club, user=alain, role=Role.ADMIN)
    return alain


# --- merging two records of one person ----------------------------------------------------------


def twins(club, admin, n):
    """Anne played an evening; a week later someone typed her as "Annie" (her seat moves on a merge)."""
    anne, annie = f"Anne {n}", f"Annie {n}"
    club_evening(
        club, admin, date(2026, 1, 1) + timedelta(days=2 * n), deals=DEALS, players=(anne, "Bert", "Carl", "Dina")
    )
    evening = club_evening(
        club, admin, date(2026, 1, 2) + timedelta(days=2 * n), deals=DEALS, players=(annie, "Bert", "Carl", "Dina")
    )
    return Player.objects.get(club=club, name=anne), Player.objects.get(club=club, name=annie), evening


@pytest.mark.parametrize("keeps", ["the same", "each the other"])
def test_it_merges_two_records_once_when_two_admins_merge_them(admin, second_admin, club, keeps):
    def setup(n):
        anne, annie, evening = twins(club, admin, n)
        return SimpleNamespace(anne=anne, annie=annie, evening=evening)

    def shots(s):
        first = Shot(admin, "post", url("club_player_merge", s.anne), {"other": s.annie.pk, "keep": s.anne.pk})
        if keeps == "the same":
            second = Shot(
                second_admin, "post", url("club_player_merge", s.annie), {"other": s.anne.pk, "keep": s.anne.pk}
            )
        else:
            second = Shot(
                second_admin, "post", url("club_player_merge", s.annie), {"other": s.anne.pk, "keep": s.annie.pk}
            )
        return [first, second]

    def check(s, answers):
        left = Player.objects.filter(pk__in=[s.anne.pk, s.annie.pk])
        assert left.count() == 1  # one record is left of the two, whichever was kept
        assert Seat.objects.filter(player=left.get()).count() == 2
        assert sorted(a.status for a in answers)[0] == 302
        loser = max(answers, key=lambda a: a.status)
        assert loser.status == 404 or (
            loser.status in (409, 422)
            and (loser.says("in the meantime") or loser.says("Choose the other record of this person"))
        ), (loser.status, loser.text[:300])

    race(setup, shots, check)


def test_it_merges_a_record_or_renames_it_never_both_half_done(admin, second_admin, club):
    def setup(n):
        anne, annie, evening = twins(club, admin, n)
        return SimpleNamespace(anne=anne, annie=annie, evening=evening)

    def shots(s):
        return [
            Shot(admin, "post", url("club_player_merge", s.anne), {"other": s.annie.pk, "keep": s.anne.pk}),
            Shot(second_admin, "post", url("club_player_rename", s.annie), {"name": f"{s.annie.name} B."}),
        ]

    def check(s, answers):
        merged, renamed = answers
        assert merged.status == 302
        assert not Player.objects.filter(pk=s.annie.pk).exists()
        assert Seat.objects.filter(player=s.anne).count() == 2
        if renamed.status != 302:  # the merge came first: the rename is told (404: the record was gone before it came)
            assert renamed.status == 404 or (renamed.status == 409 and renamed.says("is no longer in the roster")), (
                renamed.status,
                renamed.text[renamed.text.find("<main") :][:600],
            )

    race(setup, shots, check)


# --- claims: "this is me" -------------------------------------------------------------------------


@pytest.fixture
def members(make_user, club):
    """Mia and Nora, two members who each say the roster's "Anne" is them."""
    mia, nora = make_user("mia", first_name="Mia"), make_user("nora", first_name="Nora")
    for user in (mia, nora):
        Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    return mia, nora


def test_it_links_a_player_to_one_account_when_two_claims_are_approved_at_once(admin, second_admin, club, members):
    mia, nora = members

    def setup(n):
        Player.objects.filter(club=club).update(user=None)  # the last round's winner is unlinked
        anne = Player.objects.create(club=club, name=f"Anne {n}")
        return SimpleNamespace(anne=anne, claims=[PlayerClaim.objects.create(player=anne, user=u) for u in members])

    def shots(s):
        return [
            Shot(admin, "post", url("club_claim_answer", s.claims[0]), {"answer": "approve"}),
            Shot(second_admin, "post", url("club_claim_answer", s.claims[1]), {"answer": "approve"}),
        ]

    def check(s, answers):
        s.anne.refresh_from_db()
        assert s.anne.user_id in (mia.pk, nora.pk)
        assert not PlayerClaim.objects.filter(player=s.anne).exists()
        assert [a.status for a in answers] == [302, 302]

    race(setup, shots, check)


def test_it_approves_or_refuses_a_claim_never_both(admin, second_admin, club, members):
    mia, _nora = members

    def setup(n):
        anne = Player.objects.create(club=club, name=f"Anne {n}")
        return SimpleNamespace(anne=anne, claim=PlayerClaim.objects.create(player=anne, user=mia))

    def shots(s):
        return [
            Shot(admin, "post", url("club_claim_answer", s.claim), {"answer": "approve"}),
            Shot(second_admin, "post", url("club_claim_answer", s.claim), {"answer": "refuse"}),
        ]

    def check(s, answers):
        s.anne.refresh_from_db()
        assert s.anne.user_id in (None, mia.pk)
        assert not PlayerClaim.objects.filter(player=s.anne).exists()
        assert [a.status for a in answers] == [302, 302]

    race(setup, shots, check)


def test_it_sends_one_claim_when_two_members_claim_one_player_twice(club, members):
    mia, nora = members

    def setup(n):
        return SimpleNamespace(anne=Player.objects.create(club=club, name=f"Anne {n}"))

    def shots(s):
        return [Shot(u, "post", url("club_player_link", s.anne), {"user": u.pk}) for u in (mia, mia, nora, nora)]

    def check(s, answers):
        assert sorted(PlayerClaim.objects.filter(player=s.anne).values_list("user_id", flat=True)) == [mia.pk, nora.pk]
        assert all(a.status == 302 for a in answers)

    race(setup, shots, check)


# --- adding and renaming -------------------------------------------------------------------------


def test_it_adds_a_name_once_when_two_scorers_add_it(admin, scorer, club):
    def setup(n):
        return SimpleNamespace(name=f"Zoë {n}")

    def shots(s):
        return [Shot(u, "post", url("club_players"), {"name": s.name}) for u in (admin, scorer)]

    def check(s, answers):
        assert Player.objects.filter(club=club, name=s.name).count() == 1
        assert sorted(a.status for a in answers) == [302, 422]
        assert said(answers, "is already in the roster") == 1

    race(setup, shots, check)


def test_it_gives_a_name_to_one_player_when_two_are_renamed_to_it(admin, second_admin, club):
    def setup(n):
        return SimpleNamespace(
            a=Player.objects.create(club=club, name=f"A {n}"), b=Player.objects.create(club=club, name=f"B {n}")
        )

    def shots(s):
        return [
            Shot(admin, "post", url("club_player_rename", s.a), {"name": "Same"}),
            Shot(second_admin, "post", url("club_player_rename", s.b), {"name": "Same"}),
        ]

    def check(s, answers):
        assert Player.objects.filter(club=club, name="Same").count() == 1
        assert sorted(a.status for a in answers) == [302, 422]
        Player.objects.filter(club=club, name="Same").update(name=f"done {s.a.pk}")

    race(setup, shots, check)


def test_it_adds_each_name_once_when_a_pasted_list_and_one_name_are_added_at_once(admin, scorer, club):
    def setup(n):
        return SimpleNamespace(names=[f"Zoë {n}", f"Yves {n}", f"Xavier {n}"])

    def shots(s):
        return [
            Shot(admin, "post", url("club_players_paste"), {"step": "add", "add": s.names}),
            Shot(scorer, "post", url("club_players"), {"name": s.names[0]}),
        ]

    def check(s, answers):
        for name in s.names:
            assert Player.objects.filter(club=club, name=name).count() == 1
        pasted, added = answers
        assert pasted.status == 302
        assert added.status == 302 or (added.status == 422 and added.says("is already in the roster"))

    race(setup, shots, check)


def test_it_adds_a_pasted_list_once_when_it_is_sent_twice(admin, scorer, club):
    def setup(n):
        return SimpleNamespace(names=[f"Zoë {n}", f"Yves {n}"])

    def shots(s):
        return [Shot(u, "post", url("club_players_paste"), {"step": "add", "add": s.names}) for u in (admin, scorer)]

    def check(s, answers):
        for name in s.names:
            assert Player.objects.filter(club=club, name=name).count() == 1
        assert [a.status for a in answers] == [302, 302]

    race(setup, shots, check)


# --- seasons -------------------------------------------------------------------------------------


def season_data(**changes):
    data = {
        "name": "Winter",
        "start": "2026-10-01",
        "end": "2027-03-31",
        "ruleset": "kleurenwiezen",
        "ranking": "total",
        "league_points": "",
        "min_evenings": "0",
        "drop_worst": "0",
        "tie_break": "evenings-won",
    }
    return data | changes


@pytest.mark.parametrize("confirmed", [False, True], ids=["unconfirmed", "dates confirmed"])
def test_it_creates_a_season_once_when_its_form_is_sent_twice(admin, second_admin, club, confirmed):
    def setup(n):
        Season.objects.filter(club=club).delete()
        return SimpleNamespace(data=season_data(name=f"Winter {n}") | ({"confirm_overlap": "on"} if confirmed else {}))

    def shots(s):
        return [Shot(u, "post", url("season_new"), s.data) for u in (admin, second_admin)]

    def check(s, answers):
        assert Season.objects.filter(club=club).count() == 1
        # refused by the form (it saw the first season), or under the lock, the form saying why
        assert sorted(a.status for a in answers) in ([302, 409], [302, 422])
        loser = next(a for a in answers if a.status != 302)
        assert loser.says("The club already has a season named") or loser.says("These dates meet the season")

    race(setup, shots, check)


def make_season(club, n):
    return Season.objects.create(
        club=club, name=f"Winter {n}", start=date(2026, 10, 1), end=date(2027, 3, 31), ruleset="kleurenwiezen"
    )


def test_it_deletes_a_season_or_saves_it_never_brings_it_back(admin, second_admin, club):
    def setup(n):
        Season.objects.filter(club=club).delete()
        return SimpleNamespace(season=make_season(club, n))

    def shots(s):
        return [
            Shot(admin, "post", url("season_delete", s.season)),
            Shot(second_admin, "post", url("season_edit", s.season), season_data(name="Renamed")),
        ]

    def check(s, answers):
        deleted, edited = answers
        assert not Season.objects.filter(club=club).exists()  # the deletion came first or last: it is gone
        assert deleted.status == 302
        if edited.status != 302:
            assert edited.status in (404, 409), edited.status
        if edited.status == 409:
            assert edited.says("deleted in the meantime")

    race(setup, shots, check)


def test_it_deletes_a_season_or_archives_it_in_the_order_they_came(admin, second_admin, club):
    def setup(n):
        Season.objects.filter(club=club).delete()
        return SimpleNamespace(season=make_season(club, n))

    def shots(s):
        return [
            Shot(admin, "post", url("season_delete", s.season)),
            Shot(second_admin, "post", url("season_archive", s.season), {"archived": "1"}),
        ]

    def check(s, answers):
        assert not Season.objects.filter(club=club).exists()
        assert all(a.status in (302, 404) for a in answers)

    race(setup, shots, check)


def test_it_deletes_a_season_once_when_two_admins_delete_it(admin, second_admin, club):
    def setup(n):
        Season.objects.filter(club=club).delete()
        return SimpleNamespace(season=make_season(club, n))

    def shots(s):
        return [Shot(u, "post", url("season_delete", s.season)) for u in (admin, second_admin)]

    def check(s, answers):
        assert not Season.objects.filter(club=club).exists()
        assert all(a.status in (302, 404) for a in answers)

    race(setup, shots, check)


# --- evenings started in the club: their new names join the roster ----------------------------------


def new_evening(club, players, day="2026-11-20"):
    data = {"club": str(club.pk), "ruleset": "kleurenwiezen", "first_dealer": "0", "stake": "0.05"}
    data |= {"currency": "EUR", "date": day} | {f"player_{seat}": name for seat, name in enumerate(players)}
    return data


def test_it_adds_a_new_name_once_when_two_tables_start_an_evening_with_it(admin, scorer, club):
    def setup(n):
        return SimpleNamespace(name=f"Zoë {n}")

    def shots(s):
        return [
            Shot(admin, "post", reverse("evening_new"), new_evening(club, (s.name, "Bert", "Carl", "Dina"))),
            Shot(scorer, "post", reverse("evening_new"), new_evening(club, ("Anne", s.name, "Eric", "Fien"))),
        ]

    def check(s, answers):
        zoe = Player.objects.get(club=club, name=s.name)  # one record, where each table sits her
        assert Seat.objects.filter(player=zoe).count() == 2
        assert [a.status for a in answers] == [302, 302]

    race(setup, shots, check)


def test_it_seats_a_merged_name_on_the_record_kept_whichever_came_first(admin, second_admin, club):
    def setup(n):
        anne, annie, _evening = twins(club, admin, n)
        return SimpleNamespace(anne=anne, annie=annie)

    def shots(s):
        return [
            Shot(admin, "post", url("club_player_merge", s.anne), {"other": s.annie.pk, "keep": s.anne.pk}),
            Shot(
                second_admin, "post", reverse("evening_new"), new_evening(club, (s.annie.name, "Bert", "Carl", "Dina"))
            ),
        ]

    def check(s, answers):
        assert [a.status for a in answers] == [302, 302]
        assert Seat.objects.filter(player=s.anne).count() >= 2
        # the merge first: the new evening's "Annie" is a new record; the evening first: its seat moved to Anne
        annie = Player.objects.filter(club=club, name=s.annie.name).first()
        assert annie is None or annie.pk != s.annie.pk
        annies = Seat.objects.filter(player=annie).count() if annie else 0
        assert Seat.objects.filter(player=s.anne).count() + annies == 3

    race(setup, shots, check)


def test_it_links_an_account_to_one_player_when_two_admins_link_it_at_once(admin, second_admin, club, members):
    mia, _nora = members

    def setup(n):
        Player.objects.filter(club=club).update(user=None)
        return SimpleNamespace(
            a=Player.objects.create(club=club, name=f"A {n}"), b=Player.objects.create(club=club, name=f"B {n}")
        )

    def shots(s):
        return [
            Shot(admin, "post", url("club_player_link", s.a), {"user": mia.pk}),
            Shot(second_admin, "post", url("club_player_link", s.b), {"user": mia.pk}),
        ]

    def check(s, answers):
        assert Player.objects.filter(club=club, user=mia).count() == 1
        assert sorted(a.status for a in answers) == [302, 422]
        assert said(answers, "This account is already linked to") == 1

    race(setup, shots, check)


def test_it_approves_a_claim_or_lets_it_be_withdrawn_never_both(admin, club, members):
    mia, _nora = members

    def setup(n):
        Player.objects.filter(club=club).update(user=None)
        anne = Player.objects.create(club=club, name=f"Anne {n}")
        return SimpleNamespace(anne=anne, claim=PlayerClaim.objects.create(player=anne, user=mia))

    def shots(s):
        return [
            Shot(admin, "post", url("club_claim_answer", s.claim), {"answer": "approve"}),
            Shot(mia, "post", url("club_player_unclaim", s.anne)),
        ]

    def check(s, answers):
        s.anne.refresh_from_db()
        assert s.anne.user_id in (None, mia.pk)
        assert not PlayerClaim.objects.filter(player=s.anne).exists()
        assert [a.status for a in answers] == [302, 302]

    race(setup, shots, check)
