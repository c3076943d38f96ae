"""A club as one JSON document: everything the club holds, so that a restore into another database
shows every page of the club as it was (``tests/league/test_backup_round_trip.py`` compares them).
``import_club`` (``restore``) restores it into a database without that club.

What it holds, table by table (format 2, ``FORMAT``; format 1, which lacks what format 2 added, still
imports):

- the club (``clubs.Club``): name, short name, when it was made; its former short names
  (``FormerSlug``), which go on redirecting;
- the accounts of its members and of whoever did something in it (``auth.User`` and
  ``accounts.Profile``): user name, first name, display name, active; their password hashes and
  e-mail addresses only when asked for (``export_club --with-secrets``, the operator's);
- its invitation links (``Invitation``): role, author, times, uses, revoked: the link's digest only;
- the members (``Membership``): role, since when, the invitation they joined with;
- the roster (``Player``) with each player's account, author and time; the claims waiting for an
  admin (``PlayerClaim``);
- house rules (``HouseRules``) with who changed them last and when; seasons (``Season``), archived
  ones included;
- every evening (``evenings.Evening``) as an evening file (docs/evening-file.md: its full copy of
  the rules, players and deals), with its seats' roster players (``Seat``), status, version, who
  closed it and when and whether only an admin reopens it, archived, where its rules came from, its
  quick buttons, times; each deal's author, time, version and request key (``Deal``); its correction
  history (``DealRevision``: corrected, deleted, put back, by whom, when, the undo); its read-only
  link (``share_id`` and the secret's digest) and its scoring links (``ScoringLink``: digests);
- payments (``Payment``, ``PaymentCancellation``): of an evening, on account, for a night (``NightPayment``),
  each with its kind, amount, note, author and time, and its cancellation (by whom, when, why);
- club nights (``nights.Night``: settings, rules, plan, seed, version, author; its ranking link's digest),
  their participants (``Participant``, with the name at the night, late arrivals, substitutes),
  sessions (``NightSession``: open or closed, when), tables (``NightTable``: their evening, the card
  to reprint) and the director's log (``NightEvent``);
- the club's kitty (``ledger``): the club's fees per player (an evening's, a night's), each night's
  fee as it started, its expenses (``Expense``) and a season's prizes (``Prize``), each with its
  amount, author and time and its withdrawal (by whom, when, why); money into or out of the kitty
  is a payment on account with the kitty as a party. Each evening keeps its own fee.

Derived figures are not held but computed again by the restore (an evening's summary, state and
seats' figures; each deal's result and state; a night's managed tables). Never held: the secret of a
link (only digests: a digest gives no link back, so a link given out goes on working after a restore
and nothing in the file opens one), the password links (``accounts.PasswordLink``: made after a
restore), the guessing limits and sessions, a user's private evenings.

``import_club`` trusts nothing in its file (``restore``: every field is checked against
``backup_schema`` before anything is written; a refusal is a ``BackupError`` naming the field).
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Prefetch, Q

from scorebook.clubs.models import (
    Club,
    Invitation,
    Membership,
    Player,
    PlayerClaim,
)
from scorebook.evenings import stored
from scorebook.evenings.models import (
    Deal,
    DealRevision,
    Evening,
    Payment,
    ScoringLink,
)
from scorebook.ledger.models import Expense, Prize
from scorebook.nights import backup as night_backup
from scorebook.nights.models import Night

if TYPE_CHECKING:  # the schema (and pydantic) is loaded when a backup is read, not with every page
    pass

FORMAT = "scorebook-club/2"
FORMATS = ("scorebook-club/1", FORMAT)  # what import_club reads: format 1 lacks what format 2 added
KITTY = Payment.KITTY


class BackupError(ValueError):
    """A backup that cannot be restored here: ``where`` (the field's path) and ``what`` (the fault);
    ``str(error)`` is the sentence naming the field."""

    def __init__(self, where: str, what: str):
        self.where, self.what = where, what
        super().__init__(f"{where}: {what}.")


def _user(user: User | None) -> str | None:
    return user.get_username() if user is not None else None


def _at(moment: datetime | date | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _authors(club: Club) -> set[int]:
    """The ids of every account that did something in the club (the members aside): each is in the backup."""
    ids: set[Any] = set(Player.objects.filter(club=club).values_list("user_id", "created_by_id").distinct())
    ids |= set(club.invitations.values_list("created_by_id", flat=True).distinct())
    ids |= set(PlayerClaim.objects.filter(player__club=club).values_list("user_id", flat=True).distinct())
    ids |= set(club.house_rules.values_list("updated_by_id", flat=True).distinct())
    ids |= set(Evening.objects.filter(club=club).values_list("owner_id", "closed_by_id").distinct())
    ids |= set(Deal.objects.filter(evening__club=club).values_list("recorded_by_id", flat=True).distinct())
    ids |= set(DealRevision.objects.filter(evening__club=club).values_list("by_id", flat=True).distinct())
    payments = Payment.objects.filter(Q(club=club) | Q(evening__club=club))
    ids |= set(payments.values_list("marked_by_id", "cancellation__by_id").distinct())
    ids |= set(Night.objects.filter(club=club).values_list("created_by_id", "events__by_id").distinct())
    for kitty in (Expense, Prize):  # the kitty's records
        ids |= set(kitty.objects.filter(club=club).values_list("recorded_by_id", "withdrawn_by_id").distinct())
    flat = set()
    for item in ids:
        flat |= set(item) if isinstance(item, tuple) else {item}
    return {pk for pk in flat if pk is not None}


def export_club(club: Club, *, with_secrets: bool = False) -> dict[str, Any]:
    """The club as one document (the module's docstring says what it holds); the password hashes and
    e-mail addresses of its accounts only ``with_secrets``. Every list in the order its rows were made
    (their ids), so that a restore makes them in that order."""
    memberships = list(club.memberships.select_related("user").order_by("pk"))
    invitations = list(club.invitations.select_related("created_by").order_by("pk"))
    evenings = _evenings_of(club)
    return (
        {"format": FORMAT}
        | ({"with_secrets": True} if with_secrets else {})  # import_club reads its secrets only then, when told
        | {
            "club": _club_entry(club),
            "accounts": _accounts(club, memberships, with_secrets=with_secrets),
            "invitation_links": [_invitation_entry(inv) for inv in invitations],
            "members": _members(memberships, invitations),
        }
        | _roster(club)
        | _rules_and_seasons(club)
        | {
            "evenings": [_export_evening(e) for e in evenings],
            "payments_on_account": _payments_on_account(club),
            "kitty": _kitty(club),
        }
        | _nights(club, evenings)
    )


def _club_entry(club: Club) -> dict[str, Any]:
    return {
        "name": club.name,
        "slug": club.slug,
        "created_at": _at(club.created_at),
        "former_slugs": [{"slug": f.slug, "changed_at": _at(f.changed_at)} for f in club.former_slugs.order_by("pk")],
        "kitty_evening_fee": _text(club.kitty_evening_fee),
        "kitty_night_fee": _text(club.kitty_night_fee),
    }


def _accounts(club: Club, memberships: list[Membership], *, with_secrets: bool) -> list[dict[str, Any]]:
    """The accounts of the members and of whoever did something in the club (``_authors``)."""
    ids = {m.user_id for m in memberships} | _authors(club)
    accounts = []
    for u in get_user_model().objects.filter(pk__in=ids).select_related("profile").order_by("pk"):
        account = {
            "username": u.get_username(),
            "first_name": u.first_name,
            "display_name": getattr(getattr(u, "profile", None), "display_name", ""),
            "is_active": u.is_active,
        }
        if with_secrets:
            account |= {"password": u.password, "email": u.email}
        accounts.append(account)
    return accounts


def _invitation_entry(inv: Invitation) -> dict[str, Any]:
    return {
        "digest": inv.token_hash,
        "role": inv.role,
        "created_by": _user(inv.created_by),
        "created_at": _at(inv.created_at),
        "expires_at": _at(inv.expires_at),
        "max_uses": inv.max_uses,
        "uses": inv.uses,
        "revoked_at": _at(inv.revoked_at),
    }


def _members(memberships: list[Membership], invitations: list[Invitation]) -> list[dict[str, Any]]:
    """The members, each with the place of the invitation link he joined with."""
    invitation_index = {inv.pk: i for i, inv in enumerate(invitations)}
    return [
        {
            "username": m.user.get_username(),
            "role": m.role,
            "joined_at": _at(m.joined_at),
            "invitation": invitation_index.get(m.invitation_id) if m.invitation_id is not None else None,
        }
        for m in memberships
    ]


def _roster(club: Club) -> dict[str, Any]:
    """The players of the roster, and the claims waiting for an admin."""
    players = Player.objects.filter(club=club).select_related("user", "created_by").order_by("pk")
    claims = PlayerClaim.objects.filter(player__club=club).select_related("user").order_by("pk")
    return {
        "players": [
            {
                "id": p.pk,
                "name": p.name,
                "account": _user(p.user),
                "created_by": _user(p.created_by),
                "created_at": _at(p.created_at),
            }
            for p in players
        ],
        "claims": [{"player": c.player_id, "account": _user(c.user), "created_at": _at(c.created_at)} for c in claims],
    }


def _rules_and_seasons(club: Club) -> dict[str, Any]:
    return {
        "house_rules": [
            {
                "ruleset": h.ruleset,
                "overrides": h.overrides,
                "updated_at": _at(h.updated_at),
                "updated_by": _user(h.updated_by),
            }
            for h in club.house_rules.select_related("updated_by").order_by("pk")
        ],
        "seasons": [
            {
                "name": s.name,
                "start": s.start.isoformat(),
                "end": s.end.isoformat(),
                "ruleset": s.ruleset,
                "ranking": s.ranking,
                "min_evenings": s.min_evenings,
                "league_points": s.league_points,
                "drop_worst": s.drop_worst,
                "tie_break": s.tie_break,
                "archived": s.archived,
            }
            for s in club.seasons.order_by("pk")
        ],
    }


def _evenings_of(club: Club) -> list[Evening]:
    """The club's evenings with what ``_export_evening`` reads of each: a few queries whatever their number."""
    return list(
        Evening.objects.filter(club=club)
        .select_related("owner", "closed_by")
        .order_by("pk")
        .prefetch_related(
            "seats",
            Prefetch("deals", Deal.objects.defer("result", "state").select_related("recorded_by").order_by("number")),
            Prefetch("payments", Payment.objects.select_related("marked_by", "cancellation__by").order_by("pk")),
            Prefetch("revisions", DealRevision.objects.select_related("by").order_by("pk")),
            Prefetch("scoring_links", ScoringLink.objects.order_by("pk")),
        )
    )


def _payments_on_account(club: Club) -> list[dict[str, Any]]:
    """The payments of no evening: between players, with the kitty, for a night (named by its place in
    the backup's nights, ``export_nights``' order)."""
    payments = (
        Payment.objects.filter(Q(club=club) | Q(evening__club=club), evening__isnull=True)
        .select_related("marked_by", "cancellation__by", "night_link")
        .order_by("pk")
    )
    night_index = {pk: i for i, pk in enumerate(club.nights.order_by("pk").values_list("pk", flat=True))}
    return [
        _export_payment(p)
        | {"from": p.payer_player_id or KITTY, "to": p.payee_player_id or KITTY}
        | ({"night": night_index[p.night_link.night_id]} if _night_of(p) else {})
        for p in payments
    ]


def _kitty(club: Club) -> dict[str, Any]:
    """The club's kitty: each night's fee as it started, the expenses and the prizes."""
    expenses = Expense.objects.filter(club=club).select_related("recorded_by", "withdrawn_by").order_by("pk")
    prizes = Prize.objects.filter(club=club).select_related("recorded_by", "withdrawn_by").order_by("pk")
    season_index = {pk: i for i, pk in enumerate(club.seasons.order_by("pk").values_list("pk", flat=True))}
    return {
        "night_fees": [
            {"night": i, "fee": str(fee)}
            for i, fee in enumerate(club.nights.order_by("pk").values_list("kitty_fee", flat=True))
            if fee is not None
        ],
        "expenses": [_export_record(r) | {"day": r.day.isoformat(), "note": r.note} for r in expenses],
        "prizes": [
            _export_record(r)
            | {"season": season_index.get(r.season_id) if r.season_id is not None else None}
            | {"season_name": r.season_name, "place": r.place}
            | {"player": r.player_id}
            for r in prizes
        ],
    }


def _text(amount: Decimal | None) -> str | None:
    return None if amount is None else str(amount)


def _export_record(r: Expense | Prize) -> dict[str, Any]:
    """A kitty's record: its amount, who recorded it when, and its withdrawal when it has one."""
    entry: dict[str, Any] = {
        "amount": str(r.amount),
        "currency": r.currency,
        "recorded_by": _user(r.recorded_by),
        "recorded_at": r.recorded_at.isoformat(),
    }
    if r.withdrawn_at is not None:  # (withdrawn)
        entry["withdrawn"] = {
            "by": _user(r.withdrawn_by),
            "at": r.withdrawn_at.isoformat(),
            "reason": r.withdrawn_reason,
        }
    return entry


def _nights(club: Club, evenings: list[Evening]) -> dict[str, Any]:
    """The club's nights (only when it has some): their tables point at the evenings by their place."""
    nights = night_backup.export_nights(club, {e.pk: i for i, e in enumerate(evenings)})
    return {"nights": nights} if nights else {}


def _night_of(payment: Payment) -> bool:
    return getattr(payment, "night_link", None) is not None


def _export_payment(p: Payment) -> dict[str, Any]:
    """A payment with who entered it and when, its kind and note, and its cancellation when it has one."""
    entry: dict[str, Any] = {
        "from": p.payer,
        "to": p.payee,
        "amount": str(p.amount),
        "currency": p.currency,
        "kind": p.kind,
        "note": p.note,
        "marked_by": _user(p.marked_by),
        "marked_at": p.marked_at.isoformat(),
    }
    if p.cancelled:
        c = p.cancellation
        entry["cancelled"] = {"by": _user(c.by), "at": c.at.isoformat(), "reason": c.reason}
    return entry


def _export_evening(evening: Evening) -> dict[str, Any]:
    """An evening with its deals, payments, revisions and links prefetched (``export_club``)."""
    deals = list(evening.deals.all())
    data = stored.file_dict(evening, [d.data for d in deals])  # with the full copy of the rules: restored exactly
    return {
        "file": data,
        "seats": [seat.player_id for seat in evening.seats.all()],
        "status": evening.status,
        "version": evening.version,
        "kitty_fee": _text(evening.kitty_fee),
        "owner": _user(evening.owner),
        "payments": [_export_payment(p) for p in evening.payments.all()],
        "created_at": _at(evening.created_at),
        "updated_at": _at(evening.updated_at),
        "closed_at": _at(evening.closed_at),
        "closed_by": _user(evening.closed_by),
        "admin_reopens": evening.admin_reopens,
        "archived": evening.archived,
        "rules_from": evening.rules_from,
        "quick_contracts": evening.quick_contracts,
        "recorded": [
            {"by": _user(d.recorded_by), "at": _at(d.recorded_at), "version": d.version, "request_key": d.request_key}
            for d in deals
        ],
        "revisions": [
            {
                "number": r.number,
                "action": r.action,
                "before": r.before,
                "after": r.after,
                "request_key": r.request_key,
                "undone": r.undone,
                "by": _user(r.by),
                "at": _at(r.at),
                "evening_version": r.evening_version,
            }
            for r in evening.revisions.all()
        ],
        "share": {"id": evening.share_id, "digest": evening.share_hash} if evening.share_id else None,
        "scoring_links": [
            {
                "digest": link.token_hash,
                "created_at": _at(link.created_at),
                "revoked_at": _at(link.revoked_at),
                "replaced": link.replaced,
            }
            for link in evening.scoring_links.all()
        ],
    }
