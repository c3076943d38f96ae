"""The scoring page (/e/<pk>/): totals, whose deal it is, recording deals, adjustments,
robres, form errors, access rules and closed evenings.

Expected points are worked out by hand from the grids (docs/rules/):
- kleurenwiezen samen 9 made with 10 tricks: 14 each (one overtrick), opponents -14.
- kleurenwiezen grote miserie, Anne 0 tricks (made), Bert 1 (failed), each vs the table:
  Anne +36 +12 = +48, Bert -12 -36 = -48, Carl and Dina 0 (the published worked check).
- kleurenwiezen troel with a changed trump needs 9: 8 tricks fail, -16 flat each.
- encheres petite misère à deux, Anne 0, Carl 1, failed on an empty bête: the floor is the
  value 10; Carl, who took the trick, pays; Bert, made to take a trick (exposed fault),
  pays half: Carl -5, Bert -5, bête 10.
- encheres solo failed with 5 tricks on an empty bête: Anne pays the value 8 into the bête.
- classique 9 tricks to 4 with 3 honours: 3 trick points + 2 honour points = 5.
  12 tricks to 1 with 3 honours: 6 + 2 = 8, so the team stands at 8 and may claim.
"""

import re

import pytest
from django.urls import reverse

import pages
from pages import Element, Page, body, chip_name, datas, every_error, field_errors, player_chips, totals, url
from scorebook.evenings.models import Deal, DealRevision, Evening

pytestmark = pytest.mark.django_db

FOUR = ("Anne", "Bert", "Carl", "Dina")
FIVE = ("Anne", "Bert", "Carl", "Dina", "Eric")
HTMX = {"HTTP_HX_REQUEST": "true"}
UNIT_SEP = "\x1f"


# --- helpers ----------------------------------------------------------------------------------


def bete(html: str) -> int | None:
    pot = Page(html).all("#totals .chip.pot")
    return int(pot[0].one(".chip-total").text) if pot else None


def leaders(html: str) -> list[str]:
    """The players whose chip is marked as leading and wears the crown."""
    return [chip_name(c) for c in player_chips(html) if "leader" in c.classes and c.find(".chip-name .crown")]


def non_field_errors(html: str) -> str:
    return " ".join(Page(html).texts("div.errors"))


def teams(html: str) -> tuple[str, str]:
    """The two teams of the robre line, as the page writes them."""
    page = Page(html)
    return page.one("span.team.t0").text, page.one("span.team.t1").text


def dealer(html: str) -> str:
    """Who deals next: the bold name of the line "<name> deals"."""
    line = Page(html).one("#next .dealer-line")
    name = line.one("strong").text
    assert line.text == f"{name} deals", line.text
    return name


def this_manche(html: str) -> str:
    """The points of the manche being played, bold after "this manche" on the robre line."""
    line = Page(html).find("#robre p")
    bold = line.all("strong")[1].text
    assert f"this manche {bold}" in line.text, line.text
    return bold


def double_badge(html: str) -> Element:
    """The "after all pass" badge of the next deal (kept, hidden, for the page to show offline)."""
    return Page(html).one("#next span.badge")


def listed(html: str) -> list[int]:
    """The numbers of the deals in the list, top to bottom."""
    return [int(li.id.removeprefix("deal-")) for li in Page(html).all("#deals > li.deal")]


def is_partial(response) -> bool:
    return pages.is_partial(body(response))


def is_recorded(response) -> bool:
    """The htmx answer to a recorded line: the board after it, where the form's hx-target says."""
    return response.status_code == 200 and is_partial(response) and "HX-Retarget" not in response


def page(client, evening) -> str:
    response = client.get(url("evening", evening))
    assert response.status_code == 200
    return body(response)


# --- the page ---------------------------------------------------------------------------------


def test_it_shows_every_players_total_and_the_leaders(scorer_client, make_evening):
    evening = make_evening(deals=[{"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}])
    html = page(scorer_client, evening)
    assert totals(html) == {"Anne": 14, "Bert": -14, "Carl": 14, "Dina": -14}
    assert leaders(html) == ["Anne", "Carl"]


def test_it_marks_no_leader_before_anyone_scored(scorer_client, make_evening):
    html = page(scorer_client, make_evening())
    assert totals(html) == dict.fromkeys(FOUR, 0)
    assert leaders(html) == []
    assert "No deal yet." in html


def test_it_says_whose_deal_it_is_and_who_sits_out_with_five_players(scorer_client, make_evening):
    evening = make_evening(players=FIVE, first_dealer=2)
    html = page(scorer_client, evening)
    assert "Deal 1" in html
    assert dealer(html) == "Carl"
    assert "sits out: Carl" in html
    assert [chip_name(c) for c in player_chips(html) if "out" in c.classes] == ["Carl"]


def test_it_moves_the_deal_to_the_left_after_a_played_deal(scorer_client, make_evening):
    evening = make_evening(
        players=FIVE, first_dealer=2, deals=[{"contract": "samen-8", "declarers": ["Dina", "Anne"], "tricks": 8}]
    )
    html = page(scorer_client, evening)
    assert "Deal 2" in html
    assert dealer(html) == "Dina"
    assert "sits out: Dina" in html


def test_it_says_nobody_sits_out_with_four_players(scorer_client, make_evening):
    html = page(scorer_client, make_evening(first_dealer=1))
    assert dealer(html) == "Bert"
    out_line = Page(html).one("#next .out-line")  # the line that names who sits out is empty
    assert out_line.has("hidden") and out_line.text == ""


def test_it_shows_the_bete_for_encheres(scorer_client, make_evening):
    evening = make_evening("encheres", deals=[{"contract": "solo", "declarers": ["Anne"], "tricks": 5}])
    html = page(scorer_client, evening)
    assert bete(html) == 8
    assert totals(html) == {"Anne": -8, "Bert": 0, "Carl": 0, "Dina": 0}


def test_it_shows_no_bete_outside_encheres(scorer_client, make_evening):
    assert bete(page(scorer_client, make_evening("kleurenwiezen"))) is None


def test_it_shows_the_robre_line_for_classique(scorer_client, make_evening):
    evening = make_evening("classique", deals=[{"tricks": [9, 4], "honours": [3, 0]}])
    html = page(scorer_client, evening)
    assert "Robre 1" in html
    assert "manches 0 – 0" in html
    assert this_manche(html) == "5 – 0"
    assert teams(html) == ("Anne & Carl", "Bert & Dina")
    assert totals(html) == dict.fromkeys(FOUR, 0)  # an unfinished robre changes no total


def test_it_shows_the_double_badge_after_an_all_pass_in_kleurenwiezen(scorer_client, make_evening):
    evening = make_evening(deals=[{"contract": "pass"}])
    html = page(scorer_client, evening)
    badge = double_badge(html)
    assert not badge.has("hidden") and badge.text == "×2 after all pass" and badge.one(".mult").text == "2"
    assert dealer(html) == "Anne"  # the same dealer deals again


def test_it_shows_no_double_badge_before_any_pass(scorer_client, make_evening):
    assert double_badge(page(scorer_client, make_evening())).has("hidden")  # there for the page to show offline


def test_it_shows_no_double_badge_where_passes_do_not_double(scorer_client, make_evening):
    evening = make_evening("liege", deals=[{"contract": "pass"}])
    assert double_badge(page(scorer_client, evening)).has("hidden")


def test_it_lists_the_deals_newest_first(scorer_client, make_evening):
    evening = make_evening(
        deals=[
            {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10},
            {"contract": "pass"},
        ]
    )
    html = page(scorer_client, evening)
    assert listed(html) == [2, 1]
    assert "All pass" in html


def test_it_hides_the_evening_from_an_outsider(outsider_client, make_evening):
    response = outsider_client.get(url("evening", make_evening()))
    assert response.status_code == 404


def test_it_answers_404_for_an_evening_that_does_not_exist(scorer_client):
    assert scorer_client.get(reverse("evening", args=[999_999])).status_code == 404


def test_it_lets_staff_see_any_evening(client, staff, make_evening):
    client.force_login(staff)
    assert client.get(url("evening", make_evening())).status_code == 200


def test_it_answers_htmx_with_the_board_partial_only(scorer_client, make_evening):
    response = scorer_client.get(url("evening", make_evening()), **HTMX)
    assert response.status_code == 200
    assert is_partial(response)


# --- recording --------------------------------------------------------------------------------


@pytest.mark.both_databases
def test_it_records_a_pair_contract_made(scorer_client, make_evening):
    evening = make_evening()
    response = scorer_client.post(
        url("deal_record", evening), {"contract": "samen-9", "declarers": ["Carl", "Anne"], "tricks": "10"}
    )
    assert response.status_code == 302
    assert response["Location"] == url("evening", evening)
    assert datas(evening) == [{"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}]
    deal = Deal.objects.get(evening=evening)
    assert deal.number == 1
    assert deal.recorded_by.username == "marie"
    html = page(scorer_client, evening)
    assert totals(html) == {"Anne": 14, "Bert": -14, "Carl": 14, "Dina": -14}
    assert "Deal 2" in html


@pytest.mark.both_databases
def test_it_answers_an_htmx_record_with_the_board_after_it_and_a_fresh_form(scorer_client, make_evening):
    evening = make_evening(deals=[{"contract": "pass"}])
    response = scorer_client.post(
        url("deal_record", evening),
        {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": "10", "request_key": "sent-key"},
        **HTMX,
    )
    assert is_recorded(response)
    html = body(response)
    row = Page(html).one("li#deal-2")
    assert row.classes == {"deal"} and row.one(".badge").text == "×2"  # the row says the all pass doubled it
    assert totals(html) == {"Anne": 28, "Bert": -28, "Carl": 28, "Dina": -28}
    assert "Deal 3" in html
    keys = [field.get("value") for field in Page(html).all("input#id_request_key[name=request_key]")]
    assert (
        len(keys) == 1 and re.fullmatch(r"[0-9a-f]+", keys[0]) and keys[0] != "sent-key"
    )  # a new key for the next deal
    assert "samen-9" in [radio.get("value") for radio in Page(html).inputs("contract")]
    assert Page(html).checked("contract") == []  # the fresh form has no contract tapped
    assert Deal.objects.filter(evening=evening).count() == 2


@pytest.mark.both_databases
def test_it_marks_who_sits_out_the_next_deal_in_an_htmx_answer(scorer_client, make_evening):
    evening = make_evening(players=["Anne", "Bert", "Carl", "Dina", "Eric"])  # Anne deals first and sits out
    response = scorer_client.post(
        url("deal_record", evening), {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": "8"}, **HTMX
    )
    html = body(response)
    assert "sits out: Bert" in html  # Bert deals the second deal
    out = [label.one("input[name=declarers]").get("value") for label in Page(html).all("label.tap.person.out")]
    assert out == ["Bert"]


@pytest.mark.both_databases
def test_it_answers_an_htmx_record_that_the_engine_refuses_with_the_board_and_the_reason(scorer_client, make_evening):
    evening = make_evening()
    response = scorer_client.post(
        url("deal_record", evening), {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": "14"}, **HTMX
    )
    assert response.status_code == 422 and is_partial(response)
    assert "HX-Retarget" not in response


@pytest.mark.both_databases
def test_it_records_one_deal_when_the_same_request_key_is_posted_twice(scorer_client, make_evening):
    evening = make_evening()
    data = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": "10", "request_key": "tap-1"}
    first = scorer_client.post(url("deal_record", evening), data)
    second = scorer_client.post(url("deal_record", evening), data)
    assert first.status_code == 302 and second.status_code == 302
    assert Deal.objects.filter(evening=evening).count() == 1
    assert totals(page(scorer_client, evening))["Anne"] == 14


@pytest.mark.both_databases
def test_it_records_one_deal_when_the_same_request_key_is_posted_twice_with_htmx(scorer_client, make_evening):
    evening = make_evening()
    data = {"contract": "pass", "request_key": "tap-2-pass"}
    first = scorer_client.post(url("deal_record", evening), data, **HTMX)
    second = scorer_client.post(url("deal_record", evening), data, **HTMX)
    assert first.status_code == 200 and second.status_code == 200
    assert is_partial(second)
    assert Deal.objects.filter(evening=evening).count() == 1


@pytest.mark.both_databases
def test_it_records_two_deals_with_two_request_keys(scorer_client, make_evening):
    evening = make_evening()
    scorer_client.post(url("deal_record", evening), {"contract": "pass", "request_key": "a"})
    scorer_client.post(url("deal_record", evening), {"contract": "pass", "request_key": "b"})
    assert Deal.objects.filter(evening=evening).count() == 2


def test_it_gives_the_record_form_a_fresh_request_key(scorer_client, make_evening):
    evening = make_evening()
    keys = [Page(page(scorer_client, evening)).field_value("request_key") for _ in range(2)]
    assert keys[0] and keys[0] != keys[1]


@pytest.mark.both_databases
def test_it_records_an_all_pass(scorer_client, make_evening):
    evening = make_evening()
    response = scorer_client.post(url("deal_record", evening), {"contract": "pass"})
    assert response.status_code == 302
    assert datas(evening) == [{"contract": "pass"}]
    html = page(scorer_client, evening)
    assert totals(html) == dict.fromkeys(FOUR, 0)
    badge = double_badge(html)
    assert not badge.has("hidden") and badge.text == "×2 after all pass" and badge.one(".mult").text == "2"
    # the next deal counts double: samen 8 made exactly, 8 x 2
    scorer_client.post(
        url("deal_record", evening), {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": "8"}
    )
    html = page(scorer_client, evening)
    assert totals(html) == {"Anne": -16, "Bert": 16, "Carl": -16, "Dina": 16}
    assert double_badge(html).has("hidden")


@pytest.mark.both_databases
def test_it_records_a_misere_with_two_declarers_and_their_own_tricks(scorer_client, make_evening):
    evening = make_evening()
    response = scorer_client.post(
        url("deal_record", evening),
        {"contract": "grote-miserie", "declarers": ["Anne", "Bert"], "tricks_0": "0", "tricks_1": "1", "tricks_2": "5"},
    )
    assert response.status_code == 302
    assert datas(evening) == [
        {"contract": "grote-miserie", "declarers": ["Anne", "Bert"], "tricks": {"Anne": 0, "Bert": 1}}
    ]
    assert totals(page(scorer_client, evening)) == {"Anne": 48, "Bert": -48, "Carl": 0, "Dina": 0}


@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("changed", "expected"),
    [
        (True, {"Anne": -16, "Bert": 16, "Carl": -16, "Dina": 16}),  # needs 9 after a changed trump
        (False, {"Anne": 16, "Bert": -16, "Carl": 16, "Dina": -16}),  # needs 8
    ],
)
def test_it_records_a_troel_with_or_without_a_changed_trump(scorer_client, make_evening, changed, expected):
    evening = make_evening()
    data = {"contract": "troel", "declarers": ["Anne", "Carl"], "tricks": "8"}
    if changed:
        data["trump_changed"] = "on"
    assert scorer_client.post(url("deal_record", evening), data).status_code == 302
    stored = {"contract": "troel", "declarers": ["Anne", "Carl"], "tricks": 8}
    if changed:
        stored["trump_changed"] = True
    assert datas(evening) == [stored]
    assert totals(page(scorer_client, evening)) == expected


@pytest.mark.both_databases
def test_it_records_an_encheres_misere_a_deux_with_an_exposed_fault(scorer_client, make_evening):
    evening = make_evening("encheres")
    response = scorer_client.post(
        url("deal_record", evening),
        {
            "contract": "petite-misere-a-deux",
            "declarers": ["Anne", "Carl"],
            "tricks_0": "0",
            "tricks_2": "1",
            "exposed_fault": "Bert",
        },
    )
    assert response.status_code == 302
    assert datas(evening) == [
        {
            "contract": "petite-misere-a-deux",
            "declarers": ["Anne", "Carl"],
            "tricks": {"Anne": 0, "Carl": 1},
            "exposed_fault": "Bert",
        }
    ]
    html = page(scorer_client, evening)
    assert totals(html) == {"Anne": 0, "Bert": -5, "Carl": -5, "Dina": 0}
    assert bete(html) == 10


@pytest.mark.both_databases
def test_it_records_who_plays_when_someone_stepped_away(scorer_client, make_evening):
    evening = make_evening(players=FIVE)  # Anne deals and would sit out
    response = scorer_client.post(
        url("deal_record", evening),
        {
            "contract": "samen-8",
            "declarers": ["Anne", "Bert"],
            "tricks": "8",
            "playing": ["Eric", "Anne", "Bert", "Carl"],
        },
    )
    assert response.status_code == 302
    assert datas(evening) == [
        {"contract": "samen-8", "declarers": ["Anne", "Bert"], "tricks": 8, "playing": ["Anne", "Bert", "Carl", "Eric"]}
    ]
    assert totals(page(scorer_client, evening)) == {"Anne": 8, "Bert": 8, "Carl": -8, "Dina": 0, "Eric": -8}


@pytest.mark.both_databases
def test_it_records_an_adjustment(scorer_client, make_evening):
    evening = make_evening()
    response = scorer_client.post(
        url("adjustment", evening),
        {"adj-points_0": "-5", "adj-points_1": "5", "adj-points_2": "", "adj-note": "revoke"},
    )
    assert response.status_code == 302
    assert datas(evening) == [{"adjustment": {"Anne": -5, "Bert": 5}, "note": "revoke"}]
    html = page(scorer_client, evening)
    assert totals(html) == {"Anne": -5, "Bert": 5, "Carl": 0, "Dina": 0}
    assert "Adjustment: revoke" in html


@pytest.mark.both_databases
def test_it_answers_an_htmx_adjustment_with_its_row_and_the_new_totals(scorer_client, make_evening):
    evening = make_evening()
    response = scorer_client.post(url("adjustment", evening), {"adj-points_3": "7"}, **HTMX)
    assert is_recorded(response)
    assert totals(body(response))["Dina"] == 7
    assert re.fullmatch(r"[0-9a-f]{32}", Page(body(response)).field_value("adj-request_key"))
    assert datas(evening) == [{"adjustment": {"Dina": 7}}]


@pytest.mark.both_databases
def test_it_refuses_an_adjustment_without_points(scorer_client, make_evening):
    evening = make_evening()
    response = scorer_client.post(url("adjustment", evening), {"adj-points_0": "0", "adj-note": "nothing"})
    assert response.status_code == 422
    assert "Give points to at least one player." in non_field_errors(body(response))
    assert Deal.objects.filter(evening=evening).count() == 0


@pytest.mark.both_databases
def test_it_refuses_an_adjustment_without_points_with_htmx(scorer_client, make_evening):
    evening = make_evening()
    response = scorer_client.post(url("adjustment", evening), {"adj-note": "nothing"}, **HTMX)
    assert response.status_code == 422
    assert is_partial(response)
    assert "Give points to at least one player." in non_field_errors(body(response))
    assert Deal.objects.filter(evening=evening).count() == 0


# --- classic whist ----------------------------------------------------------------------------


@pytest.mark.both_databases
def test_it_records_a_classic_deal_with_honours(scorer_client, make_evening):
    evening = make_evening("classique")
    response = scorer_client.post(url("deal_record", evening), {"tricks": "9", "honours": "0-3"})
    assert response.status_code == 302
    assert datas(evening) == [{"tricks": [9, 4], "honours": [3, 0]}]
    html = page(scorer_client, evening)
    assert this_manche(html) == "5 – 0"
    assert "Anne & Carl 9 – 4 Bert & Dina" in Page(html).text


@pytest.mark.both_databases
def test_it_records_a_classic_deal_without_honours(scorer_client, make_evening):
    evening = make_evening("classique")
    scorer_client.post(url("deal_record", evening), {"tricks": "5", "honours": "none"})
    assert datas(evening) == [{"tricks": [5, 8], "honours": [0, 0]}]
    assert this_manche(page(scorer_client, evening)) == "0 – 2"


@pytest.mark.both_databases
def test_it_records_the_honours_of_the_second_team(scorer_client, make_evening):
    evening = make_evening("classique")
    scorer_client.post(url("deal_record", evening), {"tricks": "7", "honours": "1-4"})
    assert datas(evening) == [{"tricks": [7, 6], "honours": [0, 4]}]
    assert this_manche(page(scorer_client, evening)) == "1 – 4"


def test_it_offers_the_claim_only_to_a_team_standing_at_8(scorer_client, make_evening):
    evening = make_evening("classique", deals=[{"tricks": [9, 4], "honours": [3, 0]}])  # 5 - 0
    assert Page(page(scorer_client, evening)).inputs("claim") == []
    evening = make_evening("classique", deals=[{"tricks": [12, 1], "honours": [3, 0]}])  # 8 - 0
    html = page(scorer_client, evening)
    assert this_manche(html) == "8 – 0"
    assert [button.get("value") for button in Page(html).inputs("claim")] == ["0"]


@pytest.mark.both_databases
def test_it_accepts_a_claim_at_8(scorer_client, make_evening):
    evening = make_evening("classique", deals=[{"tricks": [12, 1], "honours": [3, 0]}])
    response = scorer_client.post(url("deal_record", evening), {"tricks": "7", "honours": "none", "claim": "0"})
    assert response.status_code == 302
    assert datas(evening)[-1] == {"claim": 0}
    html = page(scorer_client, evening)
    assert "manches 1 – 0" in html
    assert this_manche(html) == "0 – 0"
    assert "Anne & Carl show their honours at 8" in Page(html).text


@pytest.mark.both_databases
def test_it_refuses_a_claim_when_the_team_does_not_stand_at_8(scorer_client, make_evening):
    evening = make_evening("classique", deals=[{"tricks": [9, 4], "honours": [3, 0]}])  # 5 - 0
    response = scorer_client.post(url("deal_record", evening), {"tricks": "7", "honours": "none", "claim": "0"})
    assert response.status_code == 422
    assert "team 0 stands at 5, not 8: it cannot claim" in field_errors(body(response), "claim")
    assert Deal.objects.filter(evening=evening).count() == 1


@pytest.mark.both_databases
def test_it_refuses_a_claim_at_8_with_htmx(scorer_client, make_evening):
    evening = make_evening("classique")
    response = scorer_client.post(url("deal_record", evening), {"claim": "1"}, **HTMX)
    assert response.status_code == 422
    assert is_partial(response)
    assert "cannot claim" in field_errors(body(response), "claim")
    assert Deal.objects.filter(evening=evening).count() == 0


@pytest.mark.both_databases
def test_it_refuses_a_classic_deal_without_tricks(scorer_client, make_evening):
    evening = make_evening("classique")
    response = scorer_client.post(url("deal_record", evening), {"tricks": "", "honours": "none"})
    assert response.status_code == 422
    assert "Give the tricks of the first team." in field_errors(body(response), "tricks")
    assert Deal.objects.filter(evening=evening).count() == 0


@pytest.mark.both_databases
def test_it_refuses_five_honours_in_classique(scorer_client, make_evening):
    evening = make_evening("classique")
    response = scorer_client.post(url("deal_record", evening), {"tricks": "7", "honours": "0-5"})
    assert response.status_code == 422
    assert field_errors(body(response), "honours")
    assert Deal.objects.filter(evening=evening).count() == 0


def test_it_offers_the_partnerships_before_the_first_deal_of_a_robre(scorer_client, make_evening):
    html = page(scorer_client, make_evening("classique"))
    assert Page(html).inputs("robre-choice")
    assert f"Anne{UNIT_SEP}Carl{UNIT_SEP}Bert{UNIT_SEP}Dina" in html  # the current teams, pre-selected
    html = page(scorer_client, make_evening("classique", deals=[{"tricks": [7, 6]}]))
    assert Page(html).inputs("robre-choice") == []


@pytest.mark.both_databases
def test_it_starts_a_robre_with_new_partnerships(scorer_client, make_evening):
    evening = make_evening("classique")
    choice = UNIT_SEP.join(["Anne", "Bert", "Carl", "Dina"])
    response = scorer_client.post(url("robre_start", evening), {"robre-choice": choice})
    assert response.status_code == 302
    assert datas(evening) == [{"robre": {"teams": [["Anne", "Bert"], ["Carl", "Dina"]]}}]
    html = page(scorer_client, evening)
    assert teams(html) == ("Anne & Bert", "Carl & Dina")
    # the next deal is counted for the new teams
    scorer_client.post(url("deal_record", evening), {"tricks": "9", "honours": "none"})
    assert "Anne & Bert 9 – 4 Carl & Dina" in Page(page(scorer_client, evening)).text


@pytest.mark.both_databases
def test_it_starts_a_robre_with_htmx(scorer_client, make_evening):
    evening = make_evening("classique")
    choice = UNIT_SEP.join(["Anne", "Dina", "Bert", "Carl"])
    response = scorer_client.post(url("robre_start", evening), {"robre-choice": choice}, **HTMX)
    assert is_recorded(response)
    assert teams(body(response)) == ("Anne & Dina", "Bert & Carl")
    # the record form comes again, for the new partnerships
    assert "Tricks of Anne & Dina" in Page(body(response)).text


@pytest.mark.both_databases
def test_it_refuses_partnerships_that_are_not_offered(scorer_client, make_evening):
    evening = make_evening("classique")
    response = scorer_client.post(url("robre_start", evening), {"robre-choice": "Anne\x1fAnne\x1fBert\x1fCarl"})
    assert response.status_code == 422
    assert field_errors(body(response), "robre-choice")
    assert Deal.objects.filter(evening=evening).count() == 0


@pytest.mark.both_databases
def test_it_refuses_a_new_robre_while_one_is_in_progress_and_says_why(scorer_client, make_evening):
    evening = make_evening("classique", deals=[{"tricks": [7, 6]}])
    choice = UNIT_SEP.join(["Anne", "Bert", "Carl", "Dina"])
    response = scorer_client.post(url("robre_start", evening), {"robre-choice": choice})
    assert response.status_code == 422
    assert Deal.objects.filter(evening=evening).count() == 1
    assert "the robre in progress is not finished" in every_error(body(response))


@pytest.mark.both_databases
def test_it_has_no_robre_for_contract_games(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen")
    response = scorer_client.post(url("robre_start", evening), {"robre-choice": "x"})
    assert response.status_code == 404
    assert Deal.objects.filter(evening=evening).count() == 0


# --- form errors ------------------------------------------------------------------------------

SAMEN = {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": "8"}

ERRORS = {
    "no contract": ({"declarers": ["Bert", "Dina"], "tricks": "8"}, "contract", ""),
    "unknown contract": ({**SAMEN, "contract": "bridge"}, "contract", ""),
    "no declarers": ({"contract": "samen-8", "tricks": "8"}, "declarers", "Tap the declaring player(s)."),
    "missing tricks": (
        {"contract": "samen-8", "declarers": ["Bert", "Dina"]},
        "tricks",
        "Give the tricks of the declaring side.",
    ),
    "missing tricks of a misere declarer": (
        {"contract": "grote-miserie", "declarers": ["Bert", "Dina"], "tricks_1": "0"},
        "tricks",
        "Give the tricks of Dina.",
    ),
    "declarer sitting out": (
        {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": "8"},
        "declarers",
        "Anne is sitting out this deal and cannot declare",
    ),
    "14 tricks": ({**SAMEN, "tricks": "14"}, "tricks", "13"),
    "negative tricks": ({**SAMEN, "tricks": "-1"}, "tricks", "0"),
    "14 tricks between two misere declarers": (
        {"contract": "grote-miserie", "declarers": ["Bert", "Carl"], "tricks_1": "7", "tricks_2": "7"},
        "tricks",
        "14 tricks in all: a deal has only 13",
    ),
    "too many declarers for a pair": (
        {"contract": "samen-8", "declarers": ["Bert", "Carl", "Dina"], "tricks": "8"},
        "declarers",
        "together 8 is played by 2 declarers, not 3",
    ),
    "too many declarers for a solo": (
        {"contract": "alleen-5", "declarers": ["Bert", "Carl"], "tricks": "5"},
        "declarers",
        "solo 5 is played by 1 declarer, not 2",
    ),
    "one declarer for a pair": (
        {"contract": "samen-8", "declarers": ["Bert"], "tricks": "8"},
        "declarers",
        "together 8 is played by 2 declarers, not 1",
    ),
    "changed trump outside troel": (
        {**SAMEN, "trump_changed": "on"},
        "trump_changed",
        "together 8 has no changed trump",
    ),
    "three players play": ({**SAMEN, "playing": ["Bert", "Carl", "Dina"]}, "playing", "Four players play a deal."),
}


@pytest.fixture
def five(make_evening):
    """Five at the table, Anne deals and sits out."""
    return make_evening(players=FIVE)


@pytest.mark.both_databases
@pytest.mark.parametrize(("data", "field", "words"), list(ERRORS.values()), ids=list(ERRORS))
def test_it_refuses_an_impossible_deal_and_says_why_next_to_the_field(scorer_client, five, data, field, words):
    before = Deal.objects.count()
    response = scorer_client.post(url("deal_record", five), data)
    assert response.status_code == 422
    html = body(response)
    assert Page(html).find("html") is not None  # the whole page without htmx
    errors = field_errors(html, field)
    assert errors, f"no error next to {field}: {every_error(html)!r}"
    assert words in errors
    assert Deal.objects.count() == before


@pytest.mark.both_databases
@pytest.mark.parametrize(("data", "field", "words"), list(ERRORS.values()), ids=list(ERRORS))
def test_it_refuses_an_impossible_deal_with_htmx_and_answers_the_partial(scorer_client, five, data, field, words):
    before = Deal.objects.count()
    response = scorer_client.post(url("deal_record", five), data, **HTMX)
    assert response.status_code == 422
    assert is_partial(response)
    assert words in field_errors(body(response), field)
    assert Deal.objects.count() == before


@pytest.mark.both_databases
def test_it_refuses_an_exposed_fault_on_a_made_misere_a_deux(scorer_client, make_evening):
    evening = make_evening("encheres")
    data = {
        "contract": "petite-misere-a-deux",
        "declarers": ["Anne", "Carl"],
        "tricks_0": "0",
        "tricks_2": "0",
        "exposed_fault": "Bert",
    }
    response = scorer_client.post(url("deal_record", evening), data)
    assert response.status_code == 422
    assert "an exposed fault needs a failed misère" in field_errors(body(response), "exposed_fault")
    assert Deal.objects.filter(evening=evening).count() == 0


@pytest.mark.both_databases
def test_it_refuses_a_declarer_as_the_exposed_fault(scorer_client, make_evening):
    evening = make_evening("encheres")
    data = {
        "contract": "petite-misere-a-deux",
        "declarers": ["Anne", "Carl"],
        "tricks_0": "0",
        "tricks_2": "1",
        "exposed_fault": "Carl",
    }
    response = scorer_client.post(url("deal_record", evening), data)
    assert response.status_code == 422
    assert "Carl is not an opponent in this deal" in field_errors(body(response), "exposed_fault")
    assert Deal.objects.filter(evening=evening).count() == 0


@pytest.mark.both_databases
def test_it_keeps_what_was_tapped_when_it_refuses(scorer_client, five):
    response = scorer_client.post(
        url("deal_record", five), {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": "9"}
    )
    html = body(response)
    form = Page(html)
    assert form.checked("contract") == ["samen-8"]
    assert "Carl" in form.checked("declarers")
    tricks = form.one("input#id_tricks[name=tricks]")
    assert (tricks.get("inputmode"), tricks.get("min"), tricks.get("max"), tricks.get("value")) == (
        "numeric",
        "0",
        "13",
        "9",
    )


@pytest.mark.both_databases
def test_it_puts_nothing_in_the_list_after_a_refused_deal(scorer_client, five):
    scorer_client.post(url("deal_record", five), {"contract": "samen-8", "tricks": "8"})
    html = page(scorer_client, five)
    assert "No deal yet." in html
    assert "Deal 1" in html


# --- methods and access -----------------------------------------------------------------------


@pytest.fixture
def deleted(make_evening, scorer):
    """A classic evening (so that every write URL exists) with a deletion that can be undone."""
    from scorebook.evenings import services

    evening = make_evening("classique", deals=[{"tricks": [7, 6]}, {"tricks": [8, 5]}])
    revision = services.delete_deal(evening, 2, scorer)
    return evening, revision


def post_only_urls(evening, revision):
    return [
        url("deal_record", evening),
        url("adjustment", evening),
        url("robre_start", evening),
        url("deal_delete", evening, 1),
        url("deal_restore", evening, revision.pk),
    ]


def test_it_answers_405_to_a_get_on_the_post_only_urls(scorer_client, deleted):
    evening, revision = deleted
    before = datas(evening)
    for address in post_only_urls(evening, revision):
        assert scorer_client.get(address).status_code == 405, address
    assert datas(evening) == before
    assert DealRevision.objects.filter(evening=evening).count() == 1


@pytest.mark.both_databases
def test_it_answers_404_to_an_outsiders_posts_and_saves_nothing(outsider_client, deleted):
    evening, revision = deleted
    before = datas(evening)
    writes = {
        url("deal_record", evening): {"tricks": "9", "honours": "none"},
        url("adjustment", evening): {"adj-points_0": "5"},
        url("robre_start", evening): {"robre-choice": UNIT_SEP.join(FOUR)},
        url("deal_delete", evening, 1): {},
        url("deal_restore", evening, revision.pk): {},
        url("deal_edit", evening, 1): {"tricks": "13", "honours": "none"},
    }
    for address, data in writes.items():
        assert outsider_client.post(address, data).status_code == 404, address
        assert outsider_client.post(address, data, **HTMX).status_code == 404, address
    assert datas(evening) == before
    assert DealRevision.objects.filter(evening=evening).count() == 1


def test_it_sends_anonymous_posts_to_the_login_page_and_saves_nothing(client, make_evening):
    evening = make_evening()
    response = client.post(url("deal_record", evening), SAMEN)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert Deal.objects.count() == 0


@pytest.mark.both_databases
def test_it_answers_404_when_recording_on_an_evening_that_does_not_exist(scorer_client):
    response = scorer_client.post(reverse("deal_record", args=[999_999]), SAMEN)
    assert response.status_code == 404


# --- a closed evening -------------------------------------------------------------------------


@pytest.fixture
def closed(make_evening):
    evening = make_evening(deals=[{"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}])
    Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.CLOSED)
    evening.refresh_from_db()
    return evening


def test_it_says_a_closed_evening_is_closed_and_offers_no_form(scorer_client, closed):
    html = page(scorer_client, closed)
    assert "This evening is closed." in html
    assert Page(html).by_id("record") is None
    assert url("deal_delete", closed, 1) not in html
    assert totals(html) == {"Anne": 14, "Bert": -14, "Carl": 14, "Dina": -14}


@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("deal_record", {"contract": "pass"}),
        ("deal_record", SAMEN),
        ("adjustment", {"adj-points_0": "5"}),
    ],
)
def test_it_refuses_to_write_on_a_closed_evening(scorer_client, closed, name, data):
    response = scorer_client.post(url(name, closed), data, follow=True)
    assert response.status_code == 200
    html = body(response)
    assert "This evening is closed: reopen it to change a deal." in html
    assert datas(closed) == [{"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}]


@pytest.mark.both_databases
def test_it_refuses_to_record_on_a_closed_evening_with_htmx(scorer_client, closed):
    response = scorer_client.post(url("deal_record", closed), SAMEN, **HTMX)
    assert is_partial(response)
    assert "This evening is closed: reopen it to change a deal." in body(response)
    assert Deal.objects.filter(evening=closed).count() == 1


@pytest.mark.both_databases
def test_it_refuses_a_new_robre_on_a_closed_evening(scorer_client, make_evening):
    evening = make_evening("classique")
    Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.CLOSED)
    response = scorer_client.post(url("robre_start", evening), {"robre-choice": UNIT_SEP.join(FOUR)}, follow=True)
    assert "This evening is closed" in body(response)
    assert Deal.objects.filter(evening=evening).count() == 0


def test_it_shows_each_players_points_of_a_deal_with_their_tone(scorer_client, make_evening):
    evening = make_evening(
        players=["Anne", "Bert", "Carl", "Dina", "Eric"],
        deals=[{"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8}],
    )
    row = Page(page(scorer_client, evening)).one("li.deal#deal-1")
    cells = [
        (" ".join(sorted(cell.classes - {"delta"})), cell.one(".who").text, cell.own_text())
        for cell in row.all(".deltas .delta")
    ]
    assert cells == [
        ("out", "Anne", "–"),
        ("pos", "Bert", "8"),
        ("neg", "Carl", "-8"),
        ("pos", "Dina", "8"),
        ("neg", "Eric", "-8"),
    ]


def test_it_lists_the_last_ten_deals_and_the_earlier_ones_one_tap_away(scorer_client, make_evening):
    pair = {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 8}
    evening = make_evening(deals=[pair] * 12)
    html = page(scorer_client, evening)
    assert listed(html) == list(range(12, 2, -1))  # newest first
    assert "Show the 2 earlier deals" in Page(html).text
    assert Page(html).all("a[href=?deals=all#deal-2]")
    everything = body(scorer_client.get(url("evening", evening) + "?deals=all"))
    assert listed(everything) == list(range(12, 0, -1))
    assert "earlier deal" not in everything
