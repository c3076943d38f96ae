"""First paint of the scoring page: 3 requests (the page, which carries the site's stylesheet, htmx,
the page's own script), the scripts deferred so that they do not block it, the stylesheet applied
under the site's Content-Security-Policy (its hash) with no violation. The service worker the page
registers after its load fetches for itself and is not counted. On the site as deployed
(tests/deployed_site.py: the manifest storage's hashed files, behind nginx)."""

import pytest


@pytest.mark.browser
def test_it_loads_the_scoring_page_with_three_requests_its_stylesheet_in_it(
    deployed_phone, new_context, deployed_scorer, deployed_evening
):
    evening = deployed_evening("kleurenwiezen", ["Anne", "Bert", "Carl", "Dina", "Eric"])
    p = deployed_phone(name="first-load")
    p.login(deployed_scorer.username)
    cookies = p.page.context.cookies()
    context = new_context()  # an empty cache, the same session
    context.add_cookies(cookies)
    page = context.new_page()
    page.add_init_script(
        "window.__violations = []; document.addEventListener('securitypolicyviolation',"
        " e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI))"
    )
    seen = []
    page.on("request", lambda r: seen.append((r.resource_type, r.url.removeprefix(p.base_url))))
    page.goto(p.url(f"/e/{evening.pk}/"))
    page.wait_for_load_state("networkidle")
    counted = [(kind, url) for kind, url in seen if url not in ("/sw.js",)]
    assert [kind for kind, _url in counted] == ["document", "script", "script"], counted
    assert page.evaluate("() => window.__violations") == []
    styled = "() => getComputedStyle(document.querySelector('#save-deal')).minHeight"
    assert page.evaluate(styled) == "48px"  # the stylesheet in the page applies (--tap)
    assert page.eval_on_selector_all("script[src]", "s => s.every(e => e.defer)")
    assert page.evaluate("() => document.documentElement.classList.contains('js')")


@pytest.mark.browser
def test_the_worker_keeps_the_first_page_without_downloading_it_again(
    deployed_phone, new_context, deployed_scorer, deployed_evening
):
    """The first visit comes before the worker: it keeps the page from the browser's cache, not by
    fetching it a second time (issue 31, moved to issue 30). The page's CSRF token is masked anew on
    every answer: the copy kept carries the very token the page shows."""
    evening = deployed_evening("kleurenwiezen", ["Anne", "Bert", "Carl", "Dina", "Eric"])
    p = deployed_phone(name="first-load-kept")
    p.login(deployed_scorer.username)
    cookies = p.page.context.cookies()
    context = new_context()  # no worker yet, the same session
    context.add_cookies(cookies)
    page = context.new_page()
    path = f"/e/{evening.pk}/"
    page.goto(p.url(path))
    token = page.eval_on_selector('#record input[name="csrfmiddlewaretoken"]', "i => i.value")
    kept = type(p)(page, p.base_url, "first-load-kept")  # a Phone of the new context
    kept.wait_until_kept(path)
    copy = page.evaluate("path => caches.match(path).then(r => r.text())", path)
    assert f'value="{token}"' in copy
