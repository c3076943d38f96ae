"""The read-only link: a second phone without an account follows the score live."""

import re
import time

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Anne", "Bert", "Carl", "Dina", "Eric"]


@pytest.mark.browser
def test_the_public_page_shows_a_new_deal_within_6_seconds_without_reloading(phone, scorer, make_evening):
    evening = make_evening("kleurenwiezen", PLAYERS)
    owner = phone(name="public_link-owner")
    owner.login(scorer.username, next_path=f"/e/{evening.pk}/")

    # the owner finds the link on the share page, through the scoring page's link
    owner.open_menu()
    with owner.page.expect_navigation():
        owner.tap(owner.page.locator("nav.evening-links a", has_text="Share"))
    assert owner.page.url.endswith(f"/e/{evening.pk}/share/")
    # the link is kept only as a digest: the owner makes a new one, shown this once
    with owner.page.expect_navigation():
        owner.tap(owner.page.get_by_role("button", name=re.compile("Make")))
    link = owner.page.locator("#share-url").input_value()
    assert link.startswith(owner.url("/s/")) and link != owner.url(f"/s/{evening.share_token}/")
    expect(owner.page.locator("svg.qr-code")).to_be_visible()
    owner.shot("01-share-page")

    # a friend at the bar opens it on his own phone: no login
    friend = phone(name="public_link-friend")
    response = friend.page.goto(link)
    assert response.ok
    assert "/accounts/login/" not in friend.page.url
    assert friend.page.get_by_role("button", name="Log out").count() == 0
    totals = friend.page.locator("#live .sb-totals")
    expect(friend.page.locator("#live .sb-count").first).to_have_text("after 0 deals")
    friend.shot("02-public-before")
    friend.page.evaluate("window.__notReloaded = 'still the same page'")
    navigations = []
    friend.page.on(
        "framenavigated", lambda frame: navigations.append(frame.url) if frame.parent_frame is None else None
    )

    # the owner records samen 8 made exactly: Bert and Dina +8, Carl and Eric -8 (Anne deals, sits out)
    owner.goto(f"/e/{evening.pk}/")
    owner.record_contract("samen-8", ["Bert", "Dina"])
    assert owner.chips() == {"Anne": 0, "Bert": 8, "Carl": -8, "Dina": 8, "Eric": -8}
    recorded_at = time.monotonic()

    def points_of(name):
        return totals.locator(
            ".sb-total", has=friend.page.locator(".sb-name", has_text=re.compile(rf"^{name}$"))
        ).locator(".sb-points")

    expect(points_of("Bert")).to_have_text("+8", timeout=6_000)
    waited = time.monotonic() - recorded_at
    assert waited <= 6.0
    expect(points_of("Dina")).to_have_text("+8")
    expect(points_of("Carl")).to_have_text("−8")
    expect(points_of("Eric")).to_have_text("−8")
    expect(points_of("Anne")).to_have_text("0")
    expect(friend.page.locator("#live .sb-count").first).to_have_text("after 1 deal")
    expect(friend.page.locator("#live .sb-deals .sb-deal")).to_have_count(1)
    friend.shot("03-public-after")

    # the same page, updated in place: the variable set before the wait survived
    assert friend.page.evaluate("window.__notReloaded") == "still the same page"
    assert navigations == []
    assert friend.page.url == link
    # and it is read-only: no form, no edit link
    assert friend.page.locator("#live form, #live a[href*='/edit/']").count() == 0
    assert owner.errors == [] and friend.errors == []
