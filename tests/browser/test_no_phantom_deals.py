"""A double tap records one deal: after a save, Save waits until the scorer makes a new choice
(every variant, and the all pass). The second tap comes 0.6 s after the first, as a finger's.
On the site as deployed (tests/deployed_site.py)."""

import pytest
from playwright.sync_api import expect

FOUR = ["Anne", "Bert", "Carl", "Dina"]


def double_tap_save(p) -> None:
    """Tap Save, and 0.6 s later tap the same spot again (whatever is there by then)."""
    box = p.save_button().bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = p.next_deal_number()
    p.page.touchscreen.tap(x, y)
    p.page.wait_for_timeout(600)
    p.page.touchscreen.tap(x, y)
    p.page.wait_for_function(
        "n => parseInt(document.querySelector('#board .next .deal-no').textContent.match(/\\d+/)[0], 10) === n",
        arg=before + 1,
    )
    p.page.wait_for_timeout(1200)  # time for a phantom second deal to arrive, were there one


@pytest.mark.browser
@pytest.mark.parametrize("variant", ["kleurenwiezen", "encheres", "liege", "gand", "classique"])
def test_it_records_one_deal_for_a_double_tap_on_save(deployed_phone, deployed_scorer, deployed_evening, variant):
    evening = deployed_evening(variant, FOUR, stake=None)
    p = deployed_phone(name=f"phantom-{variant}")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    form = p.page.locator("#record")
    if variant == "classique":
        p.tap(form.locator('.keypad label.tap:has(input[value="7"])'))
    else:
        p.tap(form.locator("label.tap:has(input[name='contract'])").first)
        p.tap(form.locator(".declarers label.tap:has(input[value='Bert'])"))
        p.tap(form.locator(".declarers label.tap:has(input[value='Dina'])"))
    double_tap_save(p)
    assert p.deals_stored(evening.pk) == 1
    expect(p.save_button()).to_be_disabled()
    assert p.page.locator("#board .field-errors, #board .msg.error").count() == 0  # nothing refused either
    # a new choice, and Save records again
    if variant == "classique":
        p.tap(form.locator('.keypad label.tap:has(input[value="8"])'))
    else:
        p.tap(p.page.locator('#record label.tap:has(input[name="contract"][value="pass"])'))
    expect(p.save_button()).to_be_enabled()
    p.save_and_wait(p.save_button())
    assert p.deals_stored(evening.pk) == 2
    assert p.errors == []


@pytest.mark.browser
def test_it_records_one_all_pass_for_a_double_tap(deployed_phone, deployed_scorer, deployed_evening):
    evening = deployed_evening("kleurenwiezen", FOUR, stake=None)
    p = deployed_phone()
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    p.tap(p.page.locator('#record label.tap:has(input[name="contract"][value="pass"])'))
    double_tap_save(p)
    assert p.deals_stored(evening.pk) == 1
    # two all passes in a row are two choices: the second is recorded
    p.record_pass()
    assert p.deals_stored(evening.pk) == 2
    assert p.errors == []
