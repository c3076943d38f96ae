"""Club backups that can be trusted and that hold no more than needed (issue 13, findings 16 and 17):
import_club checks every field and never attaches an existing account unless told; errors are
sentences; a backup holds no password hash, e-mail address or live link unless asked; the file
is readable by its owner only."""

import json
import stat
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from builders import club_evening, lose_the_site
from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club, Membership, Role

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "club-backup.json"


@pytest.fixture
def club(make_user):
    ada_admin = make_user("ada_admin", email="ada@example.org")
    club = clubs.create_club(name="De Klaverboer", slug="klaverboer", user=ada_admin)
    mia_member = make_user("mia_member", email="mia@example.org")
    Membership.objects.create(club=club, user=mia_member, role=Role.MEMBER)
    clubs.create_invitation(club, ada_admin, role=Role.ADMIN, days=7, uses=5)
    club_evening(
        club, ada_admin, date(2026, 11, 6), [{"contract": "samen-9", "declarers": ["Bert", "Dina"], "tricks": 10}]
    )
    return club


def export(tmp_path, *extra) -> Path:
    path = tmp_path / "club.json"
    call_command("export_club", "klaverboer", "-o", str(path), *extra)
    return path


def wipe():
    lose_the_site(accounts=False)


def restore(tmp_path, data, *extra):
    path = tmp_path / "edited.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    call_command("import_club", str(path), *extra)


# --- what a backup holds ---------------------------------------------------------------------


def test_it_writes_a_backup_readable_by_its_owner_only(club, tmp_path):
    path = tmp_path / "club.json"
    path.write_text("old")
    path.chmod(0o644)
    export(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_it_keeps_password_hashes_emails_and_links_out_of_a_backup(club, tmp_path):
    text = export(tmp_path).read_text()
    user = get_user_model().objects.get(username="ada_admin")
    assert user.password not in text and "example.org" not in text
    assert "token" not in text and "invitations" not in text


def test_it_writes_hashes_and_emails_only_when_asked(club, tmp_path):
    text = export(tmp_path, "--with-secrets").read_text()
    assert get_user_model().objects.get(username="ada_admin").password in text and "ada@example.org" in text
    assert "token" not in text


# --- what a restore trusts -------------------------------------------------------------------


def backup(tmp_path):
    return json.loads(export(tmp_path).read_text())


@pytest.mark.parametrize(
    "change, words",
    [
        (
            lambda d: d["members"][0].update(role="owner"),
            "members[0]: role: 'owner' is not one of admin, scorer, member",
        ),
        (lambda d: d["evenings"][0].update(status="lost"), "evenings[0]: status: 'lost' is not one of open, closed"),
        (lambda d: d["players"][0].update(name="An\x00ne"), "players[0]: name: A name cannot hold control characters"),
        (lambda d: d["club"].update(name="Club\x00"), "club: name: A name cannot hold control characters"),
        (lambda d: d["accounts"][0].update(username="a b\x00"), "accounts[0]: username"),
        (lambda d: d["accounts"][0].update(password="x"), "accounts[0]: password: not a password hash"),
        (
            lambda d: d["evenings"][0]["payments"].append({"from": "Anne", "to": "Bert", "amount": "1e30"}),
            "payments[0]: an amount",
        ),
        (
            lambda d: d["seasons"].append(
                {
                    "name": "S",
                    "start": "2026-13-01",
                    "end": "2026-12-01",
                    "ruleset": "gand",
                    "ranking": "total",
                    "min_evenings": 0,
                    "league_points": [],
                    "drop_worst": 0,
                    "tie_break": "evenings-won",
                }
            ),
            "seasons[0]: start",
        ),
        (lambda d: d.update(surprise=1), "unknown key 'surprise'"),
    ],
)
def test_it_refuses_a_hostile_field_with_a_sentence_and_writes_nothing(club, tmp_path, change, words):
    data = backup(tmp_path)
    change(data)
    wipe()
    get_user_model().objects.all().delete()
    with pytest.raises(CommandError) as refused:
        restore(tmp_path, data)
    assert words in str(refused.value) and "Nothing was restored" in str(refused.value)
    assert not Club.objects.exists()


def test_it_refuses_a_key_given_twice_and_deep_nesting_with_a_sentence(club, tmp_path):
    text = export(tmp_path).read_text()
    wipe()
    with pytest.raises(CommandError, match="given twice"):
        restore(tmp_path, text.replace('"format": "scorebook-club/2"', '"format": "scorebook-club/2", "format": "x"'))
    with pytest.raises(CommandError, match="deeper than"):
        restore(tmp_path, "[" * 100_000 + "]" * 100_000)
    assert not Club.objects.exists()


def test_it_never_attaches_an_existing_account_silently(club, tmp_path):
    data = backup(tmp_path)
    wipe()  # the accounts stay: ada_admin and mia_member exist here
    with pytest.raises(CommandError, match="exists here already"):
        restore(tmp_path, data)
    assert not Club.objects.exists()


@pytest.mark.both_databases
def test_it_attaches_an_existing_account_when_told_which(club, tmp_path, make_user):
    data = backup(tmp_path)
    wipe()
    restore(tmp_path, data, "--account", "ada_admin=ada_admin", "--account", "mia_member=mia_member")
    restored = Club.objects.get(slug="klaverboer")
    assert sorted(restored.memberships.values_list("user__username", "role")) == [
        ("ada_admin", "admin"),
        ("mia_member", "member"),
    ]


@pytest.mark.both_databases
def test_it_gives_restored_accounts_without_a_hash_no_usable_password(club, tmp_path):
    data = backup(tmp_path)
    wipe()
    get_user_model().objects.all().delete()
    restore(tmp_path, data)
    assert not get_user_model().objects.get(username="ada_admin").has_usable_password()


@pytest.mark.both_databases
def test_it_still_restores_a_backup_written_before_links_were_secret(db, tmp_path, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the file's hashes
    call_command("import_club", str(FIXTURE))
    restored = Club.objects.get()
    assert restored.evenings.count() == 21
    assert not restored.invitations.exists()  # the file's links in clear are not brought back


# --- secrets: read only from a backup made with them, and only when told (issue 39) ------------------


def restored_account(username: str):
    return get_user_model().objects.get(username=username)


@pytest.mark.both_databases
def test_it_leaves_secrets_out_of_a_restore_unless_told_and_says_so(club, tmp_path, capsys):
    path = export(tmp_path, "--with-secrets")
    lose_the_site()  # the accounts too: a database elsewhere
    call_command("import_club", str(path))
    ada = restored_account("ada_admin")
    assert not ada.has_usable_password() and ada.email == ""
    assert "came in without the password hashes and e-mail addresses" in capsys.readouterr().out


@pytest.mark.both_databases
def test_it_reads_secrets_from_a_backup_made_with_them_when_told(club, tmp_path):
    hashed = restored_account("ada_admin").password
    path = export(tmp_path, "--with-secrets")
    lose_the_site()  # the accounts too: a database elsewhere
    call_command("import_club", str(path), "--with-secrets")
    ada = restored_account("ada_admin")
    assert ada.password == hashed and ada.email == "ada@example.org"


@pytest.mark.both_databases
def test_it_never_reads_secrets_written_into_a_backup_made_without_them(club, tmp_path, capsys):
    """A hash and an address put into a file made without --with-secrets: not read, even when told."""
    data = backup(tmp_path)
    hashed = restored_account("ada_admin").password
    ada_entry = next(a for a in data["accounts"] if a["username"] == "ada_admin")
    ada_entry |= {"password": hashed, "email": "someone@example.org"}
    lose_the_site()  # the accounts too: a database elsewhere
    with pytest.raises(CommandError, match="with_secrets: this backup was not made with --with-secrets"):
        restore(tmp_path, data, "--with-secrets")
    assert not Club.objects.exists()
    restore(tmp_path, data)
    ada = restored_account("ada_admin")
    assert not ada.has_usable_password() and ada.email == ""
    assert "came in without the password hashes" in capsys.readouterr().out
