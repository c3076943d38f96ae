"""Recording a deal: scored from the state stored after the last one, at the same cost at deal 400 as
at deal 4, never placed elsewhere than where it was entered."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Count, Exists, Max, Q, Subquery

from scorebook.rules import evening_file
from scorebook.rules.deals import Evening as EngineEvening
from scorebook.rules.outcome import NextDeal
from scorebook.rules.scoring import Scorer

from .. import summary
from ..access import EveningAccess
from ..models import Deal, DealRevision, Evening
from ..stored import LINE_FIELDS, state_of, table_of
from .locking import author, evening_of, held_locked, read_locked, sync
from .refusals import DealLimit, Entered, EveningMoved
from .rescoring import check_money, next_version, rebuild_locked, save_state


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

    def new(self) -> tuple[Deal, Scorer, Scorer]:
        """The deal recorded now (``created``) and the states before it and after it."""
        if self.deal is None or self.before is None or self.after is None:
            raise ValueError("nothing was recorded by this request")
        return self.deal, self.before, self.after


def record_deal(
    at: Evening | EveningAccess,
    data: dict[str, Any],
    user: User | AnonymousUser | None,
    request_key: str = "",
    entered: Entered | None = None,
    *,
    table: EngineEvening | None = None,
) -> Recorded:
    """Append a deal, scored from the stored state after the last one; a spent ``request_key``
    (its deal recorded, or recorded and deleted since) records nothing. ``entered``: the version of
    the evening the deal was entered against; ``EveningMoved`` when the evening changed since (the
    deal would go to another place, another dealer: never silently). ``at``: the evening, or the
    access a view read it through; one read under its lock in the caller's transaction
    (``locking.held_locked``) is not read again, and that transaction is this write's (a refusal
    rolls it back); ``table``: its engine table, when the caller built it from that read."""
    with transaction.atomic(savepoint=not held_locked(at)):
        locked = read_locked(at)
        if table is None or not held_locked(at):
            table = table_of(locked)
        state = state_of(locked, table)
        now = _deals_now(locked, request_key, state.number if state is not None else 0)
        if now.same_key is not None:  # a spent key: this request was recorded already
            return Recorded(now.same_key, False)
        if now.deleted_key:  # ... and its deal deleted since: it stays deleted
            return Recorded(None, False)
        if locked.deal_limit is not None and now.deals >= locked.deal_limit:
            raise DealLimit(locked.deal_limit)
        before = _in_order(locked, state, now)
        rebuilt = before is None
        if before is None:
            before = rebuild_locked(locked, table)
        number = before.number + 1
        if entered is not None:
            _check_place(locked, entered, number, before.next_deal())
        after = before.then(evening_file.parse_deal(data, before.evening, number))
        result, standing, snapshot = after.results[-1], after.standing(), after.snapshot()
        check_money(locked, standing)
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
        next_version(locked, snapshot)
        locked.summary = summary.with_deal(locked, previous, standing, result)
        save_state(locked)
    sync(evening_of(at), locked)
    return Recorded(deal, True, before, after, None if rebuilt else now.last)


def _check_place(locked: Evening, entered: Entered, number: int, coming: NextDeal) -> None:
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

    deals: int  # the evening's deals
    top: int  # the highest number among them (0: none)
    last: list[Deal]  # the last two, in order
    same_key: Deal | None  # the deal recorded with the request key
    deleted_key: bool  # a deletion not undone keeps the request key

    def in_order(self, state: Scorer) -> bool:
        """The deals are numbered 1..n, n the number of deals ``state`` (the stored state) is after."""
        return self.deals == self.top == state.number


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
    first = rows[0]  # (its annotations are the query's, built from a dict: django-stubs cannot follow them)
    return _Now(first.count, first.top, last, same_key, bool(request_key) and first.deleted_key)  # type: ignore[attr-defined]


def _in_order(locked: Evening, state: Scorer | None, now: _Now) -> Scorer | None:
    """The engine's state after the evening's last deal as its row keeps it (``state``), when it
    agrees with the deals (``now``: numbered 1..n, n the state's) and the summary can take one more
    deal; None otherwise (the evening is to be rebuilt from its deals first)."""
    if state is not None and summary.advances(locked.summary, locked) and now.in_order(state):
        return state
    return None
