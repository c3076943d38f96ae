"""What an evening would store if it were rebuilt from its deals, computed without writing anything;
``assert_as_rebuilt`` compares it with what the writes stored (the tests' oracle for the write path).

Everything is computed here from the deals alone, with the engine scoring every deal from the first
one: each deal's result and the state after it, the evening's state and summary, the seats' figures.
"""

from __future__ import annotations

from scorebook.evenings import stored, summary
from scorebook.evenings.models import Evening, Seat
from scorebook.rules import evening_file
from scorebook.rules.scoring import scorer


def rebuilt(evening: Evening) -> dict:
    """What a rebuild of ``evening`` (read afresh) would store, per row and for the evening."""
    fresh = Evening.objects.prefetch_related("seats").get(pk=evening.pk)
    deals = list(fresh.deals.order_by("number"))
    table = stored.table_of(fresh)
    state = scorer(table)
    rows = []
    for number, deal in enumerate(deals, start=1):
        state = state.then(evening_file.parse_deal(deal.data, table, number))
        rows.append({"number": number, "result": state.results[-1].as_dict(), "state": state.snapshot()})
    the_summary = summary.summarize(fresh, state.standing(), state.results)
    seats = list(fresh.seats.all())
    payments = list(fresh.payments.active())
    figures = summary.figures(the_summary, [seat.name for seat in seats], payments)
    return {
        "rows": rows,
        "state": {"version": fresh.version, "engine": state.snapshot()},
        "summary": the_summary,
        "seats": figures,
    }


def as_stored(evening: Evening) -> dict:
    """What the writes stored for ``evening``, in ``rebuilt``'s shape."""
    fresh = Evening.objects.get(pk=evening.pk)
    rows = [{"number": d.number, "result": d.result, "state": d.state} for d in fresh.deals.order_by("number", "pk")]
    seats = Seat.objects.filter(evening=fresh).order_by("position").values(*summary.SEAT_FIGURES)
    return {"rows": rows, "state": fresh.state, "summary": fresh.summary, "seats": list(seats)}


def assert_as_rebuilt(evening: Evening, when: str = "") -> None:
    """What the writes stored for ``evening`` is what a rebuild from its deals would store."""
    got, want = as_stored(evening), rebuilt(evening)
    where = f" {when}" if when else ""
    assert [r["number"] for r in got["rows"]] == [r["number"] for r in want["rows"]], f"deal numbers{where}"
    for g, w in zip(got["rows"], want["rows"], strict=True):
        assert g == w, f"deal {w['number']}'s stored result or state{where}"
    assert got["state"] == want["state"], f"the evening's state{where}"
    assert got["summary"] == want["summary"], f"the summary{where}"
    assert got["seats"] == want["seats"], f"the seats' figures{where}"
