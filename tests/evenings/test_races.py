"""Two phones, one evening: every write of an evening when two requests cross (``races``). Whatever
the order the database puts them in, what is left is what one request alone would leave, the one
that lost is told in words, and nothing answers 500.

Each case ran against the code before "decide under the lock" (see the closing note of issue 19):
undo twice restored the deal twice (and answered 500 when it had a request key), two deletions or a
deletion and a correction of one deal answered 500, a retried request brought a deleted deal back,
a deal recorded while its evening was deleted (or two deletions of an evening) answered 500.
"""

from types import SimpleNamespace

import pytest
from django.urls import reverse

from races import HTMX, Shot, race, said
from scorebook.evenings import services
from scorebook.evenings.models import Deal, DealRevision, Evening

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

D1 = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}
PASS = {"contract": "pass"}
D3 = {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8}
D4 = {"contract": "alleen-6", "declarers": ["Carl"], "tricks": 7}
FOUR = [D1, PASS, D3, D4]
FORM = {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": "8"}


def datas(evening) -> list[dict]:
    return list(Deal.objects.filter(evening=evening).order_by("number").values_list("data", flat=True))


def url(name, *args) -> str:
    return reverse(name, args=[a.pk if hasattr(a, "pk") else a for a in args])


def deal_form(evening, number) -> dict:
    """What a deal's delete form posts: its id and its version, as the page showed them."""
    deal = Deal.objects.get(evening=evening, number=number)
    return {"deal": str(deal.pk), "version": str(deal.version)}


# --- undo -------------------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["form", "htmx"])
def test_it_puts_a_deleted_deal_back_once_when_two_phones_tap_undo(scorer, make_evening, headers):
    def setup(_round):
        evening = make_evening(deals=FOUR)
        revision = services.delete_deal(evening, 2, scorer)
        return SimpleNamespace(evening=evening, undo=url("deal_restore", evening, revision))

    def shots(s):
        return [Shot(scorer, "post", s.undo, headers=headers)] * 2

    def check(s, answers):
        assert datas(s.evening) == FOUR  # 6 deals instead of 5 before: the deal came back twice
        assert said(answers, "Deal 2 has already been put back.") == 1

    race(setup, shots, check)


def test_it_puts_back_once_a_deleted_deal_that_had_a_request_key(scorer, make_evening):
    def setup(_round):
        evening = make_evening(deals=[D1])
        services.record_deal(evening, PASS, scorer, "the-pass")
        services.record_deal(evening, D3, scorer)
        revision = services.delete_deal(evening, 2, scorer)
        return SimpleNamespace(evening=evening, undo=url("deal_restore", evening, revision))

    def shots(s):
        return [Shot(scorer, "post", s.undo, headers=HTMX)] * 2  # answered 500 before: the key was taken

    def check(s, answers):
        assert datas(s.evening) == [D1, PASS, D3]
        assert Deal.objects.get(evening=s.evening, number=2).request_key == "the-pass"
        assert said(answers, "Deal 2 has already been put back.") == 1

    race(setup, shots, check)


# --- delete and correct ------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["form", "htmx"])
@pytest.mark.parametrize("number", [4, 2], ids=["the last deal", "a deal before"])
def test_it_deletes_a_deal_once_when_two_phones_delete_it(scorer, make_evening, headers, number):
    def setup(_round):
        evening = make_evening(deals=FOUR)
        form = deal_form(evening, number)
        return SimpleNamespace(evening=evening, delete=url("deal_delete", evening, number), form=form)

    def shots(s):
        return [Shot(scorer, "post", s.delete, s.form, headers)] * 2

    def check(s, answers):
        assert datas(s.evening) == FOUR[: number - 1] + FOUR[number:]
        assert DealRevision.objects.filter(evening=s.evening, action="deleted").count() == 1
        assert said(answers, f"Deal {number} has been deleted in the meantime") == 1

    race(setup, shots, check)


def test_it_lets_a_deletion_or_a_correction_of_one_deal_win_and_tells_the_other(scorer, make_evening):
    corrected = {"contract": "samen-8", "declarers": ["Anne", "Bert"], "tricks": 9}

    def setup(_round):
        evening = make_evening(deals=FOUR)
        form = deal_form(evening, 3)
        correction = {"contract": "samen-8", "declarers": ["Anne", "Bert"], "tricks": "9"} | form
        return SimpleNamespace(
            evening=evening,
            delete=url("deal_delete", evening, 3),
            edit=url("deal_edit", evening, 3),
            form=form,
            correction=correction,
        )

    def shots(s):
        return [Shot(scorer, "post", s.delete, s.form, HTMX), Shot(scorer, "post", s.edit, s.correction)]

    def check(s, answers):
        deleted, correction = answers
        if datas(s.evening) == [D1, PASS, D4]:  # the deletion first: the correction is told
            assert correction.status == 409
            assert correction.says("Deal 3 has been deleted in the meantime")
        else:  # the correction first: the deletion is told
            assert datas(s.evening) == [D1, PASS, corrected, D4]
            assert deleted.says("Deal 3 was corrected in the meantime: nothing was deleted.")

    race(setup, shots, check)


def test_it_corrects_a_deal_once_when_two_phones_correct_it(scorer, make_evening):
    def setup(_round):
        evening = make_evening(deals=FOUR)
        form = deal_form(evening, 4)
        return SimpleNamespace(evening=evening, edit=url("deal_edit", evening, 4), form=form)

    def shots(s):
        return [
            Shot(scorer, "post", s.edit, {"contract": "alleen-6", "declarers": ["Carl"], "tricks": "8"} | s.form),
            Shot(scorer, "post", s.edit, {"contract": "alleen-6", "declarers": ["Carl"], "tricks": "9"} | s.form),
        ]

    def check(s, answers):
        assert sorted(a.status for a in answers) == [302, 409]  # the other phone sees the newer version
        assert Deal.objects.get(evening=s.evening, number=4).version == 2

    race(setup, shots, check)


# --- record ------------------------------------------------------------------------------------


def test_it_never_records_again_a_deleted_deal_when_its_request_comes_late(scorer_client, scorer, make_evening):
    evening = make_evening()
    record = url("deal_record", evening)
    assert scorer_client.post(record, FORM | {"request_key": "sent-once"}).status_code == 302
    scorer_client.post(url("deal_delete", evening, 1), deal_form(evening, 1))
    late = scorer_client.post(record, FORM | {"request_key": "sent-once"}, headers=HTMX)
    assert datas(evening) == []
    assert late.status_code == 200
    assert "This deal was recorded, then deleted: it is not recorded again." in late.content.decode()


def test_it_never_records_a_deleted_deal_again_when_its_retry_crosses_the_deletion(scorer, make_evening):
    def setup(_round):
        evening = make_evening(deals=[D1])
        services.record_deal(evening, {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 8}, scorer, "k")
        return SimpleNamespace(evening=evening, form=deal_form(evening, 2))

    def shots(s):
        return [
            Shot(scorer, "post", url("deal_delete", s.evening, 2), s.form),
            Shot(scorer, "post", url("deal_record", s.evening), FORM | {"request_key": "k"}),
        ]

    def check(s, answers):
        assert datas(s.evening) == [D1]

    race(setup, shots, check)


@pytest.mark.parametrize(
    ("name", "data"),
    [("deal_record", FORM), ("adjustment", {"adj-points_0": "5", "adj-points_1": "-5"})],
    ids=["deal", "adjustment"],
)
def test_it_records_a_line_once_when_its_form_is_sent_twice_at_once(scorer, make_evening, name, data):
    def setup(n):
        evening = make_evening(deals=[D1])
        key = "adj-request_key" if name == "adjustment" else "request_key"
        return SimpleNamespace(evening=evening, data=data | {key: f"tap-{n}"})

    def shots(s):
        return [Shot(scorer, "post", url(name, s.evening), s.data, HTMX)] * 2

    def check(s, answers):
        assert Deal.objects.filter(evening=s.evening).count() == 2

    race(setup, shots, check)


def test_it_records_the_deals_of_two_phones_one_after_the_other(scorer, make_evening):
    def setup(_round):
        return SimpleNamespace(evening=make_evening(deals=[D1]))

    def shots(s):
        return [
            Shot(scorer, "post", url("deal_record", s.evening), FORM | {"request_key": "one"}, HTMX),
            Shot(scorer, "post", url("deal_record", s.evening), PASS | {"request_key": "two"}, HTMX),
        ]

    def check(s, answers):
        assert list(Deal.objects.filter(evening=s.evening).values_list("number", flat=True)) == [1, 2, 3]
        assert Evening.objects.get(pk=s.evening.pk).version == 3

    race(setup, shots, check)


def test_it_starts_a_robre_or_records_its_first_deal_in_the_order_they_came(scorer, make_evening):
    """The partnerships of a robre are chosen before its first deal: a choice that comes after the
    first deal is refused by the engine, in words."""

    def setup(_round):
        return SimpleNamespace(evening=make_evening("classique", ["Anne", "Bert", "Carl", "Dina"]))

    def shots(s):
        teams = "Anne\x1fBert\x1fCarl\x1fDina"
        return [
            Shot(scorer, "post", url("robre_start", s.evening), {"robre-choice": teams}, HTMX),
            Shot(scorer, "post", url("deal_record", s.evening), {"tricks": "7"}, HTMX),
        ]

    def check(s, answers):
        lines = datas(s.evening)
        if len(lines) == 2:
            assert lines[0] == {"robre": {"teams": [["Anne", "Bert"], ["Carl", "Dina"]]}}
        else:
            assert answers[0].status == 422 and answers[0].says("the robre in progress is not finished")

    race(setup, shots, check)


def test_it_records_a_deal_or_deletes_its_empty_evening_never_both(scorer, make_evening):
    def setup(_round):
        return SimpleNamespace(evening=make_evening())

    def shots(s):
        return [
            Shot(scorer, "post", url("evening_delete", s.evening)),
            Shot(scorer, "post", url("deal_record", s.evening), FORM, HTMX),
        ]

    def check(s, answers):
        deleted, recorded = answers
        if Evening.objects.filter(pk=s.evening.pk).exists():  # the deal first: the evening stays
            assert datas(s.evening) == [FORM | {"tricks": 8}]
            assert deleted.status == 422 and deleted.says("This evening cannot be deleted")
        else:  # the deletion first: the phone is told, and sent to the list
            assert recorded.status in (200, 404) and not Deal.objects.filter(evening_id=s.evening.pk).exists()

    race(setup, shots, check)


# --- the evening itself -------------------------------------------------------------------------


def test_it_deletes_an_evening_once_when_two_phones_delete_it(scorer, make_evening):
    def setup(_round):
        return SimpleNamespace(evening=make_evening())

    def shots(s):
        return [Shot(scorer, "post", url("evening_delete", s.evening))] * 2

    def check(s, answers):
        assert not Evening.objects.filter(pk=s.evening.pk).exists()
        assert all(a.status in (302, 404) for a in answers)

    race(setup, shots, check)


@pytest.mark.parametrize("status", ["close", "reopen"])
def test_it_closes_or_reopens_an_evening_once(scorer, make_evening, status):
    def setup(_round):
        evening = make_evening(deals=[D1])
        if status == "reopen":
            services.set_status(evening, Evening.Status.CLOSED)
        return SimpleNamespace(evening=evening, version=Evening.objects.get(pk=evening.pk).version)

    def shots(s):
        return [Shot(scorer, "post", url(f"evening_{status}", s.evening))] * 2

    def check(s, answers):
        fresh = Evening.objects.get(pk=s.evening.pk)
        assert fresh.status == ("closed" if status == "close" else "open")
        assert fresh.version == s.version + 1  # one change, not two

    race(setup, shots, check)


def test_it_records_a_deal_before_the_evening_is_closed_or_refuses_it_after(scorer, make_evening):
    def setup(_round):
        return SimpleNamespace(evening=make_evening(deals=[D1]))

    def shots(s):
        return [
            Shot(scorer, "post", url("evening_close", s.evening)),
            Shot(scorer, "post", url("deal_record", s.evening), FORM, HTMX),
        ]

    def check(s, answers):
        assert Evening.objects.get(pk=s.evening.pk).status == "closed"
        if len(datas(s.evening)) == 1:
            assert answers[1].status == 422 and answers[1].says("This evening is closed")

    race(setup, shots, check)


def test_it_archives_an_evening_once(scorer, make_evening):
    def setup(_round):
        return SimpleNamespace(evening=make_evening(deals=[D1]))

    def shots(s):
        return [Shot(scorer, "post", url("evening_archive", s.evening), {"archived": "1"})] * 2

    def check(s, answers):
        assert Evening.objects.get(pk=s.evening.pk).archived
        assert [a.status for a in answers] == [302, 302]

    race(setup, shots, check)
