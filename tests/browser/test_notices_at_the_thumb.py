"""Notices where the thumb is: saved, undo, refusals in the bar at the bottom, announced to
screen readers; delete asks in place, says which later deals are re-seated, offers Undo
right there; per-row buttons are named with their deal; the evening's tools one tap away."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]
DEALS = [  # Anne, Bert, Carl, Dina deal
    {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8},
    {"contract": "alleen-5", "declarers": ["Carl"], "tricks": 5},
    {"contract": "alleen-5", "declarers": ["Dina"], "tricks": 5},
    {"contract": "alleen-5", "declarers": ["Eric"], "tricks": 5},
]


def in_bar(p, locator) -> None:
    expect(locator).to_be_visible()
    assert p.page.locator("#bar").locator(locator).count() or locator.evaluate("el => !!el.closest('#bar')")
    assert p.in_view(locator), "the notice is not at the thumb"


@pytest.mark.browser
def test_it_confirms_a_deletion_in_place_and_offers_undo_at_the_thumb(phone, scorer, make_evening):
    evening = make_evening("kleurenwiezen", FIVE, deals=DEALS, stake=None)
    p = phone(name="notices")
    p.login(scorer.username, next_path=f"/e/{evening.pk}/")
    expect(p.page.get_by_role("link", name="Edit deal 2")).to_have_count(1)
    delete = p.page.locator("#deal-2 details.confirm > summary")
    expect(delete).to_have_accessible_name("Delete deal 2")
    p.tap(delete)
    panel = p.page.locator("#deal-2 .confirm-panel")
    expect(panel).to_contain_text("Delete deal 2?")
    expect(panel).to_contain_text("deal 3 was dealt by Carl, it will be dealt by Bert")
    p.shot("01-confirm")
    assert p.deals_stored(evening.pk) == 4  # nothing deleted before the confirmation
    p.tap(panel.get_by_role("button", name="Delete deal 2"))
    undo = p.page.locator("#bar form.undo")
    expect(undo).to_contain_text("Deal 2 deleted.")
    expect(undo).to_contain_text("deal 2 is now dealt by Bert")
    in_bar(p, undo)
    expect(p.page.locator("#announce")).to_contain_text("Deal 2 deleted.")
    p.page.screenshot(path=str(p.shot("02").with_name("notices-02-undo-screen.png")))
    assert p.deals_stored(evening.pk) == 3
    p.tap(undo.get_by_role("button", name="Undo"))
    expect(p.page.locator("#bar form.undo")).to_have_count(0)
    assert p.deals_stored(evening.pk) == 4
    assert p.errors == []


@pytest.mark.browser
def test_it_says_what_is_missing_at_the_thumb(phone, scorer, make_evening):
    evening = make_evening("kleurenwiezen", FIVE, stake=None)
    p = phone(name="notices-refused")
    p.login(scorer.username, next_path=f"/e/{evening.pk}/")
    p.tap(p.page.locator('#record label.tap:has(input[value="samen-8"])'))
    p.tap(p.page.locator('#record .declarers label.tap:has(input[value="Bert"])'))
    p.tap(p.save_button())
    message = p.page.locator("#bar .msg.error")
    expect(message).to_contain_text("Not saved")
    in_bar(p, message)
    expect(p.page.locator("#record .declarers .field-errors")).to_be_visible()  # and next to the field
    assert p.in_view(p.page.locator("#record .declarers .field-errors"))
    assert p.scrolls == 0
    p.shot("01-refused")


@pytest.mark.browser
def test_it_keeps_the_evenings_tools_one_tap_away(phone, scorer, make_evening):
    evening = make_evening("kleurenwiezen", FIVE, deals=DEALS, stake=None)
    p = phone(name="notices-menu")
    p.login(scorer.username, next_path=f"/e/{evening.pk}/")
    p.page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # anywhere on the page
    p.open_menu()
    menu = p.page.locator("#bar nav.evening-links")
    for name in ("Settle", "Share", "Print", "Chart", "Export", "Français", "Nederlands", "English"):
        item = menu.locator("a, button", has_text=name).first
        expect(item).to_be_visible()
        assert p.in_view(item), name
    p.page.screenshot(path=str(p.shot("01").with_name("notices-menu-01-screen.png")))
