"""Recording a deal scores that deal alone, on the evening's remembered state, and brings the
summary up to date from the one before: both must always equal scoring every deal again."""

import dataclasses
import re

import pytest
from django.urls import reverse
from django.utils import timezone
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
    s = services.scored(fresh, [d.data for d in fresh.deals.all()])
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


@pytest.mark.django_db
def test_it_scores_from_the_deals_when_the_state_was_forgotten(scorer, make_evening):
    evening = make_evening("kleurenwiezen", deals=[PAIR, {"contract": "pass"}])
    services.forget_states()
    services.record_deal(evening, PAIR, scorer, "k")
    fresh, s, summary = rebuilt(evening)
    assert fresh.summary == summary and services.scored(fresh).result == s.result
    assert fresh.deals.count() == 3 and s.result.deals[-1].multiplier == 2


@pytest.mark.django_db
def test_it_counts_every_deal_again_when_the_summary_before_is_not_of_the_version_before(scorer, make_evening):
    evening = make_evening("kleurenwiezen", deals=[PAIR, PAIR])
    Evening.objects.filter(pk=evening.pk).update(summary={"version": 0, "players": []})
    services.record_deal(Evening.objects.get(pk=evening.pk), PAIR, scorer, "k")
    fresh, _s, summary = rebuilt(evening)
    assert fresh.summary == summary and fresh.summary["deals"] == 3


@pytest.mark.django_db
def test_it_does_not_take_the_state_of_another_evening_that_had_the_same_id_and_version(scorer_client, make_evening):
    """SQLite may give a new evening the id of a deleted one, and versions start again: the
    remembered state is known by the time of the last change too."""
    evening = make_evening("kleurenwiezen", deals=[PAIR] * 3)
    scorer_client.get(reverse("evening", args=[evening.pk]))  # remembered
    evening.refresh_from_db()
    # what a new evening with the same id and version would look like: other deals, another time
    Deal.objects.filter(evening=evening).update(data={"contract": "pass"})
    Evening.objects.filter(pk=evening.pk).update(updated_at=timezone.now())
    again = Evening.objects.get(pk=evening.pk)
    assert again.version == evening.version
    assert services.scored(again).result.totals == {p: 0 for p in ("Anne", "Bert", "Carl", "Dina")}
    assert services.scored(evening).result.totals != services.scored(again).result.totals


@pytest.mark.parametrize("last", [0, 1, 2, 5, 7, 100])
def test_it_writes_the_last_rows_of_the_deal_list_as_the_whole_list_ends(last):
    """The scoring page and a recorded deal describe only the last deals (manche scores included)."""
    from scorebook.evenings import display
    from scorebook.rules.deals import ClassicDeal
    from scorebook.rules.deals import Evening as EngineEvening

    rules = registry.get("classique")
    splits = [(9, 4), (7, 6), (2, 11), (8, 5), (10, 3), (6, 7), (13, 0), (4, 9)]
    engine = EngineEvening(
        rules=rules, players=("Anne", "Bert", "Carl", "Dina"), first_dealer="Anne",
        deals=tuple(ClassicDeal(t, (0, 0)) for t in splits),
    )
    result = score(engine)
    whole = display.deal_rows(result, rules)
    assert any("manche to" in row.state for row in whole[-5:])  # the tail holds a won manche
    tail = display.deal_rows(result, rules, last=last)
    assert [vars(row) for row in tail] == [vars(row) for row in whole[len(whole) - min(last, len(whole)):]]


@pytest.mark.django_db
def test_it_shows_the_stored_deals_when_they_were_changed_behind_the_services_back(scorer_client, make_evening):
    """A deal written without the services (the admin, a script) does not bump the version: the
    page notices its list no longer matches the remembered state and scores the deals again."""
    evening = make_evening("kleurenwiezen", deals=[PAIR])
    url = reverse("evening", args=[evening.pk])
    scorer_client.get(url)  # remembered with one deal
    Deal.objects.create(evening=evening, number=2, data={"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 9})
    html = scorer_client.get(url).content.decode()
    assert 'id="deal-2"' in html and "Deal 3" in html  # the list and the next deal agree
    fresh = Evening.objects.get(pk=evening.pk)
    both = services.scored(fresh, [d.data for d in fresh.deals.all()]).result.totals
    shown = dict(re.findall(r'<span class="chip-name">(?:<span[^>]*>★</span>)?(\w+)</span><span class="chip-total \w+">(-?\d+)</span>', html))
    assert {name: int(total) for name, total in shown.items()} == both != {"Anne": 0, "Bert": 0, "Carl": 0, "Dina": 0}
    assert len(services.scored(fresh).result.deals) == 2  # and the fresh state is the one remembered
