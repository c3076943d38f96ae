"""A waiting deal is never lost or moved, whatever the scorer does next (issue 30), on the site as
deployed, with two phones where it matters:

- Correct, then a reload: the correction comes back as it was; Save stores it once, nothing moves;
- a conflict with two deals queued behind it: each of the three shows its own old and new place,
  is confirmed on its own, and is recorded where it was confirmed;
- logged out while a deal waits: it stays on its row (never a login page in the board); after
  logging in again the queue is sent without another tap;
- the table's link revoked: the waiting deal is still shown after a reload, and can be discarded;
- Back after the waiting deals were sent shows the whole page (the fragment and the page of one
  address vary on HX-Request);
- a refused deal in one evening does not hold another evening's deals;
- the settlement page, visited once, opens with no network, marked with when it was kept.
"""

import pytest
from playwright.sync_api import expect

FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]
EIGHT = ["Anne", "Bert", "Carl", "Dina", "Emma", "Fien", "Gust", "Hilde"]


def stored(deployed, pk) -> list[tuple]:
    return [(d["data"].get("contract"), d["data"].get("declarers")) for d in deployed.call("deals", evening=pk)]


@pytest.mark.browser
def test_it_brings_a_correction_back_after_a_reload_and_stores_it_once(
    deployed_phone, deployed_scorer, deployed_evening, deployed
):
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(name="kept-correct-reload")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    p.wait_until_kept()
    p.go_offline()
    p.tap_deal("samen-8", ["Bert"])  # deal 1: impossible (together needs two declarers)
    p.tap_deal("alleen-6", ["Anne"])  # deal 2, held behind it
    p.go_online()
    refused = p.page.locator("#deals li.waiting.refused")
    expect(refused).to_have_count(1, timeout=10_000)
    p.tap(refused.get_by_role("button", name="Correct"))
    form = p.page.locator("#record")
    p.tap(form.locator('.declarers label.tap:has(input[value="Dina"])'))  # the second declarer
    p.page.reload()
    # the correction is back in the form as it was, in its place: deal 1, Anne deals
    expect(form.locator('input[value="samen-8"]')).to_be_checked()
    expect(form.locator('input[name="declarers"][value="Bert"]')).to_be_checked()
    expect(form.locator('input[name="declarers"][value="Dina"]')).to_be_checked()
    expect(p.page.locator("#board .next")).to_contain_text("Deal 1")
    expect(p.page.locator("#board .next")).to_contain_text("Anne deals")
    expect(p.page.locator("#deals li.waiting.correcting")).to_have_count(1)
    p.shot("01-reloaded-while-correcting")
    p.page.screenshot(path=str(p.shot("01").with_name(f"{p.test_name}-01-screen.png")))
    p.tap(p.save_button())
    expect(p.page.locator("#deals li.waiting")).to_have_count(0, timeout=10_000)
    assert stored(deployed, evening.pk) == [("samen-8", ["Bert", "Dina"]), ("alleen-6", ["Anne"])]
    assert p.errors == []


@pytest.mark.browser
@pytest.mark.parametrize("size", [(390, 844), (360, 640)])
def test_it_asks_for_each_deal_behind_a_conflict_and_records_each_where_confirmed(
    deployed_phone, deployed_scorer, deployed_evening, deployed, size
):
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    width, height = size
    a = deployed_phone(width=width, height=height, name=f"kept-three-conflicts-{width}-a")
    b = deployed_phone(width=width, height=height, name=f"kept-three-conflicts-{width}-b")
    for p in (a, b):
        p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    a.wait_until_kept()
    # phone A, with no network: deal 1 (Anne deals), deal 2 (Bert deals), deal 3 (Carl deals and sits out)
    a.go_offline()
    a.tap_deal("alleen-5", ["Dina"])
    a.tap_deal("alleen-6", ["Anne"])
    a.tap_deal("alleen-5", ["Eric"])
    expect(a.page.locator("#deals li.waiting")).to_have_count(3)
    b.record_contract("samen-8", ["Bert", "Dina"])  # meanwhile phone B records deal 1
    a.go_online()
    moved = a.page.locator("#deals li.waiting.conflict")
    expect(moved).to_have_count(3, timeout=10_000)
    # each row its own places, in words: entered as deal n (dealer), now deal n + 1 (the next dealer)
    expected = [
        ("This deal was entered as deal 1, dealt by Anne", "it would now be deal 2, dealt by Bert"),
        ("This deal was entered as deal 2, dealt by Bert", "it would now be deal 3, dealt by Carl"),
        ("This deal was entered as deal 3, dealt by Carl", "it would now be deal 4, dealt by Dina"),
    ]
    rows = [a.page.locator(f'#deals li.waiting[data-entered="{n}"]') for n in (1, 2, 3)]
    for row, (was, now) in zip(rows, expected, strict=True):
        expect(row.locator(".why")).to_contain_text(was)
        expect(row.locator(".why")).to_contain_text(now)
    expect(rows[1].locator(".why")).to_contain_text("Sits out: Carl")  # deal 3 now: Carl deals and sits out
    expect(rows[2].locator(".why")).to_contain_text("Sits out: Dina")
    a.page.wait_for_timeout(500)
    assert a.deals_stored(evening.pk) == 1  # nothing placed before the scorer says so
    a.page.screenshot(path=str(a.shot("01").with_name(f"{a.test_name}-01-three-conflicts-screen.png")))
    a.shot("01-three-conflicts")
    from axe_playwright_python.sync_playwright import Axe

    serious = [v["id"] for v in Axe().run(a.page).response["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []
    taps, scrolls = a.taps, a.scrolls
    for n, row in zip((2, 3, 4), rows, strict=True):
        a.tap(row.get_by_role("button", name=f"Record it as deal {n}"))
        # as a person: the row leaves its conflict (on its way, or recorded) before the next tap
        expect(a.page.locator(f'#deals li.waiting.conflict[data-entered="{n - 1}"]')).to_have_count(0, timeout=10_000)
    expect(a.page.locator("#deals li.waiting")).to_have_count(0, timeout=15_000)
    a.log_taps(f"three_conflicts_confirmed_{width}", a.taps - taps)
    a.log_taps(f"three_conflicts_scrolls_{width}", a.scrolls - scrolls)
    assert a.taps - taps == 3
    rows_stored = deployed.call("deals", evening=evening.pk)
    assert [(d["number"], d["data"]["contract"], d["data"]["declarers"]) for d in rows_stored] == [
        (1, "samen-8", ["Bert", "Dina"]),
        (2, "alleen-5", ["Dina"]),
        (3, "alleen-6", ["Anne"]),
        (4, "alleen-5", ["Eric"]),
    ]
    expect(a.page.locator("#deal-4")).to_be_visible()
    a.shot("02-recorded")
    assert a.errors == [] and b.errors == []


@pytest.mark.browser
def test_it_keeps_the_deal_through_a_logout_and_sends_it_after_the_login(
    deployed_phone, deployed_scorer, deployed_evening, deployed
):
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(name="kept-logged-out")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    p.wait_until_kept()
    p.page.context.clear_cookies(name="sessionid")  # the session ended (logged out elsewhere, or expired)
    p.tap_deal("alleen-5", ["Dina"])  # online, logged out: kept, never a login page inside the board
    row = p.page.locator("#deals li.waiting")
    expect(row).to_have_count(1, timeout=10_000)
    expect(row.locator(".why")).to_contain_text("You were logged out")
    expect(p.page.locator("#board form[action*='login']")).to_have_count(0)
    expect(p.page.locator("#board input[name='password']")).to_have_count(0)
    p.shot("01-logged-out")
    assert stored(deployed, evening.pk) == []
    p.tap(row.get_by_role("link", name="Log in"))
    p.submit_login(deployed_scorer.username)
    # back on the evening: sent without another tap
    expect(p.page.locator("#deals li.waiting")).to_have_count(0, timeout=10_000)
    assert stored(deployed, evening.pk) == [("alleen-5", ["Dina"])]
    assert p.errors == []


@pytest.mark.browser
def test_it_still_shows_a_waiting_deal_after_the_tables_link_is_revoked(deployed_phone, deployed_scorer, deployed):
    night = deployed.call("night", username=deployed_scorer.username, players=EIGHT)
    pk = night["evenings"][0]
    p = deployed_phone(name="kept-link-revoked")
    p.goto(deployed.call("link", evening=pk))  # the table's card: no account
    names = p.page.eval_on_selector_all('#record input[name="declarers"]', "els => els.map(e => e.value)")
    p.wait_until_kept()
    p.go_offline()
    p.tap_deal("alleen-5", [names[2]])
    deployed.call("revoke_links", evening=pk)
    p.go_online()
    expect(p.page.locator("#deals li.waiting.refused")).to_have_count(1, timeout=10_000)
    p.page.reload()  # the page is no longer this phone's: the deal is still shown, with what to do
    panel = p.page.locator("#waiting-elsewhere")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("solo 5")
    expect(panel.get_by_role("button", name="Copy")).to_be_visible()
    p.shot("01-revoked")
    from axe_playwright_python.sync_playwright import Axe

    serious = [v["id"] for v in Axe().run(p.page).response["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []
    p.tap(panel.get_by_role("button", name="Discard"))
    expect(panel).to_be_hidden()
    assert p.page.evaluate("() => JSON.parse(localStorage.getItem('scorebook-queue') || '[]').length") == 0
    assert stored(deployed, pk) == []
    assert p.errors == []


@pytest.mark.browser
def test_back_after_the_waiting_deals_were_sent_shows_the_whole_page(
    deployed_phone, deployed_scorer, deployed_evening, deployed
):
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(name="kept-back")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    p.wait_until_kept()
    p.go_offline()
    p.tap_deal("alleen-5", ["Dina"])
    p.go_online()
    expect(p.page.locator("#notices")).to_contain_text("The waiting deals were sent.", timeout=10_000)
    p.open_menu()
    with p.page.expect_navigation():
        p.tap(p.page.get_by_role("link", name="Settle"))
    p.page.go_back()
    expect(p.page.locator("header.topbar")).to_be_visible()
    expect(p.page.locator("#deal-1")).to_be_visible()
    assert p.page.evaluate("() => getComputedStyle(document.body).margin") == "0px"  # the stylesheet
    assert p.errors == []


@pytest.mark.browser
def test_a_refused_deal_in_one_evening_does_not_hold_another_evening(
    deployed_phone, deployed_scorer, deployed_evening, deployed
):
    first = deployed_evening("kleurenwiezen", FIVE, stake=None)
    second = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(name="kept-other-evening")
    p.login(deployed_scorer.username, next_path=f"/e/{first.pk}/")
    p.wait_until_kept()
    p.goto(f"/e/{second.pk}/")
    p.wait_until_kept()
    p.goto(f"/e/{first.pk}/")
    p.go_offline()
    p.tap_deal("alleen-5", ["Dina"])
    p.tap_deal("alleen-6", ["Anne"])
    # closed while its deals wait on the phone, before the phone opens another page: a page Chromium
    # has just opened may send once before its emulated network is cut (a request a real phone with
    # no network could not make), and the evening must already refuse it then
    deployed.call("set_status", evening=first.pk, status="closed")
    p.page.goto(p.url(f"/e/{second.pk}/"))
    p.page.wait_for_function("() => !navigator.onLine")
    p.tap_deal("alleen-5", ["Carl"])
    p.go_online()
    expect(p.page.locator("#deals li.waiting")).to_have_count(0, timeout=10_000)
    assert stored(deployed, second.pk) == [("alleen-5", ["Carl"])]
    assert stored(deployed, first.pk) == []
    # the first evening's two deals wait on the phone, the refusal on the first
    p.goto(f"/e/{first.pk}/")
    expect(p.page.locator("#deals li.waiting")).to_have_count(2)
    expect(p.page.locator("#deals li.waiting.refused .why")).to_contain_text("This evening is closed")
    assert p.errors == []


@pytest.mark.browser
def test_the_settlement_page_opens_with_no_network_after_one_visit(
    deployed_phone, deployed_scorer, deployed_evening, deployed
):
    evening = deployed_evening(
        "kleurenwiezen", FIVE, stake="0.10", deals=[{"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8}]
    )
    p = deployed_phone(name="kept-settlement")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    p.wait_until_kept()
    p.open_menu()
    with p.page.expect_navigation():
        p.tap(p.page.get_by_role("link", name="Settle"))
    online = p.settlement_lines()
    p.wait_until_kept()
    p.go_offline()
    p.page.reload()
    expect(p.page.locator("#notices")).to_contain_text("No network: this is the settlement kept on this phone")
    assert p.settlement_lines() == online
    p.shot("01-settlement-offline")
    p.page.goto(p.url(f"/e/{evening.pk}/"))  # and back to the evening, with no network
    expect(p.page.locator("#deal-1")).to_be_visible()
    assert p.errors == []


@pytest.mark.browser
def test_a_late_arrival_keeps_the_cards_of_the_tables_that_keep_their_players(
    deployed_phone, deployed_scorer, deployed
):
    """The director adds a late arrival from her phone; the cards printed before still open the
    tables that kept their players (most of them), and only the others say they were replaced."""
    night = deployed.call("night", username=deployed_scorer.username, players=[f"P{n:02d}" for n in range(1, 17)])
    cards = deployed.call("table_cards", night=night["night"], session=2)
    director = deployed_phone(name="kept-late-arrival")
    director.login(deployed_scorer.username, next_path=f"/nights/{night['night']}/")
    director.tap(director.page.locator(".night-changes > summary"))
    director.page.fill("#id_late_name", "Zoë")
    with director.page.expect_navigation():
        director.tap(director.page.get_by_role("button", name="Add the late arrival"))
    reprint = director.page.locator(".night-reprint li")
    expect(reprint.first).to_be_visible()
    director.shot("01-reprint")
    table = deployed_phone(name="kept-late-arrival-table")
    kept = []
    for number, path in sorted(cards.items()):
        answer = table.page.goto(table.url(path))
        if answer.status == 200:
            expect(table.page.locator("#record")).to_be_visible()
            kept.append(number)
        else:
            assert answer.status == 410 and "This card was replaced" in table.page.content()
    assert len(kept) >= 2, kept  # 16 -> 17 players: the newcomer's table changes, most keep theirs
    listed = reprint.all_inner_texts()
    assert not [t for t in listed if any(f"Table {n} · session 2" == t.strip() for n in kept)]
    assert director.errors == []
