"""The network drops at the table: nothing is lost. After one visit the scoring page loads
with no network (service worker); a deal saved offline is kept on the phone, shown at once
as waiting with a count, who deals next moves on, the totals are marked provisional; a
reload offline still shows it; when the network is back it is sent by itself, in order,
each exactly once. A waiting deal the server refuses says why and offers Correct / Discard.

All against the site as deployed (tests/deployed_site.py): the worker, the static files and the
pages as a phone gets them from gunicorn with DEBUG=false and the manifest storage."""

import re

import pytest
from playwright.sync_api import expect

FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]


def kept_offline(p) -> None:
    """Wait until the service worker runs and keeps this page for offline use."""
    p.wait_until_kept()


@pytest.mark.browser
def test_it_keeps_deals_saved_offline_and_sends_them_once_when_the_network_is_back(
    deployed_phone, deployed_scorer, deployed_evening, deployed
):
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(name="offline")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    kept_offline(p)
    p.record_contract("samen-8", ["Bert", "Dina"])  # online: Anne dealt, Bert deals next
    assert p.deals_stored(evening.pk) == 1

    p.page.context.set_offline(True)
    form = p.page.locator("#record")
    # deal 2 (Bert deals, sits out): alleen 5 by Carl, saved with no network
    p.tap(form.locator('label.tap:has(input[value="alleen-5"])'))
    p.tap(form.locator('.declarers label.tap:has(input[value="Carl"])'))
    p.tap(p.save_button())
    waiting = p.page.locator("#deals li.waiting")
    expect(waiting).to_have_count(1)
    expect(waiting.first).to_contain_text("solo 5 · Carl · 5")
    expect(waiting.first.locator(".num")).to_have_text("2")
    expect(p.page.locator("#queue-note")).to_have_text("1 deal waiting to be sent")
    expect(p.page.locator("#notices")).to_contain_text("No network")
    expect(p.page.locator("#totals")).to_have_class(re.compile(r"\bprovisional\b"))
    # who deals next moved on, from the rotation the server sent: Carl deals deal 3 and sits out
    expect(p.page.locator("#board .next")).to_contain_text("Deal 3")
    expect(p.page.locator("#board .next")).to_contain_text("Carl deals")
    expect(p.page.locator("#board .next")).to_contain_text("sits out: Carl")
    expect(form.locator(".declarers label.tap.out")).to_have_text(re.compile(r"Carl"))
    # deal 3: an all pass, offline too; Carl deals again
    p.tap(form.locator('label.tap:has(input[name="contract"][value="pass"])'))
    p.tap(p.save_button())
    expect(waiting).to_have_count(2)
    expect(p.page.locator("#queue-note")).to_have_text("2 deals waiting to be sent")
    expect(p.page.locator("#board .next")).to_contain_text("Carl deals")
    p.shot("01-two-waiting")
    p.page.screenshot(path=str(p.shot("01").with_name("offline-01-two-waiting-screen.png")))
    assert p.deals_stored(evening.pk) == 1

    # reload with no network: the evening and the waiting deals are still there
    p.page.reload()
    expect(p.page.locator("#board .totals")).to_be_visible()
    expect(p.page.locator("#deals li.waiting")).to_have_count(2)
    expect(p.page.locator("#deal-1")).to_be_visible()
    expect(p.page.locator("#queue-note")).to_have_text("2 deals waiting to be sent")
    p.shot("02-reloaded-offline")

    # the network is back: sent by themselves, in order, once
    p.page.context.set_offline(False)
    p.page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(p.page.locator("#deals li.waiting")).to_have_count(0, timeout=10_000)
    expect(p.page.locator("#deal-3 .desc")).to_have_text("All pass")
    expect(p.page.locator("#deal-2 .desc")).to_contain_text("solo 5 · Carl")
    expect(p.page.locator("#notices")).to_contain_text("The waiting deals were sent.")
    expect(p.page.locator("#totals")).not_to_have_class(re.compile(r"\bprovisional\b"))
    stored = deployed.call("deals", evening=evening.pk)
    assert [d["data"].get("contract") for d in stored] == ["samen-8", "alleen-5", "pass"]
    assert len({d["request_key"] for d in stored}) == 3
    p.shot("03-sent")
    # a reload sends nothing again
    p.page.reload()
    p.page.wait_for_timeout(800)
    assert p.deals_stored(evening.pk) == 3
    assert p.errors == []


@pytest.mark.browser
def test_it_shows_why_a_waiting_deal_was_refused_and_offers_to_correct_or_discard_it(
    deployed_phone, deployed_scorer, deployed_evening, deployed
):
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(name="offline-refused")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    kept_offline(p)
    p.page.context.set_offline(True)
    form = p.page.locator("#record")
    p.tap(form.locator('label.tap:has(input[value="samen-8"])'))
    p.tap(form.locator('.declarers label.tap:has(input[value="Bert"])'))
    p.tap(form.locator('.declarers label.tap:has(input[value="Dina"])'))
    p.tap(p.save_button())
    expect(p.page.locator("#deals li.waiting")).to_have_count(1)

    # meanwhile someone closed the evening from another phone
    deployed.call("set_status", evening=evening.pk, status="closed")
    p.page.context.set_offline(False)
    p.page.evaluate("() => window.dispatchEvent(new Event('online'))")
    refused = p.page.locator("#deals li.waiting.refused")
    expect(refused).to_have_count(1, timeout=10_000)
    expect(refused.locator(".why")).to_contain_text("This evening is closed")
    expect(p.page.locator("#queue-note")).to_contain_text("refused")
    expect(refused.get_by_role("button", name="Correct")).to_be_visible()
    p.shot("01-refused")
    assert p.deals_stored(evening.pk) == 0

    # reopened: Correct puts the deal back in the form; saved, it is recorded once
    deployed.call("set_status", evening=evening.pk, status="open")
    p.page.reload()
    refused = p.page.locator("#deals li.waiting.refused")
    expect(refused).to_have_count(1)
    p.tap(refused.get_by_role("button", name="Correct"))
    expect(p.page.locator("#deals li.waiting.correcting")).to_have_count(1)  # in its place until saved
    expect(form.locator('input[value="samen-8"]')).to_be_checked()
    expect(form.locator('input[name="declarers"][value="Dina"]')).to_be_checked()
    p.shot("02-corrected")
    p.tap(p.save_button())  # the header already counted it: deal 2 next, before and after
    expect(p.page.locator("#deals li.waiting")).to_have_count(0, timeout=10_000)
    expect(p.page.locator("#deal-1")).to_be_visible()
    assert p.deals_stored(evening.pk) == 1

    # a second one refused, discarded: gone, nothing recorded
    p.page.context.set_offline(True)
    p.tap(form.locator('label.tap:has(input[value="alleen-5"])'))
    p.tap(form.locator('.declarers label.tap:has(input[value="Carl"])'))
    p.tap(p.save_button())
    deployed.call("set_status", evening=evening.pk, status="closed")
    p.page.context.set_offline(False)
    p.page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(p.page.locator("#deals li.waiting.refused")).to_have_count(1, timeout=10_000)
    p.tap(p.page.locator("#deals li.waiting.refused").get_by_role("button", name="Discard"))
    expect(p.page.locator("#deals li.waiting")).to_have_count(0)
    assert p.deals_stored(evening.pk) == 1
    assert p.errors == []


@pytest.mark.browser
def test_it_says_what_the_offline_totals_leave_out_and_moves_the_sitting_out_mark_on(
    deployed_phone, deployed_scorer, deployed_evening, deployed
):
    """Offline, the totals say how many waiting deals they do not count; who sits out is marked on
    the totals as in the header (both move on with the waiting deals); the "No network" notice goes
    when the network is back."""
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(name="offline-totals")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    kept_offline(p)
    chip = p.page.locator("#totals .chip")
    expect(chip.filter(has_text="Anne")).to_have_class(re.compile(r"\bout\b"))  # Anne deals deal 1, sits out
    p.page.context.set_offline(True)
    form = p.page.locator("#record")
    p.tap(form.locator('label.tap:has(input[value="alleen-5"])'))
    p.tap(form.locator('.declarers label.tap:has(input[value="Carl"])'))
    p.tap(p.save_button())
    note = p.page.locator("#totals .provisional-note")
    expect(note).to_have_text("Not counting 1 waiting deal")
    expect(p.page.locator("#notices")).to_contain_text("No network")
    expect(p.page.locator("#board .next")).to_contain_text("sits out: Bert")
    expect(chip.filter(has_text="Bert")).to_have_class(re.compile(r"\bout\b"))
    expect(chip.filter(has_text="Anne")).not_to_have_class(re.compile(r"\bout\b"))
    p.tap(form.locator('label.tap:has(input[value="alleen-6"])'))
    p.tap(form.locator('.declarers label.tap:has(input[value="Dina"])'))
    p.tap(p.save_button())
    expect(note).to_have_text("Not counting 2 waiting deals")
    expect(chip.filter(has_text="Carl")).to_have_class(re.compile(r"\bout\b"))
    p.shot("01-not-counting")
    p.page.context.set_offline(False)
    p.page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(p.page.locator("#deals li.waiting")).to_have_count(0, timeout=10_000)
    expect(p.page.locator("#notices")).not_to_contain_text("No network")
    expect(note).to_be_hidden()
    expect(chip.filter(has_text="Carl")).to_have_class(re.compile(r"\bout\b"))  # deal 3: Carl deals
    assert p.deals_stored(evening.pk) == 2
    assert p.errors == []
