"""The screens issue 30 changed, at 390x844 and 360x640, as a director, a member and a table's phone
see them: the evening list with a club night as one line and the deals waiting on the phone listed
at its top; the club's latest evenings; the night's page (its rarer acts folded); the ranking by
place points with the points that break ties; a table's phone after its last deal of the session;
an admin refused on a night's table (the night named); a table's phone whose link was withdrawn. Each
is screenshot (artifacts/browser/hall-*) and checked by axe-core (no serious or critical violation);
no horizontal scroll."""

from datetime import date

import pytest

import night_builders
from club_fixtures import admin  # noqa: F401 (Adèle, the club admin)
from scorebook.clubs.models import Club, Membership, Role
from scorebook.evenings import links
from scorebook.nights import services as nights
from scorebook.nights.models import Night

pytestmark = pytest.mark.django_db(transaction=True)

SIXTEEN = [f"Speler {i:02d}" for i in range(1, 17)]
WAITING = """evening => localStorage.setItem('scorebook-queue', JSON.stringify([{id: 'a1', evening: String(evening),
  url: `/e/${evening}/deals/`, body: 'contract=alleen-5', kind: 'deal', label: 'solo 5 · Carl · 5', status: 'refused',
  refusal: 'closed', reason: 'This evening is closed: reopen it to change a deal.', place: {number: 3, dealer: 'Carl', out: []},
  entered: {number: 3, dealer: 'Carl', out: []}, title: 'Kaartavond · Table 1 · session 1', page: `/e/${evening}/`,
  version: 2}]))"""


def axe_clean(p, what: str, problems: list) -> None:
    from axe_playwright_python.sync_playwright import Axe

    bad = [v for v in Axe().run(p.page).response["violations"] if v["impact"] in ("serious", "critical")]
    problems += [f"{what}: axe {v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}" for v in bad]
    if p.page.evaluate("() => document.documentElement.scrollWidth > innerWidth + 1"):
        problems.append(f"{what}: scrolls sideways")


@pytest.mark.browser
@pytest.mark.parametrize("size", [(390, 844), (360, 640)])
def test_the_hall_screens_read_well_on_a_phone(phone, admin, scorer, size):  # noqa: F811
    width, height = size
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    night = night_builders.night(
        club,
        scorer,
        SIXTEEN,
        2,
        2,
        ranking=Night.Ranking.PLACES,
        place_points=[4, 3, 2, 1],
        day=date(2026, 11, 21),
        seed=0,
        ranking_link=False,
    )
    first = night_builders.tables(night)
    night_builders.play(night, scorer)
    table = first[0].evening
    problems: list[str] = []

    director = phone(width=width, height=height, name=f"hall-{width}-director")
    director.login(scorer.username)
    director.page.evaluate(WAITING, table.pk)
    for path, shot in (
        ("/evenings/", "01-evenings"),
        (f"/c/{club.slug}/", "02-club"),
        (f"/nights/{night.pk}/", "03-night"),
        (f"/r/{nights.new_ranking_link(night)}/", "04-ranking"),  # made once, as the director makes it
    ):
        director.goto(path)
        director.page.wait_for_load_state("load")
        director.page.screenshot(path=str(director.shot(shot).with_name(f"hall-{width}-{shot}-screen.png")))
        axe_clean(director, f"{path} at {width}", problems)
    director.goto("/evenings/")
    assert director.page.locator("#waiting-elsewhere").is_visible()
    assert director.page.locator(".cards .card", has_text="Kaartavond").count() == 1

    # a table's phone, after its last deal of the session (the second)
    token = links.issue(table)
    tablet = phone(width=width, height=height, name=f"hall-{width}-table")
    tablet.goto(f"/t/{token}/")
    names = tablet.page.eval_on_selector_all('#record input[name="declarers"]', "els => els.map(e => e.value)")
    form = tablet.page.locator("#record")
    tablet.tap(form.locator('label.tap:has(input[value="samen-9"])'))
    for name in (names[0], names[2]):
        tablet.tap(form.locator(f'.declarers label.tap:has(input[value="{name}"])'))
    tablet.tap(tablet.save_button())
    tablet.page.locator("#deals-done").wait_for(state="visible")
    tablet.shot("05-session-done")
    axe_clean(tablet, f"session done at {width}", problems)
    # its link withdrawn: the page says so, and lists what waits on the phone
    links.revoke(table)
    tablet.page.evaluate(WAITING, table.pk)
    tablet.page.goto(tablet.url(f"/e/{table.pk}/"))
    assert "This phone no longer scores this table" in tablet.page.locator("main").inner_text()
    assert tablet.page.locator("#waiting-elsewhere").is_visible()
    tablet.shot("06-link-withdrawn")
    axe_clean(tablet, f"link withdrawn at {width}", problems)

    # Adèle, the admin, asks to share a night's table: refused, the night named
    secretary = phone(width=width, height=height, name=f"hall-{width}-admin")
    secretary.login(admin.username)
    secretary.page.goto(secretary.url(f"/e/{table.pk}/share/"))
    assert "Kaartavond · Table 1 · session 1 belongs to a club night" in secretary.page.locator("main").inner_text()
    secretary.shot("07-refused")
    axe_clean(secretary, f"refused at {width}", problems)
    assert problems == [], "\n".join(problems)
    assert director.errors == tablet.errors == secretary.errors == []
