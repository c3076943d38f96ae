# ruff: noqa: F811 (the club admin fixture is imported)
"""What a club prints, as Chromium prints it on A4 portrait (issue 23, item 4).

An A4 sheet is 210 mm wide; with the usual 1 cm margins, 190 mm are printed: 718 px at 96 dpi.
Every printable page (the season's standings, an evening's sheet, a club night's ranking, its
seating plan and its table cards) is laid out as printed (``emulate_media("print")`` in a 718 px
wide window): no element reaches past the printable width, the site's bar, footer, menus and
buttons are gone; Chromium's own PDF of the page (``page.pdf(format="A4")``) says how many sheets
it takes. The widest standings: a league ranking with its worst evening dropped (a column more),
money, long names, in French and in Dutch (the longest headers).

Adèle (``admin``) is the secretary of De Troef; Marie (``scorer``) scores its evenings and runs
its club night.
"""

import re
from datetime import date

import pytest

import night_builders
from builders import club_evening
from club_fixtures import admin  # noqa: F401 (Adèle, the club admin)
from scorebook.clubs.models import Club, Membership, Role, Season
from scorebook.nights import services as nights

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PRINTABLE = 718  # px: 190 mm at 96 dpi
MARGINS = dict.fromkeys(("top", "right", "bottom", "left"), "1cm")
ROSTER = [
    "Anne-Marie Vandenbroucke-Verhaeghe",
    "Godelieve Van den Bossche",
    "Éric Dubois",
    "Zoë Lambert",
    "Bert Maes",
    "Carl Janssens",
    "Dina Peeters",
    "Emma Claes",
    "Fien Wouters",
    "Gust Jacobs",
    "Hilde Mertens",
    "Ilse Willems",
    "Jan Goossens",
    "Karel De Smet",
    "Lotte Hermans",
    "Marc Dupont",
]
# every visible element whose box leaves the sheet, and the site's chrome still shown
MEASURE = """limit => {
  const shown = e => { const s = getComputedStyle(e); const r = e.getBoundingClientRect();
                       return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0; };
  const wide = [...document.querySelectorAll('body *')].filter(shown).filter(e => {
    const r = e.getBoundingClientRect(); return r.right > limit + 0.5 || r.left < -0.5;
  }).map(e => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
  const chrome = [...document.querySelectorAll('.topbar, .footer, nav, button, form')].filter(shown)
    .map(e => `${e.tagName.toLowerCase()}.${e.className}`);
  return {wide: wide.slice(0, 10), chrome, width: document.documentElement.scrollWidth};
}"""


@pytest.fixture
def club(admin, scorer):
    club = Club.objects.create(name="Cercle Royal du Whist Liégeois", slug="cercle")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    for week in range(4):
        four = ROSTER[week * 4 : week * 4 + 4]
        deals = [{"contract": "samen-9", "declarers": [four[0], four[2]], "tricks": 8 + n % 4} for n in range(6)]
        club_evening(club, scorer, date(2026, 9, 3 + 7 * week), deals, four)
    Season.objects.create(
        club=club,
        name="Saison 2026–2027",
        start=date(2026, 9, 1),
        end=date(2027, 6, 30),
        ruleset="kleurenwiezen",
        ranking="league",
        league_points=[10, 6, 4, 2],
        drop_worst=1,
    )
    return club


@pytest.fixture
def night(club, scorer):
    night = night_builders.night(
        club, scorer, ROSTER, deals=4, name="Kaartavond november", day=date(2026, 11, 14), seed=0, ranking_link=False
    )
    night_builders.play(night, scorer)
    return night


def printed(p, path: str, artifacts, name: str):
    """(the page's measures as printed, the number of A4 sheets of its PDF); the PDF is kept."""
    if path:
        p.goto(path)
    p.page.wait_for_load_state("load")
    p.page.emulate_media(media="print")
    facts = p.page.evaluate(MEASURE, PRINTABLE)
    pdf = p.page.pdf(format="A4", margin=MARGINS, path=str(artifacts / f"print-{name}.pdf"))
    p.page.emulate_media(media="screen")
    return facts, len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def sheet(phone, live_server, user: str, language: str, name: str):
    p = phone(width=PRINTABLE, height=1000, name=name)
    p.login(user)
    p.page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    return p


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_the_standings_print_on_one_a4_sheet_without_the_sites_chrome(
    phone, live_server, artifacts, admin, club, language
):
    season = club.seasons.get()
    p = sheet(phone, live_server, "adele", language, f"print-standings-{language}")
    facts, sheets = printed(p, f"/c/{club.slug}/seasons/{season.pk}/print/", artifacts, f"standings-{language}")
    assert facts["wide"] == [] and facts["width"] <= PRINTABLE, facts
    assert facts["chrome"] == []
    assert sheets == 1
    assert p.page.locator(".league tbody tr").count() == len(ROSTER)  # every player, on that one sheet


def test_the_evening_sheet_and_the_club_nights_papers_fit_the_sheet(phone, live_server, artifacts, scorer, club, night):
    evening = club.evenings.filter(night_table__isnull=True).order_by("date").first()
    p = sheet(phone, live_server, "marie", "fr", "print-night")
    pages = {
        "evening-sheet": f"/e/{evening.pk}/print/",
        "night-ranking": f"/r/{nights.new_ranking_link(night)}/",
        "night-plan": f"/nights/{night.pk}/plan/",
    }
    sheets = {}
    for name, path in pages.items():
        facts, sheets[name] = printed(p, path, artifacts, name)
        assert facts["wide"] == [] and facts["width"] <= PRINTABLE, (name, facts)
        assert facts["chrome"] == [], (name, facts)
    assert sheets["evening-sheet"] == 1 and sheets["night-ranking"] == 1  # 16 players: one sheet

    # the table cards, as the director prints them from the night's page
    p.goto(f"/nights/{night.pk}/")
    with p.page.expect_navigation():
        p.page.locator(".night-cards-form button[type=submit]").click()
    facts, sheets["cards"] = printed(p, "", artifacts, "table-cards")
    assert facts["wide"] == [] and facts["width"] <= PRINTABLE, facts
    assert facts["chrome"] == [], facts
    assert p.page.locator(".night-card").count() == 8
    assert sheets["cards"] == 1  # eight cards a sheet (two a row), not two
