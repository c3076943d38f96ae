"""Every refusal of a waiting deal keeps the queue in order (issue 18, item 4): two deals saved with
no network; when the network is back the first is refused, the reason in words with a way forward
for whoever holds the phone (never "HTTP 404", a table's phone is sent to the director), and the
second is held behind it, not sent; Correct puts the first back in the form, still holding the
second until it is saved or discarded; then both go, in order, once. Nothing is lost: a refused or
held deal stays on the phone until the scorer discards it. On the site as deployed.

Refusals: the evening closed; closed and reopened; deleted; a night's session closed (a table's
phone); the table's link revoked; the engine's refusal (an impossible deal)."""

import re

import pytest
from playwright.sync_api import expect

FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]
EIGHT = ["Anne", "Bert", "Carl", "Dina", "Emma", "Fien", "Gust", "Hilde"]


def seats(p) -> list[str]:
    return p.page.eval_on_selector_all('#record input[name="declarers"]', "els => els.map(e => e.value)")


def two_waiting(p, first: tuple[str, list[str]], second: tuple[str, list[str]]):
    """Two deals saved with no network; the rows (first saved last in the list: newest on top)."""
    p.wait_until_kept()
    p.page.context.set_offline(True)
    p.tap_deal(*first)
    p.tap_deal(*second)
    rows = p.page.locator("#deals li.waiting")
    expect(rows).to_have_count(2)
    return rows


def refused_first(p, reason: str):
    """Back online: the first is refused with ``reason``, the second held (waiting, not sent)."""
    p.go_online()
    refused = p.page.locator("#deals li.waiting.refused")
    expect(refused).to_have_count(1, timeout=10_000)
    expect(refused.locator(".num")).to_have_text("1")  # the first saved
    expect(refused.locator(".why")).to_contain_text(reason)
    expect(refused.locator(".why")).not_to_contain_text("HTTP")
    expect(p.page.locator("#deals li.waiting")).to_have_count(2)
    p.page.wait_for_timeout(500)
    expect(p.page.locator("#deals li.waiting")).to_have_count(2)  # the second still waits
    return refused


def contracts(deployed, pk) -> list[str]:
    return [d["data"]["contract"] for d in deployed.call("deals", evening=pk)]


@pytest.mark.browser
def test_closed(deployed_phone, deployed_scorer, deployed_evening, deployed):
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(width=360, height=640, name="refused-closed-360")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    two_waiting(p, ("alleen-5", ["Dina"]), ("alleen-6", ["Anne"]))
    deployed.call("set_status", evening=evening.pk, status="closed")
    refused_first(p, "This evening is closed: reopen it to change a deal.")
    p.shot("01-refused")
    assert contracts(deployed, evening.pk) == []
    p.page.reload()  # nothing lost: both still on the phone, in order
    expect(p.page.locator("#deals li.waiting")).to_have_count(2)
    expect(p.page.locator("#deals li.waiting.refused .num")).to_have_text("1")
    # numbered as they will be stored, the closed evening's too (not "1" twice: issue 30)
    expect(p.page.locator("#deals li.waiting .num")).to_have_text(["2", "1"])
    assert p.errors == []


@pytest.mark.browser
def test_closed_and_reopened(deployed_phone, deployed_scorer, deployed_evening, deployed):
    """Correct holds what waits behind the corrected deal until it is saved; then both, in order."""
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(name="refused-reopened")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    two_waiting(p, ("alleen-5", ["Dina"]), ("alleen-6", ["Anne"]))
    deployed.call("set_status", evening=evening.pk, status="closed")
    refused = refused_first(p, "This evening is closed")
    deployed.call("set_status", evening=evening.pk, status="open")
    p.tap(refused.get_by_role("button", name="Correct"))
    form = p.page.locator("#record")
    expect(form.locator('input[value="alleen-5"]')).to_be_checked()
    expect(form.locator('input[name="declarers"][value="Dina"]')).to_be_checked()
    correcting = p.page.locator("#deals li.waiting.correcting")
    expect(correcting.locator(".why")).to_contain_text("Being corrected in the form above")
    # the header shows the corrected deal's place: deal 1, Anne deals and sits out
    expect(p.page.locator("#board .next")).to_contain_text("Deal 1")
    expect(p.page.locator("#board .next")).to_contain_text("Anne deals")
    expect(form.locator(".declarers label.tap.out")).to_have_text(re.compile(r"Anne"))
    p.page.wait_for_timeout(800)
    assert contracts(deployed, evening.pk) == []  # the second is held while the first is corrected
    p.shot("01-correcting")
    p.tap(form.locator('.tricks-side button[data-step="1"]'))  # 6 tricks, not 5
    p.tap(p.save_button())
    expect(p.page.locator("#deals li.waiting")).to_have_count(0, timeout=10_000)
    stored = deployed.call("deals", evening=evening.pk)
    assert [(d["data"]["contract"], d["data"]["tricks"]) for d in stored] == [("alleen-5", 6), ("alleen-6", 6)]
    expect(p.page.locator("#notices")).to_contain_text("The waiting deals were sent.")
    assert p.errors == []


@pytest.mark.browser
def test_deleted(deployed_phone, deployed_scorer, deployed_evening, deployed):
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(name="refused-deleted")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    two_waiting(p, ("alleen-5", ["Dina"]), ("alleen-6", ["Anne"]))
    deployed.call("delete_evening", evening=evening.pk)
    refused = refused_first(p, "it was deleted, or the table’s link was withdrawn")
    p.shot("01-refused")
    # discarded, the next one is tried and refused alike: nothing recorded anywhere, nothing sent twice
    p.tap(refused.get_by_role("button", name="Discard"))
    expect(p.page.locator("#deals li.waiting")).to_have_count(1)
    expect(p.page.locator("#deals li.waiting.refused")).to_have_count(1, timeout=10_000)
    assert p.errors == []


def _table_phone(deployed_phone, deployed_scorer, deployed, name):
    night = deployed.call("night", username=deployed_scorer.username, players=EIGHT)
    pk = night["evenings"][0]
    p = deployed_phone(name=name)
    p.goto(deployed.call("link", evening=pk))  # the table's card: no account
    return night, pk, p


@pytest.mark.browser
def test_session_closed(deployed_phone, deployed_scorer, deployed):
    night, pk, p = _table_phone(deployed_phone, deployed_scorer, deployed, "refused-session-closed")
    names = seats(p)
    two_waiting(p, ("alleen-5", [names[3]]), ("alleen-6", [names[2]]))
    deployed.call("close_session", night=night["night"], number=1, username=deployed_scorer.username)
    refused_first(p, "This table is closed: only the director can reopen it. Ask the director.")
    expect(p.page.locator("#deals li.waiting.refused")).not_to_contain_text("log in")
    p.shot("01-refused")
    assert contracts(deployed, pk) == []
    assert p.errors == []


@pytest.mark.browser
def test_link_revoked(deployed_phone, deployed_scorer, deployed):
    _night, pk, p = _table_phone(deployed_phone, deployed_scorer, deployed, "refused-link-revoked")
    names = seats(p)
    two_waiting(p, ("alleen-5", [names[3]]), ("alleen-6", [names[2]]))
    deployed.call("revoke_links", evening=pk)
    refused_first(p, "ask the director")
    p.shot("01-refused")
    assert contracts(deployed, pk) == []
    assert "/accounts/login/" not in p.page.url
    assert p.errors == []


@pytest.mark.browser
def test_engine_refusal(deployed_phone, deployed_scorer, deployed_evening, deployed):
    """An impossible deal (together with one declarer): refused with the engine's words; corrected,
    it goes first, then the one held behind it."""
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(width=360, height=640, name="refused-engine-360")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    two_waiting(p, ("samen-8", ["Bert"]), ("alleen-6", ["Anne"]))
    refused = refused_first(p, "is played by 2 declarers, not 1")
    refused.scroll_into_view_if_needed()
    p.page.screenshot(path=str(p.shot("01").with_name(f"{p.test_name}-01-refused-screen.png")))
    p.tap(refused.get_by_role("button", name="Correct"))
    form = p.page.locator("#record")
    expect(form.locator('input[value="samen-8"]')).to_be_checked()
    p.tap(form.locator('.declarers label.tap:has(input[value="Dina"])'))
    p.page.screenshot(path=str(p.shot("02").with_name(f"{p.test_name}-02-correcting-screen.png")))
    p.page.wait_for_timeout(500)
    assert contracts(deployed, evening.pk) == []
    p.tap(p.save_button())
    expect(p.page.locator("#deals li.waiting")).to_have_count(0, timeout=10_000)
    assert contracts(deployed, evening.pk) == ["samen-8", "alleen-6"]
    assert p.errors == []
