"""Whist aux enchères: failed contracts feed the bête, a made contract takes it (docs/rules/encheres.md).

A failure pays into the bête as much as it holds, at least the table value: the bête
grows by max(bête, value); a pair pays that in two halves rounded up. A made contract
is paid by each opponent (value + per-trick bonus) and takes the whole bête; a pair
shares it and an odd jeton stays in it. Totals plus the bête always sum to zero.
"""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Anne", "Bert", "Carl", "Dina"]

# (deal as tapped, bête after, the deal's deltas) -- worked out by hand:
PLAN = [
    # solo (needs 6, value 8) with 5: fails on an empty bête, pays the floor 8.
    (("solo", ["Anne"], 5), 8, {"Anne": -8, "Bert": 0, "Carl": 0, "Dina": 0}),
    # sept levées seul (needs 7, value 12) with 6: max(8, 12) = 12 -> 20.
    (("sept-seul", ["Bert"], 6), 20, {"Anne": 0, "Bert": -12, "Carl": 0, "Dina": 0}),
    # grande misère (value 25), Carl takes a trick: max(20, 25) = 25 -> 45.
    (("grande-misere", ["Carl"], {"Carl": 1}), 45, {"Anne": 0, "Bert": 0, "Carl": -25, "Dina": 0}),
    # huit levées à deux (value 4, +1 a trick) made with 9: each opponent pays 5, each
    # declarer gets 5 + 45 // 2 = 22 of the bête; the odd jeton stays: bête 1.
    (("huit-a-deux", ["Bert", "Dina"], 9), 1, {"Anne": -5, "Bert": 27, "Carl": -5, "Dina": 27}),
    # solo made with 8 (value 8 + 2 x 2 = 12 from each opponent, 36) and the odd jeton: bête 0.
    (("solo", ["Anne"], 8), 0, {"Anne": 37, "Bert": -12, "Carl": -12, "Dina": -12}),
    # piccolo (value 14), Dina takes no trick: max(0, 14) = 14.
    (("piccolo", ["Dina"], {"Dina": 0}), 14, {"Anne": 0, "Bert": 0, "Carl": 0, "Dina": -14}),
    # huit levées à deux with 7 fails: max(14, 4) = 14, in two halves of 7 -> 28.
    (("huit-a-deux", ["Anne", "Carl"], 7), 28, {"Anne": -7, "Bert": 0, "Carl": -7, "Dina": 0}),
]
TOTALS = {"Anne": 17, "Bert": 3, "Carl": -49, "Dina": 1}
VALUES = {"solo": 8, "sept-seul": 12, "grande-misere": 25, "piccolo": 14, "huit-a-deux": 4}


@pytest.mark.browser
def test_the_bete_grows_on_failures_and_a_made_contract_takes_it(phone, scorer, make_evening):
    evening = make_evening("encheres", PLAYERS, stake="0.10")
    p = phone()
    p.login(scorer.username, next_path=f"/e/{evening.pk}/")
    assert p.page.url.endswith(f"/e/{evening.pk}/")
    assert p.pot() == 0
    p.shot("01-empty")

    for number, (deal, bete, deltas) in enumerate(PLAN, start=1):
        before = p.pot()
        key, declarers, tricks = deal
        p.record_contract(key, declarers, tricks)
        rows = p.deal_rows()
        failed = p.page.locator(f"#deal-{number}").get_attribute("class")
        if "failed" in failed.split():
            # a failure: the bête grows by max(bête, value)
            assert p.pot() == before + max(before, VALUES[key]), f"deal {number}"
        assert p.pot() == bete, f"deal {number}"
        assert rows[number] == deltas, f"deal {number}"
        expect(p.page.locator(f"#deal-{number} .delta.pot")).to_have_text(
            re.compile(rf"bête\s+{bete}$")
        )  # the English pages call it the bête too (the settlement's "jetons left in the bête")
        assert sum(p.chips().values()) + p.pot() == 0, f"deal {number}: totals and bête do not sum to zero"
        if number in (3, 4, 5, 7):
            p.shot(f"02-deal-{number}")

    assert p.chips() == TOTALS
    report = p.export_report(evening.pk)
    assert report["totals"] == p.chips()
    assert report["pot"] == p.pot() == 28
    assert [d["pot"] for d in report["deals"]] == [bete for _, bete, _ in PLAN]

    # the settlement shares the 28 jetons left in the bête: 7 each
    p.goto(f"/e/{evening.pk}/settle/")
    p.shot("03-settlement")
    expect(p.page.locator(".bete .bete-pot .figure")).to_have_text("28")
    lines = p.settlement_lines()
    assert {name: points for name, (points, _) in lines.items()} == TOTALS
    money = {name: amount for name, (_, amount) in lines.items()}
    assert money == {name: Decimal(value) for name, value in report["money"].items()}
    assert money == {
        "Anne": Decimal("2.40"),
        "Bert": Decimal("1.00"),
        "Carl": Decimal("-4.20"),
        "Dina": Decimal("0.80"),
    }
    assert p.errors == []
