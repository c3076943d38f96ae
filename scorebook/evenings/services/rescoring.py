"""The deals scored again from one of them on (a correction, a deletion, a deal put back), the
evening rebuilt from its deals, and what a new evening's deals give stored with it."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from scorebook.rules import evening_file
from scorebook.rules.deals import Evening as EngineEvening
from scorebook.rules.messages import gettext_noop
from scorebook.rules.scoring import DealError, DealResult, Scorer, SnapshotError, Standing, restore, scorer

from .. import summary
from ..models import Deal, Evening, Seat
from ..stored import file_dict, result_of, state_of, table_of
from .locking import read_locked, sync
from .refusals import Unscorable

MONEY_LIMIT = Decimal("9999999999.99")  # the most Payment.amount holds (12 digits, 2 decimals)


def check_money(evening: Evening, standing: Standing) -> None:
    """Refuse a change that would take a player's money (and so a transfer, a payment, a ledger
    line) beyond what the database stores: where deals, adjustments and the stake meet."""
    if evening.stake is None:
        return
    money = standing.money(evening.stake)
    if any(abs(amount) > MONEY_LIMIT for amount in money.values()):
        raise DealError(
            standing.number,
            gettext_noop("this would take a player's money beyond %(limit)s: check the points and the stake"),
            limit=f"{MONEY_LIMIT:,}",
        )


def next_version(locked: Evening, snapshot: dict[str, Any]) -> None:
    """A change of the evening: its next version, with the engine's state after its last deal."""
    locked.version += 1
    locked.updated_at = timezone.now()
    locked.state = {"version": locked.version, "engine": snapshot}


def save_state(locked: Evening) -> None:
    """The evening's new version, state and summary, and its seats' figures where they changed."""
    locked.save(update_fields=["version", "updated_at", "state", "summary"])
    summary.write_seat_figures(locked)


# --- the deals from the one changed on scored again ----------------------------------------------


@dataclass
class Rescored:
    """The evening's deals in their new order (``rows``: their data as they are to be), and what
    scoring them from ``start`` (0-based) gave: each one's result and the state after it."""

    rows: list[Deal]
    start: int
    results: list[DealResult]  # of every row, in order
    states: list[Scorer]  # after each row from ``start`` on (the state before them when there is none)


def rows_in_order(locked: Evening) -> list[Deal]:
    """Every deal of the evening in order, when what is stored agrees with them (numbers 1..n, the
    state of the evening's version after the n-th, each deal's result); rebuilt first otherwise.
    One query (two when rebuilt)."""
    rows = list(Deal.objects.filter(evening=locked).defer("state").order_by("number", "pk"))
    table = table_of(locked)
    state = state_of(locked, table)
    in_order = state is not None and [d.number for d in rows] == list(range(1, state.number + 1))
    if in_order and all(d.result is not None for d in rows) and summary.advances(locked.summary, locked):
        return rows
    rebuild_locked(locked, table)
    return list(Deal.objects.filter(evening=locked).defer("state").order_by("number"))


def rescore(locked: Evening, rows: list[Deal], start: int) -> Rescored:
    """Score ``rows`` (every deal, in the new order) from ``start`` on, from the state stored after
    the deal before; nothing is written (``DealError`` names a deal the change makes impossible)."""
    table = table_of(locked)
    known = [result_of(row, table) for row in rows[:start]]
    results = [r for r in known if r is not None]
    state = None
    if start == 0:
        state = scorer(table)
    elif len(results) == len(known):
        with contextlib.suppress(SnapshotError):
            state = restore(table, rows[start - 1].state)
    if state is None:  # what is stored before ``start`` does not fit: score from the first deal
        start, results, state = 0, [], scorer(table)
    states = []
    for number, row in enumerate(rows[start:], start=start + 1):
        state = state.then(evening_file.parse_deal(row.data, table, number))
        results.append(state.results[-1])
        states.append(state)
    if not states:  # no deal after the change: the state before it is the evening's
        states.append(state)
    check_money(locked, state.standing())
    return Rescored(rows, start, results, states)


def write_rescored(
    locked: Evening, rescored: Rescored, *, insert: Deal | None = None, new_version: bool = True
) -> None:
    """Write what ``rescore`` found: the deals' numbers (in an order that keeps them unique at every
    step), each deal's result and state from ``start`` on (``insert``, a row not saved yet, inserted
    at its place), then the evening's state (of its next version, or of the same one when
    ``new_version`` is False: a rebuild), summary and seats."""
    rows, start = rescored.rows, rescored.start
    moves = [(number, row) for number, row in enumerate(rows, start=1) if row is not insert and row.number != number]
    for number, row in sorted((m for m in moves if m[0] < m[1].number), key=lambda m: m[0]):
        Deal.objects.filter(pk=row.pk).update(number=number)
    for number, row in sorted((m for m in moves if m[0] > m[1].number), key=lambda m: -m[0]):
        Deal.objects.filter(pk=row.pk).update(number=number)
    changed = []
    rescored_rows = zip(rows[start:], rescored.results[start:], rescored.states, strict=len(rows) > start)
    for number, (row, result, state) in enumerate(rescored_rows, start=start + 1):
        new_result, new_state = result.as_dict(), state.snapshot()
        known = "state" not in row.get_deferred_fields()  # a rebuild read it; a correction did not
        if row is not insert and (row.result != new_result or not known or row.state != new_state):
            changed.append(row)
        row.number, row.result, row.state = number, new_result, new_state
    if insert is not None:
        insert.save(force_insert=True)
    Deal.objects.bulk_update(changed, ["result", "state"])
    last = rescored.states[-1]
    if new_version:
        next_version(locked, last.snapshot())
    else:  # the same deals: what is derived from them stored again, at the same version
        locked.updated_at = timezone.now()
        locked.state = {"version": locked.version, "engine": last.snapshot()}
    locked.summary = summary.summarize(locked, last.standing(), rescored.results)
    save_state(locked)


# --- the evening rebuilt from its deals ---------------------------------------------------------


def rebuild(evening: Evening) -> dict:
    """Score the evening from its deals and store what is derived from them where it differs: the
    deals' numbers (1..n in their order), results and states, the evening's state and summary, the
    seats' figures (the version stays: the deals are the same). ``manage.py refresh_summaries``,
    and after a change of the table without the services (the seats of a night's table). Its
    summary."""
    with transaction.atomic():
        locked = read_locked(evening, open_only=False)
        rebuild_locked(locked, table_of(locked))
    sync(evening, locked)
    return evening.summary


def rebuild_locked(locked: Evening, table: EngineEvening) -> Scorer:
    """``rebuild`` of the locked evening."""
    rows = list(Deal.objects.filter(evening=locked).order_by("number", "pk"))
    try:
        rescored = rescore(locked, rows, 0)
    except (DealError, evening_file.FileError) as error:
        raise Unscorable(error) from None
    last = rescored.states[-1]
    unchanged = (
        [row.number for row in rows] == list(range(1, len(rows) + 1))
        and all(row.result == r.as_dict() for row, r in zip(rows, rescored.results, strict=True))
        and all(row.state == s.snapshot() for row, s in zip(rows, rescored.states, strict=False))
        and locked.state == {"version": locked.version, "engine": last.snapshot()}
        and locked.summary == summary.summarize(locked, last.standing(), rescored.results)
    )
    if unchanged:
        summary.write_seat_figures(locked)
    else:
        write_rescored(locked, rescored, new_version=False)
    return last


def store_new(evening: Evening) -> None:
    """What a new evening's deals give (an imported evening's; nothing for a new one), stored at the
    version it was created with (0, or a restored backup's) in the transaction that creates it.
    ``DealError`` when they cannot be kept."""
    rows = list(Deal.objects.filter(evening=evening).order_by("number"))
    write_rescored(evening, rescore(evening, rows, 0), new_version=False)


def prepare_new(evening: Evening, seats: list[Seat]) -> None:
    """What ``store_new`` would store for a new evening without deals, set on its row and its seats'
    before either is written (``creation.prepare_evenings``): its state, summary and seat figures."""
    table = evening_file.from_dict(file_dict(evening, [], players=[seat.name for seat in seats]))
    state = scorer(table)
    evening.state = {"version": evening.version, "engine": state.snapshot()}
    evening.summary = summary.summarize(evening, state.standing(), [], seats)
    summary.seat_figures(evening.summary, seats, [])


def seats_again(evening: Evening, players: list) -> list[Seat]:
    """An evening without a deal seated again (a club night's table redrawn), prepared in memory:
    its new seats (the roster ``players``, the first one deals), and on the evening its state,
    summary and first dealer as a new evening's; ``write_seats_again`` writes them."""
    seats = [Seat(evening=evening, player=p, position=i, name=p.name) for i, p in enumerate(players)]
    evening.first_dealer = 0
    prepare_new(evening, seats)
    return seats


def write_seats_again(tables: list[tuple[Evening, list[Seat]]]) -> None:
    """Write what ``seats_again`` prepared: each evening's seats replaced, its state, summary and
    seats' figures stored as a new evening's (the version stays, as in a rebuild: no deal changed).
    In the caller's transaction, which locked the evenings and checked that they have no deal."""
    now = timezone.now()
    Seat.objects.filter(evening__in=[evening.pk for evening, _seats in tables]).delete()
    Seat.objects.bulk_create([seat for _evening, seats in tables for seat in seats])
    for evening, _seats in tables:  # one plain UPDATE each: bulk_update's CASE over JSON costs more
        evening.updated_at = now
        Evening.objects.filter(pk=evening.pk).update(
            first_dealer=0, state=evening.state, summary=evening.summary, updated_at=now
        )
