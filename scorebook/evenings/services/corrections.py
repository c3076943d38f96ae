"""Correcting, deleting and putting back a deal: the deals from the one changed on are scored again."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils.translation import gettext as _

from ..access import EveningAccess
from ..models import Deal, DealRevision, Evening
from .locking import author, evening_of, read_locked, sync
from .refusals import AlreadyPutBack, DealGone, DealLimit, NoSuchDeletion, StaleDeal
from .rescoring import rescore, rows_in_order, write_rescored


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
    at: Evening | EveningAccess,
    number: int,
    data: dict[str, Any],
    user: User | AnonymousUser | None,
    expected_version: int | None,
    expected_id: int | None = None,
) -> Deal:
    """Replace a deal's data and score it and the deals after it again; ``StaleDeal`` when it was
    corrected since the form was shown (``expected_version``), ``DealGone`` when it was deleted."""
    with transaction.atomic():
        locked = read_locked(at)
        rows = rows_in_order(locked)
        deal = _the_deal(rows, number, expected_id)
        if expected_version is not None and deal.version != expected_version:
            raise StaleDeal(deal)
        before = deal.data
        deal.data = data
        rescored = rescore(locked, rows, rows.index(deal))
        Deal.objects.filter(pk=deal.pk).update(data=data, version=deal.version + 1)
        deal.version += 1
        write_rescored(locked, rescored)
        DealRevision.objects.create(
            evening=locked,
            number=deal.number,
            action=DealRevision.Action.CORRECTED,
            before=before,
            after=data,
            by=author(user),
            evening_version=locked.version,
        )
    sync(evening_of(at), locked)
    return deal


def delete_deal(
    at: Evening | EveningAccess,
    number: int,
    user: User | AnonymousUser | None,
    expected_id: int | None = None,
    expected_version: int | None = None,
) -> DealRevision:
    """Delete a deal (by its id when the page gave it); the later ones move up and are scored again.
    The revision keeps the deal, its id and its request key, so that putting it back gives the same
    deal. ``DealGone`` when it was deleted already, ``StaleDeal`` when it was corrected since."""
    with transaction.atomic():
        locked = read_locked(at)
        rows = rows_in_order(locked)
        deal = _the_deal(rows, number, expected_id)
        if expected_version is not None and deal.version != expected_version:
            raise StaleDeal(
                deal, _("Deal %(n)s was corrected in the meantime: nothing was deleted.") % {"n": deal.number}
            )
        index, deal_id = rows.index(deal), deal.pk
        rescored = rescore(locked, rows[:index] + rows[index + 1 :], index)
        deal.delete()
        write_rescored(locked, rescored)
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
    sync(evening_of(at), locked)
    return revision


def restore_deal(at: Evening | EveningAccess, revision_id: int, user: User | AnonymousUser | None) -> Deal:
    """Undo a deletion: the deal goes back at its number (with its id and its request key), the
    later ones move down. ``AlreadyPutBack`` when it was put back already (a second tap, another
    phone), ``NoSuchDeletion`` when the evening has no such deletion."""
    with transaction.atomic():
        locked = read_locked(at)
        revision = DealRevision.objects.filter(
            pk=revision_id, evening=locked, action=DealRevision.Action.DELETED
        ).first()
        if revision is None:
            raise NoSuchDeletion()
        if revision.undone:
            raise AlreadyPutBack(revision.number)
        rows = rows_in_order(locked)
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
        rescored = rescore(locked, rows[:index] + [back] + rows[index:], index)
        write_rescored(locked, rescored, insert=back)
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
    sync(evening_of(at), locked)
    return back
