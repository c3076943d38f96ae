"""``manage.py seed_demo_club``: the demo club the guides' pictures are taken from (make screenshots).

Everything in it went through the services, so it is what a club that played would hold: every
evening scores, the season ranks its players, the payments are netted, the night is under way with
tables behind; and every evening it exports matches the evening file's published schema."""

import json
from decimal import Decimal
from io import StringIO
from pathlib import Path

import jsonschema
import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command

from scorebook.clubs.models import Club, Role
from scorebook.evenings import creation, payments, stored
from scorebook.evenings.models import Evening, Payment
from scorebook.ledger import books
from scorebook.ledger.models import Expense, Prize
from scorebook.nights.models import Night
from write_path import building

pytestmark = pytest.mark.django_db
SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "evening-file.schema.json").read_text())


@pytest.fixture(autouse=True)
def development(settings):
    settings.DEBUG = True  # a demo is for development sites (tests run with DEBUG=false)


@pytest.mark.both_databases
@pytest.mark.slow  # some 150 deals through the services: 10 to 25 s
def test_it_builds_a_club_that_played():
    out = StringIO()
    call_command("seed_demo_club", stdout=out)
    assert "Created the club De Troef" in out.getvalue()
    assert authenticate(username="demo", password="demo-scorebook") is not None  # seed_demo ran first
    club = Club.objects.get(slug="de-troef")
    roles = {m.user.username: m.role for m in club.memberships.select_related("user")}
    assert roles == {"demo": Role.ADMIN, "anne": Role.SCORER, "bert": Role.MEMBER, "hilde": Role.MEMBER}
    assert authenticate(username="anne", password="") is None  # the other members cannot log in
    assert club.players.count() >= 16  # the roster and the night's guests
    evenings = list(club.evenings.filter(night_table__isnull=True))
    assert {e.ruleset for e in evenings} == {"kleurenwiezen", "liege", "gand"}
    assert [e.status for e in evenings].count(Evening.Status.OPEN) == 1  # tonight's
    for evening in club.evenings.all():
        assert stored.scored(evening).result.number == evening.deals.count()  # the engine reads every deal
        data = json.loads(creation.export_text(evening))
        jsonschema.validate(data, SCHEMA)
    assert Payment.objects.filter(club=club).count() >= 3
    first, second = sorted(evenings, key=lambda e: e.date)[:2]
    assert payments.still_due(first) == []  # settled in full
    assert payments.still_due(second)  # in part
    night = Night.objects.get(club=club)
    sessions = {s.number: s for s in night.night_sessions.all()}
    assert not sessions[1].is_open and sessions[2].is_open
    played = [t.evening.deals.count() for t in sessions[2].tables.select_related("evening")]
    assert max(played) == night.deals_per_session > min(played)  # some tables behind
    assert sum(t.evening.deals.count() for t in sessions[3].tables.select_related("evening")) == 0
    assert club.seasons.filter(ruleset="kleurenwiezen").count() == 1
    # the kitty: every evening and the night keep the club's fees, an expense, the cup's prizes owed
    # by the kitty from its final standings, money paid into it, all in the ledger's balances
    assert {e.kitty_fee for e in evenings} == {Decimal("1.00")} and night.kitty_fee == Decimal("2.00")
    cup = club.seasons.get(ruleset="liege")
    prizes = Prize.objects.filter(season=cup).order_by("place")
    assert [p.amount for p in prizes] == [Decimal("10.00"), Decimal("5.00")]
    assert [e.withdrawn for e in Expense.objects.filter(club=club)] == [False, True]  # one entered twice
    kitty = books.kitty(club)
    assert kitty.held == {"EUR": Decimal("5.50")}  # 18.00 paid in, 12.50 spent (the withdrawn one not)
    assert kitty.owed["EUR"] > 0  # the fees not paid yet, less the prizes it owes


def test_it_never_touches_an_existing_club():
    Club.objects.create(name="De troef", slug="De-Troef")
    with pytest.raises(CommandError, match="exists already"):
        call_command("seed_demo_club", stdout=StringIO())
    assert Club.objects.count() == 1 and not Evening.objects.exists()


def test_it_refuses_a_real_site(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is false"):
        call_command("seed_demo_club", stdout=StringIO())
    assert not Club.objects.exists()


@pytest.mark.slow  # the same club, in Dutch
def test_it_writes_what_the_members_typed_in_the_language_asked():
    """The Dutch guides' pictures show Dutch notes and names, never the English demo's. The seeding's
    write path is checked on both databases by the English club's test; here it builds a world to read."""
    with building():
        call_command("seed_demo_club", language="nl", stdout=StringIO())
    club = Club.objects.get(slug="de-troef")
    assert club.seasons.get(ruleset="liege").name == "Luikse beker"
    assert {e.note for e in Expense.objects.filter(club=club)} == {"Twee pakken kaarten"}
    withdrawn = Expense.objects.filter(club=club).exclude(withdrawn_reason="").get()
    assert withdrawn.withdrawn_reason == "twee keer ingevoerd"
    notes = set(Payment.objects.exclude(note="").values_list("note", flat=True))
    assert notes == {"de helft nu", "op rekening", "bijdragen"}
    assert Night.objects.get(club=club).name == "Kaartavond"
