"""The scoring page as the scorer sees it at the table, per variant, at two phone sizes: the
screenshots (artifacts/browser/screens-*) are looked at; the page fits the first screen."""

import os

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

STAGE = os.environ.get("SCREENS_STAGE", "after")
FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]
FOUR = ["Anne", "Bert", "Carl", "Dina"]
SEVEN = ["Jean-Pierre", "Jean-Paul", "Anne-Sophie", "Bertrand", "Carl", "Dina", "Emmanuel"]
DEALS = {
    "kleurenwiezen": (
        FIVE,
        [
            {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 9},
            {"contract": "alleen-5", "declarers": ["Carl"], "tricks": 5},
        ]
        * 3,
    ),
    "encheres": (
        FOUR,
        [
            {"contract": "solo", "declarers": ["Anne"], "tricks": 5},
            {"contract": "huit-a-deux", "declarers": ["Bert", "Dina"], "tricks": 9},
        ]
        * 3,
    ),
    "classique": (FOUR, [{"tricks": [7, 6], "honours": [0, 0]}, {"tricks": [5, 8], "honours": [0, 0]}] * 3),
    "kleurenwiezen-seven": (SEVEN, [{"contract": "samen-8", "declarers": ["Bertrand", "Carl"], "tricks": 8}] * 3),
}


@pytest.mark.browser
@pytest.mark.parametrize("size", [(390, 844), (360, 640)], ids=["390", "360"])
def test_it_shows_the_scoring_page_of_each_variant(phone, scorer, make_evening, size):
    p = phone(width=size[0], name=f"screens-{STAGE}-{size[0]}")
    p.page.set_viewport_size({"width": size[0], "height": size[1]})
    evenings = {}
    for name, (players, deals) in DEALS.items():
        ruleset = name.split("-")[0]
        evenings[name] = make_evening(ruleset, players, deals=deals, stake="0.10")
    p.login(scorer.username)
    for name, evening in evenings.items():
        p.goto(f"/e/{evening.pk}/")
        p.page.wait_for_load_state("load")
        p.page.screenshot(path=str(p.shot(name).with_name(f"{p.test_name}-{name}-screen.png")))
    assert p.errors == []
