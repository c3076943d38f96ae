"""Two phones on one evening (issue 18, item 3): a deal saved offline on one phone is never placed
silently where the other phone's deals moved it. It carries the deal number, dealer and evening
version it was entered against; when the network is back and the evening moved meanwhile, the server
refuses it (409) and the phone shows the conflict on its row, in words with both places: the scorer
records it where it would go now (the server checks again) or discards it. Each deal saved behind it
that moved too asks the same on its own row (issue 30); then all are sent in order. Nothing is lost.
On the site as deployed."""

import pytest
from playwright.sync_api import expect

FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]


@pytest.mark.browser
@pytest.mark.parametrize("size", [(390, 844), (360, 640)])
def test_it_shows_a_waiting_deal_in_conflict_with_another_phone_and_lets_the_scorer_choose(
    deployed_phone, deployed_scorer, deployed_evening, deployed, size
):
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    width, height = size
    a = deployed_phone(width=width, height=height, name=f"conflict-{width}-phone-a")
    b = deployed_phone(width=width, height=height, name=f"conflict-{width}-phone-b")
    for p in (a, b):
        p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    a.wait_until_kept()
    a.record_contract("samen-8", ["Bert", "Dina"])  # deal 1, Anne dealt; Bert deals (and sits out) deal 2

    # phone A loses the network and saves two deals: deal 2 (Bert deals), deal 3 (Carl deals)
    a.page.context.set_offline(True)
    a.tap_deal("alleen-5", ["Dina"])
    a.tap_deal("alleen-6", ["Anne"])
    waiting = a.page.locator("#deals li.waiting")
    expect(waiting).to_have_count(2)
    expect(a.page.locator("#totals .provisional-note")).to_have_text("Not counting 2 waiting deals")

    # meanwhile phone B records deal 2
    b.page.reload()
    b.record_contract("samen-8", ["Anne", "Carl"])
    assert a.deals_stored(evening.pk) == 2

    # A's network is back: no waiting deal is placed; each says where it was entered and where it
    # would go now (issue 30: the one behind the first moved too, and is asked for on its own)
    a.go_online()
    conflict = a.page.locator("#deals li.waiting.conflict")
    expect(conflict).to_have_count(2, timeout=10_000)
    first, second = (a.page.locator(f'#deals li.waiting[data-entered="{n}"]') for n in (2, 3))
    why = first.locator(".why")
    expect(why).to_contain_text("This deal was entered as deal 2, dealt by Bert.")
    expect(why).to_contain_text("it would now be deal 3, dealt by Carl. Sits out: Carl.")
    expect(second.locator(".why")).to_contain_text("This deal was entered as deal 3, dealt by Carl.")
    expect(second.locator(".why")).to_contain_text("it would now be deal 4, dealt by Dina. Sits out: Dina.")
    expect(a.page.locator("#deal-2")).to_be_visible()  # B's deal, on A's page too
    expect(a.page.locator("#queue-note")).to_contain_text("changed on another phone")
    assert a.deals_stored(evening.pk) == 2
    expect(a.page.locator("#board .next")).to_contain_text("Deal 5")
    a.page.wait_for_timeout(300)
    first.scroll_into_view_if_needed()
    a.shot("01-conflict")
    a.page.screenshot(path=str(a.shot("01").with_name(f"conflict-{width}-01-conflict-screen.png")))

    # each recorded where confirmed: deal 3, then deal 4, in order, once each
    resend = first.get_by_role("button", name="Record it as deal 3")
    expect(resend).to_be_visible()
    a.tap(resend)
    a.tap(second.get_by_role("button", name="Record it as deal 4"))
    expect(waiting).to_have_count(0, timeout=10_000)
    stored = deployed.call("deals", evening=evening.pk)
    assert [(d["data"]["contract"], d["data"].get("declarers")) for d in stored] == [
        ("samen-8", ["Bert", "Dina"]),
        ("samen-8", ["Anne", "Carl"]),
        ("alleen-5", ["Dina"]),
        ("alleen-6", ["Anne"]),
    ]
    expect(a.page.locator("#deal-4")).to_be_visible()
    a.shot("02-recorded-as-next")
    assert a.errors == [] and b.errors == []


@pytest.mark.browser
def test_it_discards_a_waiting_deal_in_conflict_and_sends_the_one_behind_it(
    deployed_phone, deployed_scorer, deployed_evening, deployed
):
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    a = deployed_phone(name="conflict-discard-a")
    b = deployed_phone(name="conflict-discard-b")
    for p in (a, b):
        p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    a.wait_until_kept()
    a.page.context.set_offline(True)
    a.tap_deal("alleen-5", ["Dina"])  # deal 1, Anne deals
    a.tap_deal("alleen-6", ["Carl"])  # deal 2, Bert deals
    b.page.reload()
    b.record_contract("alleen-5", ["Dina"])  # the same deal, recorded by the other phone
    a.go_online()
    conflict = a.page.locator('#deals li.waiting.conflict[data-entered="1"]')
    expect(conflict).to_have_count(1, timeout=10_000)
    expect(conflict.locator(".why")).to_contain_text("it would now be deal 2, dealt by Bert")
    a.tap(conflict.get_by_role("button", name="Discard"))
    # the one behind it was entered as deal 2, dealt by Bert: where it goes now
    expect(a.page.locator("#deals li.waiting")).to_have_count(0, timeout=10_000)
    stored = deployed.call("deals", evening=evening.pk)
    assert [(d["data"]["contract"], d["data"].get("declarers")) for d in stored] == [
        ("alleen-5", ["Dina"]),
        ("alleen-6", ["Carl"]),
    ]
    assert a.errors == [] and b.errors == []


@pytest.mark.browser
def test_it_shows_the_conflict_to_a_phone_saving_online_on_an_old_page(
    deployed_phone, deployed_scorer, deployed_evening, deployed
):
    """Online too: a page that still shows deal 2 while another phone recorded it does not record
    silently at deal 3; the board shows the evening now, the deal back in the form, both places in
    words; Save records it as deal 3."""
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    a = deployed_phone(name="conflict-online-a")
    b = deployed_phone(name="conflict-online-b")
    for p in (a, b):
        p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    b.record_contract("samen-8", ["Bert", "Dina"])
    form = a.page.locator("#record")
    a.tap(form.locator('label.tap:has(input[value="alleen-5"])'))
    a.tap(form.locator('.declarers label.tap:has(input[value="Dina"])'))
    a.tap(a.save_button())
    expect(a.page.locator("#notices")).to_contain_text("it would now be deal 2, dealt by Bert", timeout=10_000)
    expect(a.page.locator("#notices")).to_contain_text("This deal was entered as deal 1, dealt by Anne.")
    expect(a.page.locator("#deal-1")).to_be_visible()
    expect(form.locator('input[value="alleen-5"]')).to_be_checked()
    assert a.deals_stored(evening.pk) == 1
    a.shot("01-conflict-online")
    a.save_and_wait(a.save_button())
    assert a.deals_stored(evening.pk) == 2
    assert a.errors == [] and b.errors == []
