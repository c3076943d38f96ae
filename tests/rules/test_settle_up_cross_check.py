"""The settle-up against an independent solver, lean (issue 28, point 6): on a few club months generated
like real ones (``bench/settle_up.py``: 25 to 30 members, evenings of 4 to 6 at €0.05 to €0.25 a
point), the site's search never needs more transfers than OR-Tools' CP-SAT finds in a few seconds, and
says "proved" only where CP-SAT finds no fewer either. ``make bench-settle-up`` runs 24 months at 20 s
each and prints the table."""

import pytest

from bench.settle_up import club_month, cp_sat, ours


@pytest.mark.slow  # CP-SAT's seconds; make test runs it, make bench-settle-up runs the full table
@pytest.mark.parametrize("month", [0, 7, 11])
def test_the_search_needs_no_more_transfers_than_cp_sat(month):
    cents = club_month(month)
    assert 25 <= len(cents) <= 30
    found, _proved, _took = ours(cents)
    theirs, their_proof, _their_time = cp_sat(cents, seconds=3)
    assert found <= theirs
    if their_proof:
        assert found == theirs
