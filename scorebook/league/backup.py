"""A club as one JSON document: everything the club holds, so that a restore into another database
shows every page of the club as it was (``tests/league/test_backup_round_trip.py`` compares them).
``import_club`` restores it into a database without that club.

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

``import_club`` trusts nothing in its file: every field is checked (against the schema of
``backup_schema``) before anything is written, and a refusal is a sentence (BackupError) naming
the field. An account of the file whose user
name already exists here is attached to that user only when the operator says so
(``account_map``); otherwise the restore is refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Q
from django.utils.translation import gettext as _

from scorebook.accounts.models import Profile
from scorebook.clubs.models import (
    Club,
    FormerSlug,
    HouseRules,
    Invitation,
    Membership,
    Player,
    PlayerClaim,
    Season,
)
from scorebook.clubs.services import slug_taken
from scorebook.evenings import services, stored
from scorebook.evenings.models import (
    Deal,
    DealRevision,
    Evening,
    Payment,
    PaymentCancellation,
    ScoringLink,
    Seat,
)
from scorebook.ledger.models import Expense, Prize
from scorebook.nights import backup as night_backup
from scorebook.nights.models import Night, NightPayment
from scorebook.rules.model import to_dict as rules_to_dict

if TYPE_CHECKING:  # the schema (and pydantic) is loaded when a backup is read, not with every page
    from .backup_schema import ClubBackup, EveningEntry

FORMAT = "scorebook-club/2"
FORMATS = ("scorebook-club/1", FORMAT)  # what import_club reads: format 1 lacks what format 2 added
KITTY = Payment.KITTY


class BackupError(ValueError):
    """A backup that cannot be restored here: ``where`` (the field's path) and ``what`` (the fault);
    ``str(error)`` is the sentence naming the field."""

    def __init__(self, where: str, what: str):
        self.where, self.what = where, what
        super().__init__(f"{where}: {what}.")


def _user(user) -> str | None:
    return user.get_username() if user is not None else None


def _at(moment) -> str | None:
    return None if moment is None else moment.isoformat()


def _authors(club: Club) -> set[int]:
    """The ids of every account that did something in the club (the members aside): each is in the backup."""
    ids = set(Player.objects.filter(club=club).values_list("user_id", "created_by_id").distinct())
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
    User = get_user_model()
    memberships = list(club.memberships.select_related("user").order_by("pk"))
    ids = {m.user_id for m in memberships} | _authors(club)
    users = list(User.objects.filter(pk__in=ids).select_related("profile").order_by("pk"))
    players = list(Player.objects.filter(club=club).select_related("user", "created_by").order_by("pk"))
    # every list in the order its rows were made (their ids), so that a restore makes them in that order
    evenings = list(
        Evening.objects.filter(club=club)
        .select_related("owner", "closed_by")
        .order_by("pk")
        .prefetch_related(  # a few queries whatever the number of evenings
            "seats",
            Prefetch("deals", Deal.objects.defer("result", "state").select_related("recorded_by").order_by("number")),
            Prefetch("payments", Payment.objects.select_related("marked_by", "cancellation__by").order_by("pk")),
            Prefetch("revisions", DealRevision.objects.select_related("by").order_by("pk")),
            Prefetch("scoring_links", ScoringLink.objects.order_by("pk")),
        )
    )
    payments = list(
        Payment.objects.filter(Q(club=club) | Q(evening__club=club))
        .select_related("marked_by", "cancellation__by", "night_link")
        .order_by("pk")
    )
    # a payment for a night names it by its place in the backup's nights (export_nights' order)
    night_index = {pk: i for i, pk in enumerate(club.nights.order_by("pk").values_list("pk", flat=True))}
    invitations = list(club.invitations.select_related("created_by").order_by("pk"))
    invitation_index = {inv.pk: i for i, inv in enumerate(invitations)}
    expenses = list(Expense.objects.filter(club=club).select_related("recorded_by", "withdrawn_by").order_by("pk"))
    prizes = list(Prize.objects.filter(club=club).select_related("recorded_by", "withdrawn_by").order_by("pk"))
    season_index = {pk: i for i, pk in enumerate(club.seasons.order_by("pk").values_list("pk", flat=True))}
    accounts = []
    for u in users:
        account = {
            "username": u.get_username(),
            "first_name": u.first_name,
            "display_name": getattr(getattr(u, "profile", None), "display_name", ""),
            "is_active": u.is_active,
        }
        if with_secrets:
            account |= {"password": u.password, "email": u.email}
        accounts.append(account)
    return {
        "format": FORMAT,
        "club": {
            "name": club.name,
            "slug": club.slug,
            "created_at": _at(club.created_at),
            "former_slugs": [
                {"slug": f.slug, "changed_at": _at(f.changed_at)} for f in club.former_slugs.order_by("pk")
            ],
            "kitty_evening_fee": _text(club.kitty_evening_fee),
            "kitty_night_fee": _text(club.kitty_night_fee),
        },
        "accounts": accounts,
        "invitation_links": [
            {
                "digest": inv.token_hash,
                "role": inv.role,
                "created_by": _user(inv.created_by),
                "created_at": _at(inv.created_at),
                "expires_at": _at(inv.expires_at),
                "max_uses": inv.max_uses,
                "uses": inv.uses,
                "revoked_at": _at(inv.revoked_at),
            }
            for inv in invitations
        ],
        "members": [
            {
                "username": m.user.get_username(),
                "role": m.role,
                "joined_at": _at(m.joined_at),
                "invitation": invitation_index.get(m.invitation_id),
            }
            for m in memberships
        ],
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
        "claims": [
            {"player": c.player_id, "account": _user(c.user), "created_at": _at(c.created_at)}
            for c in PlayerClaim.objects.filter(player__club=club).select_related("user").order_by("pk")
        ],
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
        "evenings": [_export_evening(e) for e in evenings],
        "payments_on_account": [
            _export_payment(p)
            | {"from": p.payer_player_id or KITTY, "to": p.payee_player_id or KITTY}
            | ({"night": night_index[p.night_link.night_id]} if _night_of(p) else {})
            for p in payments
            if p.evening_id is None
        ],
        "kitty": {
            "night_fees": [
                {"night": i, "fee": str(fee)}
                for i, fee in enumerate(club.nights.order_by("pk").values_list("kitty_fee", flat=True))
                if fee is not None
            ],
            "expenses": [_export_record(r) | {"day": r.day.isoformat(), "note": r.note} for r in expenses],
            "prizes": [
                _export_record(r)
                | {"season": season_index.get(r.season_id), "season_name": r.season_name, "place": r.place}
                | {"player": r.player_id}
                for r in prizes
            ],
        },
    } | _nights(club, evenings)


def _text(amount) -> str | None:
    return None if amount is None else str(amount)


def _export_record(r) -> dict[str, Any]:
    """A kitty's record: its amount, who recorded it when, and its withdrawal when it has one."""
    entry = {
        "amount": str(r.amount),
        "currency": r.currency,
        "recorded_by": _user(r.recorded_by),
        "recorded_at": r.recorded_at.isoformat(),
    }
    if r.withdrawn:
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
    entry = {
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


# --- checking a backup ---------------------------------------------------------------------------


def check(data: Any, *, account_map: dict[str, str] | None = None) -> ClubBackup:
    """Every field of the backup checked (``backup_schema``), then what it needs of this database: no club
    of its name, and no account of the backup whose user name is taken unless ``account_map`` attaches it
    to a user here. Returns what import_club writes. Raises BackupError."""
    from scorebook.core.schema import read

    from .backup_schema import ClubBackup

    backup = read(ClubBackup, data, root="the backup", refusal=BackupError)
    account_map = account_map or {}
    # its short names, as the club's form checks them (no other club has one, now or as a former one)
    for where, slug in [("club: slug", backup.club.slug)] + [
        (f"club: former_slugs[{i}]: slug", f.slug) for i, f in enumerate(backup.club.former_slugs)
    ]:
        if slug_taken(slug):
            taken = _("The short name “%(slug)s” is taken: choose another.") % {"slug": slug}
            raise BackupError(where, taken.rstrip("."))
    _links_free(backup)
    names = [a.username for a in backup.accounts]
    unknown_map = sorted(set(account_map) - set(names))
    if unknown_map:
        raise BackupError("account map", f"the backup has no account {unknown_map[0]!r}")
    users = get_user_model().objects
    for name in names:
        target = account_map.get(name)
        if target is not None:
            if not users.filter(username=target).exists():
                raise BackupError("account map", f"there is no user {target!r} here to attach {name!r} to")
        elif users.filter(username=name).exists():
            raise BackupError(
                f"account {name!r}",
                "a user of that name exists here already; it is attached only if you say so "
                f"(--account {name}={name}), or give the file's account another user",
            )
    return backup


def _links_free(backup: ClubBackup) -> None:
    """No link of the backup is one of this database's (a club restored here before, or twice in the file)."""
    invitations = [i.digest for i in backup.invitation_links]
    scoring = [link.digest for e in backup.evenings for link in e.scoring_links]
    shares = [e.share.id for e in backup.evenings if e.share is not None]
    rankings = [n.ranking_link.digest for n in backup.nights if n.ranking_link is not None]
    taken = (
        Invitation.objects.filter(token_hash__in=invitations).exists()
        or ScoringLink.objects.filter(token_hash__in=scoring).exists()
        or Evening.objects.filter(share_id__in=shares).exists()
        or Night.objects.filter(ranking_hash__in=rankings).exists()
    )
    twice = any(len(set(kind)) != len(kind) for kind in (invitations, scoring, shares, rankings))
    if taken or twice:
        raise BackupError(
            "the backup", "one of its links is this database's already (was the club restored here before?)"
        )


# --- restoring ------------------------------------------------------------------------------------


def _stamp(model, pk: int, **moments) -> None:
    """Times a row keeps from the backup (``auto_now`` and ``auto_now_add`` fields are set by ``save``)."""
    moments = {field: at for field, at in moments.items() if at is not None}
    if moments:
        model.objects.filter(pk=pk).update(**moments)


def import_club(data: dict[str, Any], *, account_map: dict[str, str] | None = None) -> Club:
    """Restore a club exported by ``export_club``; nothing is written if anything is wrong.
    ``account_map``: {user name in the file: existing user name} for accounts that already exist here.
    Its members without a password (a backup made without secrets) get one through a link:
    ``accounts.password_links``."""
    account_map = account_map or {}
    backup = check(data, account_map=account_map)
    try:
        with transaction.atomic():
            return _restore(backup, account_map)
    except IntegrityError:  # what check() saw free was taken in the meantime (two restores at once)
        raise BackupError("the backup", "this database changed while it was restored: run the restore again") from None


def _restore(backup: ClubBackup, account_map: dict[str, str]) -> Club:
    User = get_user_model()
    club = Club.objects.create(
        name=backup.club.name,
        slug=backup.club.slug,
        kitty_evening_fee=backup.club.kitty_evening_fee,
        kitty_night_fee=backup.club.kitty_night_fee,
    )
    _stamp(Club, club.pk, created_at=backup.club.created_at)
    for f in backup.club.former_slugs:
        former = FormerSlug.objects.create(club=club, slug=f.slug)
        _stamp(FormerSlug, former.pk, changed_at=f.changed_at)
    accounts = {}
    for a in backup.accounts:
        target = account_map.get(a.username)
        if target is not None:
            accounts[a.username] = User.objects.get(username=target)
            continue
        user = User(username=a.username, email=a.email, first_name=a.first_name, is_active=a.is_active)
        if a.password:
            user.password = a.password
        else:
            user.set_unusable_password()  # he chooses one through a link (accounts.password_links)
        user.save()
        if a.display_name:
            Profile.objects.create(user=user, display_name=a.display_name)
        accounts[a.username] = user
    invitations = []
    for inv in backup.invitation_links:
        made = Invitation.objects.create(
            club=club,
            token_hash=inv.digest,
            role=inv.role,
            created_by=accounts.get(inv.created_by),
            expires_at=inv.expires_at,
            max_uses=inv.max_uses,
            uses=inv.uses,
            revoked_at=inv.revoked_at,
        )
        _stamp(Invitation, made.pk, created_at=inv.created_at)
        invitations.append(made)
    for m in backup.members:
        invitation = invitations[m.invitation] if m.invitation is not None else None
        member = Membership.objects.create(club=club, user=accounts[m.username], role=m.role, invitation=invitation)
        _stamp(Membership, member.pk, joined_at=m.joined_at)
    players = {}
    for p in backup.players:
        player = Player.objects.create(
            club=club, name=p.name, user=accounts.get(p.account), created_by=accounts.get(p.created_by)
        )
        _stamp(Player, player.pk, created_at=p.created_at)
        players[p.id] = player
    for c in backup.claims:
        claim = PlayerClaim.objects.create(player=players[c.player], user=accounts[c.account])
        _stamp(PlayerClaim, claim.pk, created_at=c.created_at)
    for h in backup.house_rules:
        house = HouseRules.objects.create(
            club=club, ruleset=h.ruleset, overrides=h.overrides, updated_by=accounts.get(h.updated_by)
        )
        _stamp(HouseRules, house.pk, updated_at=h.updated_at)
    seasons = [Season.objects.create(club=club, **s.model_dump()) for s in backup.seasons]
    restored = [_import_evening(club, e, players, accounts) for e in backup.evenings]
    night_backup.import_nights(club, backup.nights, players, restored, accounts)
    nights = list(club.nights.order_by("pk"))  # in the backup's order, as import_nights made them
    for p in backup.payments_on_account:
        payer, payee = players.get(p.payer), players.get(p.payee)  # None: the kitty
        payment = _restore_payment(
            p,
            accounts,
            club=club,
            evening=None,
            payer=payer.name if payer else KITTY,
            payee=payee.name if payee else KITTY,
            players=(payer, payee),
            currency=p.currency or _latest_currency(club),
        )
        if p.night is not None:
            NightPayment.objects.create(night=nights[p.night], payment=payment)
    for entry in backup.kitty.night_fees:
        Night.objects.filter(pk=nights[entry.night].pk).update(kitty_fee=entry.fee)
    for e in backup.kitty.expenses:
        Expense.objects.create(club=club, day=e.day, note=e.note, **_record(e, accounts))
    for r in backup.kitty.prizes:
        season = seasons[r.season] if r.season is not None else None
        Prize.objects.create(
            club=club,
            season=season,
            season_name=r.season_name,
            place=r.place,
            player=players[r.player],
            **_record(r, accounts),
        )
    # last, the evenings' own times (the writes above moved them)
    for evening, entry in zip(restored, backup.evenings, strict=True):
        _stamp(Evening, evening.pk, created_at=entry.created_at, updated_at=entry.updated_at)
    club.refresh_from_db()
    return club


def _latest_currency(club) -> str:
    """A payment of an older backup without its currency: the club's latest evening's with a stake."""
    latest = Evening.objects.filter(club=club, stake__isnull=False).order_by("-date", "-pk").first()
    return latest.currency if latest else "EUR"


def _record(r, accounts) -> dict[str, Any]:
    fields = {
        "amount": r.amount,
        "currency": r.currency,
        "recorded_by": accounts.get(r.recorded_by),
        "recorded_at": r.recorded_at,
    }
    if r.withdrawn is not None:
        fields |= {
            "withdrawn_at": r.withdrawn.at,
            "withdrawn_by": accounts.get(r.withdrawn.by),
            "withdrawn_reason": r.withdrawn.reason,
        }
    return fields


def _import_evening(club, item: EveningEntry, players, accounts) -> Evening:
    engine = item.engine
    evening = Evening.objects.create(
        club=club,
        ruleset=engine.rules.key,
        rules=rules_to_dict(engine.rules),
        date=engine.date,
        stake=engine.stake,
        currency=engine.currency,
        first_dealer=engine.players.index(engine.first_dealer),
        status=item.status,
        version=item.version,
        owner=accounts.get(item.owner),
        kitty_fee=item.kitty_fee,
        closed_at=item.closed_at,
        closed_by=accounts.get(item.closed_by),
        admin_reopens=item.admin_reopens,
        archived=item.archived,
        rules_from=item.rules_from,
        quick_contracts=list(item.quick_contracts),
        share_id=item.share.id if item.share else None,
        share_hash=item.share.digest if item.share else "",
    )
    for position, (name, player_id) in enumerate(zip(engine.players, item.seats, strict=True)):
        Seat.objects.create(evening=evening, player=players[player_id], position=position, name=name)
    recorded = item.recorded or [None] * len(item.file["deals"])
    deals = Deal.objects.bulk_create(
        Deal(
            evening=evening,
            number=number,
            data=deal,
            recorded_by=accounts.get(r.by) if r else None,
            version=r.version if r else 1,
            request_key=r.request_key if r else "",
        )
        for number, (deal, r) in enumerate(zip(item.file["deals"], recorded, strict=True), start=1)
    )
    if item.recorded is not None:  # bulk_create gave them the time of the restore
        for deal, r in zip(deals, item.recorded, strict=True):
            deal.recorded_at = r.at
        Deal.objects.bulk_update(deals, ["recorded_at"])
    for r in item.revisions:
        revision = DealRevision.objects.create(
            evening=evening,
            number=r.number,
            action=r.action,
            before=r.before,
            after=r.after,
            request_key=r.request_key,
            deal_id=None,  # a deleted deal's id was the other database's: put back, it gets a new one
            undone=r.undone,
            by=accounts.get(r.by),
            evening_version=r.evening_version,
        )
        _stamp(DealRevision, revision.pk, at=r.at)
    for link in item.scoring_links:
        made = ScoringLink.objects.create(
            evening=evening, token_hash=link.digest, revoked_at=link.revoked_at, replaced=link.replaced
        )
        _stamp(ScoringLink, made.pk, created_at=link.created_at)
    seats = dict(zip(engine.players, (players[i] for i in item.seats), strict=True))
    for p in item.payments:
        _restore_payment(
            p,
            accounts,
            club=club,
            evening=evening,
            payer=p.payer,
            payee=p.payee,
            players=(seats.get(p.payer), seats.get(p.payee)),
            currency=evening.currency,
        )
    services.store_new(evening)
    return evening


def _restore_payment(p, accounts, *, club, evening, payer, payee, players, currency) -> Payment:
    """A payment as it was made: its author and time, kind and note, and its cancellation."""
    payment = Payment.objects.create(
        evening=evening,
        club=club,
        payer=payer,
        payee=payee,
        payer_player=players[0],
        payee_player=players[1],
        amount=p.amount,
        currency=currency,
        kind=p.kind,
        note=p.note,
        marked_by=accounts.get(p.marked_by),
        **({"marked_at": p.marked_at} if p.marked_at else {}),
    )
    if p.cancelled is not None:
        PaymentCancellation.objects.create(
            payment=payment, by=accounts.get(p.cancelled.by), at=p.cancelled.at, reason=p.cancelled.reason
        )
    return payment
