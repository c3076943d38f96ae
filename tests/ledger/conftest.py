"""The ledger's tests: the club fixtures (club_fixtures)."""

from club_fixtures import *  # noqa: F403


def pytest_collection_modifyitems(items):
    """tests/ledger/test_one_ledger.py runs the write path (its steps are the ledger's services): both
    databases. Its module belongs to the money work of this round, which marks it itself; until then the
    mark is given here (remove this hook when the module carries ``both_databases``)."""
    import pytest

    for item in items:
        if item.nodeid.startswith("tests/ledger/test_one_ledger.py::"):
            item.add_marker(pytest.mark.both_databases)
