"""Every page, checked by a machine at 390x844: axe-core (axe-playwright-python) finds no
serious or critical violation, whatever a tap can unfold included; every tap target is at
least 44x44 px; no text is smaller than 14 px."""

# ruff: noqa: F811 (the club admin fixture is imported)
from datetime import date

import pytest

import night_builders
from club_fixtures import admin  # noqa: F401 (Adèle, the club admin)
from night_builders import EIGHT
from scorebook.clubs.models import Club, Membership, Player, Role
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
    if (!visible(el) || el.closest('[hidden], [aria-hidden="true"], .vh, .sr-only, .visually-hidden')) continue;
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
    const el = node.parentElement; if (!visible(el) || el.closest('[aria-hidden="true"], .vh, .sr-only, .visually-hidden, svg')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 13.9) tiny.push(name(el) + ' ' + size + 'px');
  }
  return {small: [...new Set(small)].slice(0, 12), tiny: [...new Set(tiny)].slice(0, 12)};
}
"""


def check(p, path: str, shot: str, problems: list, unfold: bool = True, refuse: dict | None = None) -> None:
    """``refuse``: what to type into the page's form (selector: value) before sending it without the
    browser's own checks, so that the page comes back with the site's errors next to the fields."""

    p.goto(path)
    p.page.wait_for_load_state("load")
    if refuse:
        for selector, value in refuse.items():
            # a form folded in a <details> (the night's changes of players): unfolded as a tap does
            p.page.locator(selector).first.evaluate(
                "el => { for (let d = el.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"
            )
            p.page.locator(selector).first.fill(value)
        form = p.page.locator(next(iter(refuse))).first
        with p.page.expect_navigation():
            form.evaluate("e => { e.form.noValidate = true; e.form.requestSubmit(); }")
        p.page.wait_for_load_state("load")
        if not p.page.locator(".field-errors").count():
            problems.append(f"{path}: sent {refuse}, no error came back")
    inspect(p, path, shot, problems, unfold=unfold)


def inspect(p, path: str, shot: str, problems: list, unfold: bool = True) -> None:
    """The page the phone shows now (``path`` names it): axe-core, tap targets, text sizes, a photograph."""
    from axe_playwright_python.sync_playwright import Axe

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
    # Help, for anyone: the list, a guide with its pictures, a variant's rules with their grids
    check(p, "/help/", "03-help", problems)
    check(p, "/help/guides/scorer/", "03-help-guide", problems)
    check(p, "/help/rules/kleurenwiezen/", "03-help-rules", problems)
    check(p, "/help/rules/README/", "03-help-rules-index", problems)
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


@pytest.mark.browser
def test_it_finds_no_serious_accessibility_problem_on_the_form_pages(phone, admin, scorer):
    """The club's forms, as they open and as they come back with errors (one field template draws them all)."""
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    night = night_builders.night(club, admin, EIGHT, day=date(2026, 11, 21), seed=0, ranking_link=False)
    Player.objects.create(club=club, name="Zoé")
    anne, zoe = Player.objects.get(club=club, name="Anne"), Player.objects.get(club=club, name="Zoé")
    problems: list[str] = []
    p = phone(name="a11y-forms")
    check(p, "/accounts/signup/", "01-signup", problems, refuse={"#id_username": "a@b", "#id_password1": "x"})
    p.login(admin.username)
    slug = club.slug
    pages = [
        ("/clubs/new/", "02-club-new", {"#id_name": "", "#id_slug": "not a slug"}),
        (f"/c/{slug}/settings/", "03-club-settings", {"#id_name": ""}),
        (f"/c/{slug}/members/", "04-members", {"#id_uses": "0"}),
        (
            f"/c/{slug}/rules/kleurenwiezen/?open=samen-9",
            "05-house-rules",
            {"#c-samen-9 tbody input[type=number]": "99999"},
        ),
        (f"/c/{slug}/rules/classique/", "06-house-rules-classic", {"input[type=number]": "-5"}),
        (f"/c/{slug}/nights/new/", "07-new-night", {"#id_name": "", "#id_place_points": "a"}),
        (f"/nights/{night.pk}/", "08-night", {"#id_late_name": ""}),
        (f"/c/{slug}/seasons/new/", "09-new-season", {"#id_name": "", "#id_league_points": "x"}),
        (f"/c/{slug}/players/", "10-players", {"#id_name": ""}),
        (f"/c/{slug}/players/{anne.pk}/merge/?with={zoe.pk}", "11-merge", None),
        (f"/c/{slug}/players/{anne.pk}/", "12-player", None),
        ("/evenings/new/", "13-new-evening", {"[name=player_0]": "Anne", "#id_stake": "-1"}),
        ("/accounts/profile/", "14-profile", {"#id_email": "not an address"}),
    ]
    for path, shot, refuse in pages:
        check(p, path, shot, problems)
        if refuse:
            check(p, path, f"{shot}-refused", problems, refuse=refuse)
    assert problems == [], "\n".join(problems)
