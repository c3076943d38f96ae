"""The writes of an evening: its deals (record, correct, delete, put back), its status, its links.

Views call these functions; they never compute points themselves. Each write is one function
here and runs in ``transaction.atomic()``: it locks the evening's row (``select_for_update`` on
PostgreSQL; SQLite's transactions are immediate, so the lock is taken when the transaction
begins), then re-reads and re-checks everything it depends on — the evening still there and
open, the deal still the one the page showed and in the version it showed, the request key not
spent, the deletion not put back yet — and refuses with a ``Refused`` (a sentence for the
person) when another request changed it first. Nothing is written before the engine has
accepted the change (``DealError`` names the deal otherwise).

The deals are the truth; what is derived from them is stored with them, in the same transaction:

- ``Evening.state``: the engine's state after the last deal (``Scorer.snapshot()``) and the
  version it was written at. Recording a deal restores it and scores that one deal
  (``record_deal``): the cost of a deal does not grow with the evening.
- ``Deal.result`` and ``Deal.state``: each deal's scored result (the pages' rows) and the state
  after it. Correcting, deleting or putting back deal k scores the deals from k on, from the
  state after deal k - 1 (``rescoring``).
- ``Evening.summary`` and the seats' figures (``summary``): advanced by the one new deal, rebuilt
  from the stored results after a correction, the seats written where they changed.

A stored state that disagrees with the deals (a deal written or removed behind the site's back,
an evening from an older release) is found by the next write, from the version and the deals'
count, and rebuilt from the deals first (``rebuild``; ``manage.py refresh_summaries`` does the
same for every evening).

One module per job: ``refusals`` (what a write refuses, in words), ``locking`` (the evening read
under its lock), ``recording`` (a new deal), ``rescoring`` (the deals scored again from one on, the
evening rebuilt, a new evening's stored state), ``corrections`` (a deal corrected, deleted, put
back), ``status`` (closed, reopened, archived, shared) and ``deletion`` (evenings deleted). The
views and the other apps use the names below, ``services.record_deal`` and the rest.
"""

from __future__ import annotations

from .corrections import delete_deal, edit_deal, restore_deal
from .deletion import delete_evening, delete_evenings
from .locking import author
from .recording import Recorded, record_deal
from .refusals import (
    AdminReopens,
    AlreadyPutBack,
    DealGone,
    DealLimit,
    Entered,
    EveningClosed,
    EveningGone,
    EveningMoved,
    HasDeals,
    HasPayments,
    Managed,
    NoSuchDeletion,
    Refused,
    StaleDeal,
    Unscorable,
)
from .rescoring import prepare_new, rebuild, seats_again, store_new, write_seats_again
from .status import new_share_link, set_archived, set_status, set_status_of_tables

__all__ = [
    "AdminReopens",
    "AlreadyPutBack",
    "DealGone",
    "DealLimit",
    "Entered",
    "EveningClosed",
    "EveningGone",
    "EveningMoved",
    "HasDeals",
    "HasPayments",
    "Managed",
    "NoSuchDeletion",
    "Recorded",
    "Refused",
    "StaleDeal",
    "Unscorable",
    "author",
    "delete_deal",
    "delete_evening",
    "delete_evenings",
    "edit_deal",
    "new_share_link",
    "prepare_new",
    "rebuild",
    "record_deal",
    "restore_deal",
    "seats_again",
    "set_archived",
    "set_status",
    "set_status_of_tables",
    "store_new",
    "write_seats_again",
]
