"""The state after a deal as data (``Scorer.snapshot`` / ``restore``) and a deal's result as data
(``DealResult.as_dict`` / ``from_dict``): what a scorebook stores so that the next deal is scored
alone. Restoring the state after any deal and scoring the deals after it must give exactly what
scoring every deal from the first gives: the same results, the same standing, the same state."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.test_properties import PROPERTY, any_deals, evenings, outcome
from scorebook.rules import registry
from scorebook.rules.deals import ClassicDeal, ContractDeal, Evening, Pass
from scorebook.rules.scoring import DealError, DealResult, SnapshotError, restore, scorer


def stored(data):
    """As a database's JSON column gives it back."""
    return json.loads(json.dumps(data))


@PROPERTY
@given(evening=evenings(house=True), data=st.data())
def test_it_scores_the_deals_after_a_restored_state_as_a_score_from_the_first_deal(evening: Evening, data) -> None:
    split = data.draw(st.integers(0, len(evening.deals)), label="split")
    whole = scorer(evening)
    state = restore(evening, stored(scorer(dataclasses.replace(evening, deals=evening.deals[:split])).snapshot()))
    assert state.number == split and state.results == []
    for n, deal in enumerate(evening.deals[split:], start=split + 1):
        state = state.then(deal)
        upto = scorer(dataclasses.replace(evening, deals=evening.deals[:n]))
        assert state.results[-1] == whole.results[n - 1], f"deal {n} scored otherwise after a restore"
        assert state.snapshot() == upto.snapshot(), f"the state after deal {n} differs"
        assert state.standing() == upto.standing()
    assert state.standing() == whole.standing()
    assert stored(state.snapshot()) == state.snapshot(), "the snapshot is not plain JSON"


@PROPERTY
@given(evening=evenings(house=True), data=st.data())
def test_it_refuses_a_deal_after_a_restored_state_as_after_every_deal(evening: Evening, data) -> None:
    deal = data.draw(any_deals(evening.rules, evening.players))
    expected = outcome(dataclasses.replace(evening, deals=evening.deals + (deal,)))
    state = restore(evening, stored(scorer(evening).snapshot()))
    try:
        got = state.then(deal).results[-1]
    except DealError as exc:
        got = ("DealError", exc.number, exc.message)
    assert got == (expected if isinstance(expected, tuple) else expected.deals[-1])


@PROPERTY
@given(evening=evenings(house=True))
def test_it_gives_back_each_deals_result_from_its_data(evening: Evening) -> None:
    for result in scorer(evening).results:
        again = DealResult.from_dict(result.number, result.deal, stored(result.as_dict()), evening.players)
        assert again == result


def test_it_gives_the_standing_and_not_a_partial_result_after_a_restore() -> None:
    evening = Evening(registry.get("kleurenwiezen"), ("Anne", "Bert", "Carl", "Dina"), "Anne")
    deal = ContractDeal("samen-8", ("Anne", "Carl"), 8)
    state = restore(evening, scorer(dataclasses.replace(evening, deals=(deal,))).snapshot()).then(deal)
    assert state.standing().totals == {"Anne": 16, "Bert": -16, "Carl": 16, "Dina": -16}
    assert state.number == 2 and [r.number for r in state.results] == [2]
    with pytest.raises(ValueError, match="standing"):
        state.result()


FOUR = ("Anne", "Bert", "Carl", "Dina")


def snapshot_of(key: str, deals=()) -> dict:
    return stored(scorer(Evening(registry.get(key), FOUR, "Anne", tuple(deals))).snapshot())


@pytest.mark.parametrize(
    ("key", "change"),
    [
        ("kleurenwiezen", lambda s: s["totals"].pop("Dina")),
        ("kleurenwiezen", lambda s: s["totals"].update(Zoë=0)),
        ("kleurenwiezen", lambda s: s.update(dealer="Zoë")),
        ("kleurenwiezen", lambda s: s.update(deals="3")),
        ("kleurenwiezen", lambda s: s.update(double_pending=1)),
        ("kleurenwiezen", lambda s: s.pop("pot")),
        ("kleurenwiezen", lambda s: s.update(robre=None)),
        ("classique", lambda s: s.pop("robres")),
        ("classique", lambda s: s["next_robre"].update(teams=[["Anne", "Zoë"], ["Bert", "Carl"]])),
        ("classique", lambda s: s["robre"].update(points=[1])),
        ("classique", lambda s: s["robre"]["manches"].append({"winner": 2, "value": 1, "points": [0, 0]})),
    ],
)
def test_it_refuses_a_snapshot_that_does_not_fit_the_evening(key, change) -> None:
    deals = [ClassicDeal((9, 4), (0, 0))] * 3 if key == "classique" else [Pass()]
    snapshot = snapshot_of(key, deals)
    restore(Evening(registry.get(key), FOUR, "Anne"), snapshot)  # as it was made, it fits
    change(snapshot)
    with pytest.raises(SnapshotError):
        restore(Evening(registry.get(key), FOUR, "Anne"), snapshot)


def test_it_refuses_the_snapshot_of_another_variant() -> None:
    with pytest.raises(SnapshotError):
        restore(Evening(registry.get("classique"), FOUR, "Anne"), snapshot_of("kleurenwiezen"))
