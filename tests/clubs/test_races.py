"""Two admins, one club: every write of the club's members, invitations, settings and house rules when
two requests cross (``races``). Whatever the order the database puts them in, what is left is what
one request alone would leave, the one that lost is told in words, and nothing answers 500.

Each case ran against the code before "decide under the lock" (issue 19): see the report of that change
for what each one did then (a 500, or a second effect).
"""

import threading
import time
from types import SimpleNamespace

import pytest
from django.db.models.signals import pre_delete
from django.test import Client
from django.urls import reverse

from pages import Page
from races import Shot, race, said
from scorebook.clubs import services
from scorebook.clubs.models import Club, FormerSlug, HouseRules, Invitation, Membership, Role

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

SLUG = "de-troef"


def url(name, *args) -> str:
    return reverse(name, args=[SLUG, *[a.pk if hasattr(a, "pk") else a for a in args]])


@pytest.fixture
def second_admin(make_user, club):
    """Alain, the club's other admin, on his own phone."""
    alain = make_user("alain", first_name="Alain")
    Membership.objects.create(club=club, user=alain, role=Role.ADMIN)
    return alain


def role_of(club, user):
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


# --- members ---------------------------------------------------------------------------------------


def test_it_removes_a_member_once_when_two_admins_remove_him(admin, second_admin, club, make_user):
    def setup(n):
        mia = make_user(f"mia{n}")
        return SimpleNamespace(mia=mia, membership=Membership.objects.create(club=club, user=mia, role=Role.MEMBER))

    def shots(s):
        return [Shot(u, "post", url("club_member_remove", s.membership)) for u in (admin, second_admin)]

    def check(s, answers):
        assert role_of(club, s.mia) is None
        assert sorted(a.status for a in answers) in ([302, 302], [302, 404], [302, 409])
        if 409 in [a.status for a in answers]:
            assert said(answers, "is no longer a member") == 1

    race(setup, shots, check)


def test_it_removes_a_member_or_promotes_him_in_the_order_they_came(admin, second_admin, club, make_user):
    def setup(n):
        mia = make_user(f"mia{n}")
        return SimpleNamespace(mia=mia, membership=Membership.objects.create(club=club, user=mia, role=Role.MEMBER))

    def shots(s):
        return [
            Shot(admin, "post", url("club_member_remove", s.membership)),
            Shot(second_admin, "post", url("club_member_role", s.membership), {"role": "scorer"}),
        ]

    def check(s, answers):
        removed, promoted = answers
        assert removed.status == 302
        assert role_of(club, s.mia) is None  # removed, before or after the promotion
        if promoted.status != 302:
            assert promoted.status in (404, 409), promoted.status
        if promoted.status == 409:
            assert promoted.says("is no longer a member")

    race(setup, shots, check)


def test_it_keeps_an_admin_when_the_two_admins_demote_each_other(admin, club, make_user):
    def setup(n):
        Membership.objects.filter(club=club).exclude(user=admin).delete()
        Membership.objects.filter(club=club, user=admin).update(role=Role.ADMIN)
        alain = make_user(f"alain{n}")
        Membership.objects.create(club=club, user=alain, role=Role.ADMIN)
        return SimpleNamespace(alain=alain)

    def shots(s):
        return [
            Shot(
                admin,
                "post",
                url("club_member_role", Membership.objects.get(club=club, user=s.alain)),
                {"role": "member"},
            ),
            Shot(
                s.alain,
                "post",
                url("club_member_role", Membership.objects.get(club=club, user=admin)),
                {"role": "member"},
            ),
        ]

    def check(s, answers):
        assert Membership.objects.filter(club=club, role=Role.ADMIN).count() == 1
        # the one who lost is told that the club needs an admin, or is no longer admin himself
        assert sorted(a.status for a in answers) in ([302, 403], [302, 422])

    race(setup, shots, check)


def test_it_keeps_an_admin_when_the_last_two_step_down_at_once(admin, club, make_user):
    def setup(n):
        Membership.objects.filter(club=club).exclude(user=admin).delete()
        Membership.objects.filter(club=club, user=admin).update(role=Role.ADMIN)
        alain = make_user(f"alain{n}")
        Membership.objects.create(club=club, user=alain, role=Role.ADMIN)
        return SimpleNamespace(alain=alain)

    def shots(s):
        return [
            Shot(u, "post", url("club_member_role", Membership.objects.get(club=club, user=u)), {"role": "member"})
            for u in (admin, s.alain)
        ]

    def check(s, answers):
        assert Membership.objects.filter(club=club, role=Role.ADMIN).count() == 1
        assert sorted(a.status for a in answers) == [302, 422]
        assert said(answers, "The club needs an admin") == 1

    race(setup, shots, check)


# --- invitations -----------------------------------------------------------------------------------


def test_it_lets_one_person_in_when_two_use_the_last_use_of_a_link(admin, club, make_user):
    def setup(n):
        _invitation, token = services.create_invitation(club, admin, role=Role.MEMBER, days=7, uses=1)
        return SimpleNamespace(token=token, people=[make_user(f"nina{n}"), make_user(f"noah{n}")])

    def shots(s):
        return [Shot(u, "post", reverse("club_join", args=[s.token])) for u in s.people]

    def check(s, answers):
        assert sum(role_of(club, u) == "member" for u in s.people) == 1
        invitation = Invitation.objects.get(token_hash=services.token_digest(s.token))
        assert invitation.uses == 1
        assert sorted(a.status for a in answers) == [302, 409]
        assert said(answers, "This invitation link no longer works") == 1

    race(setup, shots, check)


def test_it_uses_a_link_once_when_one_person_taps_join_twice(admin, club, make_user):
    def setup(n):
        _invitation, token = services.create_invitation(club, admin, role=Role.MEMBER, days=7, uses=2)
        return SimpleNamespace(token=token, nina=make_user(f"nina{n}"))

    def shots(s):
        return [Shot(s.nina, "post", reverse("club_join", args=[s.token]))] * 2

    def check(s, answers):
        assert role_of(club, s.nina) == "member"
        assert Invitation.objects.get(token_hash=services.token_digest(s.token)).uses == 1
        assert [a.status for a in answers] == [302, 302]

    race(setup, shots, check)


def test_it_lets_someone_join_before_a_link_is_revoked_or_tells_him_after(admin, second_admin, club, make_user):
    def setup(n):
        invitation, token = services.create_invitation(club, admin, role=Role.MEMBER, days=7, uses=5)
        return SimpleNamespace(invitation=invitation, token=token, nina=make_user(f"nina{n}"))

    def shots(s):
        return [
            Shot(second_admin, "post", url("club_invitation_revoke", s.invitation)),
            Shot(s.nina, "post", reverse("club_join", args=[s.token])),
        ]

    def check(s, answers):
        revoked, joined = answers
        invitation = Invitation.objects.get(pk=s.invitation.pk)
        assert invitation.revoked_at is not None and revoked.status == 302
        if joined.status == 302:
            assert role_of(club, s.nina) == "member" and invitation.uses == 1
        else:
            assert joined.status == 409 and joined.says("This invitation link no longer works")
            assert role_of(club, s.nina) is None and invitation.uses == 0

    race(setup, shots, check)


def test_it_revokes_a_link_once_when_two_admins_revoke_it(admin, second_admin, club):
    def setup(n):
        invitation, _token = services.create_invitation(club, admin, role=Role.MEMBER, days=7, uses=5)
        return SimpleNamespace(invitation=invitation)

    def shots(s):
        return [Shot(u, "post", url("club_invitation_revoke", s.invitation)) for u in (admin, second_admin)]

    def check(s, answers):
        assert Invitation.objects.get(pk=s.invitation.pk).revoked_at is not None
        assert [a.status for a in answers] == [302, 302]

    race(setup, shots, check)


# --- the club's settings ---------------------------------------------------------------------------


def test_it_gives_a_short_name_to_one_club_when_two_take_it_at_once(admin, club, make_user):
    otto = make_user("otto")
    other = services.create_club(name="Le Trèfle", slug="trefle", user=otto)

    def setup(n):
        return SimpleNamespace(slug=f"wanted-{n}")

    def shots(s):
        return [
            Shot(
                admin,
                "post",
                reverse("club_settings", args=[club.slug if n == 0 else other.slug]),
                {"name": name, "slug": s.slug},
            )
            for n, name in enumerate(["De Troef", "Le Trèfle"])
        ]

    def check(s, answers):
        assert Club.objects.filter(slug=s.slug).count() == 1
        assert sorted(a.status for a in answers) == [302, 422]
        assert said(answers, f"The short name “{s.slug}” is taken") == 1
        for c in (club, other):  # back to where they were, for the next round
            fresh = Club.objects.get(pk=c.pk)
            if fresh.slug != c.slug:
                services.rename_club(fresh, name=c.name, slug=c.slug)
        FormerSlug.objects.all().delete()

    Membership.objects.create(club=other, user=admin, role=Role.ADMIN)
    race(setup, shots, check)


def test_it_opens_one_club_when_two_people_take_one_short_name_at_once(admin, outsider):
    def setup(n):
        return SimpleNamespace(slug=f"new-club-{n}")

    def shots(s):
        return [
            Shot(u, "post", reverse("club_new"), {"name": f"New club {s.slug}", "slug": s.slug})
            for u in (admin, outsider)
        ]

    def check(s, answers):
        opened = Club.objects.get(slug=s.slug)
        assert Membership.objects.filter(club=opened).count() == 1
        assert sorted(a.status for a in answers) == [302, 422]
        assert said(answers, f"The short name “{s.slug}” is taken") == 1

    race(setup, shots, check)


def test_it_renames_a_club_once_when_two_admins_rename_it_at_once(admin, second_admin, club):
    def setup(n):
        return SimpleNamespace(slugs=[f"first-{n}", f"second-{n}"], before=Club.objects.get(pk=club.pk).slug)

    def shots(s):
        return [
            Shot(u, "post", reverse("club_settings", args=[s.before]), {"name": "De Troef", "slug": slug})
            for u, slug in zip((admin, second_admin), s.slugs, strict=True)
        ]

    def check(s, answers):
        now = Club.objects.get(pk=club.pk).slug
        assert now in s.slugs
        assert all(a.status in (302, 308) for a in answers)
        former = set(FormerSlug.objects.filter(club=club).values_list("slug", flat=True))
        assert s.before in former and now not in former

    race(setup, shots, check)


# --- house rules -----------------------------------------------------------------------------------


def rules_form(user, key) -> dict:
    """What the house-rules editor's form posts as the page shows it (every input, with its version)."""
    client = Client()
    client.force_login(user)
    page = Page(client.get(reverse("club_rules_edit", args=[SLUG, key])).content.decode())
    form = page.by_id("rules-form")
    data: dict[str, list[str]] = {}
    for element in form.elements():
        name = element.get("name")
        if not name or element.has("disabled"):
            continue
        if element.tag == "input" and element.get("type") not in ("submit", "checkbox", "radio"):
            data.setdefault(name, []).append(element.get("value", ""))
        elif element.tag == "input" and element.get("type") in ("checkbox", "radio") and element.has("checked"):
            data.setdefault(name, []).append(element.get("value", "on"))
        elif element.tag == "select":
            options = [o for o in element.elements() if o.tag == "option"]
            chosen = next((o for o in options if o.has("selected")), options[0] if options else None)
            if chosen is not None:
                data.setdefault(name, []).append(chosen.get("value", ""))
    return data


def test_it_saves_one_of_two_changes_of_the_house_rules_and_tells_the_other(admin, second_admin, club):
    def setup(n):
        HouseRules.objects.filter(club=club).delete()
        form = rules_form(admin, "gand")
        return SimpleNamespace(forms=[form | {"all_pass_multiplier": ["2"]}, form | {"all_pass_multiplier": ["3"]}])

    def shots(s):
        return [
            Shot(u, "post", reverse("club_rules_edit", args=[SLUG, "gand"]), form)
            for u, form in zip((admin, second_admin), s.forms, strict=True)
        ]

    def check(s, answers):
        house = HouseRules.objects.get(club=club, ruleset="gand")
        assert house.overrides["all_pass_multiplier"] in (2, 3)
        assert sorted(a.status for a in answers) == [302, 409]
        assert said(answers, "Someone changed these rules while you were editing them") == 1

    race(setup, shots, check)


@pytest.mark.both_databases
def test_it_resets_the_house_rules_wholly_before_or_after_a_save_made_at_the_same_moment(
    admin, second_admin, club, monkeypatch
):
    """Back to the preset takes the club's lock as a save does: the save comes wholly before it (the
    reset then leaves the preset) or after it (the save then finds the rules changed under its form
    and says so); never a save over the reset that neither admin is told about. The two are made to
    cross where it matters: the save decides slowly once it has read the rules under the lock, and
    the reset's delete waits until the save has read them (half a second at most: a reset holding
    the lock cannot wait for a save it keeps out)."""
    read = threading.Event()  # the save has read the club's rules, under the lock
    reading = services.rules_version

    def read_then_decide_slowly(overrides):
        read.set()
        time.sleep(0.15)
        return reading(overrides)

    def delete_once_read(sender, **kwargs):
        read.wait(timeout=0.5)

    monkeypatch.setattr(services, "rules_version", read_then_decide_slowly)

    HouseRules.objects.create(club=club, ruleset="gand", overrides={"all_pass_multiplier": 2})
    form = rules_form(admin, "gand") | {"all_pass_multiplier": ["3"]}  # the page as each round shows it

    def setup(n):
        HouseRules.objects.update_or_create(
            club=club, ruleset="gand", defaults={"overrides": {"all_pass_multiplier": 2}}
        )
        read.clear()
        return SimpleNamespace(form=form)

    def shots(s):
        pre_delete.connect(delete_once_read, sender=HouseRules, dispatch_uid="reset-race")
        edit = reverse("club_rules_edit", args=[SLUG, "gand"])
        return [Shot(admin, "post", edit, s.form), Shot(second_admin, "post", edit, {"action": "reset"})]

    def check(s, answers):
        pre_delete.disconnect(sender=HouseRules, dispatch_uid="reset-race")
        saved, reset = answers
        assert reset.status == 302
        assert not HouseRules.objects.filter(club=club, ruleset="gand").exists()  # the reset is never lost
        assert saved.status in (302, 409)
        if saved.status == 409:
            assert saved.says("Someone changed these rules while you were editing them")

    try:
        race(setup, shots, check)
    finally:
        pre_delete.disconnect(sender=HouseRules, dispatch_uid="reset-race")
