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
  state after deal k - 1 (``_rescore`` then ``_write``).
- ``Evening.summary`` and the seats' figures (``summary``): advanced by the one new deal, rebuilt
  from the stored results after a correction, the seats written where they changed.

A stored state that disagrees with the deals (a deal written or removed behind the site's back,
an evening from an older release) is found by the next write, from the version and the deals'
count, and rebuilt from the deals first (``rebuild``; ``manage.py refresh_summaries`` does the
same for every evening).
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from django.db import transaction
from django.db.models import Count, Exists, Max, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorebook.core.engine_messages import localized
from scorebook.rules import evening_file
from scorebook.rules.deals import Evening as EngineEvening
from scorebook.rules.messages import gettext_noop
from scorebook.rules.scoring import DealError, DealResult, Scorer, SnapshotError, Standing, restore, scorer

from . import headings, summary
from .models import Deal, DealRevision, Evening, Payment, Seat, link_token_hash, new_link_token
from .stored import LINE_FIELDS, file_dict, result_of, state_of, table_of

# --- refusals: a request that cannot be done as asked, in words -------------------------------


class Refused(Exception):
    """The write cannot be done as asked; ``message`` says why, in the person's language."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class EveningClosed(Refused):
    def __init__(self):
        super().__init__(_("This evening is closed: reopen it to change a deal."))


class EveningGone(Refused):
    def __init__(self):
        super().__init__(_("This evening has been deleted."))


class Entered(NamedTuple):
    """What the phone showed when the deal was entered: the evening's ``version``, and the deal's
    place, its ``number`` and ``dealer`` (who sits out follows from them at that version)."""

    version: int
    number: int | None = None
    dealer: str = ""


class EveningMoved(Refused):
    """The deal would not go where it was entered: another phone recorded or deleted a deal (another
    place, another dealer), or corrected one since (the same place, but not the evening the scorer
    saw). It is never placed silently. ``version``, ``number``, ``dealer`` and ``sitting_out``: where
    it would go now; ``changed``: the correction (or deletion, putting back) that kept its place."""

    def __init__(
        self,
        entered: Entered,
        version: int,
        number: int,
        dealer: str,
        sitting_out: tuple[str, ...],
        changed: DealRevision | None = None,
    ):
        self.entered, self.version, self.number = entered, version, number
        self.dealer, self.sitting_out = dealer, sitting_out
        out = _("Sits out: %(names)s.") % {"names": ", ".join(sitting_out)} if sitting_out else ""
        if changed is not None:  # the same place: say what changed, not the place twice
            what = {
                DealRevision.Action.CORRECTED: _("deal %(k)s was corrected"),
                DealRevision.Action.DELETED: _("deal %(k)s was deleted"),
                DealRevision.Action.RESTORED: _("deal %(k)s was put back"),
            }[DealRevision.Action(changed.action)] % {"k": changed.number}
            message = _(
                "Not recorded. Meanwhile %(what)s on another phone: this deal is still deal %(n)s, dealt by "
                "%(dealer)s, but the totals it was entered against changed. %(out)s"
            ) % {"what": what, "n": number, "dealer": dealer, "out": out}
        else:
            was = (
                _("This deal was entered as deal %(n)s, dealt by %(dealer)s.")
                % {"n": entered.number, "dealer": entered.dealer}
                if entered.number and entered.dealer
                else _("This deal was entered on an earlier state of the evening.")
            )
            message = _(
                "Not recorded. %(entered)s Meanwhile the evening changed on another phone: it would now be deal "
                "%(n)s, dealt by %(dealer)s. %(out)s"
            ) % {"entered": was, "n": number, "dealer": dealer, "out": out}
        super().__init__(message.strip())


class AdminReopens(Exception):
    """The evening was closed by an admin of its club (or arrived closed): only an admin reopens it."""


class HasDeals(Refused):
    """An evening with deals is never deleted (it can be archived)."""

    def __init__(self):
        super().__init__(_("This evening cannot be deleted"))


class HasPayments(Refused):
    """An evening with payments (cancelled ones too: they are records) is never deleted: payments
    outlive everything (the database refuses it too, ``Payment.evening`` is ``PROTECT``)."""

    def __init__(self):
        super().__init__(_("This evening cannot be deleted: payments were recorded for it."))


class Managed(Refused):
    """The evening is run from above it (a club night's table): this is done only from there. The
    sentence names the table (its night, table and session: ``headings``)."""

    def __init__(self, evening: Evening):
        super().__init__(
            _(
                "%(table)s belongs to a club night: only its director closes, reopens, deletes, archives "
                "or shares it, from the night's page."
            )
            % {"table": headings.heading(evening)}
        )


class DealLimit(Refused):
    """The evening has recorded the most deals it may (a club night's deals per session)."""

    def __init__(self, limit: int):
        super().__init__(
            ngettext(
                "This table has played its %(n)s deal of the session: the director closes the session.",
                "This table has played its %(n)s deals of the session: the director closes the session.",
                limit,
            )
            % {"n": limit}
        )


class DealGone(Refused):
    """The deal the page showed has been deleted since."""

    def __init__(self, number: int):
        self.number = number
        super().__init__(_("Deal %(n)s has been deleted in the meantime: nothing was changed.") % {"n": number})


class StaleDeal(Refused):
    """The deal was changed by someone else since the form was shown; ``deal`` is it now."""

    def __init__(self, deal: Deal, message: str = ""):
        self.deal = deal
        super().__init__(message or _("Deal %(n)s was changed in the meantime.") % {"n": deal.number})


class AlreadyPutBack(Refused):
    def __init__(self, number: int):
        super().__init__(_("Deal %(n)s has already been put back.") % {"n": number})


class NoSuchDeletion(Refused):
    def __init__(self):
        super().__init__(_("There is no deleted deal to put back."))


class Unscorable(Refused):
    """The evening's stored deals cannot be scored: nothing can be changed until it is repaired."""

    def __init__(self, error: DealError | evening_file.FileError):
        self.error = error
        super().__init__(
            _("This evening's stored deals cannot be scored (%(why)s): nothing was changed.")
            % {"why": localized(error)}
        )


def lock(evenings: QuerySet[Evening], pk: int) -> Evening | None:
    """The evening ``pk`` of ``evenings`` with its seats, read and locked until the end of the
    transaction this runs in (``select_for_update`` on PostgreSQL; SQLite's transaction holds the
    lock from its start); None when there is none. A write given it in the same transaction does
    not read it again (``_locked``): a view reads the evening it checks the user's rights on under
    the lock (``access.evening_for_user(..., locked=True)``), and the service decides on that read."""
    evening = evenings.select_for_update(of=("self",)).prefetch_related("seats").filter(pk=pk).first()
    if evening is not None:
        evening.locked_in = _transaction()
    return evening


def _transaction():
    """The transaction this runs in (its outermost ``atomic`` block), None outside one."""
    connection = transaction.get_connection()
    return connection.atomic_blocks[0] if connection.in_atomic_block else None


def _locked_here(evening: Evening) -> bool:
    """``evening`` was read under its lock (``lock``) in the transaction this runs in."""
    return getattr(evening, "locked_in", None) is not None and evening.locked_in is _transaction()


def _locked(evening: Evening, *, open_only: bool = True) -> Evening:
    """The evening's row, read again and locked until the end of the transaction, with its seats
    (the evening itself when it was read so in this transaction: ``lock``); ``EveningGone`` when it
    was deleted, ``EveningClosed`` when ``open_only`` and it is closed."""
    locked = evening if _locked_here(evening) else lock(Evening.objects.all(), evening.pk)
    if locked is None:
        raise EveningGone()
    if open_only and not locked.is_open:
        raise EveningClosed()
    return locked


def _sync(target: Evening, source: Evening) -> None:
    """What a write changed on the locked copy, onto the evening the view holds."""
    target.version, target.updated_at = source.version, source.updated_at
    target.summary, target.state, target.status = source.summary, source.state, source.status


def author(user):
    return user if user is not None and user.is_authenticated else None


# --- recording a deal ---------------------------------------------------------------------------


class Recorded(NamedTuple):
    """What ``record_deal`` did. ``created`` False: the request key was spent already (a repeated
    request): ``deal`` is the deal it recorded, None when that deal has been deleted since.
    ``before`` and ``after``: the state before the deal and after it (None: nothing recorded);
    ``previous``: the evening's last two deals before it, as read under the lock (what the answer
    shows again: the row above the new one may change), None when the evening was rebuilt first."""

    deal: Deal | None
    created: bool
    before: Scorer | None = None
    after: Scorer | None = None
    previous: list[Deal] | None = None


def record_deal(
    evening: Evening,
    data: dict,
    user,
    request_key: str = "",
    entered: Entered | None = None,
    *,
    table: EngineEvening | None = None,
) -> Recorded:
    """Append a deal, scored from the stored state after the last one; a spent ``request_key``
    (its deal recorded, or recorded and deleted since) records nothing. ``entered``: the version of
    the evening the deal was entered against; ``EveningMoved`` when the evening changed since (the
    deal would go to another place, another dealer: never silently). ``evening`` read under its
    lock in the caller's transaction (``lock``) is not read again, and that transaction is this
    write's (a refusal rolls it back); ``table``: its engine table, when the caller built it."""
    with transaction.atomic(savepoint=not _locked_here(evening)):
        locked = _locked(evening)
        if table is None or locked is not evening:
            table = table_of(locked)
        state = state_of(locked, table)
        now = _deals_now(locked, request_key, state.number if state is not None else 0)
        if now.same_key is not None:  # a spent key: this request was recorded already
            return Recorded(now.same_key, False)
        if now.deleted_key:  # ... and its deal deleted since: it stays deleted
            return Recorded(None, False)
        if locked.deal_limit is not None and now.count >= locked.deal_limit:
            raise DealLimit(locked.deal_limit)
        before = _in_order(locked, state, now)
        rebuilt = before is None
        if before is None:
            before = _rebuild(locked, table)
        number = before.number + 1
        if entered is not None:
            _check_place(locked, entered, number, before.next_deal())
        after = before.then(evening_file.parse_deal(data, before.evening, number))
        result, standing, snapshot = after.results[-1], after.standing(), after.snapshot()
        _check_money(locked, standing)
        deal = Deal.objects.create(
            evening=locked,
            number=number,
            data=data,
            result=result.as_dict(),
            state=snapshot,
            recorded_by=author(user),
            request_key=request_key,
        )
        previous = locked.summary
        _new_version(locked, snapshot)
        locked.summary = summary.with_deal(locked, previous, standing, result)
        _save(locked)
    _sync(evening, locked)
    return Recorded(deal, True, before, after, None if rebuilt else now.last)


def _check_place(locked: Evening, entered: Entered, number: int, coming) -> None:
    """``EveningMoved`` unless the deal goes where it was entered: the same number and dealer (always
    compared: a deal that waited behind others carries the place it was entered for, or the one the
    scorer confirmed since), and no deal corrected, deleted or put back since the version it was
    entered against (recording, closing and reopening alone move nothing)."""
    moved = (entered.number, entered.dealer) != (number, coming.dealer)
    if entered.number is None or not entered.dealer:
        moved = entered.version != locked.version
    changed = None
    if not moved and entered.version != locked.version:
        changed = (
            DealRevision.objects.filter(evening=locked, evening_version__gt=entered.version).order_by("-pk").first()
        )
    if moved or changed is not None:
        raise EveningMoved(entered, locked.version, number, coming.dealer, coming.sitting_out, changed)


class _Now(NamedTuple):
    """What a new deal depends on, read once the evening is locked (``_deals_now``)."""

    count: int  # the evening's deals
    top: int  # the highest number among them (0: none)
    last: list[Deal]  # the last two, in order
    same_key: Deal | None  # the deal recorded with the request key
    deleted_key: bool  # a deletion not undone keeps the request key

    def in_order(self, state: Scorer) -> bool:
        """The deals are numbered 1..n, n the number of deals ``state`` (the stored state) is after."""
        return self.count == self.top == state.number


def _deals_now(locked: Evening, request_key: str, after: int) -> _Now:
    """What a new deal depends on, read once the evening is locked, in one query: the deals from
    the one before last on, where the stored state says the evening is (``after`` deals: the
    answer shows the row before the new one again), and the deal recorded with the request key,
    each row with the evening's deals counted, their highest number and whether a deletion not
    undone keeps the key (a key stays spent after its deal is deleted; putting the deal back gives
    the key back to it). When no row comes (no deal yet, or none where the state says), those
    are asked apart. Scalar subqueries: one round trip, for about the processor time of three
    plain queries (a window over the deals cost twice as much)."""
    deals = Deal.objects.filter(evening=locked)
    kept = DealRevision.objects.filter(
        evening=locked, action=DealRevision.Action.DELETED, undone=False, request_key=request_key
    )
    counted = {
        "count": Subquery(deals.order_by().values("evening").annotate(n=Count("pk")).values("n")),
        "top": Subquery(deals.order_by("-number").values("number")[:1]),
    }
    wanted = Q(number__gte=after - 1)
    if request_key:
        counted["deleted_key"] = Exists(kept)
        wanted |= Q(request_key=request_key)
    rows = list(deals.filter(wanted).annotate(**counted).only(*LINE_FIELDS, "request_key").order_by("number"))
    if not rows:
        now = deals.aggregate(count=Count("pk"), top=Max("number"))
        return _Now(now["count"], now["top"] or 0, [], None, bool(request_key) and kept.exists())
    same_key = next((row for row in rows if request_key and row.request_key == request_key), None)
    last = [row for row in rows if row.number >= after - 1][-2:]
    return _Now(rows[0].count, rows[0].top, last, same_key, bool(request_key) and rows[0].deleted_key)


def _in_order(locked: Evening, state: Scorer | None, now: _Now) -> Scorer | None:
    """The engine's state after the evening's last deal as its row keeps it (``state``), when it
    agrees with the deals (``now``: numbered 1..n, n the state's) and the summary can take one more
    deal; None otherwise (the evening is to be rebuilt from its deals first)."""
    if state is not None and summary.advances(locked.summary, locked) and now.in_order(state):
        return state
    return None


MONEY_LIMIT = Decimal("9999999999.99")  # the most Payment.amount holds (12 digits, 2 decimals)


def _check_money(evening: Evening, standing: Standing) -> None:
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


def _new_version(locked: Evening, snapshot: dict) -> None:
    """A change of the evening: its next version, with the engine's state after its last deal."""
    locked.version += 1
    locked.updated_at = timezone.now()
    locked.state = {"version": locked.version, "engine": snapshot}


def _save(locked: Evening) -> None:
    """The evening's new version, state and summary, and its seats' figures where they changed."""
    locked.save(update_fields=["version", "updated_at", "state", "summary"])
    summary.write_seat_figures(locked)


# --- correcting, deleting, putting back: the deals from the one changed on are scored again -----


@dataclass
class _Rescored:
    """The evening's deals in their new order (``rows``: their data as they are to be), and what
    scoring them from ``start`` (0-based) gave: each one's result and the state after it."""

    rows: list[Deal]
    start: int
    results: list[DealResult]  # of every row, in order
    states: list[Scorer]  # after each row from ``start`` on (the state before them when there is none)


def _rows_in_order(locked: Evening) -> list[Deal]:
    """Every deal of the evening in order, when what is stored agrees with them (numbers 1..n, the
    state of the evening's version after the n-th, each deal's result); rebuilt first otherwise.
    One query (two when rebuilt)."""
    rows = list(Deal.objects.filter(evening=locked).defer("state").order_by("number", "pk"))
    table = table_of(locked)
    state = state_of(locked, table)
    in_order = state is not None and [d.number for d in rows] == list(range(1, state.number + 1))
    if in_order and all(d.result is not None for d in rows) and summary.advances(locked.summary, locked):
        return rows
    _rebuild(locked, table)
    return list(Deal.objects.filter(evening=locked).defer("state").order_by("number"))


def _rescore(locked: Evening, rows: list[Deal], start: int) -> _Rescored:
    """Score ``rows`` (every deal, in the new order) from ``start`` on, from the state stored after
    the deal before; nothing is written (``DealError`` names a deal the change makes impossible)."""
    table = table_of(locked)
    results = [result_of(row, table) for row in rows[:start]]
    state = None
    if start == 0:
        state = scorer(table)
    elif None not in results:
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
    _check_money(locked, state.standing())
    return _Rescored(rows, start, results, states)


def _write(locked: Evening, rescored: _Rescored, *, insert: Deal | None = None, new_version: bool = True) -> None:
    """Write what ``_rescore`` found: the deals' numbers (in an order that keeps them unique at every
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
        _new_version(locked, last.snapshot())
    else:  # the same deals: what is derived from them stored again, at the same version
        locked.updated_at = timezone.now()
        locked.state = {"version": locked.version, "engine": last.snapshot()}
    locked.summary = summary.summarize(locked, last.standing(), rescored.results)
    _save(locked)


def _the_deal(rows: list[Deal], number: int, expected_id: int | None) -> Deal:
    """The deal the page showed: by its id when the page gave it (it may have moved since), else
    by its number. ``DealGone`` when it has been deleted since."""
    if expected_id is not None:
        deal = next((d for d in rows if d.pk == expected_id), None)
    else:
        deal = rows[number - 1] if 0 < number <= len(rows) else None
    if deal is None:
        raise DealGone(number)
    return deal


def edit_deal(
    evening: Evening, number: int, data: dict, user, expected_version: int | None, expected_id: int | None = None
) -> Deal:
    """Replace a deal's data and score it and the deals after it again; ``StaleDeal`` when it was
    corrected since the form was shown (``expected_version``), ``DealGone`` when it was deleted."""
    with transaction.atomic():
        locked = _locked(evening)
        rows = _rows_in_order(locked)
        deal = _the_deal(rows, number, expected_id)
        if expected_version is not None and deal.version != expected_version:
            raise StaleDeal(deal)
        before = deal.data
        deal.data = data
        rescored = _rescore(locked, rows, rows.index(deal))
        Deal.objects.filter(pk=deal.pk).update(data=data, version=deal.version + 1)
        deal.version += 1
        _write(locked, rescored)
        DealRevision.objects.create(
            evening=locked,
            number=deal.number,
            action=DealRevision.Action.CORRECTED,
            before=before,
            after=data,
            by=author(user),
            evening_version=locked.version,
        )
    _sync(evening, locked)
    return deal


def delete_deal(
    evening: Evening, number: int, user, expected_id: int | None = None, expected_version: int | None = None
) -> DealRevision:
    """Delete a deal (by its id when the page gave it); the later ones move up and are scored again.
    The revision keeps the deal, its id and its request key, so that putting it back gives the same
    deal. ``DealGone`` when it was deleted already, ``StaleDeal`` when it was corrected since."""
    with transaction.atomic():
        locked = _locked(evening)
        rows = _rows_in_order(locked)
        deal = _the_deal(rows, number, expected_id)
        if expected_version is not None and deal.version != expected_version:
            raise StaleDeal(
                deal, _("Deal %(n)s was corrected in the meantime: nothing was deleted.") % {"n": deal.number}
            )
        index, deal_id = rows.index(deal), deal.pk
        rescored = _rescore(locked, rows[:index] + rows[index + 1 :], index)
        deal.delete()
        _write(locked, rescored)
        revision = DealRevision.objects.create(
            evening=locked,
            number=index + 1,
            action=DealRevision.Action.DELETED,
            before=deal.data,
            deal_id=deal_id,
            request_key=deal.request_key,
            by=author(user),
            evening_version=locked.version,
        )
    _sync(evening, locked)
    return revision


def restore_deal(evening: Evening, revision_id: int, user) -> Deal:
    """Undo a deletion: the deal goes back at its number (with its id and its request key), the
    later ones move down. ``AlreadyPutBack`` when it was put back already (a second tap, another
    phone), ``NoSuchDeletion`` when the evening has no such deletion."""
    with transaction.atomic():
        locked = _locked(evening)
        revision = DealRevision.objects.filter(
            pk=revision_id, evening=locked, action=DealRevision.Action.DELETED
        ).first()
        if revision is None:
            raise NoSuchDeletion()
        if revision.undone:
            raise AlreadyPutBack(revision.number)
        rows = _rows_in_order(locked)
        if locked.deal_limit is not None and len(rows) >= locked.deal_limit:
            raise DealLimit(locked.deal_limit)
        index = min(revision.number, len(rows) + 1) - 1
        back = Deal(
            pk=revision.deal_id,  # the same deal again (ids are never given twice)
            evening=locked,
            number=index + 1,
            data=revision.before,
            recorded_by=author(user),
            request_key=revision.request_key,
        )
        rescored = _rescore(locked, rows[:index] + [back] + rows[index:], index)
        _write(locked, rescored, insert=back)
        revision.undone = True
        revision.save(update_fields=["undone"])
        DealRevision.objects.create(
            evening=locked,
            number=back.number,
            action=DealRevision.Action.RESTORED,
            after=revision.before,
            by=author(user),
            evening_version=locked.version,
        )
    _sync(evening, locked)
    return back


# --- the evening rebuilt from its deals ---------------------------------------------------------


def rebuild(evening: Evening) -> dict:
    """Score the evening from its deals and store what is derived from them where it differs: the
    deals' numbers (1..n in their order), results and states, the evening's state and summary, the
    seats' figures (the version stays: the deals are the same). ``manage.py refresh_summaries``,
    and after a change of the table without the services (the seats of a night's table). Its
    summary."""
    with transaction.atomic():
        locked = _locked(evening, open_only=False)
        _rebuild(locked, table_of(locked))
    _sync(evening, locked)
    return evening.summary


def _rebuild(locked: Evening, table: EngineEvening) -> Scorer:
    """``rebuild`` of the locked evening."""
    rows = list(Deal.objects.filter(evening=locked).order_by("number", "pk"))
    try:
        rescored = _rescore(locked, rows, 0)
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
        _write(locked, rescored, new_version=False)
    return last


def store_new(evening: Evening) -> None:
    """What a new evening's deals give (an imported evening's; nothing for a new one), stored at the
    version it was created with (0, or a restored backup's) in the transaction that creates it.
    ``DealError`` when they cannot be kept."""
    rows = list(Deal.objects.filter(evening=evening).order_by("number"))
    _write(evening, _rescore(evening, rows, 0), new_version=False)


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


def delete_evenings(evenings: list[Evening]) -> None:
    """Delete evenings of a club night that have no deal, with their seats and links, in a few
    queries (``delete_evening`` one by one took seconds for a big night). In the caller's
    transaction, which locked them and checked that none has a deal."""
    Evening.objects.filter(pk__in=[e.pk for e in evenings], managed=True).only("pk").delete()


# --- the evening itself ---------------------------------------------------------------------------


def set_status(evening: Evening, status: str, user=None, *, admin: bool = False, through_manager: bool = False) -> None:
    """Close or reopen the evening (a new version: followers see it change); nothing when it is so
    already. Closing keeps who closed it and whether as an admin (``admin``: an admin of its club,
    or a private evening's owner); such an evening is reopened by an admin only (``AdminReopens``
    otherwise)."""
    with transaction.atomic():
        locked = _locked(evening, open_only=False)
        if locked.managed and not through_manager:
            raise Managed(locked)
        if locked.status != status:
            if status == Evening.Status.OPEN and not through_manager and not locked.reopenable(admin=admin):
                raise AdminReopens
            closing = status == Evening.Status.CLOSED
            was = locked.version
            locked.status = status
            locked.closed_at = timezone.now() if closing else None
            locked.closed_by = author(user) if closing else None
            locked.admin_reopens = closing and admin
            locked.version += 1
            locked.updated_at = timezone.now()
            # what was stored for the version before is the same for this one
            if (locked.state or {}).get("version") == was:
                locked.state = {**locked.state, "version": locked.version}
            if (locked.summary or {}).get("version") == was:
                locked.summary = {**locked.summary, "version": locked.version}
            locked.save(
                update_fields=[
                    *("status", "closed_at", "closed_by", "admin_reopens"),
                    *("version", "updated_at", "state", "summary"),
                ]
            )
    for field in ("status", "closed_at", "closed_by_id", "admin_reopens"):
        setattr(evening, field, getattr(locked, field))
    _sync(evening, locked)


def set_status_of_tables(evening_ids: list[int], status: str, user=None) -> None:
    """``set_status`` for a club night's tables at once (a session closed or reopened through the
    night): each one that is not so already gets its next version, with what was stored for the
    version before. The evenings locked in order, then one UPDATE each; their rules (a copy of
    kilobytes on every table) are never read."""
    closing = status == Evening.Status.CLOSED
    now = timezone.now()
    fields = ("pk", "status", "version", "state", "summary")
    for locked in Evening.objects.select_for_update().filter(pk__in=evening_ids).order_by("pk").only(*fields):
        if locked.status == status:
            continue
        was, version = locked.version, locked.version + 1
        changes = {
            "status": status,
            "closed_at": now if closing else None,
            "closed_by": author(user) if closing else None,
            "admin_reopens": False,
            "version": version,
            "updated_at": now,
        }
        if (locked.state or {}).get("version") == was:
            changes["state"] = {**locked.state, "version": version}
        if (locked.summary or {}).get("version") == was:
            changes["summary"] = {**locked.summary, "version": version}
        Evening.objects.filter(pk=locked.pk).update(**changes)


def delete_evening(evening: Evening, *, through_manager: bool = False) -> None:
    """Delete an evening that has no deal and no payment (its seats and marks go with it; the roster
    stays). ``HasDeals`` when a deal was recorded meanwhile, ``HasPayments`` when a payment was (even
    cancelled), ``EveningGone`` when it was deleted already, ``Managed`` for a club night's table (only
    the night removes it)."""
    with transaction.atomic():
        locked = _locked(evening, open_only=False)
        if locked.managed and not through_manager:
            raise Managed(locked)
        if Deal.objects.filter(evening=locked).exists():
            raise HasDeals()
        if Payment.objects.filter(evening=locked).exists():
            raise HasPayments()
        locked.delete()


def set_archived(evening: Evening, archived: bool) -> None:
    """Leave the evening out of the lists (or bring it back); its deals and figures do not change."""
    with transaction.atomic():
        locked = _locked(evening, open_only=False)
        if locked.managed:
            raise Managed(locked)
        if locked.archived != archived:
            locked.archived = archived
            locked.save(update_fields=["archived"])
    evening.archived = archived


def new_share_link(evening: Evening) -> str:
    """A new read-only link for the evening (the old one stops working); returns its token,
    ``<public id>.<secret>``, of which only the secret's digest is stored."""
    share_id, secret = secrets.token_urlsafe(9), new_link_token()
    with transaction.atomic():
        if _locked(evening, open_only=False).managed:
            raise Managed(evening)  # a club night's table is followed on the night's ranking
        Evening.objects.filter(pk=evening.pk).update(share_id=share_id, share_hash=link_token_hash(secret))
    evening.share_id, evening.share_hash = share_id, link_token_hash(secret)
    return f"{share_id}.{secret}"
