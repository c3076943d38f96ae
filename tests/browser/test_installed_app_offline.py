"""The installed app opens with no network (issue 18, item 2), on the site as deployed.

The manifest's start page (the evening list) is kept by the service worker with the evenings
opened last: opened with no network, the list shows them, and each opens from the phone with its
waiting deals; a reload with no network shows the page again, and a page that is not kept shows
the site's own "No network" page, never the browser's error. A new version of the worker fetches
the pages the old one kept again and drops its caches. Logging out forgets the kept pages."""

import json
import re

import pytest
from playwright.sync_api import expect

FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]
OLD_CACHE = "scorebook-0123456789ab"  # the name the first version of the worker gave its cache


def start_url(p) -> str:
    return p.page.request.get(p.url("/manifest.webmanifest")).json()["start_url"]


def offline_goto(p, path: str):
    """Open an address with no network, as typed or as the installed app opens it: the worker answers."""
    response = p.page.goto(p.url(path))
    assert response is not None and response.ok and response.from_service_worker, path
    return response


@pytest.mark.browser
def test_the_installed_app_opens_its_list_and_the_evenings_kept_with_no_network(
    deployed_phone, deployed_scorer, deployed_evening, deployed, artifacts
):
    first = deployed_evening("kleurenwiezen", FIVE, stake=None)
    third = deployed_evening("kleurenwiezen", ["Jan", "Kris", "Lies", "Mon"], stake=None)
    p = deployed_phone(name="installed-offline")
    p.login(deployed_scorer.username)
    start = start_url(p)
    assert start == "/evenings/"
    # a phone that ran the first version of the worker still has its cache, with an evening's page;
    # the worker (registered from every page: the login page already) is that old version's
    p.page.evaluate(
        """([name, pk]) => caches.open(name).then(c => Promise.all([
             c.put('/static/old.css', new Response('old')),
             c.put(`/e/${pk}/`, new Response('<p>the old copy</p>', {headers: {'Content-Type': 'text/html'}}))]))
           .then(() => navigator.serviceWorker.getRegistrations())
           .then(rs => Promise.all(rs.map(r => r.unregister())))""",
        [OLD_CACHE, third.pk],
    )

    p.goto(f"/e/{first.pk}/")  # the new worker installs, keeps this evening and the list
    p.wait_until_kept()
    p.wait_until_kept(start)
    p.record_contract("samen-8", ["Bert", "Dina"])
    # an evening started after the list was last seen (on another phone): opened once online
    second = deployed_evening("kleurenwiezen", ["Fien", "Gust", "Hilde", "Ivo"], stake=None)
    p.goto(f"/e/{second.pk}/")
    p.wait_until_kept()
    p.wait_for_promise(
        "([start, pk]) => caches.match(start).then(r => r && r.text()).then(t => Boolean(t) && t.includes(`/e/${pk}/`))",
        [start, second.pk],
    )
    # the new worker took over: the old cache dropped, the evening it kept fetched again
    p.wait_for_promise("name => caches.keys().then(names => !names.includes(name))", OLD_CACHE)

    # the network goes; a deal is saved on the phone
    p.goto(f"/e/{first.pk}/")
    p.page.context.set_offline(True)
    form = p.page.locator("#record")
    p.tap(form.locator('label.tap:has(input[value="alleen-5"])'))
    p.tap(form.locator('.declarers label.tap:has(input[value="Carl"])'))
    p.tap(p.save_button())
    expect(p.page.locator("#deals li.waiting")).to_have_count(1)

    # the installed app is opened, with no network: its start page, from the phone
    offline_goto(p, start)
    expect(p.page.get_by_role("heading", name="Evenings")).to_be_visible()
    expect(p.page.locator(f'a[href="/e/{first.pk}/"]:not([data-queue-open])')).to_be_visible()
    expect(p.page.locator(f'a[href="/e/{second.pk}/"]')).to_be_visible()
    # the deal waiting on the phone is listed at the top, with the way to its evening
    expect(p.page.locator("#waiting-elsewhere")).to_contain_text("solo 5 · Carl")
    notice = p.page.locator("#notices .notice")
    expect(notice).to_have_text(
        re.compile(r"^No network: this is the list kept on this phone at \d\d:\d\d\. The evenings you opened lately")
    )
    p.page.screenshot(path=artifacts / "installed-offline-01-list-390x844.png")
    p.page.set_viewport_size({"width": 360, "height": 640})
    p.page.screenshot(path=artifacts / "installed-offline-01-list-360x640.png")
    p.page.set_viewport_size({"width": 390, "height": 844})

    # tapping the evening opens it from the phone, with its deal and the one waiting
    with p.page.expect_navigation():
        p.tap(p.page.locator(f'a[href="/e/{first.pk}/"]:not([data-queue-open])'))
    expect(p.page.locator("#deal-1")).to_be_visible()
    expect(p.page.locator("#deals li.waiting")).to_have_count(1)
    expect(p.page.locator("#queue-note")).to_have_text("1 deal waiting to be sent")
    p.shot("02-evening-from-the-phone")

    # a reload with no network: the page again, not the browser's error page
    p.page.reload()
    expect(p.page.locator("#deal-1")).to_be_visible()
    expect(p.page.locator("#deals li.waiting")).to_have_count(1)
    for pk in (second.pk, third.pk):
        offline_goto(p, f"/e/{pk}/")
        expect(p.page.locator("#board .next")).to_contain_text("Deal 1")
    offline_goto(p, start)
    p.page.reload()
    expect(p.page.locator(f'a[href="/e/{first.pk}/"]:not([data-queue-open])')).to_be_visible()
    expect(notice).to_be_visible()

    # a page not kept: the site's own page, which says so and leads back to the list
    offline_goto(p, "/clubs/")
    expect(p.page.get_by_role("heading", name="No network")).to_be_visible()
    expect(p.page.get_by_role("link", name="Your evenings")).to_be_visible()
    p.shot("03-page-not-kept")

    # the network is back: the waiting deal is sent from the evening's page
    p.page.context.set_offline(False)
    p.goto(f"/e/{first.pk}/")
    expect(p.page.locator("#deals li.waiting")).to_have_count(0, timeout=15_000)
    assert [d["data"]["contract"] for d in deployed.call("deals", evening=first.pk)] == ["samen-8", "alleen-5"]
    assert p.errors == []


@pytest.mark.browser
def test_logging_out_forgets_the_pages_kept_on_the_phone(deployed_phone, deployed_scorer, deployed_evening):
    evening = deployed_evening("kleurenwiezen", FIVE, stake=None)
    p = deployed_phone(name="offline-logout")
    p.login(deployed_scorer.username, next_path=f"/e/{evening.pk}/")
    p.wait_until_kept()
    p.wait_until_kept("/evenings/")
    p.goto("/evenings/")
    with p.page.expect_navigation():
        p.tap(p.page.get_by_role("button", name="Log out"))
    p.page.context.set_offline(True)
    for path in ("/evenings/", f"/e/{evening.pk}/"):
        offline_goto(p, path)
        expect(p.page.get_by_role("heading", name="No network")).to_be_visible()
    kept = p.page.evaluate(
        "() => caches.keys().then(names => Promise.all(names.map(n => caches.open(n).then(c => c.keys()))))"
        ".then(lists => lists.flat().map(r => new URL(r.url).pathname))"
    )
    assert not [path for path in kept if not path.startswith("/static/") and path != "/offline/"], json.dumps(kept)


@pytest.mark.browser
def test_it_keeps_the_last_ten_evenings_opened(deployed_phone, deployed_scorer, deployed_evening):
    evenings = [deployed_evening("kleurenwiezen", FIVE, stake=None).pk for _ in range(11)]
    p = deployed_phone(name="offline-last-ten")
    p.login(deployed_scorer.username, next_path=f"/e/{evenings[0]}/")
    p.wait_until_kept()
    for pk in evenings[1:]:
        p.goto(f"/e/{pk}/")
        p.wait_until_kept()
    kept = (
        "() => caches.keys().then(names => Promise.all(names.map(n => caches.open(n).then(c => c.keys()))))"
        ".then(lists => lists.flat().map(r => new URL(r.url).pathname).filter(p => p.startsWith('/e/')))"
    )
    p.wait_for_promise(f"() => ({kept})().then(paths => paths.length === 10)")
    assert sorted(p.page.evaluate(kept)) == sorted(f"/e/{pk}/" for pk in evenings[1:])
