"""The kitty in the club's backup (issue 28, point 7): the club's fees, each evening's and night's fee,
the expenses and prizes (withdrawn ones too, with who, when and why), and the payments into and out of
the kitty come back from a round trip through ``export_club`` and ``import_club`` as they were: the
same balances, the same kitty, the same ledger and kitty pages. An older backup without a kitty still
imports (no fee, no record)."""

import json
import re
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

import night_builders
from builders import club_evening, lose_the_site
from night_builders import EIGHT
from pages import body
from scorebook.clubs.models import Club, Player, Season
from scorebook.evenings import services
from scorebook.ledger import books
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Expense, Prize
from scorebook.nights.models import Night

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

SAMEN_9 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}


def text(client, url):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body(client.get(url))))


def picture(club):
    all_balances = books.balances(club)
    kitty = books.kitty(club, all_balances)
    return {
        "fees": (club.kitty_evening_fee, club.kitty_night_fee),
        "balances": {b.name: (b.money, b.kitty) for b in all_balances},
        "kitty": (kitty.owed, kitty.held, kitty.expenses),
        "evenings": sorted(club.evenings.values_list("date", "kitty_fee")),
        "nights": sorted(Night.objects.filter(club=club).values_list("name", "kitty_fee")),
        "expenses": sorted(
            Expense.objects.filter(club=club).values_list("amount", "day", "note", "withdrawn_reason", "recorded_at")
        ),
        "prizes": sorted(
            Prize.objects.filter(club=club).values_list(
                "season_name", "place", "player__name", "amount", "withdrawn_at"
            )
        ),
    }


def test_the_kitty_survives_a_round_trip(club, admin, scorer, client, tmp_path):
    ledger.set_fees(club, Decimal("1.00"), Decimal("2.50"))
    club_evening(club, scorer, date(2025, 9, 10), [SAMEN_9])
    night = night_builders.night(
        club,
        scorer,
        EIGHT,
        1,
        2,
        stake=Decimal("0.10"),
        name="Herfstavond",
        day=date(2025, 10, 3),
        seed=0,
        ranking_link=False,
    )
    for table in night.night_sessions.get().tables.select_related("evening"):
        names = [s.name for s in table.evening.seats.all()]
        services.record_deal(table.evening, {**SAMEN_9, "declarers": [names[1], names[3]]}, scorer)
    anne, bert = Player.objects.get(club=club, name="Anne"), Player.objects.get(club=club, name="Bert")
    ledger.record_kitty_payment(club, bert, Decimal("3.50"), "EUR", admin, into=True, note="fees")
    ledger.record_expense(club, Decimal("12.00"), "EUR", date(2025, 10, 4), "cards", admin)
    wrong, _ = ledger.record_expense(club, Decimal("99.00"), "EUR", date(2025, 10, 4), "typo", admin)
    ledger.withdraw(wrong, admin, "entered by mistake")
    season = Season.objects.create(
        club=club, name="Autumn", start=date(2025, 9, 1), end=date(2025, 10, 31), ruleset="kleurenwiezen"
    )
    ledger.award_prizes(season, [ledger.Award(1, anne, Decimal("20.00"))], "EUR", admin)
    ledger.record_kitty_payment(club, anne, Decimal("20.00"), "EUR", admin, into=False, note="prize")
    before = picture(club)
    client.force_login(admin)
    pages = [reverse(name, args=[club.slug]) for name in ("club_ledger", "club_kitty", "club_settle_up")]
    pages_before = [text(client, url) for url in pages]
    path = tmp_path / "club.json"
    call_command("export_club", club.slug, "-o", str(path), "--with-secrets")

    lose_the_site()
    call_command("import_club", str(path))

    club = Club.objects.get()
    assert picture(club) == before
    client.force_login(get_user_model().objects.get(username=admin.username))
    assert [text(client, url) for url in pages] == pages_before


def test_an_older_backup_without_a_kitty_still_imports(club, scorer, tmp_path):
    club_evening(club, scorer, date(2025, 9, 10), [SAMEN_9])
    path = tmp_path / "club.json"
    call_command("export_club", club.slug, "-o", str(path), "--with-secrets")
    data = json.loads(path.read_text())
    del data["kitty"]
    del data["club"]["kitty_evening_fee"], data["club"]["kitty_night_fee"]
    for evening in data["evenings"]:
        del evening["kitty_fee"]
        for payment in evening["payments"]:
            payment.pop("currency", None)
    path.write_text(json.dumps(data))
    lose_the_site()
    call_command("import_club", str(path))
    club = Club.objects.get()
    assert (club.kitty_evening_fee, books.kitty(club).owed) == (None, {})
