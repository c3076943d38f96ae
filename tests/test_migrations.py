"""The tests build tables from the models (--no-migrations); this keeps the migrations in step with them.
The migrations themselves run in the fresh-clone test of `make run` (tests/test_readme.py)."""

from io import StringIO

import pytest
from django.core.management import call_command

# the data migrations' SQL: both databases
pytestmark = pytest.mark.both_databases


@pytest.mark.django_db
def test_it_has_a_migration_for_every_model_change(settings):
    settings.MIGRATION_MODULES = {}  # read the real migrations, which --no-migrations hides
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit:  # makemigrations --check exits 1 when a migration is missing
        pytest.fail(f"missing migration (exit {exit.code}):\n{out.getvalue()}")


def test_it_gives_the_stored_rules_of_old_evenings_the_new_contract_names():
    """evenings.0003 (and nights.0002): an evening's stored copy of the kleurenwiezen rules says
    "solo 5" as new evenings do, not "seul 5"; a name a club chose itself stays; figures are untouched;
    the reverse migration gives the old names back."""
    import copy
    import importlib

    from scorebook.rules import registry
    from scorebook.rules.model import to_dict

    migration = importlib.import_module("scorebook.evenings.migrations.0003_contract_names_alike")
    stored = to_dict(registry.get("kleurenwiezen"))
    stored["contracts"]["alleen-5"]["names"] = {"fr": "seul 5", "nl": "alleen 5", "en": "solo 5"}
    stored["contracts"]["solo-slim"]["names"] = {"fr": "solo chelem", "nl": "solo slim", "en": "solo slam"}
    stored["contracts"]["alleen-6"]["names"] = {"fr": "seul six", "nl": "alleen zes", "en": "solo six"}  # the club's
    before = copy.deepcopy(stored)

    assert migration.renamed("kleurenwiezen", stored, 1)
    assert stored["contracts"]["alleen-5"]["names"] == {"fr": "solo 5", "nl": "alleen 5", "en": "solo 5"}
    assert stored["contracts"]["solo-slim"]["names"] == {"fr": "grand chelem", "nl": "solo slim", "en": "grand slam"}
    assert stored["contracts"]["alleen-6"]["names"] == before["contracts"]["alleen-6"]["names"]
    assert stored == to_dict(registry.get("kleurenwiezen")) | {
        "contracts": stored["contracts"] | {"alleen-6": before["contracts"]["alleen-6"]}
    }
    assert not migration.renamed("kleurenwiezen", stored, 1)  # once is enough
    assert not migration.renamed("classique", {"contracts": {}}, 1)

    migration.renamed("kleurenwiezen", stored, 0)
    assert stored["contracts"]["alleen-5"] == before["contracts"]["alleen-5"]


@pytest.mark.django_db
def test_it_keeps_every_old_payment_and_gives_it_its_club_and_players(make_user):
    """evenings.0008: the payments made before payments were records keep their amount, author and time,
    and get the club of their evening and its players (by the names at the table); none is lost."""
    import importlib
    from datetime import date
    from decimal import Decimal

    from django.apps import apps

    from builders import club_evening
    from scorebook.clubs.models import Club, Player
    from scorebook.evenings.models import Payment

    migration = importlib.import_module("scorebook.evenings.migrations.0008_payments_are_records")
    marie = make_user("marie")
    club = Club.objects.create(name="De Troef", slug="de-troef")
    evening = club_evening(club, marie, date(2026, 9, 10))
    old = Payment.objects.create(evening=evening, payer="Bert", payee="Anne", amount=Decimal("1.40"), marked_by=marie)
    migration.fill_in(apps, None)
    old.refresh_from_db()
    assert (old.club, old.payer_player, old.payee_player) == (
        club,
        Player.objects.get(club=club, name="Bert"),
        Player.objects.get(club=club, name="Anne"),
    )
    assert (old.amount, old.marked_by, old.kind, old.cancelled) == (Decimal("1.40"), marie, Payment.Kind.FULL, False)
    assert Payment.objects.active().count() == 1


@pytest.mark.django_db
def test_it_withdraws_the_claims_that_removed_members_left_behind(make_user):
    """clubs.0002: a claim of a member who left the club goes; a member's claim stays."""
    import importlib

    from django.apps import apps

    from scorebook.clubs.models import Club, Membership, Player, PlayerClaim, Role

    migration = importlib.import_module("scorebook.clubs.migrations.0002_claims_of_former_members_withdrawn")
    club = Club.objects.create(name="De Troef", slug="de-troef")
    member, former = make_user("mia"), make_user("fien")
    Membership.objects.create(club=club, user=member, role=Role.MEMBER)
    anne, bert = Player.objects.create(club=club, name="Anne"), Player.objects.create(club=club, name="Bert")
    kept = PlayerClaim.objects.create(player=anne, user=member)
    PlayerClaim.objects.create(player=bert, user=former)
    migration.withdraw(apps, None)
    assert list(PlayerClaim.objects.all()) == [kept]


@pytest.mark.django_db
def test_the_payments_made_before_the_kitty_keep_their_currency_and_club(make_user):
    """evenings.0009: every payment gets its currency: its evening's, or on account the currency of the
    club's latest evening with a stake (what the ledger showed it in); an evening's payment gets its club."""
    import importlib
    from datetime import date
    from decimal import Decimal

    from django.apps import apps

    from builders import club_evening
    from scorebook.clubs.models import Club, Player
    from scorebook.evenings.models import Payment

    migration = importlib.import_module("scorebook.evenings.migrations.0009_payment_currency")
    marie = make_user("marie")
    club = Club.objects.create(name="De Troef", slug="de-troef")
    evening = club_evening(club, marie, date(2026, 9, 10), currency="CHF")
    old = Payment.objects.create(evening=evening, payer="Bert", payee="Anne", amount=Decimal("1.40"), marked_by=marie)
    anne, bert = (Player.objects.get(club=club, name=n) for n in ("Anne", "Bert"))
    on_account = Payment.objects.create(
        club=club, payer="Anne", payee="Bert", payer_player=anne, payee_player=bert, amount=Decimal("2.00")
    )
    migration.fill_in(apps, None)
    old.refresh_from_db()
    on_account.refresh_from_db()
    assert (old.currency, old.club, on_account.currency) == ("CHF", club, "CHF")
