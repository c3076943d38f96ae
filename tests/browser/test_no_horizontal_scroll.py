"""At 360 px wide (a small phone) no page of the site scrolls sideways."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH = 360
SEVEN = ["Anne-Sophie", "Bertrand", "Carl", "Dina", "Emmanuel", "Françoise", "Gert"]
SEVEN_DEALS = [
    {"contract": "samen-8", "declarers": ["Bertrand", "Dina"], "tricks": 9},  # Anne-Sophie deals
    {"contract": "pass"},  # Bertrand deals, and deals again
    {"contract": "grote-miserie", "declarers": ["Carl", "Emmanuel"], "tricks": {"Carl": 0, "Emmanuel": 1}},
    {"contract": "alleen-6", "declarers": ["Françoise"], "tricks": 6},  # Carl deals
    {"adjustment": {"Gert": -5, "Dina": 5}, "note": "revoke"},
]
CLASSIQUE_DEALS = [
    {"tricks": [12, 1], "honours": [4, 0]},  # manche 1 to Anne & Carl
    {"tricks": [12, 1], "honours": [4, 0]},  # manche 2: robre 1 over
    {"tricks": [9, 4], "honours": [3, 0]},  # robre 2: 5-0
    {"tricks": [9, 4], "honours": [0, 0]},  # 8-0: the claim at 8 is offered
]

OVERFLOW_JS = """
() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > width + 0.5) {
      const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
      wide.push(name + ' right=' + Math.round(r.right));
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 8)};
}
"""


def measure(p, path: str, name: str, problems: list) -> None:
    p.goto(path)
    p.page.wait_for_load_state("load")
    # what a tap could unfold must fit too: open every <details>
    p.page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
    result = p.page.evaluate(OVERFLOW_JS)
    p.shot(name)
    if result["scrollWidth"] > WIDTH:
        problems.append(f"{name} ({path}): scrollWidth {result['scrollWidth']} > {WIDTH}; too wide: {result['wide']}")


@pytest.mark.browser
def test_no_page_scrolls_sideways_at_360_px(phone, scorer, make_evening):
    seven = make_evening("kleurenwiezen", SEVEN, deals=SEVEN_DEALS)
    classique = make_evening("classique", ["Anne", "Bert", "Carl", "Dina"], deals=CLASSIQUE_DEALS)
    problems: list[str] = []

    p = phone(width=WIDTH, name="scroll360")
    assert p.page.viewport_size["width"] == WIDTH
    # the measure itself: a page made too wide on purpose is caught
    p.goto("/")
    p.page.evaluate(
        "() => { const d = document.createElement('div'); d.id = 'too-wide';"
        " d.style.width = '500px'; d.style.height = '1px'; document.body.append(d); }"
    )
    caught = p.page.evaluate(OVERFLOW_JS)
    assert caught["scrollWidth"] > WIDTH and any("div#too-wide" in w for w in caught["wide"])
    measure(p, "/", "01-home-anonymous", problems)
    measure(p, "/accounts/login/", "02-login", problems)
    measure(p, f"/s/{seven.share_token}/", "03-public-seven", problems)
    measure(p, f"/s/{classique.share_token}/", "04-public-classique", problems)

    p.login(scorer.username)
    pages = [
        ("/", "05-home"),
        ("/evenings/", "06-evening-list"),
        ("/evenings/new/", "07-new-evening"),
        (f"/e/{seven.pk}/", "08-scoring-seven"),
        (f"/e/{classique.pk}/", "09-scoring-classique"),
        (f"/e/{seven.pk}/deals/1/edit/", "10-deal-edit-pair"),
        (f"/e/{seven.pk}/deals/3/edit/", "11-deal-edit-misere"),
        (f"/e/{classique.pk}/deals/3/edit/", "12-deal-edit-classique"),
        (f"/e/{seven.pk}/chart/", "13-chart"),
        (f"/e/{classique.pk}/chart/", "14-chart-classique"),
        (f"/e/{seven.pk}/settle/", "15-settlement"),
        (f"/e/{seven.pk}/print/", "16-print"),
        (f"/e/{classique.pk}/print/", "17-print-classique"),
        (f"/e/{seven.pk}/share/", "18-share"),
        ("/evenings/import/", "19-import"),
    ]
    for path, name in pages:
        measure(p, path, name, problems)

    # the scoring page of the seven shows what it must (so that the measure means something)
    p.goto(f"/e/{seven.pk}/")
    assert p.page.locator("#board .totals .chip:not(.pot)").count() == 7
    assert p.page.locator("#record .declarers label.tap").count() == 7
    # the classique page offers the claim at 8
    p.goto(f"/e/{classique.pk}/")
    assert p.page.locator("#record button.claim").count() == 1

    assert problems == [], "\n".join(problems)
    assert p.errors == []


LABELS_JS = """
() => Array.from(document.querySelectorAll('svg.chart-svg')).flatMap(svg => {
  const right = svg.viewBox.baseVal.x + svg.viewBox.baseVal.width;
  return Array.from(svg.querySelectorAll('text.chart-label')).map(t => {
    const box = t.getBBox();
    return {text: t.textContent.replace(/\\s+/g, ' ').trim(), right: Math.round(box.x + box.width), limit: right,
            font: getComputedStyle(t).fontFamily};
  });
})
"""


@pytest.mark.browser
def test_the_chart_labels_are_not_cut_off_at_360_px(phone, scorer, make_evening):
    """The label at the end of each line says the player's total: it must be drawn whole,
    or the chart shows a wrong number ("Emmanuel −11" for −111)."""
    seven = make_evening("kleurenwiezen", SEVEN, deals=SEVEN_DEALS)
    p = phone(width=WIDTH, name="chart360")
    p.login(scorer.username, next_path=f"/e/{seven.pk}/chart/")
    labels = p.page.evaluate(LABELS_JS)
    p.shot("01-chart")
    assert len(labels) == 7
    cut = [
        f"{label['text']!r} ends at {label['right']} > {label['limit']}"
        for label in labels
        if label["right"] > label["limit"]
    ]
    assert cut == [], f"labels drawn past the SVG's right edge (font {labels[0]['font']}): " + "; ".join(cut)
