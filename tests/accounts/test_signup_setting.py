"""Who may make an account (issue 39, item 2): ``SIGNUP`` is ``open`` (anyone: the development default,
``make run`` and the tests), ``invitation`` (only someone holding a club's invitation link: the
production setting docs/operating.md writes) or ``closed`` (the operator's ``create_account`` and the
links to choose a password). Each value on the three doors: the sign-up page, the invitation link's
page, and the login page's link to sign up; a sign-up the setting refuses writes nothing and says why.
Before, anyone who reached the site could sign up (and open clubs), and nothing closed it.

Adèle (``admin``) is the secretary of De Troef and gave out its invitation link; Jeanne has none
yet (the newcomer); Marie (``scorer``) has hers."""

import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from club_fixtures import *  # noqa: F403
from pages import Page, body
from scorebook.accounts.models import Profile
from scorebook.clubs import services
from scorebook.clubs.models import Invitation, Membership, Role

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
STRONG = "green-table-42-spades"
JEANNE = {"username": "jeanne", "display_name": "Jeanne V.", "password1": STRONG, "password2": STRONG}
SAYS_INVITATION = "an account is made with a club's invitation link"
SAYS_CLOSED = "accounts are made by the person who runs it"


@pytest.fixture
def invitation(club, admin):
    """De Troef's invitation link, as Adèle made it: (the invitation, its token)."""
    return services.create_invitation(club, admin, role=Role.MEMBER, days=7, uses=5)


def said(response) -> str:
    """The page's text, as read."""
    return Page(body(response)).text


def accounts() -> set[str]:
    return set(get_user_model().objects.values_list("username", flat=True))


def login_page_line(client) -> str:
    """What the login page says to someone without an account, and where its link goes (if any)."""
    main = Page(body(client.get(reverse("login")))).find("main")
    line = next(p for p in main.all("p") if "No account yet?" in p.text)
    return " ".join([line.text, *(a.get("href") for a in line.all("a"))])


# --- open: anyone ------------------------------------------------------------------------------------


@pytest.mark.both_databases
def test_open_lets_anyone_sign_up_from_the_login_page(client, settings):
    settings.SIGNUP = "open"
    assert reverse("signup") in login_page_line(client)
    assert 'name="password1"' in body(client.get(reverse("signup")))
    assert client.post(reverse("signup"), JEANNE).status_code == 302
    assert "jeanne" in accounts()


@pytest.mark.both_databases
def test_open_also_makes_the_account_and_joins_from_an_invitation(client, settings, club, invitation):
    settings.SIGNUP = "open"
    join = reverse("club_join", args=[invitation[1]])
    assert Page(body(client.get(join))).find(f'a[href="{join}account/"]') is not None
    assert client.post(f"{join}account/", JEANNE).status_code == 302
    assert Membership.objects.get(club=club, user__username="jeanne").role == Role.MEMBER


# --- invitation: only with a club's link ---------------------------------------------------------------


@pytest.mark.both_databases
def test_invitation_refuses_a_sign_up_without_a_link_in_words_and_writes_nothing(client, settings, admin):
    settings.SIGNUP = "invitation"
    before = accounts()
    page = client.get(reverse("signup"))
    assert SAYS_INVITATION in said(page) and 'name="password1"' not in body(page)
    refused = client.post(reverse("signup"), JEANNE)
    assert refused.status_code == 403 and SAYS_INVITATION in said(refused)
    assert accounts() == before and not Profile.objects.filter(display_name="Jeanne V.").exists()


def test_invitation_says_on_the_login_page_where_an_account_comes_from(client, settings):
    settings.SIGNUP = "invitation"
    line = login_page_line(client)
    assert "invitation link" in line and reverse("signup") not in line


@pytest.mark.both_databases
def test_invitation_makes_the_account_and_joins_the_club_in_one_step(client, settings, club, invitation):
    settings.SIGNUP = "invitation"
    join = reverse("club_join", args=[invitation[1]])
    page = Page(body(client.get(join)))
    assert "De Troef" in page.text and page.find(f'a[href="{join}account/"]') is not None
    form = client.get(f"{join}account/")
    assert form.status_code == 200 and form["Cache-Control"].startswith("max-age=0")
    joined = client.post(f"{join}account/", JEANNE)
    assert joined.status_code == 302 and joined.url == reverse("club", args=[club.slug])
    jeanne = get_user_model().objects.get(username="jeanne")
    assert jeanne.profile.display_name == "Jeanne V." and jeanne.check_password(STRONG)
    assert Membership.objects.get(club=club, user=jeanne).role == Role.MEMBER
    assert client.session["_auth_user_id"] == str(jeanne.pk)
    invitation[0].refresh_from_db()
    assert invitation[0].uses == 1


@pytest.mark.both_databases
def test_invitation_leaves_no_account_when_the_link_stopped_working(client, settings, club, invitation):
    settings.SIGNUP = "invitation"
    account_page = reverse("club_join_signup", args=[invitation[1]])
    services.revoke(invitation[0])
    before = accounts()
    assert client.post(account_page, JEANNE).status_code == 409
    assert client.post(reverse("club_join_signup", args=["no-such-link-0123456789abcdef"]), JEANNE).status_code == 404
    assert accounts() == before


@pytest.mark.both_databases
def test_invitation_leaves_no_account_when_the_link_is_used_up_while_the_form_is_filled(
    client, settings, club, admin, monkeypatch
):
    """The link works when the form is checked and is used up before the account joins: the whole
    step is undone, account included."""
    settings.SIGNUP = "invitation"
    _invitation, token = services.create_invitation(club, admin, role=Role.MEMBER, days=7, uses=1)
    joined_meanwhile = services.join

    def join_after_another(link, user):
        Invitation.objects.filter(pk=link.pk).update(uses=1)  # someone else used it a moment ago
        return joined_meanwhile(link, user)

    monkeypatch.setattr(services, "join", join_after_another)
    before = accounts()
    stopped = client.post(reverse("club_join_signup", args=[token]), JEANNE)
    assert stopped.status_code == 409 and "no longer works" in said(stopped)
    assert accounts() == before and not Profile.objects.filter(display_name="Jeanne V.").exists()


# --- closed: the operator's command and the links ------------------------------------------------------


@pytest.mark.both_databases
def test_closed_refuses_every_sign_up_in_words_and_writes_nothing(client, settings, club, invitation):
    settings.SIGNUP = "closed"
    before = accounts()
    join = reverse("club_join", args=[invitation[1]])
    for page in (reverse("signup"), f"{join}account/"):
        assert SAYS_CLOSED in said(client.get(page))
        refused = client.post(page, JEANNE)
        assert refused.status_code == 403 and SAYS_CLOSED in said(refused), page
    assert accounts() == before
    assert f"{join}account/" not in body(client.get(join))  # the link's page offers to log in only
    line = login_page_line(client)
    assert "secretary" in line and reverse("signup") not in line


@pytest.mark.both_databases
def test_closed_leaves_the_operators_command_and_its_link(client, settings):
    settings.SIGNUP = "closed"
    out = StringIO()
    call_command("create_account", "jeanne", "--name", "Jeanne V.", "--site", "https://scores.example.org", stdout=out)
    link = out.getvalue().strip()
    assert re.fullmatch(r"https://scores\.example\.org/accounts/password/[\w-]{32}/", link)
    jeanne = get_user_model().objects.get(username="jeanne")
    assert jeanne.profile.display_name == "Jeanne V." and not jeanne.has_usable_password()
    chosen = {"new_password1": STRONG, "new_password2": STRONG}
    assert Client().post(link.removeprefix("https://scores.example.org"), chosen).status_code == 302
    jeanne.refresh_from_db()
    assert jeanne.check_password(STRONG)


def test_the_operators_command_keeps_the_sign_up_forms_rules(make_user, scorer):
    with pytest.raises(CommandError, match="looks just like it"):
        call_command("create_account", "MARIE", "--name", "Marie Two", stdout=StringIO())
    with pytest.raises(CommandError, match="reserved"):
        call_command("create_account", "dem0", "--name", "Someone", stdout=StringIO())
    with pytest.raises(CommandError, match="display_name"):
        call_command("create_account", "jeanne", "--name", "\u202eennaeJ", stdout=StringIO())
    assert "jeanne" not in accounts()


# --- the setting itself ----------------------------------------------------------------------------------


def settings_with(**env) -> subprocess.CompletedProcess:
    code = "from django.conf import settings; import django; django.setup(); print(settings.SIGNUP)"
    environment = {k: v for k, v in os.environ.items() if k not in ("SIGNUP", "DEBUG", "DATABASE_URL")}
    environment |= {"DJANGO_SETTINGS_MODULE": "scorebook.settings", "SECRET_KEY": "x" * 60} | env
    return subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, cwd=ROOT)


def test_the_setting_is_open_on_a_development_site_and_must_be_said_on_a_real_one():
    assert settings_with().stdout.strip() == "open"  # make run, the tests (DEBUG is their default)
    assert settings_with(SIGNUP="Invitation").stdout.strip() == "invitation"
    unset = settings_with(DEBUG="false")
    assert unset.returncode != 0 and "SIGNUP must be set: open, invitation, closed" in unset.stderr
    misspelt = settings_with(DEBUG="false", SIGNUP="invitations")
    assert misspelt.returncode != 0 and "SIGNUP='invitations' is none of open, invitation, closed" in misspelt.stderr
    assert settings_with(DEBUG="false", SIGNUP="closed").stdout.strip() == "closed"
