"""Random writes in a row, in every variant family: after each one, what the writes stored (each
deal's result and the state after it, the evening's state and summary, the seats' figures) is
exactly what a rebuild from the deals would store (``rebuilt.assert_as_rebuilt``).

The writes: a deal recorded (a contract, a pass, a classic deal, a claim, a robre's teams, as the
engine's rotation allows), an adjustment, a repeated request, a correction of any deal (sometimes
one the engine refuses: nothing may change), a deletion (sometimes refused), an undo, a payment.
"""

from __future__ import annotations

import contextlib
import itertools

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rebuilt import as_stored, assert_as_rebuilt
from rules.test_properties import adjustments, classic_game_deals, contract_game_deals, evenings
from scorebook.evenings import creation, payments, services, stored
from scorebook.evenings.models import DealRevision, Evening
from scorebook.rules import evening_file
from scorebook.rules.model import ContractRules
from scorebook.rules.scoring import DealError, score

pytestmark = pytest.mark.both_databases  # the site's write path runs in every test here (tests/write_path.py)

WRITES = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
ACTIONS = ["record"] * 6 + ["adjustment", "repeat", "correct", "correct", "delete", "delete", "undo", "pay"]


def a_deal(data, engine, nxt, label):
    rules, players = engine.rules, engine.players
    if isinstance(rules, ContractRules):
        deal = data.draw(contract_game_deals(rules, players, nxt, zero_sum=False, pin=False), label=label)
    else:
        deal = data.draw(classic_game_deals(rules, players, nxt, zero_sum=False), label=label)
    return evening_file.deal_to_dict(deal)


def done_or_refused(write, evening, action: str) -> None:
    """Make the write; one the engine refuses leaves everything as it was."""
    before = as_stored(evening)
    with contextlib.suppress(DealError):
        write()
        event(f"{action}: done")
        return
    event(f"{action}: refused")
    assert as_stored(evening) == before, "a refused write changed what is stored"


@pytest.mark.django_db
def test_it_stores_after_every_write_what_a_rebuild_from_the_deals_would(make_user):
    scorers = (make_user(f"scorer-{n}") for n in itertools.count())

    @WRITES
    @given(engine=evenings(house=True, max_deals=3), data=st.data())
    def check(engine, data):
        scorer = next(scorers)  # a book of his own: names met in earlier examples are not his roster's
        evening = creation.import_evening(evening_file.dumps(engine), scorer)
        assert_as_rebuilt(evening, "after the import")
        keys = []
        for step in range(data.draw(st.integers(1, 14), label="writes")):
            action = data.draw(st.sampled_from(ACTIONS), label=f"write {step}")
            deals = [d.data for d in evening.deals.order_by("number")]
            if action == "record":
                nxt = stored.read_sheet(evening, 0).standing.next
                keys.append(f"key-{step}")
                services.record_deal(evening, a_deal(data, engine, nxt, "deal"), scorer, keys[-1])
            elif action == "adjustment":
                line = data.draw(adjustments(engine.players, zero_sum=False), label="adjustment")
                services.record_deal(evening, evening_file.deal_to_dict(line), scorer)
            elif action == "repeat" and keys:
                key = data.draw(st.sampled_from(keys), label="repeated key")
                assert not services.record_deal(evening, {"contract": "nonsense"}, scorer, key).created
            elif action == "correct" and deals:
                number = data.draw(st.integers(1, len(deals)), label="corrected")
                nxt = score(stored.engine_evening(evening, deals[: number - 1])).next  # as the deal was dealt
                new = a_deal(data, engine, nxt, "correction")
                correct = lambda n=number, d=new: services.edit_deal(evening, n, d, scorer, None)  # noqa: E731
                done_or_refused(correct, evening, action)
            elif action == "delete" and deals:
                number = data.draw(st.integers(1, len(deals)), label="deleted")
                done_or_refused(lambda n=number: services.delete_deal(evening, n, scorer), evening, action)
            elif action == "undo":
                deletion = DealRevision.objects.filter(evening=evening, action="deleted", undone=False).first()
                if deletion is not None:
                    done_or_refused(lambda r=deletion.pk: services.restore_deal(evening, r, scorer), evening, action)
            elif action == "pay" and evening.stake is not None:
                due = payments.still_due(Evening.objects.get(pk=evening.pk))
                if due:
                    paid = due[0]
                    payments.record_payment(evening, paid.payer, paid.payee, paid.amount, scorer)
            assert_as_rebuilt(evening, f"after write {step} ({action})")

    check()
