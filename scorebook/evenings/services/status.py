"""The evening itself: closed or reopened (a club night's tables at once), archived, shared by a link."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from ..access import EveningAccess
from ..models import Evening, link_token_hash, new_link_token
from .locking import author, evening_of, read_locked, sync
from .refusals import AdminReopens, Managed


def set_status(
    at: Evening | EveningAccess,
    status: str,
    user: User | AnonymousUser | None = None,
    *,
    admin: bool = False,
    through_manager: bool = False,
) -> None:
    """Close or reopen the evening (a new version: followers see it change); nothing when it is so
    already. Closing keeps who closed it and whether as an admin (``admin``: an admin of its club,
    or a private evening's owner); such an evening is reopened by an admin only (``AdminReopens``
    otherwise)."""
    with transaction.atomic():
        locked = read_locked(at, open_only=False)
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
            state, summary = locked.state or {}, locked.summary or {}
            if state.get("version") == was:
                locked.state = {**state, "version": locked.version}
            if summary.get("version") == was:
                locked.summary = {**summary, "version": locked.version}
            locked.save(
                update_fields=[
                    *("status", "closed_at", "closed_by", "admin_reopens"),
                    *("version", "updated_at", "state", "summary"),
                ]
            )
    evening = evening_of(at)
    for field in ("status", "closed_at", "closed_by_id", "admin_reopens"):
        setattr(evening, field, getattr(locked, field))
    sync(evening, locked)


def set_status_of_tables(evening_ids: list[int], status: str, user: User | AnonymousUser | None = None) -> None:
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
        changes: dict[str, Any] = {
            "status": status,
            "closed_at": now if closing else None,
            "closed_by": author(user) if closing else None,
            "admin_reopens": False,
            "version": version,
            "updated_at": now,
        }
        state, summary = locked.state or {}, locked.summary or {}
        if state.get("version") == was:
            changes["state"] = {**state, "version": version}
        if summary.get("version") == was:
            changes["summary"] = {**summary, "version": version}
        Evening.objects.filter(pk=locked.pk).update(**changes)


def set_archived(at: Evening | EveningAccess, archived: bool) -> None:
    """Leave the evening out of the lists (or bring it back); its deals and figures do not change."""
    with transaction.atomic():
        locked = read_locked(at, open_only=False)
        if locked.managed:
            raise Managed(locked)
        if locked.archived != archived:
            locked.archived = archived
            locked.save(update_fields=["archived"])
    evening_of(at).archived = archived


def new_share_link(at: Evening | EveningAccess) -> str:
    """A new read-only link for the evening (the old one stops working); returns its token,
    ``<public id>.<secret>``, of which only the secret's digest is stored."""
    evening, (share_id, secret) = evening_of(at), (secrets.token_urlsafe(9), new_link_token())
    with transaction.atomic():
        if read_locked(at, open_only=False).managed:
            raise Managed(evening)  # a club night's table is followed on the night's ranking
        Evening.objects.filter(pk=evening.pk).update(share_id=share_id, share_hash=link_token_hash(secret))
    evening.share_id, evening.share_hash = share_id, link_token_hash(secret)
    return f"{share_id}.{secret}"
