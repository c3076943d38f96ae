"""The deals are the truth: the stored summary that each write keeps must always equal one
rebuilt from the deals, and an evening whose deals and summary disagree is put back in order."""

import dataclasses
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.test_properties import evenings
from scorebook.evenings import services
from scorebook.evenings.models import Deal, Evening
from scorebook.rules import evening_file, registry
from scorebook.rules.scoring import score

CHECK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def rebuilt(evening):
    """The evening scored and summarised from its stored deals, with nothing remembered."""
    fresh = Evening.objects.get(pk=evening.pk)
    s = services.check(fresh, [d.data for d in fresh.deals.all()])
    return fresh, s, services.summarize(fresh, s)


@pytest.mark.django_db
def test_it_records_deal_after_deal_like_a_fresh_score_of_every_deal(scorer):
    @CHECK
    @given(engine=evenings(house=True, max_deals=12), start=st.integers(0, 3), stake=st.booleans())
    def check(engine, start, stake):
        first = dataclasses.replace(engine, deals=engine.deals[:start], stake=engine.stake if stake else None)
        evening = services.import_evening(evening_file.dumps(first), scorer)
        for n, deal in enumerate(engine.deals[start:], start=start + 1):
            recorded = services.record_deal(evening, evening_file.deal_to_dict(deal), scorer, f"key-{n}")
            assert recorded.created and recorded.deal.number == n
            fresh, s, summary = rebuilt(evening)
            assert fresh.summary == summary, f"the summary after deal {n} differs from a rebuilt one"
            assert recorded.scored.result == s.result
            assert services.scored(fresh).result == s.result  # what the next page or deal starts from
        assert services.scored(Evening.objects.get(pk=evening.pk)).result == score(
            dataclasses.replace(engine, stake=first.stake)
        )

    check()


PAIR = {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 8}


@pytest.mark.parametrize("last", [0, 1, 2, 5, 7, 100])
def test_it_writes_the_last_rows_of_the_deal_list_as_the_whole_list_ends(last):
    """The scoring page and a recorded deal describe only the last deals (manche scores included)."""
    from scorebook.evenings import display
    from scorebook.rules.deals import ClassicDeal
    from scorebook.rules.deals import Evening as EngineEvening

    rules = registry.get("classique")
    splits = [(9, 4), (7, 6), (2, 11), (8, 5), (10, 3), (6, 7), (13, 0), (4, 9)]
    engine = EngineEvening(
        rules=rules,
        players=("Anne", "Bert", "Carl", "Dina"),
        first_dealer="Anne",
        deals=tuple(ClassicDeal(t, (0, 0)) for t in splits),
    )
    result = score(engine)
    whole = display.deal_rows(result, rules)
    assert any("manche to" in row.state for row in whole[-5:])  # the tail holds a won manche
    tail = display.deal_rows(result, rules, last=last)
    assert [vars(row) for row in tail] == [vars(row) for row in whole[len(whole) - min(last, len(whole)) :]]


@pytest.mark.django_db
def test_it_shows_the_stored_deals_when_they_were_changed_behind_the_services_back(scorer_client, make_evening):
    """A deal written without the services (a script) leaves the summary behind: the page shows
    the deals and rebuilds the summary from them."""
    evening = make_evening("kleurenwiezen", deals=[PAIR])
    url = reverse("evening", args=[evening.pk])
    Deal.objects.create(
        evening=evening, number=2, data={"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 9}
    )
    response = scorer_client.get(url)
    assert response.status_code == 200
    assert 'id="deal-2"' in response.content.decode() and "Deal 3" in response.content.decode()
    fresh, _s, summary = rebuilt(evening)
    assert fresh.summary == summary and fresh.summary["deals"] == 2


@pytest.mark.django_db
def test_it_numbers_the_deals_again_when_one_was_removed_behind_the_services_back(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen", deals=[PAIR, {"contract": "pass"}, PAIR, PAIR])
    Deal.objects.filter(evening=evening, number=2).delete()
    response = scorer_client.get(reverse("evening", args=[evening.pk]))
    assert response.status_code == 200
    assert list(Deal.objects.filter(evening=evening).values_list("number", flat=True)) == [1, 2, 3]
    assert "Deal 4" in response.content.decode()
    fresh, _s, summary = rebuilt(evening)
    assert fresh.summary == summary and fresh.summary["deals"] == 3


@pytest.mark.django_db
def test_it_answers_a_clear_error_page_when_the_evening_cannot_be_put_in_order(
    scorer_client, make_evening, monkeypatch
):
    evening = make_evening("kleurenwiezen", deals=[PAIR])
    calls = []

    def never(*args):
        calls.append(args)
        return False

    monkeypatch.setattr(services, "_in_order", never)
    response = scorer_client.get(reverse("evening", args=[evening.pk]))
    assert response.status_code == 500
    assert "cannot be shown" in response.content.decode()
    assert len(calls) == 2  # checked, rebuilt once, checked again: never a loop


@pytest.mark.django_db
def test_it_rebuilds_stored_summaries_from_the_command_line(make_evening):
    one = make_evening("kleurenwiezen", deals=[PAIR, PAIR])
    other = make_evening("liege", deals=[])
    Evening.objects.filter(pk=one.pk).update(summary={})
    out = StringIO()
    call_command("refresh_summaries", "--evening", str(one.pk), stdout=out)
    fresh, _s, summary = rebuilt(one)
    assert fresh.summary == summary and fresh.summary["deals"] == 2
    assert "1 summaries rebuilt" in out.getvalue()
    Evening.objects.filter(pk=other.pk).update(summary={"deals": 99})
    call_command("refresh_summaries", stdout=out)
    assert Evening.objects.get(pk=other.pk).summary["deals"] == 0
