"""A follower's phone in the hall, the live ranking open (hall.py): while nothing it shows changes,
its polls are answered 304 and the page stays as it is; at the next mark it is sent the rows that
changed, and shows them in place; once the last session is closed it shows the final ranking and
stops polling. Without JavaScript, the same page shows the ranking, and a reload the new one."""

import time
from datetime import UTC, date, datetime
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from scorebook.clubs.models import Club, Membership, Role
from scorebook.evenings import services as evenings
from scorebook.evenings.models import Deal
from scorebook.nights import hall
from scorebook.nights import services as nights
from scorebook.nights.models import Night

pytestmark = pytest.mark.django_db(transaction=True)

SIXTEEN = [f"Speler {i:02d}" for i in range(1, 17)]


@pytest.fixture
def clock(monkeypatch):
    """The hall's clock (the live server runs in this process), stopped: a page opened now has its
    marks now, 30 s later and so on."""
    now = [float(int(time.time()))]
    monkeypatch.setattr(hall, "time", SimpleNamespace(time=lambda: now[0]))
    return now


@pytest.fixture
def night(scorer):
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    return nights.create_night(
        club=club,
        user=scorer,
        name="Kaartavond",
        date=date(2026, 11, 21),
        ruleset="kleurenwiezen",
        sessions=2,
        deals_per_session=4,
        ranking=Night.Ranking.TOTAL,
        place_points=[],
        stake=None,
        currency="EUR",
        players=SIXTEEN,
    )


def samen(night, clock, scorer, table=2) -> None:
    """Table ``table`` of session 1 records a samen-9 made by its seats 2 and 4, just after the hall's time."""
    evening = night.night_sessions.get(number=1).tables.get(number=table).evening
    names = [s.name for s in evening.seats.order_by("position")]
    recorded = evenings.record_deal(
        evening, {"contract": "samen-9", "declarers": [names[1], names[3]], "tricks": 9}, scorer
    )
    Deal.objects.filter(pk=recorded.deal.pk).update(recorded_at=datetime.fromtimestamp(clock[0] + 0.5, UTC))


@pytest.mark.browser
def test_a_followers_page_shows_the_rows_that_changed_then_the_final_ranking(phone, night, clock, scorer):
    samen(night, clock, scorer)
    clock[0] += hall.TICK_SECONDS
    follower = phone(name="hall-follower")
    answers: list[tuple[int, str | None]] = []
    follower.page.on(
        "response",
        lambda r: "/live/" in r.url and answers.append((r.status, r.headers.get("hx-reswap"))),
    )
    follower.goto(f"/r/{nights.new_ranking_link(night)}/")
    rows = follower.page.locator(".night-ranking tbody tr")
    expect(rows).to_have_count(16)
    expect(follower.page.locator("#rank-1 .night-total")).to_have_text("+11")
    middle = follower.page.locator("#rank-8").inner_text()
    follower.page.wait_for_timeout((hall.POLL_SECONDS + 1) * 1000)
    assert answers and {status for status, _ in answers} == {304}  # nothing changed: the page stays

    samen(night, clock, scorer)  # recorded now: shown from the next mark
    follower.page.wait_for_timeout((hall.POLL_SECONDS + 1) * 1000)
    expect(follower.page.locator("#rank-1 .night-total")).to_have_text("+11")
    clock[0] += hall.TICK_SECONDS
    expect(follower.page.locator("#rank-1 .night-total")).to_have_text("+22", timeout=(hall.POLL_SECONDS + 4) * 1000)
    expect(follower.page.locator("#rank-16 .night-total")).to_have_text("\u221222")
    assert follower.page.locator("#rank-8").inner_text() == middle  # the twelve at 0 did not move
    expect(rows).to_have_count(16)
    assert (200, "none") in answers and not [a for a in answers if a[0] == 200 and a[1] != "none"]  # rows only
    follower.shot("01-rows-changed")

    for session in (1, 2):
        nights.close_session(night, session, scorer)
    expect(follower.page.locator(".night-status")).to_have_text(
        "Final ranking.", timeout=(hall.POLL_SECONDS + 4) * 1000
    )
    expect(follower.page.locator("#rank-1 .night-total")).to_have_text("+22")
    assert answers[-1][0] == 286
    polled = len(answers)
    follower.page.wait_for_timeout((hall.POLL_SECONDS + 1) * 1000)
    assert len(answers) == polled  # the final ranking: the polling stopped
    follower.shot("02-final")
    assert follower.errors == []


@pytest.mark.browser
def test_without_javascript_the_page_shows_the_ranking_and_a_reload_the_new_one(
    browser, live_server, night, clock, scorer
):
    samen(night, clock, scorer)
    clock[0] += hall.TICK_SECONDS
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844}, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/r/{nights.new_ranking_link(night)}/")
        expect(page.locator(".night-ranking tbody tr")).to_have_count(16)
        expect(page.locator("#rank-1 .night-total")).to_have_text("+11")
        samen(night, clock, scorer)
        clock[0] += hall.TICK_SECONDS
        page.reload()
        expect(page.locator("#rank-1 .night-total")).to_have_text("+22")
    finally:
        context.close()
