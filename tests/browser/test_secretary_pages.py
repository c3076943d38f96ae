# ruff: noqa: F811 (the club admin fixture is imported)
"""The club pages a secretary meets in the first week, at 390x844 and 1366x768, in French and Dutch
(issue 15): screenshots to look at, and the standings fitting a 360 px phone without cutting a name."""

from datetime import date
from decimal import Decimal

import pytest

from builders import club_evening
from club_fixtures import admin  # noqa: F401 (Adèle, the club admin)
from scorebook.clubs.models import Club, HouseRules, Membership, Player, Role, Season
from scorebook.evenings import payments, services

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Godelieve", "Anne-Marie", "Bert", "Carl"]
SIZES = {"phone": (390, 844), "desktop": (1366, 768)}


def samen(a, b, tricks=10):
    return {"contract": "samen-9", "declarers": [a, b], "tricks": tricks}


@pytest.fixture
def club(admin, scorer):
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    HouseRules.objects.create(
        club=club,
        ruleset="kleurenwiezen",
        overrides={"all_pass_multiplier": 1, "contracts": {"samen-9": {"made": {"9": [11, -12]}}}},
    )
    for day, deals in (
        (date(2026, 9, 10), [samen("Godelieve", "Anne-Marie")]),
        (date(2026, 9, 17), [samen("Bert", "Carl")]),
        (date(2026, 9, 24), [samen("Godelieve", "Bert"), samen("Anne-Marie", "Carl", 9)]),
    ):
        club_evening(club, scorer, day, deals, PLAYERS)
    first = club.evenings.order_by("date").first()
    payments.record_payment(first, "Bert", "Godelieve", Decimal("1.40"), scorer)
    services.set_status(first, "closed")
    Season.objects.create(
        club=club, name="Herfst 2026", start=date(2026, 9, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    Player.objects.filter(club=club, name="Godelieve").update(name="Godelieve Vandenbroucke-Verhaeghe")
    return club


@pytest.mark.browser
@pytest.mark.parametrize("language", ["fr", "nl"])
def test_the_secretarys_pages_in_both_sizes(phone, new_context, live_server, admin, club, language):
    season = club.seasons.get()
    evening = club.evenings.order_by("date").first()
    pages = {
        "club": f"/c/{club.slug}/",
        "standings": f"/c/{club.slug}/seasons/{season.pk}/",
        "ledger": f"/c/{club.slug}/ledger/",
        "rules-editor": f"/c/{club.slug}/rules/kleurenwiezen/?open=samen-9",
        "evening-rules": f"/e/{evening.pk}/rules/",
        "settlement": f"/e/{evening.pk}/settle/",
        "print-standings": f"/c/{club.slug}/seasons/{season.pk}/print/",
    }
    for size, (width, height) in SIZES.items():
        p = phone(width=width, height=height, name=f"secretary-{language}-{size}")
        p.login("adele", next_path=pages["club"])
        p.page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        for name, path in pages.items():
            p.goto(path)
            p.page.wait_for_load_state("load")
            p.page.screenshot(path=str(p.shot(name)), full_page=True)
            if name == "rules-editor":  # the open contract, as the admin sees it
                p.page.locator("#c-samen-9 .schedule").scroll_into_view_if_needed()
                p.page.screenshot(path=str(p.shot("rules-editor-samen-9")))
            width_used = p.page.evaluate("() => document.documentElement.scrollWidth")
            assert width_used <= width, f"{name} scrolls sideways at {width}: {width_used}"


@pytest.mark.browser
def test_the_standings_fit_a_360_px_phone_without_breaking_a_name(phone, live_server, admin, club):
    season = club.seasons.get()
    p = phone(width=360, name="standings-360")
    p.login("adele", next_path=f"/c/{club.slug}/seasons/{season.pk}/")
    p.page.context.add_cookies([{"name": "django_language", "value": "nl", "url": live_server.url}])
    p.goto(f"/c/{club.slug}/seasons/{season.pk}/")
    p.page.wait_for_load_state("load")
    p.shot("standings")
    fits = p.page.evaluate(
        "() => { const s = document.querySelector('.table-scroll'); return [s.scrollWidth, s.clientWidth]; }"
    )
    assert fits[0] <= fits[1], f"the standings table is cut off: {fits}"
    # no name is broken inside a word: each word of a name is on one line
    broken = p.page.evaluate("""() => [...document.querySelectorAll('.league tbody .c-name a')].filter(a => {
        const range = document.createRange(); range.selectNodeContents(a);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        return lines.size > a.textContent.trim().split(/[\\s-]+/).length;
    }).map(a => a.textContent)""")
    assert broken == []
    visible = p.page.evaluate(
        "() => [...document.querySelectorAll('.league thead th')].filter(th => th.offsetParent).map(th => th.className)"
    )
    assert not any("c-money" in c or "c-deals" in c for c in visible)
    assert p.page.locator("#more-columns").is_visible()
