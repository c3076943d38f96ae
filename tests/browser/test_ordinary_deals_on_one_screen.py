"""An ordinary deal is recorded on one screen: no scroll, at most 4 taps for a contract made
exactly, 5 with an over- or undertrick, in every variant, on a 390x844 phone and on a small
360x640 one (seven players for kleurenwiezen). After each save the form is back at its top
with the next dealer and who sits out in view.

The measured counts go to artifacts/browser/taps.json (taps and scrolls per deal)."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

FOUR = ["Anne", "Bert", "Carl", "Dina"]
FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]
SEVEN = ["Jean-Pierre", "Jean-Paul", "Anne-Sophie", "Bertrand", "Carl", "Dina", "Emmanuel"]

# variant -> (players, [(label, contract, declarers, tricks or None for exactly, most taps)])
# declarers are picked among who plays that deal (the dealer and, beyond five, others sit out)
PLANS = {
    "kleurenwiezen": (
        FIVE,
        [
            ("samen 8 made exactly", "samen-8", ["Bert", "Dina"], None, 4),  # Anne deals, sits out
            ("alleen 5 made exactly", "alleen-5", ["Carl"], None, 3),  # Bert deals
            ("samen 9 with an overtrick", "samen-9", ["Dina", "Anne"], 10, 5),  # Carl deals
            ("alleen 6 one down", "alleen-6", ["Eric"], 5, 4),  # Dina deals
            ("samen 8 one down", "samen-8", ["Anne", "Bert"], 7, 5),  # Eric deals
        ],
    ),
    "encheres": (
        FOUR,
        [
            ("solo made exactly", "solo", ["Anne"], None, 3),
            ("huit levées à deux made exactly", "huit-a-deux", ["Bert", "Dina"], None, 4),
            ("solo with an overtrick", "solo", ["Carl"], 7, 4),
            ("huit levées à deux one down", "huit-a-deux", ["Anne", "Carl"], 7, 5),
        ],
    ),
    "liege": (
        FOUR,
        [
            ("emballage 8 made exactly", "emballage-8", ["Anne", "Carl"], None, 4),
            ("emballage 8 with an overtrick", "emballage-8", ["Bert", "Dina"], 9, 5),
            ("solo 6 made exactly", "solo-6", ["Dina"], None, 3),
        ],
    ),
    "gand": (
        FOUR,
        [
            ("emballage made exactly", "emballage", ["Anne", "Carl"], None, 4),
            ("solo made exactly", "solo", ["Bert"], None, 3),
            ("emballage with an overtrick", "emballage", ["Bert", "Dina"], 9, 5),
        ],
    ),
}
SEVEN_PLAN = [  # 360x640, seven at the table: Jean-Pierre deals, Jean-Paul .. Carl play
    ("samen 8 made exactly", "samen-8", ["Bertrand", "Carl"], None, 4),
    ("alleen 5 made exactly", "alleen-5", ["Carl"], None, 3),  # Jean-Paul deals: Anne-Sophie .. Dina play
    ("samen 9 with an overtrick", "samen-9", ["Dina", "Emmanuel"], 10, 5),  # Anne-Sophie deals
]
SIZES = {"390x844": (390, 844), "360x640": (360, 640)}


def next_in_view(p) -> None:
    """After a save: the page is at its top, the deal number, dealer and who sits out in view."""
    assert p.page.evaluate("() => window.scrollY") == 0
    assert p.in_view(p.page.locator("#board .next"))
    assert p.in_view(p.page.locator("#record label.tap").first)


def play(p, variant, plan, size) -> None:
    for label, key, declarers, tricks, most in plan:
        taps, scrolls = p.taps, p.scrolls
        used = p.record_contract(key, declarers, tricks)
        scrolled = p.scrolls - scrolls
        p.log_taps(f"{size} {variant}: {label} (taps)", used)
        p.log_taps(f"{size} {variant}: {label} (scrolls)", scrolled)
        assert used <= most, f"{variant} {label}: {used} taps"
        assert scrolled == 0, f"{variant} {label}: {scrolled} scrolls"
        next_in_view(p)
        assert p.taps - taps == used


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("variant", PLANS)
def test_it_records_an_ordinary_deal_without_scrolling(phone, scorer, make_evening, variant, size):
    players, plan = PLANS[variant]
    evening = make_evening(variant, players, stake=None)
    width, height = SIZES[size]
    p = phone(width=width, height=height, name=f"one_screen-{variant}-{size}")
    p.login(scorer.username, next_path=f"/e/{evening.pk}/")
    p.shot("01-start")
    play(p, variant, plan, size)
    p.page.screenshot(path=str(p.shot("02-after").with_name(f"{p.test_name}-02-screen.png")))
    assert p.deals_stored(evening.pk) == len(plan)
    assert p.errors == []


@pytest.mark.browser
def test_it_records_a_classique_deal_in_two_taps_at_both_sizes(phone, scorer, make_evening):
    for size, (width, height) in SIZES.items():
        evening = make_evening("classique", FOUR, stake=None)
        p = phone(width=width, height=height, name=f"one_screen-classique-{size}")
        p.login(scorer.username, next_path=f"/e/{evening.pk}/")
        for tricks, honours, most, label in [
            (7, None, 2, "7-6, no honours"),
            (10, None, 2, "10-3, no honours (the keypad: one tap for any count)"),
            (9, "0-3", 3, "9-4 with 3 honours"),
        ]:
            scrolls = p.scrolls
            used = p.record_classic(tricks, honours)
            p.log_taps(f"{size} classique: {label} (taps)", used)
            p.log_taps(f"{size} classique: {label} (scrolls)", p.scrolls - scrolls)
            assert used <= most and p.scrolls == scrolls, (label, used, p.scrolls - scrolls)
            next_in_view(p)
        p.page.screenshot(path=str(p.shot("after").with_name(f"{p.test_name}-screen.png")))
        assert p.deals_stored(evening.pk) == 3
        assert p.errors == []


@pytest.mark.browser
def test_it_records_deals_at_a_table_of_seven_on_a_small_phone(phone, scorer, make_evening):
    evening = make_evening("kleurenwiezen", SEVEN, stake=None)
    p = phone(width=360, height=640, name="one_screen-seven-360x640")
    p.login(scorer.username, next_path=f"/e/{evening.pk}/")
    totals = p.page.locator("#totals").bounding_box()
    assert totals["height"] <= 96, totals
    # every name told apart on its chip, the whole name on tap
    shown = p.page.locator("#totals .chip .chip-name").all_inner_texts()
    assert len(set(shown)) == 7, shown
    assert "J-Pi" in shown and "J-Pa" in shown
    chip = p.page.locator('#totals button.chip-name[aria-label="Jean-Pierre"]')
    p.tap(chip)
    expect(p.page.locator("#totals [popover]:popover-open")).to_contain_text("Jean-Pierre")
    p.shot("01-full-name")
    p.page.keyboard.press("Escape")
    p.taps = 0
    play(p, "kleurenwiezen (seven)", SEVEN_PLAN, "360x640")
    p.page.screenshot(path=str(p.shot("02").with_name(f"{p.test_name}-02-screen.png")))
    assert p.page.locator("#totals").bounding_box()["height"] <= 96
    assert p.errors == []


@pytest.mark.browser
def test_it_keeps_a_contract_played_at_this_table_on_the_first_screen_of_its_next_evening(phone, scorer, make_evening):
    """The table's own history: a rarer contract it plays comes onto the first screen when its next
    evening starts; during the evening no quick button moves (a thumb learns their places)."""
    evening = make_evening("kleurenwiezen", FOUR, stake=None)
    p = phone()
    p.login(scorer.username, next_path=f"/e/{evening.pk}/")
    quick = p.page.locator('#record .taps.quick input[name="contract"]')
    expect(quick.first).to_have_value("samen-8")  # the commonest first
    order = [quick.nth(i).get_attribute("value") for i in range(quick.count())]
    assert "abondance-9" not in order
    p.record_contract("abondance-9", ["Bert"], 9)
    p.record_contract("abondance-9", ["Carl"], 9)
    assert [quick.nth(i).get_attribute("value") for i in range(quick.count())] == order
    p.page.reload()
    assert [quick.nth(i).get_attribute("value") for i in range(quick.count())] == order
    following = make_evening("kleurenwiezen", FOUR, stake=None)
    p.goto(f"/e/{following.pk}/")
    expect(p.page.locator('#record .taps.quick input[value="abondance-9"]')).to_have_count(1)


SAVED_PLANS = {**{v: (players, plan) for v, (players, plan) in PLANS.items()}, "classique": (FOUR, None)}
CLASSIQUE = [(7, None), (10, None), (9, "0-3"), (6, None)]


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("variant", SAVED_PLANS)
def test_it_confirms_each_save_at_the_thumb_with_the_new_row_in_view_or_one_tap_away(
    phone, scorer, make_evening, variant, size
):
    """Eight deals: after each save, "Deal N saved: who +points" at the thumb, announced to screen
    readers; the new row in view, or one tap on the notice away. Still 0 scrolls; the page's h1
    names the evening in the top bar. Measured into taps.json."""
    players, plan = SAVED_PLANS[variant]
    evening = make_evening(variant, players, stake=None)
    width, height = SIZES[size]
    p = phone(width=width, height=height, name=f"saved-{variant}-{size}")
    p.login(scorer.username, next_path=f"/e/{evening.pk}/")
    heading = p.page.locator("h1")
    expect(heading).to_have_count(1)
    box = heading.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 60, box  # in the top bar: no room taken from the form
    in_view = one_tap = 0
    for n in range(1, 9):
        scrolls = p.scrolls
        if plan is None:
            p.record_classic(*CLASSIQUE[(n - 1) % len(CLASSIQUE)])
        else:
            _label, key, declarers, tricks, _most = plan[(n - 1) % len(plan)]
            p.record_contract(key, declarers, tricks)
        assert p.scrolls == scrolls, f"deal {n}: {p.scrolls - scrolls} scrolls"
        saved = p.page.locator("#notices .saved-link")
        expect(saved).to_contain_text(f"Deal {n} saved: ")
        assert p.in_view(saved), "the confirmation is at the thumb"
        expect(p.page.locator("#announce")).to_contain_text(f"Deal {n} saved: ")
        row = p.page.locator(f"#deal-{n}")
        if p.in_view(row):
            in_view += 1
        else:
            taps = p.taps
            p.tap(saved)
            expect(row).to_be_in_viewport()
            assert p.in_view(row), f"deal {n}: not in view after the tap"
            assert p.taps - taps == 1
            one_tap += 1
            if n == 1:
                p.shot("01-one-tap")
            p.page.evaluate("() => window.scrollTo(0, 0)")  # back to the form for the next deal
        if n == 1:
            p.page.screenshot(path=str(p.shot("01").with_name(f"{p.test_name}-01-saved-screen.png")))
    p.log_taps(f"{size} {variant}: 8 deals, new row in view", in_view)
    p.log_taps(f"{size} {variant}: 8 deals, new row one tap away", one_tap)
    assert in_view + one_tap == 8
    assert p.errors == []
