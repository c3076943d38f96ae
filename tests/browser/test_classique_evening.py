"""A classique (long whist) evening for four, played through the pages to the end of a robre.

Teams by default: seats 1 and 3 against seats 2 and 4, so Anne & Carl (team 0) against
Bert & Dina (team 1). docs/rules/classique.md: manche at 10, a trick over six is 1 point, 3 honours
score 2 and 4 score 4, tricks before honours, the claim at 8 (+2), manche value 3/2/1 by
the losers' points (0 / 1-4 / 5+), robre to two manches, robre bonus 2.

The robre, worked out by hand:

  deal  tricks A&C–B&D  honours        points after      manches
   1        7–6         none            1–0
   2        5–8         none            1–2
   3        9–4         3 to A&C        4+2 = 6–2
   4        8–5         none            8–2               (A&C stand at exactly 8)
   5     claim at 8 by A&C: 8+2 = 10 -> manche 1 to A&C, losers at 2 -> value 2     1–0
   6        4–9         4 to B&D        0–(3+4) = 0–7
   7        6–7         none            0–8               (B&D at 8; they play on)
   8        3–10        4 to A&C        B&D reach 12 by tricks: manche to B&D; the
                                         A&C honours are not counted (tricks first),
                                         so the losers stand at 0 -> value 3         1–1
   9       10–3         3 to A&C        4+2 = 6–0
  10       11–2         none            6+5 = 11 -> manche 3 (the belle) to A&C,
                                         losers at 0 -> value 3                      2–1

  Robre: A&C 2 + 3 + bonus 2 = 7, B&D 3: D = 4. Anne and Carl +4, Bert and Dina -4.
  (Had the honours of deal 8 counted, B&D's manche would be worth 2 and D would be 5.)
  Until deal 10 every total stays 0: a robre counts only when it ends.
"""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Anne", "Bert", "Carl", "Dina"]
ZERO = dict.fromkeys(PLAYERS, 0)

# (deal: (tricks of A&C, honours button) or "claim-0", manches after, points after, claims offered after)
PLAN = [
    ((7, None), (0, 0), (1, 0), []),
    ((5, None), (0, 0), (1, 2), []),
    ((9, "0-3"), (0, 0), (6, 2), []),
    ((8, None), (0, 0), (8, 2), ["Anne & Carl"]),
    ("claim-0", (1, 0), (0, 0), []),
    ((4, "1-4"), (1, 0), (0, 7), []),
    ((6, None), (1, 0), (0, 8), ["Bert & Dina"]),
    ((3, "0-4"), (1, 1), (0, 0), []),
    ((10, "0-3"), (1, 1), (6, 0), []),
]
LAST = (11, None)
ROBRE_TOTALS = {"Anne": 4, "Bert": -4, "Carl": 4, "Dina": -4}


def robre_line(p):
    text = p.board_text("#board .robre p:first-child")
    m = re.search(r"Robre (\d+) · manches (\d+) – (\d+) · this manche (\d+) – (\d+)", text)
    assert m, text
    n, m0, m1, p0, p1 = map(int, m.groups())
    return n, (m0, m1), (p0, p1)


def claims_offered(p):
    return [
        re.sub(r"^Show the honours at 8:\s*", "", " ".join(t.split()))
        for t in p.page.locator("#record button.claim").all_inner_texts()
    ]


@pytest.mark.browser
def test_a_classique_robre_with_honours_and_a_claim_at_8(phone, scorer):
    p = phone()
    p.login(scorer.username)
    p.goto("/evenings/new/")
    p.tap(p.page.locator('label.tap:has(input[name="ruleset"][value="classique"])'))
    for seat, name in enumerate(PLAYERS):
        p.page.locator(f'input[name="player_{seat}"]').fill(name)
    p.page.locator('select[name="first_dealer"]').select_option("0")
    with p.page.expect_navigation():
        p.tap(p.page.get_by_role("button", name="Start the evening"))
    pk = int(re.search(r"/e/(\d+)/$", p.page.url).group(1))
    p.shot("01-empty-board")

    expect(p.page.locator("#board .robre .teams")).to_have_text(re.compile(r"Anne & Carl\s+against\s+Bert & Dina"))
    expect(p.page.locator("#record .classic-tricks legend")).to_have_text("Tricks of Anne & Carl")
    assert robre_line(p) == (1, (0, 0), (0, 0))
    assert claims_offered(p) == []
    assert p.chips() == ZERO

    for number, (deal, manches, points, claims) in enumerate(PLAN, start=1):
        if deal == "claim-0":
            button = p.page.locator("#record button.claim", has_text="Anne & Carl")
            start = p.taps
            p.save_and_wait(button)
            assert p.taps - start == 1
        else:
            tricks, honours = deal
            taps = p.record_classic(tricks, honours)
            if number == 1:  # 7–6, no honours: 7 on the keypad, save
                assert taps == 2
                p.log_taps("classic deal (7-6, no honours)", taps)
        assert robre_line(p) == (1, manches, points), f"after deal {number}"
        assert claims_offered(p) == claims, f"after deal {number}"
        assert p.chips() == ZERO, f"a robre in progress changed the totals (deal {number})"
        if number in (3, 4, 5, 8):
            p.shot(f"02-deal-{number:02d}")

    p.record_classic(*LAST)
    p.shot("03-robre-over")
    assert p.chips() == ROBRE_TOTALS
    assert robre_line(p) == (2, (0, 0), (0, 0))
    expect(p.page.locator("#board .robre")).to_contain_text("Robre 1: 7 – 3")
    rows = p.deal_rows()
    assert rows[10] == ROBRE_TOTALS
    # deals inside a robre move the manche score, not the totals: no per-player line for them
    assert all(rows[n] == {} for n in range(1, 10)), rows
    expect(p.page.locator("#deal-5 .desc")).to_have_text("Anne & Carl show their honours at 8")
    expect(p.page.locator("#deal-8 .desc")).to_have_text("Anne & Carl 3 – 10 Bert & Dina · 4 honours Anne & Carl")
    # a new robre: the partnerships may change now
    expect(p.page.locator("#board details.robre-form summary")).to_have_text("Change the partnerships for this robre")

    report = p.export_report(pk)
    assert report["totals"] == p.chips()
    assert [d["deltas"] for d in report["deals"]] == [{}] * 9 + [ROBRE_TOTALS]
    assert p.errors == []
