"""The scoring flow as a phone gets it from the site deployed as docs/operating.md says (issue 18, item 1):
DEBUG=false, collectstatic with whitenoise's manifest storage, gunicorn with the guide's command
(tests/deployed_site.py). Every page and every file of the flow answers, none with a server error:
the login, the evening list, a new evening, the scoring page and a deal recorded, the settlement,
the service worker, the manifest and its icons. (Before, /sw.js answered 500 on every request
there: the development storage of the other tests accepts ``static("")``, the manifest storage
refuses it.)"""

import re

import pytest
from playwright.sync_api import expect

PLAYERS = ["Anne", "Bert", "Carl", "Dina"]
HASHED = re.compile(r"^/static/.+\.[0-9a-f]{12}\.\w+$")  # the manifest storage's served names


@pytest.mark.browser
def test_it_serves_every_page_and_file_of_the_scoring_flow(deployed_phone, deployed_scorer, deployed):
    p = deployed_phone(name="deployed-flow")
    context = p.page.context
    answers: list[tuple[int, str]] = []
    failed: list[str] = []
    context.on("response", lambda r: answers.append((r.status, r.url.removeprefix(p.base_url))))
    context.on("requestfailed", lambda r: failed.append(f"{r.url} {r.failure}"))

    p.login(deployed_scorer.username)  # the login page, then the evening list
    expect(p.page.get_by_role("heading", name="Evenings")).to_be_visible()
    p.tap(p.page.get_by_role("link", name="New evening"))
    p.page.wait_for_url(re.compile(r"/evenings/new/$"))
    p.tap(p.page.locator('label.tap:has(input[name="ruleset"][value="kleurenwiezen"])'))
    for seat, name in enumerate(PLAYERS):
        p.page.locator(f'input[name="player_{seat}"]').fill(name)
    with p.page.expect_navigation():
        p.tap(p.page.get_by_role("button", name="Start the evening"))
    pk = int(re.search(r"/e/(\d+)/$", p.page.url).group(1))
    p.wait_until_kept()  # the worker installed: its files and pages fetched
    p.record_contract("samen-8", ["Bert", "Dina"])
    assert p.deals_stored(pk) == 1
    p.goto(f"/e/{pk}/settle/")
    p.goto("/offline/")

    # the worker: served at the root (its scope is the whole site), as JavaScript, never stale
    worker = p.page.request.get(p.url("/sw.js"))
    assert worker.status == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "no-cache" in worker.headers["cache-control"]
    scope = p.page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.active && r.scope)")
    assert scope == p.url("/")

    # the manifest and every icon it or the pages name
    manifest = p.page.request.get(p.url("/manifest.webmanifest"))
    assert manifest.status == 200 and manifest.headers["content-type"].startswith("application/manifest+json")
    icons = [icon["src"] for icon in manifest.json()["icons"]]
    icons.append(p.page.locator('link[rel="apple-touch-icon"]').get_attribute("href"))
    for src in icons:
        answer = p.page.request.get(p.url(src))
        assert answer.status == 200 and answer.headers["content-type"].startswith("image/"), src
        answers.append((answer.status, src))

    pages = {path for status, path in answers if not path.startswith("/static/")}
    assert {
        "/accounts/login/?next=/evenings/",
        "/evenings/",
        "/evenings/new/",
        f"/e/{pk}/",
        f"/e/{pk}/settle/",
    } <= pages
    statics = {path for status, path in answers if path.startswith("/static/")}
    assert any("/css/scorebook." in s for s in statics) and any("/js/scoring." in s for s in statics)
    # the manifest storage is the one serving: every static file under its hashed name
    assert all(HASHED.match(path) for path in statics), sorted(statics)
    broken = [(status, path) for status, path in answers if status >= 400]
    assert not broken, broken  # a server error above all (>= 500), but a missing file breaks the page too
    assert not failed, failed
    assert p.errors == []


@pytest.mark.browser
def test_it_keeps_the_maskable_icon_inside_its_safe_zone(deployed_phone, deployed):
    """A maskable icon is cut by the phone to any shape that contains the central circle of 80%:
    the spade must lie inside it, and the square must be filled to its edges (no transparency)."""
    p = deployed_phone(name="maskable-icon")
    p.goto("/")
    manifest = p.page.request.get(p.url("/manifest.webmanifest")).json()
    maskable = [icon for icon in manifest["icons"] if "maskable" in icon.get("purpose", "").split()]
    assert [icon["sizes"] for icon in maskable] == ["512x512"]
    check = p.page.evaluate(
        """src => new Promise((resolve, reject) => {
          const img = new Image();
          img.onerror = reject;
          img.onload = () => {
            const size = img.naturalWidth, canvas = document.createElement('canvas');
            canvas.width = canvas.height = size;
            const g = canvas.getContext('2d');
            g.drawImage(img, 0, 0);
            const data = g.getImageData(0, 0, size, size).data;
            const [r0, g0, b0] = data;  // the corner: the background
            let outside = 0, inside = 0, transparent = 0;
            for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
              const i = 4 * (y * size + x);
              const drawn = Math.abs(data[i] - r0) + Math.abs(data[i + 1] - g0) + Math.abs(data[i + 2] - b0) > 24;
              if (data[i + 3] < 255) transparent++;
              const far = Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2) > 0.4 * size;
              if (drawn && far) outside++;
              if (drawn && !far) inside++;
            }
            resolve({size, height: img.naturalHeight, outside, inside, transparent, corner: [r0, g0, b0]});
          };
          img.src = src;
        })""",
        maskable[0]["src"],
    )
    assert check["size"] == check["height"] == 512
    assert check["transparent"] == 0
    assert check["outside"] == 0, check  # nothing drawn outside the safe zone
    assert check["inside"] > 512 * 512 * 0.1, check  # the spade is there
    assert check["corner"] == [0x14, 0x17, 0x1C]  # the theme colour, to the edges


@pytest.mark.browser
def test_it_serves_the_phones_through_the_readmes_nginx_so_idle_connections_hold_no_worker(deployed):
    """As deployed: the guide's nginx in front of gunicorn's two sync workers. Connections left idle
    half-way through a request (a browser's, a slow phone's) are nginx's to wait for; a page still
    answers at once. (Straight to gunicorn, each one would hold a worker until its timeout.)"""
    import socket
    import time
    import urllib.request
    from urllib.parse import urlsplit

    host, port = urlsplit(deployed.url).hostname, urlsplit(deployed.url).port
    idle = []
    for _ in range(4):
        connection = socket.create_connection((host, port))
        connection.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        idle.append(connection)
    try:
        started = time.monotonic()
        with urllib.request.urlopen(deployed.url + "/accounts/login/", timeout=20) as answer:
            assert answer.status == 200
            assert answer.headers["Server"].startswith("nginx")
        assert time.monotonic() - started < 3
    finally:
        for connection in idle:
            connection.close()
