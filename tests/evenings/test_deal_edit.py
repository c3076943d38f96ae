"""Correcting, deleting and putting back a deal (/e/<pk>/deals/<n>/edit/, .../delete/, /e/<pk>/undo/<rev>/).

Every later deal is scored again, so the totals after a change are checked against the
engine scoring the changed list of deals as an evening file, and by hand.

Kleurenwiezen, four players (docs/rules/kleurenwiezen.md):
  1. samen 9, Anne & Carl, 10 tricks: +14 each, -14 for Bert and Dina.
  2. alleen 5, Bert, 4 tricks: failed by one, -4 a head: Bert -12, the others +4.
  3. samen 8, Bert & Dina, 8 tricks: +8 each, -8 for Anne and Carl.
  4. alleen 6, Carl, 7 tricks: one overtrick, 5 a head: Carl +15, the others -5.
  5. samen 8, Anne & Carl, 7 tricks: one short, -11 each, +11 for Bert and Dina.
  Totals: Anne -6, Bert -12, Carl 14, Dina 4.
Correcting deal 3 into an all pass makes deal 4 count double (Carl +30, the others -10):
  Totals: Anne -3, Bert -25, Carl 37, Dina -9.
"""

import json
import re
from html.parser import HTMLParser

import pytest

from pages import Page, body, datas, every_error, field_errors, is_partial, totals, url
from scorebook.evenings import services, stored
from scorebook.evenings.models import Deal, DealRevision, Evening
from scorebook.rules.evening_file import score_file

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
FIVE = ("Anne", "Bert", "Carl", "Dina", "Eric")

D1 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}
D2 = {"contract": "alleen-5", "declarers": ["Bert"], "tricks": 4}
D3 = {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8}
D4 = {"contract": "alleen-6", "declarers": ["Carl"], "tricks": 7}
D5 = {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 7}
FIVE_DEALS = [D1, D2, D3, D4, D5]
BEFORE = {"Anne": -6, "Bert": -12, "Carl": 14, "Dina": 4}
AFTER_PASS_AT_3 = {"Anne": -3, "Bert": -25, "Carl": 37, "Dina": -9}
PASS = {"contract": "pass"}


# --- helpers ----------------------------------------------------------------------------------


def edit_url(evening, number):
    return url("deal_edit", evening, number)


def messages_text(html: str) -> str:
    return " ".join(Page(html).texts("ul.messages"))


class _Inputs(HTMLParser):
    """What a page's inputs would submit, by name: every value, or only the checked ones' for boxes."""

    def __init__(self):
        super().__init__()
        self.values: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag != "input" or "name" not in a:
            return
        box = a.get("type") in ("radio", "checkbox")
        if not box or "checked" in a:
            self.values.setdefault(a["name"], []).append(a.get("value") or ("on" if box else ""))


def checked(html: str, name: str) -> list[str]:
    """The values of the checked radio buttons or checkboxes called ``name``."""
    reader = _Inputs()
    reader.feed(html)
    return reader.values.get(name, [])


def value(html: str, name: str) -> str:
    """The value the one input called ``name`` shows."""
    [found] = checked(html, name)
    return found


def hidden_version(html: str) -> str:
    """The version the correction form posts (the delete form posts it too)."""
    version = Page(html).one("form.record input[name=version]")
    assert version.get("type") == "hidden"
    return version.get("value", "")


def numbers(evening) -> list[int]:
    return list(Deal.objects.filter(evening=evening).order_by("number").values_list("number", flat=True))


def engine_totals(evening, deal_list) -> dict[str, int]:
    """What the evening file of these deals scores to (the command line's answer)."""
    return score_file(json.dumps(stored.file_dict(evening, deal_list)))["totals"]


def page(client, evening) -> str:
    response = client.get(url("evening", evening))
    assert response.status_code == 200
    return body(response)


def undo_offered(html: str) -> bool:
    """A form to undo the deletion, with its Undo button."""
    return any("Undo" in form.texts("button[type=submit]") for form in Page(html).all("form.undo"))


def contract_post(data: dict, players, version=None) -> dict:
    """The form fields the edit page posts for an evening-file deal."""
    post = {"contract": data["contract"]}
    if data["contract"] != "pass":
        post["declarers"] = list(data["declarers"])
        if isinstance(data["tricks"], dict):
            for name, tricks in data["tricks"].items():
                post[f"tricks_{list(players).index(name)}"] = str(tricks)
        else:
            post["tricks"] = str(data["tricks"])
        if data.get("trump_changed"):
            post["trump_changed"] = "on"
    if version is not None:
        post["version"] = str(version)
    return post


@pytest.fixture
def evening(make_evening):
    return make_evening("kleurenwiezen", deals=FIVE_DEALS)


PLAYERS = ("Anne", "Bert", "Carl", "Dina")


# --- the edit page ----------------------------------------------------------------------------


def test_it_shows_the_edit_page_filled_with_the_current_deal(scorer_client, evening):
    response = scorer_client.get(edit_url(evening, 3))
    assert response.status_code == 200
    html = body(response)
    assert "Correct deal 3" in html
    assert checked(html, "contract") == ["samen-8"]
    assert sorted(checked(html, "declarers")) == ["Bert", "Dina"]
    assert value(html, "tricks") == "8"
    assert hidden_version(html) == "1"


def test_it_fills_the_tricks_of_each_misere_declarer(scorer_client, make_evening):
    misere = {"contract": "grote-miserie", "declarers": ["Anne", "Carl"], "tricks": {"Anne": 0, "Carl": 2}}
    evening = make_evening(deals=[misere])
    html = body(scorer_client.get(edit_url(evening, 1)))
    assert checked(html, "contract") == ["grote-miserie"]
    assert [value(html, f"tricks_{seat}") for seat in range(3)] == ["0", "", "2"]


def test_it_fills_a_troel_with_its_changed_trump(scorer_client, make_evening):
    evening = make_evening(
        deals=[{"contract": "troel", "declarers": ["Bert", "Dina"], "tricks": 9, "trump_changed": True}]
    )
    html = body(scorer_client.get(edit_url(evening, 1)))
    assert checked(html, "contract") == ["troel"]
    assert checked(html, "trump_changed") == ["on"]


def test_it_fills_a_classic_deal_with_its_tricks_and_honours(scorer_client, make_evening):
    evening = make_evening("classique", deals=[{"tricks": [9, 4], "honours": [3, 0]}])
    html = body(scorer_client.get(edit_url(evening, 1)))
    assert value(html, "tricks") == "9"
    assert checked(html, "honours") == ["0-3"]


def test_it_answers_404_for_a_deal_that_does_not_exist(scorer_client, evening):
    assert scorer_client.get(edit_url(evening, 6)).status_code == 404
    assert scorer_client.get(edit_url(evening, 0)).status_code == 404
    assert scorer_client.post(url("deal_delete", evening, 6)).status_code == 404
    assert numbers(evening) == [1, 2, 3, 4, 5]


def test_it_says_an_adjustment_cannot_be_corrected_on_the_edit_page(scorer_client, make_evening):
    evening = make_evening(deals=[{"adjustment": {"Anne": -5, "Bert": 5}, "note": "revoke"}])
    response = scorer_client.get(edit_url(evening, 1))
    assert response.status_code == 200
    html = body(response)
    assert "This line cannot be corrected here" in html
    assert Page(html).inputs("contract") == []


def test_it_keeps_an_adjustment_that_the_edit_page_says_cannot_be_corrected(scorer_client, make_evening):
    adjustment = {"adjustment": {"Anne": -5, "Bert": 5}, "note": "revoke"}
    evening = make_evening(deals=[adjustment])
    scorer_client.post(edit_url(evening, 1), {"contract": "pass"})
    assert datas(evening) == [adjustment], "the adjustment was replaced through its edit URL"
    assert DealRevision.objects.count() == 0


def test_it_keeps_a_robre_line_that_the_edit_page_says_cannot_be_corrected(scorer_client, make_evening):
    robre = {"robre": {"teams": [["Anne", "Bert"], ["Carl", "Dina"]]}}
    evening = make_evening("classique", deals=[robre])
    assert "This line cannot be corrected here" in body(scorer_client.get(edit_url(evening, 1)))
    scorer_client.post(edit_url(evening, 1), {"tricks": "9", "honours": "none"})
    assert datas(evening) == [robre], "the robre line was replaced through its edit URL"


def test_it_hides_the_edit_page_from_an_outsider(outsider_client, evening):
    assert outsider_client.get(edit_url(evening, 3)).status_code == 404
    response = outsider_client.post(edit_url(evening, 3), contract_post(PASS, PLAYERS))
    assert response.status_code == 404
    assert datas(evening) == FIVE_DEALS


# --- correcting -------------------------------------------------------------------------------


@pytest.mark.both_databases
def test_it_corrects_deal_3_of_5_and_scores_the_later_deals_again(scorer_client, evening):
    assert totals(page(scorer_client, evening)) == BEFORE
    response = scorer_client.post(edit_url(evening, 3), contract_post(PASS, PLAYERS, version=1))
    assert response.status_code == 302
    assert response["Location"] == url("evening", evening)
    edited = [D1, D2, PASS, D4, D5]
    assert datas(evening) == edited
    assert numbers(evening) == [1, 2, 3, 4, 5]
    html = page(scorer_client, evening)
    assert totals(html) == engine_totals(evening, edited)
    assert totals(html) == AFTER_PASS_AT_3  # deal 4 now counts double
    assert Page(html).one("li.deal#deal-4 .deal-head .badge").text == "×2"


@pytest.mark.both_databases
def test_it_corrects_a_pass_into_a_contract_and_the_next_deal_no_longer_doubles(scorer_client, make_evening):
    evening = make_evening(deals=[D1, PASS, D3, D4])
    corrected = {"contract": "troel", "declarers": ["Anne", "Dina"], "tricks": 9, "trump_changed": True}
    response = scorer_client.post(edit_url(evening, 2), contract_post(corrected, PLAYERS))
    assert response.status_code == 302
    edited = [D1, corrected, D3, D4]
    assert datas(evening) == edited
    # troel made with 9 after a changed trump: Anne and Dina +16; deal 3 is no longer doubled (8, not 16)
    expected = {"Anne": 14 + 16 - 8 - 5, "Bert": -14 - 16 + 8 - 5, "Carl": 14 - 16 - 8 + 15, "Dina": -14 + 16 + 8 - 5}
    assert engine_totals(evening, edited) == expected
    assert totals(page(scorer_client, evening)) == expected


@pytest.mark.both_databases
def test_it_corrects_the_tricks_of_a_misere(scorer_client, make_evening):
    evening = make_evening(
        deals=[{"contract": "grote-miserie", "declarers": ["Anne", "Bert"], "tricks": {"Anne": 0, "Bert": 1}}]
    )
    corrected = {"contract": "grote-miserie", "declarers": ["Anne", "Bert"], "tricks": {"Anne": 0, "Bert": 0}}
    scorer_client.post(edit_url(evening, 1), contract_post(corrected, PLAYERS))
    assert datas(evening) == [corrected]
    assert totals(page(scorer_client, evening)) == {"Anne": 24, "Bert": 24, "Carl": -24, "Dina": -24}


@pytest.mark.both_databases
def test_it_corrects_a_classic_deal(scorer_client, make_evening):
    evening = make_evening(
        "classique", deals=[{"tricks": [9, 4], "honours": [3, 0]}, {"tricks": [7, 6], "honours": [0, 0]}]
    )
    response = scorer_client.post(edit_url(evening, 1), {"tricks": "12", "honours": "0-3"})
    assert response.status_code == 302
    assert datas(evening) == [{"tricks": [12, 1], "honours": [3, 0]}, {"tricks": [7, 6], "honours": [0, 0]}]
    assert "this manche <strong>9 – 0</strong>" in page(scorer_client, evening)  # 6 + 2, then 1


@pytest.mark.both_databases
def test_it_keeps_a_revision_of_the_correction(scorer_client, scorer, evening):
    scorer_client.post(edit_url(evening, 3), contract_post(PASS, PLAYERS, version=1))
    revision = DealRevision.objects.get(evening=evening)
    assert revision.action == DealRevision.Action.CORRECTED
    assert revision.number == 3
    assert revision.before == D3
    assert revision.after == PASS
    assert revision.by == scorer
    deal = Deal.objects.get(evening=evening, number=3)
    assert deal.version == 2


@pytest.mark.both_databases
def test_it_shows_who_corrected_the_deal(scorer_client, evening):
    response = scorer_client.post(edit_url(evening, 3), contract_post(PASS, PLAYERS), follow=True)
    html = body(response)
    assert "deal 3 corrected by Marie" in html
    assert "Deal 3 corrected." in messages_text(html)


def test_it_refuses_an_impossible_correction_and_keeps_the_deal(scorer_client, evening):
    response = scorer_client.post(edit_url(evening, 3), {**contract_post(D3, PLAYERS), "tricks": "14"})
    assert response.status_code == 422
    assert "13" in field_errors(body(response), "tricks")
    assert datas(evening) == FIVE_DEALS
    assert DealRevision.objects.count() == 0


def test_it_refuses_a_correction_without_declarers(scorer_client, evening):
    response = scorer_client.post(edit_url(evening, 3), {"contract": "samen-8", "tricks": "8"})
    assert response.status_code == 422
    assert "Tap the declaring player(s)." in field_errors(body(response), "declarers")
    assert datas(evening) == FIVE_DEALS


# --- five at the table: a correction that breaks a later deal -----------------------------------
#  Anne deals first. 1: Anne deals and sits out; 2: Bert deals and sits out; 3: Carl deals and sits out.
#  If deal 1 were an all pass, Anne would deal deal 2 too and Bert deal 3, where he declares.

ROTATION = [
    {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8},
    {"contract": "samen-8", "declarers": ["Carl", "Eric"], "tricks": 8},
    {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 9},
]


@pytest.fixture
def five(make_evening):
    return make_evening(players=FIVE, deals=ROTATION)


@pytest.mark.both_databases
def test_it_refuses_a_correction_that_makes_a_later_deal_impossible_and_names_that_deal(scorer_client, five):
    response = scorer_client.post(edit_url(five, 1), contract_post(PASS, FIVE, version=1))
    assert response.status_code == 422
    assert datas(five) == ROTATION
    errors = every_error(body(response))
    assert "Bert is sitting out this deal and cannot declare" in errors
    assert re.search(r"\b3\b", errors), f"the error does not name deal 3: {errors!r}"


@pytest.mark.both_databases
def test_it_refuses_a_declarer_who_sat_out_the_corrected_deal(scorer_client, five):
    wrong = {"contract": "samen-8", "declarers": ["Bert", "Carl"], "tricks": 8}  # Bert dealt deal 2
    response = scorer_client.post(edit_url(five, 2), contract_post(wrong, FIVE))
    assert response.status_code == 422
    assert "Bert is sitting out this deal and cannot declare" in field_errors(body(response), "declarers")
    assert datas(five) == ROTATION


def test_it_marks_who_sat_out_the_deal_being_corrected(scorer_client, five):
    html = body(scorer_client.get(edit_url(five, 2)))
    assert "Bert dealt" in html
    out = [label.one("input[name=declarers]") for label in Page(html).all("label.tap.person.out")]
    assert [(box.get("type"), box.get("value")) for box in out] == [("checkbox", "Bert")]


# --- two people correcting the same deal ------------------------------------------------------

NEWER = {"contract": "troel", "declarers": ["Bert", "Dina"], "tricks": 9}
STALE = {"contract": "alleen-5", "declarers": ["Dina"], "tricks": 6}


@pytest.mark.both_databases
@pytest.mark.parametrize("stale_version", [0, 1])
def test_it_refuses_a_correction_made_on_an_old_version(scorer_client, evening, stale_version):
    shown = hidden_version(body(scorer_client.get(edit_url(evening, 3))))
    assert shown == "1"
    assert scorer_client.post(edit_url(evening, 3), contract_post(NEWER, PLAYERS, version=1)).status_code == 302
    response = scorer_client.post(edit_url(evening, 3), contract_post(STALE, PLAYERS, version=stale_version))
    assert response.status_code == 409
    html = body(response)
    assert "Someone changed this deal in the meantime" in html
    assert "troel (three aces) · Bert & Dina · 9 tricks" in Page(html).text  # the newer version is described
    deal = Deal.objects.get(evening=evening, number=3)
    assert deal.data == NEWER
    assert deal.version == 2
    assert DealRevision.objects.filter(evening=evening).count() == 1


@pytest.mark.both_databases
def test_it_fills_the_form_with_the_newer_version_after_a_conflict(scorer_client, evening):
    scorer_client.post(edit_url(evening, 3), contract_post(NEWER, PLAYERS, version=1))
    response = scorer_client.post(edit_url(evening, 3), contract_post(STALE, PLAYERS, version=1))
    assert response.status_code == 409
    html = body(response)
    # the page promises "The form below shows the newer version"
    assert checked(html, "contract") == ["troel"], "the form does not show the newer contract"
    assert hidden_version(html) == "2", f"the form still carries version {hidden_version(html)!r}"


@pytest.mark.both_databases
def test_it_saves_a_correction_sent_again_after_a_conflict(scorer_client, evening):
    scorer_client.post(edit_url(evening, 3), contract_post(NEWER, PLAYERS, version=1))
    conflict = scorer_client.post(edit_url(evening, 3), contract_post(STALE, PLAYERS, version=1))
    assert conflict.status_code == 409
    again = contract_post(STALE, PLAYERS, version=hidden_version(body(conflict)))
    response = scorer_client.post(edit_url(evening, 3), again)
    assert response.status_code == 302, "the scorer cannot save after checking the newer version"
    assert Deal.objects.get(evening=evening, number=3).data == STALE


@pytest.mark.both_databases
def test_it_accepts_a_correction_without_a_version(scorer_client, evening):
    scorer_client.post(edit_url(evening, 3), contract_post(NEWER, PLAYERS, version=1))
    response = scorer_client.post(edit_url(evening, 3), contract_post(STALE, PLAYERS))
    assert response.status_code == 302
    assert Deal.objects.get(evening=evening, number=3).version == 3


# --- delete and undo --------------------------------------------------------------------------
#  1. samen 9 Anne & Carl 10: +14.  2. pass.  3. samen 8 Bert & Dina 8, doubled: +16.
#  4. alleen 6 Carl 7: +15 / -5.  Deleting the pass leaves deal 3 single (+8).

FOUR_DEALS = [D1, PASS, D3, D4]
WITH_PASS = {"Anne": 14 - 16 - 5, "Bert": -14 + 16 - 5, "Carl": 14 - 16 + 15, "Dina": -14 + 16 - 5}
WITHOUT_PASS = {"Anne": 14 - 8 - 5, "Bert": -14 + 8 - 5, "Carl": 14 - 8 + 15, "Dina": -14 + 8 - 5}


@pytest.fixture
def four(make_evening):
    return make_evening(deals=FOUR_DEALS)


@pytest.mark.both_databases
def test_it_deletes_deal_2_of_4_and_renumbers_the_later_deals(scorer_client, scorer, four):
    assert totals(page(scorer_client, four)) == WITH_PASS
    later = list(Deal.objects.filter(evening=four, number__gte=3).values_list("pk", flat=True))
    response = scorer_client.post(url("deal_delete", four, 2))
    assert response.status_code == 302
    assert numbers(four) == [1, 2, 3]
    assert datas(four) == [D1, D3, D4]
    assert list(Deal.objects.filter(evening=four, number__gte=2).values_list("pk", flat=True)) == later
    revision = DealRevision.objects.get(evening=four)
    assert (revision.action, revision.number, revision.before, revision.by) == ("deleted", 2, PASS, scorer)
    html = page(scorer_client, four)
    assert totals(html) == WITHOUT_PASS == engine_totals(four, [D1, D3, D4])
    assert "deal 2 deleted by Marie" in html


@pytest.mark.both_databases
def test_it_offers_to_undo_a_deletion(scorer_client, four):
    assert not undo_offered(page(scorer_client, four))
    scorer_client.post(url("deal_delete", four, 2))
    html = page(scorer_client, four)
    revision = DealRevision.objects.get(evening=four)
    assert undo_offered(html)
    assert f'action="{url("deal_restore", four, revision.pk)}"' in html
    assert "Deal 2 deleted." in html


@pytest.mark.both_databases
def test_it_answers_an_htmx_delete_with_the_board_and_the_undo(scorer_client, four):
    response = scorer_client.post(url("deal_delete", four, 2), **HTMX)
    assert response.status_code == 200
    html = body(response)
    assert is_partial(html)
    assert undo_offered(html)
    assert totals(html) == WITHOUT_PASS


@pytest.mark.both_databases
def test_it_puts_a_deleted_deal_back_at_its_number_with_the_same_totals(scorer_client, scorer, four):
    before = page(scorer_client, four)
    scorer_client.post(url("deal_delete", four, 2))
    revision = DealRevision.objects.get(evening=four)
    response = scorer_client.post(url("deal_restore", four, revision.pk))
    assert response.status_code == 302
    assert numbers(four) == [1, 2, 3, 4]
    assert datas(four) == FOUR_DEALS
    html = page(scorer_client, four)
    assert totals(html) == totals(before) == WITH_PASS
    assert not undo_offered(html)
    assert "deal 2 put back by Marie" in html
    put_back = DealRevision.objects.get(evening=four, action=DealRevision.Action.RESTORED)
    assert (put_back.action, put_back.number, put_back.after, put_back.by) == ("restored", 2, PASS, scorer)
    assert DealRevision.objects.get(evening=four, action=DealRevision.Action.DELETED).undone


@pytest.mark.both_databases
def test_it_puts_a_deleted_deal_back_with_htmx(scorer_client, four):
    scorer_client.post(url("deal_delete", four, 2))
    revision = DealRevision.objects.get(evening=four)
    response = scorer_client.post(url("deal_restore", four, revision.pk), **HTMX)
    assert response.status_code == 200
    assert is_partial(body(response))
    assert totals(body(response)) == WITH_PASS
    assert datas(four) == FOUR_DEALS


@pytest.mark.both_databases
def test_it_puts_back_a_deletion_only_once_and_says_so_the_second_time(scorer_client, four):
    scorer_client.post(url("deal_delete", four, 2))
    revision = DealRevision.objects.get(evening=four)
    scorer_client.post(url("deal_restore", four, revision.pk))
    again = scorer_client.post(url("deal_restore", four, revision.pk))
    assert again.status_code == 409
    assert "Deal 2 has already been put back." in body(again)
    assert datas(four) == FOUR_DEALS
    with_htmx = scorer_client.post(url("deal_restore", four, revision.pk), **HTMX)
    assert with_htmx.status_code == 422 and is_partial(body(with_htmx))
    assert "Deal 2 has already been put back." in body(with_htmx)
    assert datas(four) == FOUR_DEALS


@pytest.mark.both_databases
def test_it_no_longer_offers_the_undo_after_a_correction(scorer_client, four):
    scorer_client.post(url("deal_delete", four, 2))
    scorer_client.post(edit_url(four, 1), contract_post({**D1, "tricks": 11}, PLAYERS))
    assert not undo_offered(page(scorer_client, four))


@pytest.mark.both_databases
def test_it_no_longer_offers_the_undo_after_a_new_deal(scorer_client, four):
    scorer_client.post(url("deal_delete", four, 2))
    response = scorer_client.post(
        url("deal_record", four), {"contract": "samen-8", "declarers": ["Anne", "Bert"], "tricks": "8"}
    )
    assert response.status_code == 302
    assert len(datas(four)) == 4
    assert not undo_offered(page(scorer_client, four)), "the undo of deal 2 is still offered after deal 4 was recorded"


@pytest.mark.both_databases
def test_it_no_longer_offers_the_undo_after_an_adjustment(scorer_client, four):
    scorer_client.post(url("deal_delete", four, 2))
    scorer_client.post(url("adjustment", four), {"adj-points_0": "3", "adj-points_1": "-3"})
    assert len(datas(four)) == 4
    assert not undo_offered(page(scorer_client, four))


@pytest.mark.both_databases
def test_it_refuses_a_deletion_that_makes_a_later_deal_impossible(scorer_client, five):
    response = scorer_client.post(url("deal_delete", five, 1), follow=True)
    assert response.status_code == 200
    text = messages_text(body(response))
    assert "Deal 1 cannot be deleted" in text
    assert "Bert is sitting out this deal and cannot declare" in text
    assert datas(five) == ROTATION
    assert DealRevision.objects.count() == 0


@pytest.mark.both_databases
def test_it_answers_405_to_a_get_on_delete_and_undo(scorer_client, four):
    assert scorer_client.get(url("deal_delete", four, 2)).status_code == 405
    revision = services.delete_deal(four, 2, None)
    assert scorer_client.get(url("deal_restore", four, revision.pk)).status_code == 405
    assert numbers(four) == [1, 2, 3]


@pytest.mark.both_databases
def test_it_answers_404_to_an_outsiders_delete_and_undo(outsider_client, scorer, four):
    assert outsider_client.post(url("deal_delete", four, 2)).status_code == 404
    assert datas(four) == FOUR_DEALS
    revision = services.delete_deal(four, 2, scorer)
    assert outsider_client.post(url("deal_restore", four, revision.pk)).status_code == 404
    assert datas(four) == [D1, D3, D4]


@pytest.mark.both_databases
def test_it_answers_404_to_an_undo_of_another_evenings_deletion(scorer_client, scorer, four, make_evening):
    other = make_evening(deals=[D1, D2])
    revision = services.delete_deal(other, 1, scorer)
    assert scorer_client.post(url("deal_restore", four, revision.pk)).status_code == 404
    assert datas(four) == FOUR_DEALS
    assert datas(other) == [D2]


# --- a closed evening -------------------------------------------------------------------------

CLOSED_MESSAGE = "This evening is closed: reopen it to change a deal."


def close(evening):
    Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.CLOSED)
    evening.refresh_from_db()


def test_it_refuses_a_correction_on_a_closed_evening(scorer_client, evening):
    close(evening)
    response = scorer_client.post(edit_url(evening, 3), contract_post(PASS, PLAYERS, version=1), follow=True)
    html = body(response)
    assert CLOSED_MESSAGE in messages_text(html)
    assert "This evening is closed." in html
    assert datas(evening) == FIVE_DEALS
    assert DealRevision.objects.count() == 0


def test_it_refuses_a_deletion_on_a_closed_evening(scorer_client, four):
    close(four)
    response = scorer_client.post(url("deal_delete", four, 2), follow=True)
    assert CLOSED_MESSAGE in messages_text(body(response))
    assert datas(four) == FOUR_DEALS
    assert DealRevision.objects.count() == 0


def test_it_refuses_a_deletion_on_a_closed_evening_with_htmx(scorer_client, four):
    close(four)
    response = scorer_client.post(url("deal_delete", four, 2), **HTMX)
    assert is_partial(body(response))
    assert CLOSED_MESSAGE in messages_text(body(response))
    assert datas(four) == FOUR_DEALS


@pytest.mark.both_databases
def test_it_refuses_an_undo_on_a_closed_evening(scorer_client, scorer, four):
    revision = services.delete_deal(four, 2, scorer)
    close(four)
    response = scorer_client.post(url("deal_restore", four, revision.pk), follow=True)
    assert CLOSED_MESSAGE in messages_text(body(response))
    assert datas(four) == [D1, D3, D4]
    assert DealRevision.objects.get().action == "deleted"


def test_it_offers_no_edit_or_delete_on_a_closed_evening(scorer_client, four):
    close(four)
    html = page(scorer_client, four)
    assert edit_url(four, 1) not in html
    assert url("deal_delete", four, 1) not in html


def test_it_says_on_the_edit_page_that_a_closed_evening_is_closed(scorer_client, evening):
    close(evening)
    response = scorer_client.get(edit_url(evening, 3))
    assert response.status_code == 200
    html = body(response)
    assert "closed" in html.lower(), "the edit page of a closed evening offers a correction without saying it is closed"
    assert datas(evening) == FIVE_DEALS


@pytest.mark.both_databases
def test_it_offers_the_undo_only_on_the_phone_that_deleted(client, django_user_model, scorer, four):
    """Two phones on one evening, both Marie's (issue 30): the deletion made on the first is undone
    there; the second sees it among the corrections, without an Undo of someone else's act."""
    from django.test import Client

    first, second = Client(HTTP_ACCEPT_LANGUAGE="en"), Client(HTTP_ACCEPT_LANGUAGE="en")
    first.force_login(scorer)
    second.force_login(scorer)
    first.post(url("deal_delete", four, 2))
    assert undo_offered(page(first, four))
    other = page(second, four)
    assert not undo_offered(other)
    assert "deal 2 deleted by Marie" in other
