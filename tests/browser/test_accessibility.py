"""Every page, checked by a machine at 390x844: axe-core (axe-playwright-python) finds no
serious or critical violation, whatever a tap can unfold included; every tap target is at
least 44x44 px; no text is smaller than 14 px."""

import pytest

from scorebook.evenings import services

pytestmark = pytest.mark.django_db(transaction=True)

FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]
FIVE_DEALS = [
    {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 9},
    {"contract": "pass"},
    {"contract": "grote-miserie", "declarers": ["Carl", "Eric"], "tricks": {"Carl": 0, "Eric": 1}},
    {"adjustment": {"Anne": -5, "Dina": 5}, "note": "revoke"},
]
CLASSIQUE_DEALS = [{"tricks": [9, 4], "honours": [3, 0]}, {"tricks": [9, 4], "honours": [0, 0]}]

# targets and text measured on what is visible; inline links inside a sentence are exempt (WCAG 2.5.8)
SIZES_JS = """
() => {
  const small = [], tiny = [];
  const visible = el => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
    ' "' + (el.innerText || el.value || '').trim().slice(0, 30) + '"';
  for (const el of document.querySelectorAll('a[href], button, summary, label.tap, select, input:not([type=hidden]):not(.tap input), textarea')) {
    if (!visible(el) || el.closest('[hidden], .vh, .sr-only, .visually-hidden')) continue;
    if (el.tagName === 'A' && el.closest('p, li') && !el.matches('.button, .navlink, .card-link')) {
      const block = el.closest('p, li'); if ((block.innerText || '').trim() !== (el.innerText || '').trim()) continue;  // inline in a sentence
    }
    if (el.type === 'checkbox' || el.type === 'radio') { const l = el.closest('label'); if (l) continue; }
    const r = el.getBoundingClientRect();
    if (r.height < 43.5 || r.width < 43.5) small.push(name(el) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode; if (!node.textContent.trim()) continue;
    const el = node.parentElement; if (!visible(el) || el.closest('.vh, .sr-only, .visually-hidden, svg')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 13.9) tiny.push(name(el) + ' ' + size + 'px');
  }
  return {small: [...new Set(small)].slice(0, 12), tiny: [...new Set(tiny)].slice(0, 12)};
}
"""


def check(p, path: str, shot: str, problems: list, unfold: bool = True) -> None:
    from axe_playwright_python.sync_playwright import Axe

    p.goto(path)
    p.page.wait_for_load_state("load")
    if unfold:
        p.page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
    results = Axe().run(p.page)
    bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    for v in bad:
        targets = [", ".join(n["target"]) for n in v["nodes"][:4]]
        problems.append(f"{path}: axe {v['id']} ({v['impact']}): {targets}")
    sizes = p.page.evaluate(SIZES_JS)
    for item in sizes["small"]:
        problems.append(f"{path}: tap target under 44 px: {item}")
    for item in sizes["tiny"]:
        problems.append(f"{path}: text under 14 px: {item}")
    p.shot(shot)


@pytest.mark.browser
def test_it_finds_no_serious_accessibility_problem_on_any_page(phone, scorer, make_evening):
    five = make_evening("kleurenwiezen", FIVE, deals=FIVE_DEALS)
    classique = make_evening("classique", ["Anne", "Bert", "Carl", "Dina"], deals=CLASSIQUE_DEALS)
    encheres = make_evening(
        "encheres", ["Anne", "Bert", "Carl", "Dina"], deals=[{"contract": "solo", "declarers": ["Anne"], "tricks": 5}]
    )
    closed = make_evening(
        "gand", ["Anne", "Bert", "Carl", "Dina"], deals=[{"contract": "solo", "declarers": ["Anne"], "tricks": 5}]
    )
    services.set_status(closed, "closed")
    problems: list[str] = []
    p = phone(name="a11y")
    check(p, "/", "01-home-anonymous", problems)
    check(p, "/accounts/login/", "02-login", problems)
    check(p, f"/s/{five.share_token}/", "03-public", problems)
    p.login(scorer.username)
    pages = [
        ("/", "04-home"),
        ("/evenings/", "05-evenings"),
        ("/evenings/new/", "06-new-evening"),
        (f"/e/{five.pk}/", "07-scoring-five"),
        (f"/e/{classique.pk}/", "08-scoring-classique"),
        (f"/e/{encheres.pk}/", "09-scoring-encheres"),
        (f"/e/{closed.pk}/", "10-scoring-closed"),
        (f"/e/{five.pk}/deals/1/edit/", "11-edit"),
        (f"/e/{classique.pk}/deals/1/edit/", "12-edit-classique"),
        (f"/e/{five.pk}/chart/", "13-chart"),
        (f"/e/{five.pk}/settle/", "14-settlement"),
        (f"/e/{five.pk}/print/", "15-print"),
        (f"/e/{five.pk}/share/", "16-share"),
        ("/evenings/import/", "17-import"),
        ("/clubs/", "18-clubs"),
        ("/accounts/profile/", "19-profile"),
    ]
    for path, shot in pages:
        check(p, path, shot, problems)
    # the scoring page as it is used: folded, the menu open, a delete being confirmed
    check(p, f"/e/{five.pk}/", "20-scoring-folded", problems, unfold=False)
    p.open_menu()
    p.tap(p.page.locator("#deal-4 details.confirm > summary"))
    from axe_playwright_python.sync_playwright import Axe

    bad = [v for v in Axe().run(p.page).response["violations"] if v["impact"] in ("serious", "critical")]
    problems += [f"scoring page, menu open: axe {v['id']}" for v in bad]
    assert problems == [], "\n".join(problems)
