"""A deal entered against one state of the evening is never placed silently at another place
(issue 18, item 3). The record form carries the evening's version, the deal's number and dealer
as the phone showed them; when the evening changed meanwhile (another phone recorded, corrected
or deleted a deal), the service refuses under the evening's lock: 409 with both places in words,
the deal back in the form entered against the version now, so that saving again records it as
the next deal (checked again)."""

import re

import pytest
from django.urls import reverse

from scorebook.evenings import services
from scorebook.evenings.models import Evening

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]
SOLO = {"contract": "alleen-5", "declarers": ["Carl"], "tricks": "5"}
SAMEN = {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8}


def entered(evening, number, dealer, **extra):
    evening.refresh_from_db()
    return {"evening_version": evening.version, "deal_number": number, "dealer": dealer} | extra


def post(client, evening, data, htmx=True):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("deal_record", args=[evening.pk]), data, headers=headers)


def test_it_records_a_deal_entered_against_the_evening_as_it_is(scorer_client, make_evening):
    evening = make_evening(players=FIVE, stake=None)
    response = post(scorer_client, evening, SOLO | entered(evening, 1, "Anne") | {"request_key": "k1"})
    assert response.status_code == 200
    evening.refresh_from_db()
    assert evening.deals.count() == 1
    assert response["X-Evening-Version"] == str(evening.version)


@pytest.mark.parametrize("change", ["recorded", "corrected", "deleted"])
def test_it_refuses_a_deal_entered_before_another_phone_changed_the_evening(
    scorer_client, scorer, make_evening, change
):
    evening = make_evening(players=FIVE, stake=None, deals=[SAMEN])
    shown = entered(evening, 2, "Bert", request_key="late")  # deal 2, Bert deals (and sits out)
    if change == "recorded":
        services.record_deal(evening, {"contract": "pass"}, scorer)
    elif change == "corrected":
        services.edit_deal(evening, 1, SAMEN | {"tricks": 9}, scorer, None)
    else:
        services.delete_deal(evening, 1, scorer)
    evening.refresh_from_db()
    before = list(evening.deals.values_list("pk", "number", "data"))

    response = post(scorer_client, evening, SOLO | shown)
    assert response.status_code == 409
    body = response.content.decode()
    now_number = {"recorded": 3, "corrected": 2, "deleted": 1}[change]
    now_dealer = {"recorded": "Bert", "corrected": "Bert", "deleted": "Anne"}[change]
    if change == "corrected":  # the same place: what changed is named, not the place twice
        assert "Meanwhile deal 1 was corrected on another phone: this deal is still deal 2, dealt by Bert" in body
        assert "This deal was entered as deal 2" not in body
    else:
        assert "This deal was entered as deal 2, dealt by Bert." in body
        assert f"it would now be deal {now_number}, dealt by {now_dealer}." in body
    assert response["X-Evening-Version"] == str(evening.version)
    assert list(evening.deals.values_list("pk", "number", "data")) == before  # nothing written
    # the deal is back in the form, entered against the evening as it is now
    assert f'name="evening_version" value="{evening.version}"' in body
    assert re.search(r'<input type="radio" name="contract" value="alleen-5"[^>]* checked>', body)

    # saved again: recorded as the next deal, with the same request key, once
    again = post(scorer_client, evening, SOLO | entered(evening, now_number, now_dealer, request_key="late"))
    assert again.status_code == 200
    assert evening.deals.filter(request_key="late").get().number == now_number
    assert (
        post(scorer_client, evening, SOLO | entered(evening, now_number, now_dealer, request_key="late")).status_code
        == 200
    )
    assert evening.deals.filter(request_key="late").count() == 1


def test_it_names_who_sits_out_now(scorer_client, scorer, make_evening):
    evening = make_evening(players=FIVE, stake=None, deals=[SAMEN])
    shown = entered(evening, 2, "Bert")
    services.record_deal(evening, {"contract": "alleen-5", "declarers": ["Dina"], "tricks": 5}, scorer)
    body = post(scorer_client, evening, SOLO | shown).content.decode()
    assert "it would now be deal 3, dealt by Carl. Sits out: Carl." in body


def test_it_answers_a_repeated_request_as_recorded_even_after_the_evening_moved(scorer_client, scorer, make_evening):
    """A phone that lost the answer sends the deal again: its key is spent, it was recorded once."""
    evening = make_evening(players=FIVE, stake=None)
    shown = entered(evening, 1, "Anne", request_key="once")
    assert post(scorer_client, evening, SOLO | shown).status_code == 200
    services.record_deal(evening, {"contract": "pass"}, scorer)
    assert post(scorer_client, evening, SOLO | shown).status_code == 200
    assert evening.deals.count() == 2


def test_it_shows_the_conflict_without_javascript_too(scorer_client, scorer, make_evening):
    evening = make_evening(players=FIVE, stake=None, deals=[SAMEN])
    shown = entered(evening, 2, "Bert")
    services.record_deal(evening, {"contract": "pass"}, scorer)
    response = post(scorer_client, evening, SOLO | shown, htmx=False)
    assert response.status_code == 409
    assert "it would now be deal 3" in response.content.decode()


def test_it_records_a_deal_that_says_nothing_of_what_it_was_entered_against(scorer_client, scorer, make_evening):
    """An older page (or another client) without the evening's version: recorded as before."""
    evening = make_evening(players=FIVE, stake=None, deals=[SAMEN])
    services.record_deal(evening, {"contract": "pass"}, scorer)
    assert post(scorer_client, evening, SOLO).status_code == 200
    assert Evening.objects.get(pk=evening.pk).deals.count() == 3


def test_it_records_a_deal_that_waited_while_the_evening_was_closed_and_reopened(scorer_client, make_evening):
    """Closing and reopening moves no deal: the waiting deal goes where it was entered."""
    evening = make_evening(players=FIVE, stake=None, deals=[SAMEN])
    shown = entered(evening, 2, "Bert")
    services.set_status(evening, Evening.Status.CLOSED)
    services.set_status(evening, Evening.Status.OPEN)
    assert post(scorer_client, evening, SOLO | shown).status_code == 200
    assert evening.deals.get(number=2).data["contract"] == "alleen-5"


def test_it_refuses_a_deal_sent_for_a_place_the_evening_has_left_even_at_the_version_now(
    scorer_client, scorer, make_evening
):
    """A deal that waited behind another carries the place it was entered for: once the one before
    it was recorded elsewhere than entered, it is refused, never moved on silently (issue 30: a solo
    entered as deal 3, Carl dealing and sitting out, was recorded as deal 4 with Dina sitting out)."""
    evening = make_evening(players=FIVE, stake=None, deals=[SAMEN, SAMEN | {"declarers": ["Anne", "Carl"]}])
    # deal 3 (Carl's) recorded by the deal that waited before this one: the evening's version now,
    # but this one was entered as deal 3
    behind = {"contract": "alleen-5", "declarers": ["Eric"], "tricks": "5"}
    services.record_deal(evening, {"contract": "alleen-5", "declarers": ["Dina"], "tricks": 5}, scorer)
    evening.refresh_from_db()
    response = post(scorer_client, evening, behind | entered(evening, 3, "Carl"))
    assert response.status_code == 409
    body = response.content.decode()
    assert "This deal was entered as deal 3, dealt by Carl." in body
    assert "it would now be deal 4, dealt by Dina. Sits out: Dina." in body
    assert evening.deals.count() == 3
