"""A whole kleurenwiezen evening for five, recorded through the pages as the scorer taps it.

Five at the table: the dealer sits out each deal (docs/rules/README.md); an all pass is
dealt again by the same dealer and the next played deal counts double (3.2).
"""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Anne", "Bert", "Carl", "Dina", "Eric"]

# (who deals and so sits out, the deal as tapped, what the deal list must show for it).
# The deltas are worked out by hand from the Whisthub grid (docs/rules/kleurenwiezen.md); None = sat out.
PLAN = [
    ("Anne", ("samen-8", ["Bert", "Dina"], None), {"Anne": None, "Bert": 8, "Carl": -8, "Dina": 8, "Eric": -8}),
    ("Bert", ("alleen-5", ["Carl"], None), {"Anne": -3, "Bert": None, "Carl": 9, "Dina": -3, "Eric": -3}),
    ("Carl", ("samen-9", ["Dina", "Anne"], 10), {"Anne": 14, "Bert": -14, "Carl": None, "Dina": 14, "Eric": -14}),
    ("Dina", "pass", {"Anne": 0, "Bert": 0, "Carl": 0, "Dina": None, "Eric": 0}),
    # grote miserie by two, doubled after the all pass: Eric takes a trick, Anne none (worked check ×2)
    (
        "Dina",
        ("grote-miserie", ["Eric", "Anne"], {"Eric": 1, "Anne": 0}),
        {"Anne": 96, "Bert": 0, "Carl": 0, "Dina": None, "Eric": -96},
    ),
    ("Eric", ("alleen-6", ["Anne"], 7), {"Anne": 15, "Bert": -5, "Carl": -5, "Dina": -5, "Eric": None}),
    ("Anne", ("samen-10", ["Bert", "Carl"], 9), {"Anne": None, "Bert": -17, "Carl": -17, "Dina": 17, "Eric": 17}),
    ("Bert", ("piccolo", ["Carl"], {"Carl": 1}), {"Anne": -8, "Bert": None, "Carl": 24, "Dina": -8, "Eric": -8}),
    ("Carl", ("abondance-9", ["Dina"], 9), {"Anne": -10, "Bert": -10, "Carl": None, "Dina": 30, "Eric": -10}),
    ("Dina", ("troel", ["Eric", "Anne"], 8), {"Anne": 16, "Bert": -16, "Carl": -16, "Dina": None, "Eric": 16}),
    ("Eric", ("kleine-miserie", ["Anne"], {"Anne": 1}), {"Anne": -18, "Bert": 6, "Carl": 6, "Dina": 6, "Eric": None}),
    ("Anne", ("samen-8", ["Carl", "Eric"], 7), {"Anne": None, "Bert": 11, "Carl": -11, "Dina": 11, "Eric": -11}),
]
TOTALS_AFTER_12 = {"Anne": 102, "Bert": -37, "Carl": -18, "Dina": 70, "Eric": -117}
# Deal 3 corrected from 10 tricks to 8: samen 9 one short is -14 instead of +14 (a swing of 28).
TOTALS_AFTER_EDIT = {"Anne": 74, "Bert": -9, "Carl": -18, "Dina": 42, "Eric": -89}
# Without the all pass (deal 4) the misère is no longer doubled: Anne +48 and Eric -48 instead of ±96.
TOTALS_WITHOUT_PASS = {"Anne": 26, "Bert": -9, "Carl": -18, "Dina": 42, "Eric": -41}


def parse_amount(text: str) -> Decimal:
    """ "€0.90" -> Decimal("0.90")."""
    return Decimal(text.replace("€", "").replace("\u00a0", "").replace(",", "").strip())


def create_evening(p) -> int:
    p.goto("/evenings/")
    with p.page.expect_navigation():
        p.tap(p.page.get_by_role("link", name="New evening"))
    p.tap(p.page.locator('label.tap:has(input[name="ruleset"][value="kleurenwiezen"])'))
    for seat, name in enumerate(PLAYERS):
        p.page.locator(f'input[name="player_{seat}"]').fill(name)
    dealer = p.page.locator('select[name="first_dealer"]')
    expect(dealer.locator("option:checked")).to_have_text("Anne")  # the list shows the typed names
    dealer.select_option("0")
    p.page.locator('input[name="stake"]').fill("0.10")
    p.shot("01-new-evening")
    with p.page.expect_navigation():
        p.tap(p.page.get_by_role("button", name="Start the evening"))
    match = re.search(r"/e/(\d+)/$", p.page.url)
    assert match, p.page.url
    return int(match.group(1))


def check_who_sits_out(p, dealer: str) -> None:
    """Before each deal the page says who deals and who sits out: with five, the dealer."""
    nxt = p.board_text("#board .next")
    assert f"{dealer} deals" in nxt
    assert f"sits out: {dealer}" in nxt, nxt
    assert re.search(r"sits out: (\w+)", nxt).group(1) == dealer  # nobody else
    assert p.page.locator("#board .totals .chip.out").count() == 1
    expect(p.page.locator("#board .totals .chip.out .chip-name")).to_have_text(re.compile(rf"^★?{dealer}$"))
    out_button = p.page.locator("#record .declarers label.tap.out")
    expect(out_button).to_have_count(1)
    expect(out_button).to_contain_text(dealer)
    expect(out_button).to_contain_text("sits out")


@pytest.mark.browser
def test_a_kleurenwiezen_evening_for_five_from_start_to_settlement(phone, scorer):
    p = phone()
    p.login(scorer.username)
    pk = create_evening(p)
    p.shot("02-empty-board")
    assert p.chips() == dict.fromkeys(PLAYERS, 0)
    assert p.errors == []

    taps = {}
    for number, (dealer, deal, expected) in enumerate(PLAN, start=1):
        check_who_sits_out(p, dealer)
        if number == 5:  # the deal after the all pass counts double
            expect(p.page.locator("#board .next .badge")).to_have_text(re.compile(r"×2"))
        else:
            expect(p.page.locator("#board .next .badge")).to_be_hidden()
        if deal == "pass":
            taps[number] = p.record_pass()
        else:
            key, declarers, tricks = deal
            taps[number] = p.record_contract(key, declarers, tricks)
        rows = p.deal_rows()
        assert rows[number] == expected, f"deal {number}"
        if number in (1, 4, 5):
            p.shot(f"03-deal-{number:02d}")
    p.shot("04-after-12-deals")

    # the measured cost of the common deals
    assert taps[1] == 4, taps  # samen 8 made exactly: contract, two declarers, save
    assert taps[1] <= 5
    assert taps[2] == 3, taps  # a solo made exactly: contract, declarer, save
    assert taps[4] == 2, taps  # all pass: its button, then save (a second tap on save records nothing)
    p.log_taps("pair contract made exactly (samen-8, 8 tricks)", taps[1])
    p.log_taps("solo made exactly (alleen-5, 5 tricks)", taps[2])
    p.log_taps("all pass", taps[4])

    # the doubled deal is marked in the list
    expect(p.page.locator("#deal-5 .badge")).to_have_text("×2")
    expect(p.page.locator("#deal-4 .desc")).to_have_text("All pass")
    assert p.chips() == TOTALS_AFTER_12
    assert sum(p.chips().values()) == 0

    # --- correct deal 3 on its own page: 10 tricks -> 8 ------------------------------------
    with p.page.expect_navigation():
        p.tap(p.page.locator("#deal-3 .deal-actions a", has_text="Edit"))
    assert p.page.url.endswith(f"/e/{pk}/deals/3/edit/")
    expect(p.page.locator('input[name="contract"][value="samen-9"]')).to_be_checked()
    tricks = p.page.locator('.tricks-side input[name="tricks"]')
    expect(tricks).to_have_value("10")
    p.tap(p.page.locator('.tricks-side button[data-step="-1"]'))
    p.tap(p.page.locator('.tricks-side button[data-step="-1"]'))
    expect(tricks).to_have_value("8")
    p.shot("05-edit-deal-3")
    with p.page.expect_navigation():
        p.tap(p.page.get_by_role("button", name="Save the correction"))
    assert p.page.url.endswith(f"/e/{pk}/")
    expect(p.page.locator("#board .messages")).to_contain_text("Deal 3 corrected")
    assert p.deal_rows()[3] == {"Anne": -14, "Bert": 14, "Carl": None, "Dina": -14, "Eric": 14}
    assert p.chips() == TOTALS_AFTER_EDIT
    expect(p.page.locator("#board .revisions")).to_contain_text("deal 3 corrected")
    p.shot("06-after-edit")

    # --- delete the all pass (deal 4), then Undo -----------------------------------------
    p.delete_deal(4)
    undo = p.page.locator("#board form.undo")
    expect(undo).to_contain_text("Deal 4 deleted.")
    assert p.next_deal_number() == 12
    assert p.chips() == TOTALS_WITHOUT_PASS
    expect(p.page.locator("#deal-4 .desc")).not_to_have_text("All pass")
    expect(p.page.locator("#board .deal-list .badge")).to_have_count(0)  # nothing counts double any more
    p.shot("07-deleted-deal-4")
    p.tap(undo.get_by_role("button", name="Undo"))
    expect(p.page.locator("#board form.undo")).to_have_count(0)
    assert p.next_deal_number() == 13
    expect(p.page.locator("#deal-4 .desc")).to_have_text("All pass")
    expect(p.page.locator("#deal-5 .badge")).to_have_text("×2")
    assert p.chips() == TOTALS_AFTER_EDIT
    p.shot("08-undone")

    # --- the chips against the engine on the exported file --------------------------------
    chips = p.chips()
    report = p.export_report(pk)
    assert chips == report["totals"]
    assert len(p.deal_rows()) == 10  # the last ten; the two before are one tap away
    p.tap(p.page.get_by_role("link", name="Show the 2 earlier deals"))
    expect(p.page.locator("#board .deal-list li.deal")).to_have_count(12)
    rows = p.deal_rows()
    assert len(rows) == 12 == len(report["deals"])
    for number, row in rows.items():
        shown = {name: delta for name, delta in row.items() if delta}  # the engine omits zeros
        assert shown == report["deals"][number - 1]["deltas"], f"deal {number}"
    assert p.errors == []

    # --- the settlement ----------------------------------------------------------------
    p.open_menu()
    with p.page.expect_navigation():
        p.tap(p.page.locator("nav.evening-links a", has_text="Settle"))
    assert p.page.url.endswith(f"/e/{pk}/settle/")
    p.shot("09-settlement")
    expect(p.page.locator(".settle-head")).to_contain_text("12 deals")
    lines = p.settlement_lines()
    assert {name: points for name, (points, _) in lines.items()} == chips
    money = {name: amount for name, (_, amount) in lines.items()}
    assert money == {name: Decimal(value) for name, value in report["money"].items()}
    assert money == {
        "Anne": Decimal("7.40"),
        "Bert": Decimal("-0.90"),
        "Carl": Decimal("-1.80"),
        "Dina": Decimal("4.20"),
        "Eric": Decimal("-8.90"),
    }
    assert sum(money.values()) == 0
    # who pays whom: the engine's transfers, as many lines as the engine found
    transfers = p.page.locator("#transfers .transfer")
    expect(transfers).to_have_count(len(report["transfers"]))
    for line, t in zip(transfers.all(), report["transfers"], strict=True):
        text = " ".join(line.locator(".transfer-text").inner_text().split())
        assert text.startswith(f"{t['from']} pays {t['to']}"), text
        assert parse_amount(line.locator(".transfer-amount").inner_text()) == Decimal(t["amount"])
    assert p.errors == []


@pytest.mark.browser
def test_a_wrong_save_shows_the_problem_keeps_the_taps_and_someone_can_step_away(phone, scorer, make_evening):
    evening = make_evening("kleurenwiezen", PLAYERS, stake=None)
    p = phone()
    p.login(scorer.username, next_path=f"/e/{evening.pk}/")
    form = p.page.locator("#record")

    # samen 8 with only one declarer tapped: the page says so and keeps what was tapped
    p.tap(form.locator('label.tap:has(input[name="contract"][value="samen-8"])'))
    p.tap(form.locator('.declarers label.tap:has(input[value="Bert"])'))
    p.tap(p.save_button())
    errors = p.page.locator("#record .declarers .field-errors")
    expect(errors).to_be_visible()
    p.shot("01-one-declarer")
    assert p.next_deal_number() == 1
    expect(p.page.locator('#record input[name="contract"][value="samen-8"]')).to_be_checked()
    expect(p.page.locator('#record input[name="declarers"][value="Bert"]')).to_be_checked()
    expect(p.page.locator('#record .tricks-side input[name="tricks"]')).to_have_value("8")
    expect(p.page.locator("#record .tricks-side")).to_be_visible()
    # the second declarer, and save: recorded
    p.tap(p.page.locator('#record .declarers label.tap:has(input[value="Dina"])'))
    p.save_and_wait(p.save_button())
    assert p.deal_rows()[1] == {"Anne": None, "Bert": 8, "Carl": -8, "Dina": 8, "Eric": -8}
    # the answer was the new row and what changed: the form is empty again, the error gone
    expect(p.page.locator("#record .field-errors")).to_have_count(0)
    expect(p.page.locator('#record input[name="contract"]:checked')).to_have_count(0)
    expect(p.page.locator('#record input[name="declarers"]:checked')).to_have_count(0)
    expect(p.page.locator('#record .tricks-side input[name="tricks"]')).to_have_value("")
    expect(p.page.locator("#record .declarers label.tap.out")).to_contain_text("Bert")  # Bert deals deal 2
    assert p.chips() == {"Anne": 0, "Bert": 8, "Carl": -8, "Dina": 8, "Eric": -8}
    p.shot("01b-recorded")

    # deal 2: Bert deals and would sit out, but Carl stepped away: Bert plays instead of him
    assert "sits out: Bert" in p.board_text("#board .next")
    p.tap(p.page.locator("#record details.options summary"))
    for name in ("Anne", "Bert", "Dina", "Eric"):
        p.tap(p.page.locator(f'#record .playing label.tap:has(input[value="{name}"])'))
    p.record_contract("alleen-5", ["Bert"])
    p.shot("02-someone-stepped-away")
    assert p.deal_rows()[2] == {"Anne": -3, "Bert": 9, "Carl": None, "Dina": -3, "Eric": -3}
    assert p.chips() == {"Anne": -3, "Bert": 17, "Carl": -8, "Dina": 5, "Eric": -11}
    assert p.chips() == p.export_report(evening.pk)["totals"]
    assert p.errors == []


@pytest.mark.browser
def test_a_deal_recorded_as_a_contract_can_be_corrected_into_an_all_pass(phone, scorer, make_evening):
    """Deal 1 was in fact an all pass. The correction page is the only place to change a deal
    in the middle of the evening (deleting it would shift every later dealer)."""
    four = ["Anne", "Bert", "Carl", "Dina"]
    evening = make_evening(
        "kleurenwiezen",
        four,
        stake=None,
        deals=[
            {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8},  # Anne deals
            {"contract": "alleen-5", "declarers": ["Carl"], "tricks": 5},
        ],
    )
    p = phone()
    p.login(scorer.username, next_path=f"/e/{evening.pk}/")
    with p.page.expect_navigation():
        p.tap(p.page.locator("#deal-1 .deal-actions a", has_text="Edit"))
    p.shot("01-edit-deal-1")
    all_pass = p.page.locator('form.record label.tap:has(input[name="contract"][value="pass"])')
    expect(all_pass, "the correction page offers no 'All pass' choice").to_have_count(1, timeout=2_000)
    p.tap(all_pass)
    with p.page.expect_navigation():
        p.tap(p.page.get_by_role("button", name="Save the correction"))
    expect(p.page.locator("#deal-1 .desc")).to_have_text("All pass")
    # after an all pass the next deal counts double: solo 5 made exactly, 3 x 2 per opponent
    assert p.deal_rows()[2] == {"Anne": -6, "Bert": -6, "Carl": 18, "Dina": -6}
    # and the page of an all-pass deal shows it as such
    with p.page.expect_navigation():
        p.tap(p.page.locator("#deal-1 .deal-actions a", has_text="Edit"))
    expect(p.page.locator('form.record input[name="contract"][value="pass"]')).to_be_checked()


@pytest.mark.browser
def test_the_notices_about_the_state_before_go_when_a_deal_is_recorded(phone, scorer, make_evening):
    four = ["Anne", "Bert", "Carl", "Dina"]
    evening = make_evening("kleurenwiezen", four, deals=[{"contract": "pass"}] * 3, stake=None)
    p = phone()
    p.login(scorer.username, next_path=f"/e/{evening.pk}/")
    # a message from the correction page
    with p.page.expect_navigation():
        p.tap(p.page.locator("#deal-1 .deal-actions a", has_text="Edit"))
    with p.page.expect_navigation():
        p.tap(p.page.get_by_role("button", name="Save the correction"))
    expect(p.page.locator("#board .messages")).to_contain_text("Deal 1 corrected")
    p.record_pass()
    # the correction's message is gone: the only notice left is the new deal's confirmation
    expect(p.page.locator("#board .messages .msg")).to_have_count(1)
    expect(p.page.locator("#board .messages .msg.saved")).to_contain_text("Deal 4 saved")
    # the undo of a deletion, offered until the next change
    p.delete_deal(4)
    expect(p.page.locator("#board form.undo")).to_contain_text("Deal 4 deleted.")
    p.record_pass()
    expect(p.page.locator("#board form.undo")).to_have_count(0)
    p.page.reload()
    expect(p.page.locator("#board form.undo")).to_have_count(0)  # the server no longer offers it either
    assert p.next_deal_number() == 5
    assert p.errors == []
