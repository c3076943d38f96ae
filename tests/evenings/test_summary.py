"""The deals are the truth: what each write stores of them (each deal's result and the state after it,
the evening's state and summary, the seats' figures) must always equal what a rebuild from the deals
would store. A page never writes and never scores the deals again; an evening whose stored state
disagrees with its deals (changed behind the services' back) is put back in order by its next write
or by ``manage.py refresh_summaries``."""

import dataclasses
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rebuilt import as_stored, assert_as_rebuilt
from rules.test_properties import evenings
from scorebook.evenings import creation, services, stored
from scorebook.evenings.models import Deal, Evening
from scorebook.rules import evening_file, registry
from scorebook.rules.scoring import score

CHECK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
PAIR = {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 8}


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_records_deal_after_deal_as_a_rebuild_from_every_deal_would_store_it(scorer):
    @CHECK
    @given(engine=evenings(house=True, max_deals=12), start=st.integers(0, 3), stake=st.booleans())
    def check(engine, start, stake):
        first = dataclasses.replace(engine, deals=engine.deals[:start], stake=engine.stake if stake else None)
        evening = creation.import_evening(evening_file.dumps(first), scorer)
        assert_as_rebuilt(evening, "after the import")
        for n, deal in enumerate(engine.deals[start:], start=start + 1):
            recorded = services.record_deal(evening, evening_file.deal_to_dict(deal), scorer, f"key-{n}")
            assert recorded.created and recorded.deal.number == n
            assert_as_rebuilt(evening, f"after deal {n}")
            assert recorded.after.results[-1] == score(dataclasses.replace(engine, deals=engine.deals[:n])).deals[-1]
        sheet = stored.read_sheet(Evening.objects.get(pk=evening.pk), 3)
        full = score(engine)
        assert (sheet.standing.totals, sheet.standing.next, sheet.standing.pot) == (full.totals, full.next, full.pot)
        assert sheet.lines == list(full.deals[-3:])

    check()


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
    whole = display.rows_of(result.deals, result.players, rules)
    assert any("manche to" in row.state for row in whole[-5:])  # the tail holds a won manche
    start = max(len(result.deals) - last, 0)
    before = result.deals[start - 1] if start else None  # what the rows of the tail are told of the deals before
    tail = display.rows_of(result.deals[start:], result.players, rules, (), before)
    assert [vars(row) for row in tail] == [vars(row) for row in whole[len(whole) - min(last, len(whole)) :]]


def writes(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].split()[0].upper() in {"INSERT", "UPDATE", "DELETE"}]


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["evening", "settlement", "evening_print", "evening_chart", "deal_edit"])
def test_it_reads_the_stored_state_and_never_scores_the_deals_again_on_a_page(
    scorer_client, make_evening, monkeypatch, page
):
    evening = make_evening("kleurenwiezen", deals=[PAIR, {"contract": "pass"}, PAIR])

    def never(*args, **kwargs):
        raise AssertionError("a page scored the evening's deals again")

    monkeypatch.setattr(stored, "scored", never)
    monkeypatch.setattr(stored, "scorer", never)
    args = [evening.pk, 2] if page == "deal_edit" else [evening.pk]
    with CaptureQueriesContext(connection) as queries:
        response = scorer_client.get(reverse(page, args=args))
    assert response.status_code == 200
    assert writes(queries) == []


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_shows_a_deal_written_behind_the_services_back_and_writes_nothing_until_the_next_write(
    scorer_client, make_evening
):
    evening = make_evening("kleurenwiezen", deals=[PAIR])
    other_pair = {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 9}
    Deal.objects.create(evening=evening, number=2, data=other_pair)
    before = as_stored(evening)
    with CaptureQueriesContext(connection) as queries:
        response = scorer_client.get(reverse("evening", args=[evening.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="deal-2"' in html and "Deal 3" in html  # scored in memory: the page tells the truth
    assert writes(queries) == [] and as_stored(evening) == before

    response = scorer_client.post(reverse("deal_record", args=[evening.pk]), {"contract": "pass"})
    assert response.status_code == 302
    assert_as_rebuilt(evening, "after the next write")
    fresh = Evening.objects.get(pk=evening.pk)
    assert fresh.summary["deals"] == 3 and fresh.version == 2  # one write: the rebuild keeps the version


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_numbers_the_deals_again_at_the_next_write_when_one_was_removed_behind_the_services_back(
    scorer_client, make_evening
):
    evening = make_evening("kleurenwiezen", deals=[PAIR, {"contract": "pass"}, PAIR, PAIR])
    Deal.objects.filter(evening=evening, number=2).delete()
    with CaptureQueriesContext(connection) as queries:
        assert scorer_client.get(reverse("evening", args=[evening.pk])).status_code == 200
    assert writes(queries) == []
    assert list(Deal.objects.filter(evening=evening).values_list("number", flat=True)) == [1, 3, 4]
    scorer_client.post(reverse("adjustment", args=[evening.pk]), {"adj-points_0": "2", "adj-points_1": "-2"})
    assert list(Deal.objects.filter(evening=evening).values_list("number", flat=True)) == [1, 2, 3, 4]
    assert_as_rebuilt(evening)


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_answers_clearly_when_the_stored_deals_cannot_be_scored(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen", deals=[PAIR])
    Deal.objects.create(evening=evening, number=2, data={"contract": "nonsense", "declarers": ["Anne"], "tricks": 5})
    page = scorer_client.get(reverse("evening", args=[evening.pk]))
    assert page.status_code == 500 and "cannot be shown" in page.content.decode()
    write = scorer_client.post(reverse("deal_record", args=[evening.pk]), {"contract": "pass"})
    assert write.status_code == 500 and "cannot be shown" in write.content.decode()  # no loop, no traceback
    assert Deal.objects.filter(evening=evening).count() == 2


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_rebuilds_what_is_stored_from_the_command_line(make_evening):
    one = make_evening("kleurenwiezen", deals=[PAIR, PAIR])
    other = make_evening("liege", deals=[])
    Evening.objects.filter(pk=one.pk).update(summary={}, state=None)
    Deal.objects.filter(evening=one).update(result=None, state=None)
    out = StringIO()
    call_command("refresh_summaries", "--evening", str(one.pk), stdout=out)
    assert_as_rebuilt(one)
    assert Evening.objects.get(pk=one.pk).summary["deals"] == 2
    assert "1 summaries rebuilt" in out.getvalue()
    Evening.objects.filter(pk=other.pk).update(summary={"deals": 99})
    call_command("refresh_summaries", stdout=out)
    assert Evening.objects.get(pk=other.pk).summary["deals"] == 0
    assert_as_rebuilt(other)
    untouched = as_stored(one)
    call_command("refresh_summaries", stdout=out)
    assert as_stored(one) == untouched and "0 summaries rebuilt" in out.getvalue()
