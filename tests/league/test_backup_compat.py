"""The compatibility promise: a club backup made by the old code (tests/fixtures/club-backup.json, see
tests/fixtures/README.md) imported into today's code gives every figure the old code computed
(club-backup.expected.json): each evening's totals, pot and money, each season's standings, the
ledger's balances and open transfers.

The corrections to the scoring rules made since (a player who took no part: no money and not his evening;
payments netted against a settlement computed anew) change none of them: in the demo club every
player of every evening played at least one deal, so the mean of the money is over the same players
and every seat is an evening played; and every payment marked was a transfer of the settlement as it
stands, so netting leaves the same transfers open.
"""

import json
from pathlib import Path

import pytest

from scorebook.clubs.models import Season
from scorebook.evenings import stored
from scorebook.evenings.models import Evening
from scorebook.league.restore import import_club
from scorebook.league.views.seasons import season_table
from scorebook.ledger import books

# an old backup read into the database: its JSON and its money, summed in SQL: both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.fixture(scope="module")
def expected():
    return json.loads((FIXTURES / "club-backup.expected.json").read_text())


@pytest.fixture
def club(settings):
    # the accounts travel with PBKDF2 hashes, which the site knows (the tests hash with MD5 for speed)
    settings.PASSWORD_HASHERS = [*settings.PASSWORD_HASHERS, "django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    return import_club(json.loads((FIXTURES / "club-backup.json").read_text()))


def test_every_evening_keeps_its_totals_pot_and_money(club, expected):
    got = []
    for evening in Evening.objects.filter(club=club).order_by("date", "pk"):
        result = stored.scored(evening).result
        assert list(result.took_part) == list(result.players), f"{evening.date}: someone took no part"
        got.append(
            {
                "date": evening.date.isoformat(),
                "ruleset": evening.ruleset,
                "deals": len(result.deals),
                "totals": dict(result.totals),
                "pot": result.pot,
                "money": {k: str(v) for k, v in result.money(evening.stake).items()}
                if evening.stake is not None
                else None,
            }
        )
    assert got == expected["evenings"]


def row(r):
    return {
        "name": r.name,
        "rank": r.rank,
        "score": str(r.score),
        "points": r.points,
        "evenings": r.evenings,
        "deals": r.deals,
        "money": {c: str(a) for c, a in r.money.items()},
    }


def test_every_season_keeps_its_standings(club, expected):
    got = {}
    for season in Season.objects.filter(club=club):
        table = season_table(season)
        got[season.name] = {"ranked": [row(r) for r in table.ranked], "apart": [row(r) for r in table.apart]}
    assert got == expected["standings"]


def test_the_ledger_keeps_its_balances_and_open_transfers(club, expected):
    evenings, _count = books.open_evenings(club, limit=None)
    dates = dict(Evening.objects.filter(club=club).values_list("pk", "date"))
    balances = {b.name: {c: str(a) for c, a in b.money.items()} for b in books.balances(club)}
    assert balances == expected["ledger"]["balances"]
    assert (
        sorted([dates[t.evening].isoformat(), t.payer, t.payee, str(t.amount)] for e in evenings for t in e.transfers)
        == (expected["ledger"]["open_transfers"])
    )


# --- format 2 (issue 29): a backup made by the code that brought it (tests/fixtures/club-backup-2.json,
# written by tests/fixtures/make_club_backup_2.py from tests/rich_club.py)


def _by_name(data: dict) -> dict:
    """The backup with each roster player named by his name rather than his id (ids are the database's)."""
    data = json.loads(json.dumps(data))
    names = {p["id"]: p["name"] for p in data["players"]}
    for p in data["players"]:
        p["id"] = p["name"]
    for e in data["evenings"]:
        e["seats"] = [names[i] for i in e["seats"]]
    for c in data["claims"]:
        c["player"] = names[c["player"]]
    for p in data["payments_on_account"]:
        p["from"], p["to"] = names.get(p["from"], p["from"]), names.get(p["to"], p["to"])  # or the kitty
    for prize in data.get("kitty", {}).get("prizes", []):
        prize["player"] = names[prize["player"]]
    for n in data.get("nights", []):
        for p in n["participants"]:
            p["player"] = names[p["player"]]
    return data


def test_a_backup_of_format_2_restores_everything_it_holds():
    """Restored, then backed up again: the same file, every record and every time in it."""
    from scorebook.league.backup import export_club

    written = json.loads((FIXTURES / "club-backup-2.json").read_text())
    club = import_club(written)
    assert _by_name(export_club(club)) == _by_name(written)


def test_a_deletion_restored_from_a_backup_can_still_be_undone():
    """The liege evening of the format-2 backup has a deal deleted (its undo on the page): after a
    restore the undo puts it back, with a new id (the deleted deal's id was the other database's)."""
    from scorebook.evenings import services
    from scorebook.evenings.models import DealRevision

    club = import_club(json.loads((FIXTURES / "club-backup-2.json").read_text()))
    evening = Evening.objects.get(club=club, ruleset="liege")
    deleted = evening.revisions.get(action=DealRevision.Action.DELETED, undone=False)
    count = evening.deals.count()
    back = services.restore_deal(evening, deleted.pk, None)
    assert evening.deals.count() == count + 1 and back.data == deleted.before
    assert evening.revisions.filter(action=DealRevision.Action.RESTORED).exists()
