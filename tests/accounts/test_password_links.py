"""Members get back in after a restore (issue 29): the club's backup holds no password, so each
restored account chooses one through a one-time link. The operator's restore prints the admins'
links; an admin makes each other member's link on the members page; the member opens it, chooses a
password and is logged in. A link works once, for a week, only for an account that has no password
and never logged in (an admin never takes over an account in use); a new link replaces the one
before; only its digest is stored.

Adèle (``admin``) is the secretary of De Troef; Lotte (``restored``) came back with the club's backup
and has no password yet; Marie (``scorer``) has hers.
"""

import re
from datetime import timedelta
from io import StringIO
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club_fixtures import *  # noqa: F403
from pages import Page, body, field_errors
from races import Shot, race, said
from scorebook.accounts import password_links
from scorebook.accounts.models import PasswordLink
from scorebook.clubs.models import Membership, Role

pytestmark = pytest.mark.django_db

NEW = {"new_password1": "een-nieuw-wachtwoord", "new_password2": "een-nieuw-wachtwoord"}


@pytest.fixture
def restored(club):
    """Lotte, restored from the club's backup: an account without a password, never logged in."""
    user = get_user_model().objects.create(username="lotte", first_name="Lotte")
    user.set_unusable_password()
    user.save()
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    return user


def the_link(html: str, user) -> str:
    """The link the members page shows this once on the member's row."""
    field = Page(html).by_id(f"password-link-{Membership.objects.get(user=user).pk}")
    assert field is not None, "no link shown"
    return re.sub(r"^https?://testserver", "", field.get("value"))


def make_link(client, club, user):
    membership = Membership.objects.get(club=club, user=user)
    return client.post(reverse("club_member_password_link", args=[club.slug, membership.pk]))


@pytest.mark.both_databases
def test_an_admin_gives_a_restored_member_his_link_and_he_is_in(client, admin, club, restored):
    client.force_login(admin)
    page = Page(body(client.get(reverse("club_members", args=[club.slug]))))
    row = next(li for li in page.all("li.member") if "Lotte" in li.text)
    assert "no password yet" in row.text and "Make a link to choose a password" in row.text
    made = make_link(client, club, restored)
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    link = the_link(body(made), restored)
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert PasswordLink.objects.get(user=restored).token_hash == password_links.digest(token)
    # the page shows it this once
    assert link not in body(client.get(reverse("club_members", args=[club.slug])))

    lotte = Client()
    form = lotte.get(link)
    assert form.status_code == 200 and form["Referrer-Policy"] == "same-origin"
    assert "user name <strong>lotte</strong>" in body(form)
    short = lotte.post(link, {"new_password1": "kort", "new_password2": "kort"})
    assert short.status_code == 422 and field_errors(body(short), "new_password2")
    done = lotte.post(link, NEW)
    assert done.status_code == 302
    restored.refresh_from_db()
    assert restored.check_password(NEW["new_password1"])
    assert lotte.get(reverse("club", args=[club.slug])).status_code == 200  # logged in, a member of the club
    # once: the link is spent, and no other is offered
    assert Client().get(link).status_code == 410
    again = Page(body(client.get(reverse("club_members", args=[club.slug]))))
    assert "no password yet" not in next(li for li in again.all("li.member") if "Lotte" in li.text).text


@pytest.mark.both_databases
def test_a_new_link_replaces_the_one_before_and_a_link_expires(client, admin, club, restored):
    client.force_login(admin)
    first = the_link(body(make_link(client, club, restored)), restored)
    second = the_link(body(make_link(client, club, restored)), restored)
    assert Client().get(first).status_code == 410
    assert Client().get(second).status_code == 200
    PasswordLink.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    gone = Client().get(second)
    assert gone.status_code == 410 and "This link no longer works" in body(gone)


@pytest.mark.both_databases
def test_no_link_is_made_for_an_account_that_has_a_password(client, admin, club, scorer, restored):
    """An admin never takes over an account in use: Marie has a password; Lotte, once she logged in, too."""
    client.force_login(admin)
    refused = make_link(client, club, scorer)
    assert refused.status_code == 409 and "has a password already" in body(refused)
    assert not PasswordLink.objects.exists()
    link = the_link(body(make_link(client, club, restored)), restored)
    restored.last_login = timezone.now()  # she logged in some other way meanwhile
    restored.save()
    assert Client().get(link).status_code == 410


def test_only_an_admin_of_the_members_club_makes_his_link(client, cast, club, restored):
    membership = Membership.objects.get(user=restored)
    url = reverse("club_member_password_link", args=[club.slug, membership.pk])
    for who, status in (("scorer", 403), ("member", 403), ("outsider", 404), ("other_admin", 404)):
        client.force_login(cast[who])
        assert client.post(url).status_code == status, who
    assert not PasswordLink.objects.exists()


@pytest.mark.both_databases
def test_the_operator_makes_a_link_from_the_command_line(restored, scorer):
    out = StringIO()
    call_command("password_link", "lotte", "--site", "https://scorebook.example.org/", stdout=out)
    link = out.getvalue().strip()
    assert re.fullmatch(r"https://scorebook\.example\.org/accounts/password/[\w-]{32}/", link)
    assert Client().get(link.removeprefix("https://scorebook.example.org")).status_code == 200
    with pytest.raises(CommandError, match="has a password already"):
        call_command("password_link", "marie")
    with pytest.raises(CommandError, match="no user"):
        call_command("password_link", "nobody")


@pytest.fixture(params=["staff", "superuser"])
def restored_operator(request, club):
    """Olga, an operator's account (staff, or a superuser) restored without a password and a member
    of the club: whoever holds a link to it would hold the site's admin."""
    user = get_user_model().objects.create(
        username="olga", first_name="Olga", is_staff=True, is_superuser=request.param == "superuser"
    )
    user.set_unusable_password()
    user.save()
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    return user


@pytest.mark.both_databases
def test_no_link_is_ever_made_for_a_staff_or_superuser_account(client, admin, club, restored_operator):
    """Issue 39: a link could be made for a staff or superuser account, by the command and by a
    club's admin on the members page."""
    with pytest.raises(CommandError, match="staff"):
        call_command("password_link", "olga", stdout=StringIO())
    client.force_login(admin)
    page = Page(body(client.get(reverse("club_members", args=[club.slug]))))
    row = next(li for li in page.all("li.member") if "Olga" in li.text)
    assert "Make a link to choose a password" not in row.text
    refused = make_link(client, club, restored_operator)
    assert refused.status_code == 409 and "runs the site" in body(refused)
    assert not PasswordLink.objects.exists()


@pytest.mark.both_databases
def test_a_link_made_before_the_account_became_staff_no_longer_works(restored):
    token = password_links.make(restored)
    restored.is_staff = True
    restored.save()
    answer = Client().post(reverse("password_link", args=[token]), NEW)
    assert answer.status_code == 410
    restored.refresh_from_db()
    assert not restored.has_usable_password()
    with pytest.raises(ValueError):
        password_links.make(restored)


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_a_link_tapped_twice_at_once_sets_the_password_once(club, make_user):
    def setup(round):
        user = get_user_model().objects.create(username=f"restored{round}")
        user.set_unusable_password()
        user.save()
        return SimpleNamespace(user=user, url=reverse("password_link", args=[password_links.make(user)]))

    def shots(s):
        return [
            Shot(None, "post", s.url, {"new_password1": "eerste-wachtwoord", "new_password2": "eerste-wachtwoord"}),
            Shot(None, "post", s.url, {"new_password1": "tweede-wachtwoord", "new_password2": "tweede-wachtwoord"}),
        ]

    def check(s, answers):
        s.user.refresh_from_db()
        assert sorted(a.status for a in answers) == [302, 410]
        assert said(answers, "This link no longer works") == 1
        first = answers[0].status == 302
        assert s.user.check_password("eerste-wachtwoord" if first else "tweede-wachtwoord")

    race(setup, shots, check)
