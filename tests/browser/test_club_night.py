"""A club night of 3 tables x 2 sessions, driven by the director and three table phones.

The director creates the night on her phone and prints the cards of session 1; each table's
phone opens its card's link (no account) and records its deals; table 3 loses the network,
saves a deal offline and sends it when the network is back; table 2 falls behind and is shown
late; the director closes session 1 (table 2's phone can no longer record), swaps in a
substitute for a player who leaves, and the live ranking, open on a follower's phone, shows
the night provisional, then final.
"""

import re

import pytest
from playwright.sync_api import expect

from scorebook.clubs.models import Club, Membership, Role
from scorebook.evenings.models import Deal
from scorebook.nights.models import Night

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Anne", "Bert", "Carl", "Dina", "Emma", "Fien", "Gust", "Hilde", "Ivo", "Jan", "Kris", "Lies"]


def seats(p) -> list[str]:
    """The players of the table, from the record form's declarer buttons, in seat order."""
    return p.page.eval_on_selector_all('#record input[name="declarers"]', "els => els.map(e => e.value)")


def record_samen(p) -> None:
    names = seats(p)
    p.record_contract("samen-8", [names[1], names[3]])


@pytest.mark.browser
def test_a_night_of_three_tables_run_from_phones(phone, scorer):
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)

    # the director creates the night on her phone
    director = phone(name="night-director")
    director.login(scorer.username, next_path=f"/c/{club.slug}/nights/new/")
    page = director.page
    page.fill('input[name="name"]', "Kaartavond maart")
    page.fill('input[name="sessions"]', "2")
    page.fill('input[name="deals_per_session"]', "2")
    page.fill('textarea[name="guests"]', "\n".join(NAMES))
    with page.expect_navigation():
        director.tap('form.night-new button[type="submit"]')
    night = Night.objects.get()
    assert page.url.endswith(f"/nights/{night.pk}/")
    director.shot("01-night-page")

    # the cards of session 1: three links
    page.select_option("#cards-session", "1")
    with page.expect_navigation():
        director.tap(".night-cards-form button")
    links = page.eval_on_selector_all(".night-card .night-url a", "els => els.map(a => a.getAttribute('href'))")
    assert len(links) == 3
    expect(page.locator(".night-card svg")).to_have_count(3)
    director.shot("02-cards")

    # three table phones open their cards' links, without an account
    tables = []
    for i, link in enumerate(links, start=1):
        t = phone(name=f"night-table-{i}")
        t.page.goto(link)
        expect(t.page.locator("#record")).to_be_visible()
        tables.append(t)
    t1, t2, t3 = tables
    t1.shot("03-table-scoring")

    record_samen(t1)
    # its last deal of the session: the page says the session's deals are done, no "Deal 3" (issue 30)
    names = seats(t1)
    form1 = t1.page.locator("#record")
    t1.tap(form1.locator('label.tap:has(input[value="samen-8"])'))
    t1.tap(form1.locator(f'.declarers label.tap:has(input[value="{names[1]}"])'))
    t1.tap(form1.locator(f'.declarers label.tap:has(input[value="{names[3]}"])'))
    t1.tap(t1.save_button())
    expect(t1.page.locator("#deals-done")).to_contain_text("This session's deals are done")
    expect(t1.page.locator("#record")).to_have_count(0)
    t1.shot("03b-session-done")
    t3.wait_until_kept()
    record_samen(t3)
    # table 3 loses the network: the deal waits on the phone, then goes when it is back
    t3.page.context.set_offline(True)
    form = t3.page.locator("#record")
    names = seats(t3)
    t3.tap(form.locator('label.tap:has(input[value="samen-8"])'))
    t3.tap(form.locator(f'.declarers label.tap:has(input[value="{names[0]}"])'))
    t3.tap(form.locator(f'.declarers label.tap:has(input[value="{names[2]}"])'))
    t3.tap(t3.save_button())
    expect(t3.page.locator("#deals li.waiting")).to_have_count(1)
    expect(t3.page.locator("#deals-done")).to_be_visible()  # its 2 deals, the second waiting
    t3.shot("04-offline-waiting")
    evening3 = night.night_sessions.get(number=1).tables.get(number=3).evening_id
    assert Deal.objects.filter(evening_id=evening3).count() == 1
    t3.page.context.set_offline(False)
    t3.page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(t3.page.locator("#deals li.waiting")).to_have_count(0, timeout=10_000)
    assert Deal.objects.filter(evening_id=evening3).count() == 2

    # the director makes the live ranking's link (shown once), and a follower opens it
    director.goto(f"/nights/{night.pk}/")
    with director.page.expect_navigation():
        director.tap('form[action$="/ranking-link/"] button')
    ranking_link = director.page.locator(".night-url a").get_attribute("href")
    director.shot("04b-ranking-link")
    follower = phone(name="night-ranking")
    follower.page.goto(ranking_link)
    expect(follower.page.locator(".night-status")).to_contain_text("Provisional")
    follower.shot("05-ranking-provisional")

    # the director sees table 2 late, and closes the session anyway
    director.goto(f"/nights/{night.pk}/")
    late = page.locator(".night-session.is-current .night-table.is-late")
    expect(late).to_have_count(1)
    expect(late).to_contain_text("Table 2")
    expect(late).to_contain_text("0/2")
    director.shot("06-late-table")
    with page.expect_navigation():
        director.tap(".night-session.is-current form button.primary")
    expect(page.locator(".messages")).to_contain_text("Session 1 is closed")
    # table 2's phone can no longer record
    names = seats(t2)
    form2 = t2.page.locator("#record")
    t2.tap(form2.locator('label.tap:has(input[value="samen-8"])'))
    t2.tap(form2.locator(f'.declarers label.tap:has(input[value="{names[1]}"])'))
    t2.tap(form2.locator(f'.declarers label.tap:has(input[value="{names[3]}"])'))
    t2.tap(t2.save_button())
    expect(t2.page.locator("#notices")).to_contain_text("closed", timeout=10_000)
    evening2 = night.night_sessions.get(number=1).tables.get(number=2).evening_id
    assert Deal.objects.filter(evening_id=evening2).count() == 0

    # Anne leaves: Zoë takes her place in session 2
    director.tap(".night-changes > summary")
    page.select_option('select[name="leaving"]', "1")
    page.fill('input[name="name"]', "Zoë")
    with page.expect_navigation():
        director.tap('form[action$="/substitute/"] button')
    expect(page.locator(".messages")).to_contain_text("Zoë takes the place of Anne")
    session2 = [s.name for t in night.night_sessions.get(number=2).tables.all() for s in t.evening.seats.all()]
    assert "Zoë" in session2 and "Anne" not in session2
    director.shot("07-substitute")

    # session 2 is played and closed: the ranking is final
    with page.expect_navigation():
        director.tap(".night-session.is-current form button.primary")
    expect(follower.page.locator(".night-status")).to_have_text("Final ranking.", timeout=12_000)
    rows = follower.page.locator(".night-ranking tbody tr")
    expect(rows).to_have_count(13)
    follower.shot("08-ranking-final")
    for p in (director, t1, t2, t3, follower):
        assert [e for e in p.errors if not re.search(r"network|fetch", e, re.I)] == []
