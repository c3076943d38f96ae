"""import_club refuses what the site refuses, with the same sentences, and writes nothing then
(issue 29): text cleaned as the forms clean it (no NUL, no direction marks, no look-alike letters),
whoever did something one of the backup's accounts, moments within reason, short names that no club
here has in any case, links that are no one else's. Each case edits the backup of the rich club
(tests/fixtures/club-backup-2.json); the database must be as it was after the refusal. Run on
SQLite and PostgreSQL (a NUL in a note was a traceback there).
"""

import json
from pathlib import Path

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from scorebook.clubs import services as clubs
from scorebook.core import cleaning
from scorebook.nights.models import Night

# what a hostile backup would put in the database, which each refuses its own way: both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "club-backup-2.json"
NUL, RLO, CYRILLIC_A = "\x00", "\u202e", "\u0410"


def said(clean, value) -> str:
    """What the site's forms say of ``value`` (``clean``: the cleaning they use), without the full stop."""
    with pytest.raises(ValidationError) as refused:
        clean(value)
    return " ".join(refused.value.messages).rstrip(".")


def sentences() -> dict[str, str]:
    """The forms' sentences, in the language of the test (read when it runs)."""
    return {
        "TEXT": said(cleaning.clean_text, f"a{NUL}"),  # "This text cannot hold control characters or direction marks"
        "NAME_CONTROL": said(cleaning.clean_name, f"An{NUL}ne"),
        "NAME_DIRECTION": said(cleaning.clean_name, f"{RLO}ennA"),
        "NAME_MIXED": said(cleaning.clean_name, f"{CYRILLIC_A}nne"),
    }


def evening(d, ruleset="kleurenwiezen", with_payments=True):
    return next(e for e in d["evenings"] if e["file"]["ruleset"] == ruleset and bool(e["payments"]) == with_payments)


def adjustment(d, note):
    e = next(e for e in d["evenings"] if e["file"]["ruleset"] == "encheres")
    players = e["file"]["players"]
    e["file"]["deals"].append({"adjustment": {players[0]: 1, players[1]: -1}, "note": note})
    e["recorded"].append(dict(e["recorded"][-1]))


CASES = [
    # text as the forms clean it
    (lambda d: evening(d)["payments"][0].update(note=f"merci{NUL}"), "payments[0]: note: {TEXT}."),
    (lambda d: evening(d)["payments"][0].update(note=f"{RLO}merci"), "payments[0]: note: {TEXT}."),
    (
        lambda d: next(p for p in evening(d)["payments"] if p.get("cancelled"))["cancelled"].update(reason=f"x{RLO}"),
        "cancelled: reason: {TEXT}.",
    ),
    (lambda d: d["payments_on_account"][0].update(note=f"{NUL}"), "payments_on_account[0]: note: {TEXT}."),
    (lambda d: d["nights"][0]["events"][0].update(detail=f"tafel{NUL}2"), "nights[0]: events[0]: detail: {TEXT}."),
    (lambda d: adjustment(d, f"revoke{NUL}"), "file: deals[6]: note: {TEXT}."),
    (lambda d: adjustment(d, f"{RLO}revoke"), "file: deals[6]: note: {TEXT}."),
    (lambda d: d["players"][0].update(name=f"An{NUL}ne"), "players[0]: name: {NAME_CONTROL}."),
    (lambda d: d["players"][0].update(name=f"{RLO}ennA"), "players[0]: name: {NAME_DIRECTION}."),
    (lambda d: d["players"][0].update(name=f"{CYRILLIC_A}nne"), "players[0]: name: {NAME_MIXED}."),
    (lambda d: d["club"].update(name=f"De{RLO} Troef"), "club: name: {NAME_DIRECTION}."),
    (lambda d: d["nights"][0]["participants"][0].update(name=f"{NUL}"), "nights[0]: participants[0]: name: "),
    (lambda d: d["accounts"][0].update(display_name=f"Ad{CYRILLIC_A}le"), "accounts[0]: display_name: "),
    (
        lambda d: evening(d)["file"]["rules"]["contracts"]["samen-9"]["names"].update(fr=f"samen{NUL}"),
        "file: rules: contracts: samen-9: names: fr: {TEXT}.",
    ),
    (
        lambda d: d["house_rules"][0]["overrides"].update(contracts={"samen-9": {"names": {"nl": f"{RLO}9"}}}),
        "house_rules[0]: overrides: contracts: samen-9: names: nl: {TEXT}.",
    ),
    (
        lambda d: d["nights"][0]["rules"]["contracts"]["troel"]["names"].update(en=f"troel{NUL}"),
        "nights[0]: rules: contracts: troel: names: en: {TEXT}.",
    ),
    (
        lambda d: evening(d)["quick_contracts"].append(f"x{NUL}"),
        "quick_contracts: contracts of the evening's rules are expected.",
    ),
    # whoever did something is one of the backup's accounts
    (
        lambda d: evening(d)["payments"][0].update(marked_by="ghost"),
        "payments[0]: marked_by: 'ghost' is not one of the backup's accounts.",
    ),
    (
        lambda d: d["payments_on_account"][0].update(marked_by=["adele"]),
        "payments_on_account[0]: marked_by: ['adele'] is not one of the backup's accounts.",
    ),
    (
        lambda d: evening(d)["recorded"][0].update(by="ghost"),
        "recorded[0]: by: 'ghost' is not one of the backup's accounts.",
    ),
    (
        lambda d: evening(d)["revisions"][0].update(by="ghost"),
        "revisions[0]: by: 'ghost' is not one of the backup's accounts.",
    ),
    (
        lambda d: d["nights"][0]["events"][0].update(by="ghost"),
        "nights[0]: events[0]: by: 'ghost' is not one of the backup's accounts.",
    ),
    (
        lambda d: d["claims"][0].update(account="ghost"),
        "claims[0]: account: 'ghost' is not one of the backup's accounts.",
    ),
    # moments within reason
    (
        lambda d: evening(d)["payments"][0].update(marked_at="9999-12-31T23:59:59+00:00"),
        "payments[0]: marked_at: a date and time from 2000 to today is expected.",
    ),
    (
        lambda d: evening(d)["recorded"][0].update(at="1970-01-01T00:00:00+00:00"),
        "recorded[0]: at: a date and time from 2000 to today is expected.",
    ),
    (
        lambda d: d["invitation_links"][0].update(expires_at="2100-01-01T00:00:00+00:00"),
        "invitation_links[0]: expires_at: a date and time within 31 days of its making is expected.",
    ),
    # links: digests only
    (
        lambda d: d["invitation_links"][0].update(digest="the-link-in-clear"),
        "invitation_links[0]: digest: a link's digest (64 hexadecimal digits) is expected.",
    ),
    (
        lambda d: d["invitation_links"][1].update(digest=d["invitation_links"][0]["digest"]),
        "one of its links is this database's already",
    ),
]


def _rows() -> dict[str, int]:
    """How many rows each of the site's tables holds."""
    return {m._meta.label: m.objects.count() for m in apps.get_models()}


def _refused(tmp_path, data) -> str:
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data))
    before = _rows()
    with pytest.raises(CommandError) as refused:
        call_command("import_club", str(path))
    assert _rows() == before, "something was written"
    return str(refused.value)


@pytest.mark.parametrize(("change", "sentence"), CASES)
def test_it_refuses_what_the_site_refuses_with_its_sentence_and_writes_nothing(tmp_path, change, sentence):
    data = json.loads(FIXTURE.read_text())
    change(data)
    refusal = _refused(tmp_path, data)
    sentence = sentence.format(**sentences())
    assert sentence in refusal and refusal.endswith("Nothing was restored."), refusal


def _taken(slug: str) -> str:
    """The club form's sentence for a short name taken, without its full stop."""
    from django.utils.translation import gettext

    return (gettext("The short name “%(slug)s” is taken: choose another.") % {"slug": slug}).rstrip(".")


def test_it_refuses_a_short_name_another_club_has_in_any_case(tmp_path, make_user):
    """CLUB-A beside club-a: the site keeps short names in lower case, and so does a restore."""
    clubs.create_club(name="Club A", slug="club-a", user=make_user("owner"))
    data = json.loads(FIXTURE.read_text())
    data["club"]["slug"] = "CLUB-A"
    assert f"club: slug: {_taken('club-a')}." in _refused(tmp_path, data)
    data["club"]["slug"] = "De-Troef"  # free here, but a former short name is another club's
    data["club"]["former_slugs"][0]["slug"] = "Club-A"
    assert f"club: former_slugs[0]: slug: {_taken('club-a')}." in _refused(tmp_path, data)


def test_it_restores_a_club_once(tmp_path):
    """Restored again under another short name (its accounts attached to the ones restored), the backup
    finds its links taken: a link opens one club's page only."""
    data = json.loads(FIXTURE.read_text())
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    call_command("import_club", str(path))
    assert Night.objects.get().ranking_hash == data["nights"][0]["ranking_link"]["digest"]
    data["club"].update(slug="tweede", former_slugs=[])
    path.write_text(json.dumps(data))
    before = _rows()
    attach = [f"--account={a['username']}={a['username']}" for a in data["accounts"]]
    with pytest.raises(CommandError) as refused:
        call_command("import_club", str(path), *attach)
    assert "one of its links is this database's already (was the club restored here before?)" in str(refused.value)
    assert _rows() == before
