"""A restore refuses each fault of a backup with one sentence naming the field (league.restore.check).

The sentences are the ones import_club has always printed (they are pinned here one fault at a
time, so that the schema behind them can change without changing what an operator reads). The
backup is the compatibility fixture, with a club night added (its tables are the fixture's
kleurenwiezen evenings)."""

import copy
import json
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from scorebook.clubs.models import Club
from scorebook.league.backup import BackupError
from scorebook.league.restore import check
from scorebook.nights.seating import MAX_PLAYERS, MAX_SESSIONS

pytestmark = pytest.mark.django_db

DATES = f"Choose a date from Jan. 1, 2000 to Dec. 31, {date.today().year + 2}"
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "club-backup.json"

NIGHT = {
    "name": "Kaartavond",
    "date": "2026-10-20",
    "ruleset": "kleurenwiezen",
    "sessions": 2,
    "deals_per_session": 8,
    "ranking": "total",
    "place_points": [],
    "stake": None,
    "currency": "EUR",
    "seed": 7,
    "plan": {"sessions": [{"tables": [[1, 2, 3, 4]]}, {"tables": [[4, 3, 2, 1]]}]},
    "participants": [
        {"number": 1, "player": 1, "first_session": 1, "last_session": None, "replaces": None},
        {"number": 2, "player": 2, "first_session": 1, "last_session": None, "replaces": None},
        {"number": 3, "player": 3, "first_session": 1, "last_session": None, "replaces": None},
        {"number": 4, "player": 4, "first_session": 1, "last_session": None, "replaces": None},
    ],
    "tables": [
        {"session": 1, "table": 1, "status": "closed", "evening": 15},
        {"session": 2, "table": 1, "status": "open", "evening": 16},
    ],
}


@pytest.fixture(autouse=True)
def hashers(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the fixture's hashes


def backup() -> dict:
    data = json.loads(FIXTURE.read_text())
    data["nights"] = [copy.deepcopy(NIGHT)]
    return data


def night(d):
    return d["nights"][0]


def seq(*changes):
    def apply(d):
        for change in changes:
            change(d)

    return apply


FAULTS = [
    # the document
    (lambda d: d.update(surprise=1), "the backup: unknown key 'surprise'."),
    (lambda d: d.pop("players"), "the backup: the key 'players' is missing."),
    (lambda d: d.update(format="scorebook-club/3"), "format: not a club backup ('scorebook-club/2' expected)."),
    # the club
    (lambda d: d.update(club=[]), "club: an object is expected."),
    (lambda d: d["club"].update(motto="x"), "club: unknown key 'motto'."),
    (lambda d: d["club"].pop("slug"), "club: the key 'slug' is missing."),
    (lambda d: d["club"].update(name=3), "club: name: a text is expected."),
    (lambda d: d["club"].update(name="  "), "club: name: Type a name."),
    (lambda d: d["club"].update(name="C" * 81), "club: name: At most 80 characters (this name has 81): shorten it."),
    (lambda d: d["club"].update(name="Club\x00"), "club: name: A name cannot hold control characters."),
    (
        lambda d: d["club"].update(slug="quatre as"),
        "club: slug: 'quatre as' is not a short name (letters, digits, - and _).",
    ),
    # accounts
    (lambda d: d.update(accounts={}), "accounts: a list is expected."),
    (lambda d: d["accounts"].append("anne"), "accounts[3]: an object is expected."),
    (lambda d: d["accounts"][0].update(role="x"), "accounts[0]: unknown key 'role'."),
    (lambda d: d["accounts"][0].pop("is_active"), "accounts[0]: the key 'is_active' is missing."),
    (
        lambda d: d["accounts"][0].update(username="a b"),
        "accounts[0]: username: 'a b' is not a user name (letters, digits and @ . + - _).",
    ),
    (lambda d: d["accounts"][0].update(username=""), "accounts[0]: username: it cannot be empty."),
    (lambda d: d["accounts"][0].update(first_name=None), "accounts[0]: first_name: a text is expected."),
    (
        lambda d: d["accounts"][0].update(display_name="D" * 61),
        "accounts[0]: display_name: At most 60 characters (this name has 61): shorten it.",
    ),
    (lambda d: d["accounts"][0].update(is_active=1), "accounts[0]: is_active: true or false is expected."),
    (lambda d: d["accounts"][0].update(password="x"), "accounts[0]: password: not a password hash this site knows."),
    (lambda d: d["accounts"][0].update(password=5), "accounts[0]: password: a text is expected."),
    (lambda d: d["accounts"][0].update(email="anne"), "accounts[0]: email: 'anne' is not an e-mail address."),
    (
        lambda d: d["accounts"][1].update(username="anne"),
        "accounts[1]: username: This user name is taken, or one that looks just like it: choose another.",
    ),
    (  # in capitals, or with a Cyrillic а: the sign-up's refusal, in its words
        lambda d: d["accounts"][1].update(username="ANNE"),
        "accounts[1]: username: This user name is taken, or one that looks just like it: choose another.",
    ),
    (
        lambda d: d["accounts"][1].update(username="\u0430nne"),
        "accounts[1]: username: This user name is taken, or one that looks just like it: choose another.",
    ),
    # members
    (lambda d: d.update(members=None), "members: a list is expected."),
    (lambda d: d["members"][0].update(club="x"), "members[0]: unknown key 'club'."),
    (lambda d: d["members"][0].update(username="zoe"), "members[0]: 'zoe' is not one of the backup's accounts."),
    (lambda d: d["members"][0].update(role="owner"), "members[0]: role: 'owner' is not one of admin, scorer, member."),
    (lambda d: d["members"][1].update(username="secretary"), "members: an account is a member twice."),
    (lambda d: d["members"][0].update(role="member"), "members: the club has no admin."),
    # players
    (lambda d: d["players"][0].pop("account"), "players[0]: the key 'account' is missing."),
    (
        lambda d: d["players"][0].update(id=0),
        "players[0]: id: a whole number from 1 to 9223372036854775807 is expected.",
    ),
    (
        lambda d: d["players"][0].update(id=True),
        "players[0]: id: a whole number from 1 to 9223372036854775807 is expected.",
    ),
    (
        lambda d: d["players"][0].update(id="1"),
        "players[0]: id: a whole number from 1 to 9223372036854775807 is expected.",
    ),
    (lambda d: d["players"][0].update(name="An\x00ne"), "players[0]: name: A name cannot hold control characters."),
    (
        lambda d: d["players"][0].update(account="zoe"),
        "players[0]: account: 'zoe' is not one of the backup's accounts.",
    ),
    (lambda d: d["players"][1].update(id=1), "players: an id is given twice."),
    (lambda d: d["players"][1].update(name="ANNE"), "players[1]: name: Anne is already in the roster."),
    (
        lambda d: d["players"][1].update(name="\u0410nne"),  # a Cyrillic А: refused as the roster's form refuses it
        "players[1]: name: “\u0410nne” mixes letters of different alphabets that look alike: type it in one.",
    ),
    (lambda d: d["players"][1].update(name="CarI"), "players[2]: name: CarI is already in the roster."),  # I for l
    (lambda d: d["players"][1].update(name="AnnE "), "players[1]: name: Anne is already in the roster."),
    (
        seq(lambda d: d["players"][0].update(account="anne"), lambda d: d["players"][1].update(account="anne")),
        "players: an account is linked to two players.",
    ),
    # house rules
    (lambda d: d["house_rules"][0].update(overrides=[]), "house_rules[0]: overrides: an object is expected."),
    (
        lambda d: d["house_rules"][0].update(overrides={"surprise": 1}),
        "house_rules[0]: surprise: unknown key.",
    ),
    (
        lambda d: d["house_rules"][0].update(ruleset="bridge"),
        "house_rules[0]: ruleset: unknown variant 'bridge' "
        "(known: classique, short, francais, mort, gand, kleurenwiezen, liege, encheres).",
    ),
    (lambda d: d["house_rules"].append(copy.deepcopy(d["house_rules"][0])), "house_rules: a variant is given twice."),
    # seasons
    (lambda d: d["seasons"][0].pop("tie_break"), "seasons[0]: the key 'tie_break' is missing."),
    (lambda d: d["seasons"][0].update(name=""), "seasons[0]: name: Type a name."),
    (lambda d: d["seasons"][0].update(start="2026-13-01"), "seasons[0]: start: a date written YYYY-MM-DD is expected."),
    (lambda d: d["seasons"][0].update(start="2026-02-30"), "seasons[0]: start: a date written YYYY-MM-DD is expected."),
    (lambda d: d["seasons"][0].update(end=20261231), "seasons[0]: end: a date written YYYY-MM-DD is expected."),
    (lambda d: d["seasons"][0].update(end="2026-08-01"), "seasons[0]: its last day comes before its first."),
    (lambda d: d["seasons"][0].update(ruleset="bridge"), "seasons[0]: ruleset: unknown variant 'bridge'."),
    (
        lambda d: d["seasons"][0].update(ranking="best"),
        "seasons[0]: ranking: 'best' is not one of total, average, league.",
    ),
    (
        lambda d: d["seasons"][0].update(tie_break="coin"),
        "seasons[0]: tie_break: 'coin' is not one of evenings-won, total-points, fewer-evenings.",
    ),
    (
        lambda d: d["seasons"][0].update(min_evenings=-1),
        "seasons[0]: min_evenings: a whole number from 0 to 32767 is expected.",
    ),
    (
        lambda d: d["seasons"][0].update(drop_worst=1.5),
        "seasons[0]: drop_worst: a whole number from 0 to 32767 is expected.",
    ),
    (lambda d: d["seasons"][0].update(league_points="5,3"), "seasons[0]: league_points: a list is expected."),
    (lambda d: d["seasons"][0].update(league_points=[1] * 101), "seasons[0]: league_points: at most 100 places."),
    (
        lambda d: d["seasons"][0].update(league_points=[5, 10_001]),
        "seasons[0]: league_points[1]: a whole number from -10000 to 10000 is expected.",
    ),
    # evenings
    (lambda d: d["evenings"][0].update(notes=""), "evenings[0]: unknown key 'notes'."),
    (lambda d: d["evenings"][0].pop("payments"), "evenings[0]: the key 'payments' is missing."),
    (
        lambda d: d["evenings"][0]["file"]["deals"][0].update(tricks=14),
        "evenings[0]: deal 1: 14 tricks: a deal has only 13.",
    ),
    (lambda d: d["evenings"][0]["file"].update(format="x"), "evenings[0]: format must be 'scorebook-evening/1'."),
    (lambda d: d["evenings"][0]["file"].pop("date"), "evenings[0]: file: the evening has no date."),
    (
        lambda d: d["evenings"][0].update(seats=[1, 2, 3, 4]),
        "evenings[0]: seats: one player of the backup per seat is expected.",
    ),
    (
        lambda d: d["evenings"][0].update(seats=[1, 2, 3, 4, 99]),
        "evenings[0]: seats: one player of the backup per seat is expected.",
    ),
    (
        lambda d: d["evenings"][0].update(seats=[1, 2, 3, 4, 4]),
        "evenings[0]: seats: one player of the backup per seat is expected.",
    ),
    (lambda d: d["evenings"][0].update(seats="1"), "evenings[0]: seats: a list is expected."),
    (lambda d: d["evenings"][0].update(status="lost"), "evenings[0]: status: 'lost' is not one of open, closed."),
    (
        lambda d: d["evenings"][0].update(version=-1),
        "evenings[0]: version: a whole number from 0 to 2147483647 is expected.",
    ),
    (lambda d: d["evenings"][0].update(owner="zoe"), "evenings[0]: owner: 'zoe' is not one of the backup's accounts."),
    (lambda d: d["evenings"][0]["payments"][0].update(memo=""), "evenings[0]: payments[0]: unknown key 'memo'."),
    (
        lambda d: d["evenings"][0]["payments"][0].update(to=d["evenings"][0]["payments"][0]["from"]),
        "evenings[0]: payments[0]: two different players of the evening are expected.",
    ),
    (
        lambda d: d["evenings"][0]["payments"][0].update(to="Zoë"),
        "evenings[0]: payments[0]: two different players of the evening are expected.",
    ),
    (  # an amount as the forms take it: no exponent
        lambda d: d["evenings"][0]["payments"][0].update(amount="1e9"),
        "evenings[0]: payments[0]: an amount from 0.01 to 9999999999.99 with at most two decimals is expected.",
    ),
    (
        lambda d: d["evenings"][0]["payments"][0].update(amount="1E2"),
        "evenings[0]: payments[0]: an amount from 0.01 to 9999999999.99 with at most two decimals is expected.",
    ),
    # dates as a person may type them (cleaning.DateField: 2000 to the end of the year after next)
    (lambda d: d["seasons"][0].update(start="0001-01-01"), f"seasons[0]: start: {DATES}."),
    (lambda d: d["seasons"][0].update(end="9999-12-31"), f"seasons[0]: end: {DATES}."),
    (lambda d: d["evenings"][0]["file"].update(date="0001-01-01"), f"evenings[0]: {DATES}."),
    (lambda d: d["evenings"][0]["file"].update(date="9999-12-31"), f"evenings[0]: {DATES}."),
    (
        lambda d: d["evenings"][0]["payments"][0].update(amount="0.001"),
        "evenings[0]: payments[0]: an amount from 0.01 to 9999999999.99 with at most two decimals is expected.",
    ),
    (
        lambda d: d["evenings"][0]["payments"][0].update(amount=1),
        "evenings[0]: payments[0]: an amount from 0.01 to 9999999999.99 with at most two decimals is expected.",
    ),
    (
        lambda d: d["evenings"][0]["payments"][0].update(amount="NaN"),
        "evenings[0]: payments[0]: an amount from 0.01 to 9999999999.99 with at most two decimals is expected.",
    ),
    # nights
    (lambda d: d.update(nights={}), "nights: a list is expected."),
    (
        lambda d: night(d).pop("seed"),
        "nights[0]: an object with the keys created_at, created_by, currency, date, deals_per_session, events, name, "
        "participants, place_points, plan, ranking, ranking_link, rules, ruleset, seed, session_states, sessions, "
        "stake, tables, version is expected.",
    ),
    (
        lambda d: night(d).update(surprise=1),
        "nights[0]: an object with the keys created_at, created_by, currency, date, deals_per_session, events, name, "
        "participants, place_points, plan, ranking, ranking_link, rules, ruleset, seed, session_states, sessions, "
        "stake, tables, version is expected.",
    ),
    (lambda d: night(d).update(name=""), "nights[0]: name: Type a name."),
    (
        lambda d: night(d).update(name="N" * 81),
        "nights[0]: name: At most 80 characters (this name has 81): shorten it.",
    ),
    (lambda d: night(d).update(date="20 oct"), "nights[0]: date: a date written YYYY-MM-DD is expected."),
    (lambda d: night(d).update(ruleset="bridge"), "nights[0]: ruleset: unknown variant 'bridge'."),
    (
        lambda d: night(d).update(sessions=MAX_SESSIONS + 1),
        f"nights[0]: sessions: a whole number from 1 to {MAX_SESSIONS} is expected.",
    ),
    (
        lambda d: night(d).update(deals_per_session=0),
        "nights[0]: deals_per_session: a whole number from 1 to 99 is expected.",
    ),
    (lambda d: night(d).update(ranking="x"), "nights[0]: ranking: 'x' is not one of total, places."),
    (lambda d: night(d).update(place_points=[1] * 6), "nights[0]: place_points: at most five numbers are expected."),
    (lambda d: night(d).update(place_points=[True]), "nights[0]: place_points: at most five numbers are expected."),
    (lambda d: night(d).update(stake="-1"), "nights[0]: stake: an amount from 0 to 10000 is expected."),
    (lambda d: night(d).update(stake=0.5), "nights[0]: stake: an amount from 0 to 10000 is expected."),
    (lambda d: night(d).update(currency=""), "nights[0]: currency: a currency code is expected."),
    (lambda d: night(d).update(seed=-1), "nights[0]: seed: a whole number from 0 to 2147483647 is expected."),
    (lambda d: night(d).update(participants=[]), "nights[0]: participants: a list of participants is expected."),
    (
        lambda d: night(d)["participants"][0].pop("replaces"),
        "nights[0]: participants[0]: an object with number, player, first_session, last_session and replaces "
        "(and name) is expected.",
    ),
    (
        lambda d: night(d)["participants"][0].update(number=0),
        f"nights[0]: participants[0]: number: a whole number from 1 to {MAX_PLAYERS + 100} is expected.",
    ),
    (
        lambda d: night(d)["participants"][0].update(player=99),
        "nights[0]: participants[0]: player: one of the backup's players is expected.",
    ),
    (
        lambda d: night(d)["participants"][0].update(first_session=3),
        "nights[0]: participants[0]: first_session: a whole number from 1 to 2 is expected.",
    ),
    (
        lambda d: night(d)["participants"][0].update(last_session="2"),
        "nights[0]: participants[0]: last_session: a whole number from 1 to 2 is expected.",
    ),
    (
        lambda d: night(d)["participants"][1].update(number=1),
        "nights[0]: participants: a number or a player is given twice.",
    ),
    (
        lambda d: night(d)["participants"][1].update(replaces=9),
        "nights[0]: participants: a substitute replaces a number the night does not have.",
    ),
    (lambda d: night(d).update(plan=[]), "nights[0]: plan: one list of tables per session is expected."),
    (
        lambda d: night(d)["plan"]["sessions"].pop(),
        "nights[0]: plan: one list of tables per session is expected.",
    ),
    (
        lambda d: night(d)["plan"]["sessions"][0].update(tables=[[1, 2, 3]]),
        "nights[0]: plan: tables of 4 or 5 of the night's numbers are expected.",
    ),
    (
        lambda d: night(d)["plan"]["sessions"][0].update(tables=[[1, 2, 3, 9]]),
        "nights[0]: plan: tables of 4 or 5 of the night's numbers are expected.",
    ),
    (lambda d: night(d).update(tables={}), "nights[0]: tables: a list is expected."),
    (
        lambda d: night(d)["tables"][0].pop("status"),
        "nights[0]: tables[0]: an object with session, table, status and evening (and reprint) is expected.",
    ),
    (
        lambda d: night(d)["tables"][0].update(session=3),
        "nights[0]: tables[0]: session: a whole number from 1 to 2 is expected.",
    ),
    (
        lambda d: night(d)["tables"][0].update(table=0),
        "nights[0]: tables[0]: table: a whole number from 1 to 1000 is expected.",
    ),
    (
        lambda d: night(d)["tables"][0].update(status="done"),
        "nights[0]: tables[0]: status: open or closed is expected.",
    ),
    (
        lambda d: night(d)["tables"][0].update(evening=99),
        "nights[0]: tables[0]: evening: a whole number from 0 to 20 is expected.",
    ),
    (
        lambda d: night(d)["tables"][1].update(evening=15),
        "nights[0]: tables[1]: evening: an evening of the backup that no other table has is expected.",
    ),
    (
        lambda d: night(d)["tables"][0].update(evening=2),
        "nights[0]: tables[0]: evening: an evening of the night's variant is expected.",
    ),
    (
        lambda d: night(d)["tables"][1].update(session=1),
        "nights[0]: tables: a table of a session is given twice.",
    ),
]


# Values of a type the field never holds, which stopped a restore with a traceback (an unhashable
# value looked up in a set; a night's date well formed but no such day).
ODD_VALUES = [
    (lambda d: night(d).update(date="2026-13-01"), "nights[0]: date: a date written YYYY-MM-DD is expected."),
    (lambda d: d["members"][0].update(username=["anne"]), "members[0]: ['anne'] is not one of the backup's accounts."),
    (lambda d: d["seasons"][0].update(ruleset=["gand"]), "seasons[0]: ruleset: unknown variant ['gand']."),
    (
        lambda d: night(d)["participants"][0].update(player=[1]),
        "nights[0]: participants[0]: player: one of the backup's players is expected.",
    ),
    (
        lambda d: night(d)["participants"][0].update(replaces=[1]),
        "nights[0]: participants: a substitute replaces a number the night does not have.",
    ),
    (
        lambda d: night(d)["plan"]["sessions"][0].update(tables=[[1, 2, 3, [4]]]),
        "nights[0]: plan: tables of 4 or 5 of the night's numbers are expected.",
    ),
    (
        lambda d: d["evenings"][0].update(seats=[[1], 2, 3, 4, 5]),
        "evenings[0]: seats: one player of the backup per seat is expected.",
    ),
]


def test_the_backup_with_a_night_is_valid():
    checked = check(backup())
    assert len(checked.evenings) == 21 and len(checked.nights) == 1


@pytest.mark.parametrize("change, sentence", FAULTS + ODD_VALUES)
def test_it_names_each_fault_in_one_sentence(change, sentence):
    data = backup()
    change(data)
    with pytest.raises(BackupError) as refused:
        check(data)
    assert str(refused.value) == sentence


def test_it_refuses_a_club_that_exists_here(make_user):
    Club.objects.create(name="Other", slug="quatre-as")
    with pytest.raises(BackupError) as refused:
        check(backup())
    assert str(refused.value) == "club: slug: The short name “quatre-as” is taken: choose another."


def test_it_refuses_an_account_that_exists_here_unless_it_is_mapped(make_user):
    make_user("anne")
    with pytest.raises(BackupError) as refused:
        check(backup())
    assert str(refused.value) == (
        "account 'anne': a user of that name exists here already; it is attached only if you say so "
        "(--account anne=anne), or give the file's account another user."
    )
    assert check(backup(), account_map={"anne": "anne"}).accounts[0].username == "anne"


def test_it_refuses_an_account_map_it_cannot_follow(make_user):
    with pytest.raises(BackupError) as refused:
        check(backup(), account_map={"zoe": "anne"})
    assert str(refused.value) == "account map: the backup has no account 'zoe'."
    with pytest.raises(BackupError) as refused:
        check(backup(), account_map={"anne": "nobody"})
    assert str(refused.value) == "account map: there is no user 'nobody' here to attach 'anne' to."


def test_the_user_model_is_untouched_by_a_refusal():
    data = backup()
    data["members"][0]["role"] = "owner"
    with pytest.raises(BackupError):
        check(data)
    assert not get_user_model().objects.exists() and not Club.objects.exists()
