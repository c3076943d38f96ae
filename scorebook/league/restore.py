"""Checking a club's backup and restoring it: ``import_club`` restores the document ``backup.export_club``
made into a database without that club (``backup``'s docstring says what it holds).

``import_club`` trusts nothing in its file: every field is checked (against the schema of
``backup_schema``) before anything is written, and a refusal is a sentence (BackupError) naming
the field. An account of the file whose user name already exists here is attached to that user only
when the operator says so (``account_map``); otherwise the restore is refused. Derived figures are
computed again (an evening's summary, state and seats' figures; each deal's result and state; a
night's managed tables).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Model
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
from scorebook.evenings import services
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

from .backup import KITTY, BackupError

if TYPE_CHECKING:  # the schema (and pydantic) is loaded when a backup is read, not with every page
    from .backup_entries import PaymentEntry, RecordedEntry
    from .backup_schema import ClubBackup, EveningEntry


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


def _stamp(model: type[Model], pk: int, **moments: Any) -> None:
    """Times a row keeps from the backup (``auto_now`` and ``auto_now_add`` fields are set by ``save``)."""
    moments = {field: at for field, at in moments.items() if at is not None}
    if moments:
        model._default_manager.filter(pk=pk).update(**moments)


def import_club(data: dict[str, Any], *, account_map: dict[str, str] | None = None, with_secrets: bool = False) -> Club:
    """Restore a club exported by ``export_club``; nothing is written if anything is wrong.
    ``account_map``: {user name in the file: existing user name} for accounts that already exist here.
    The accounts' password hashes and e-mail addresses are read only ``with_secrets``, from a backup
    made with them (``export_club --with-secrets`` marks it; another file is refused so); otherwise
    its members come in without them and get a password through a link: ``accounts.password_links``."""
    account_map = account_map or {}
    backup = check(data, account_map=account_map)
    if with_secrets and not backup.with_secrets:
        raise BackupError("with_secrets", "this backup was not made with --with-secrets: it holds no secrets to read")
    try:
        with transaction.atomic():
            return _restore(backup, account_map, secrets=with_secrets)
    except IntegrityError:  # what check() saw free was taken in the meantime (two restores at once)
        raise BackupError("the backup", "this database changed while it was restored: run the restore again") from None


def _restore(backup: ClubBackup, account_map: dict[str, str], *, secrets: bool) -> Club:
    """Write the checked backup, in the order its objects point at each other."""
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
    accounts = _restore_accounts(backup, account_map, secrets=secrets)
    _restore_members(club, backup, accounts)
    players = _restore_roster(club, backup, accounts)
    for h in backup.house_rules:
        house = HouseRules.objects.create(
            club=club, ruleset=h.ruleset, overrides=h.overrides, updated_by=accounts.get(h.updated_by)
        )
        _stamp(HouseRules, house.pk, updated_at=h.updated_at)
    seasons = [Season.objects.create(club=club, **s.model_dump()) for s in backup.seasons]
    restored = [_import_evening(club, e, players, accounts) for e in backup.evenings]
    night_backup.import_nights(club, backup.nights, players, restored, accounts)
    nights = list(club.nights.order_by("pk"))  # in the backup's order, as import_nights made them
    _restore_payments_on_account(club, backup, players, accounts, nights)
    _restore_kitty(club, backup, players, accounts, nights, seasons)
    # last, the evenings' own times (the writes above moved them)
    for evening, entry in zip(restored, backup.evenings, strict=True):
        _stamp(Evening, evening.pk, created_at=entry.created_at, updated_at=entry.updated_at)
    club.refresh_from_db()
    return club


def _restore_accounts(backup: ClubBackup, account_map: dict[str, str], *, secrets: bool) -> dict[str, Any]:
    """{user name in the backup: the user here}: an existing user where ``account_map`` attaches it,
    else a new one (without a password and an address unless ``secrets``, or when the backup holds none:
    he chooses a password through a link)."""
    User = get_user_model()
    accounts = {}
    for a in backup.accounts:
        target = account_map.get(a.username)
        if target is not None:
            accounts[a.username] = User.objects.get(username=target)
            continue
        email = a.email if secrets else ""
        user = User(username=a.username, email=email, first_name=a.first_name, is_active=a.is_active)
        if a.password and secrets:
            user.password = a.password
        else:
            user.set_unusable_password()  # he chooses one through a link (accounts.password_links)
        user.save()
        if a.display_name:
            Profile.objects.create(user=user, display_name=a.display_name)
        accounts[a.username] = user
    return accounts


def _restore_members(club: Club, backup: ClubBackup, accounts: dict[str, Any]) -> None:
    """The invitation links, then the members (each with the link he joined with)."""
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


def _restore_roster(club: Club, backup: ClubBackup, accounts: dict[str, Any]) -> dict[int, Player]:
    """The players (by their id in the backup) and the claims waiting for an admin."""
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
    return players


def _restore_payments_on_account(
    club: Club, backup: ClubBackup, players: dict[int, Player], accounts: dict[str, Any], nights: list[Night]
) -> None:
    for p in backup.payments_on_account:
        payer = players.get(p.payer) if isinstance(p.payer, int) else None  # None: the kitty
        payee = players.get(p.payee) if isinstance(p.payee, int) else None
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


def _restore_kitty(
    club: Club,
    backup: ClubBackup,
    players: dict[int, Player],
    accounts: dict[str, Any],
    nights: list[Night],
    seasons: list[Season],
) -> None:
    """Each night's fee as it started, the expenses and the prizes."""
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


def _latest_currency(club: Club) -> str:
    """A payment of an older backup without its currency: the club's latest evening's with a stake."""
    latest = Evening.objects.filter(club=club, stake__isnull=False).order_by("-date", "-pk").first()
    return latest.currency if latest else "EUR"


def _record(r: Any, accounts: dict[str, Any]) -> dict[str, Any]:  # an expense's or a prize's entry
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


def _import_evening(club: Club, item: EveningEntry, players: dict[int, Player], accounts: dict[str, Any]) -> Evening:
    """An evening of the backup with its seats, deals, history, links and payments; what its deals
    give (results, states, summary, seats' figures) is computed again (``services.store_new``)."""
    engine = item.engine
    if engine.date is None:  # (the schema refuses an evening without its date)
        raise BackupError("evenings", "an evening without its date")
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
    _restore_deals(evening, item, accounts)
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


def _restore_deals(evening: Evening, item: EveningEntry, accounts: dict[str, Any]) -> None:
    """The evening's deals with their authors, times, versions and request keys, and its correction
    history."""
    recorded: list[RecordedEntry | None] = (
        list(item.recorded) if item.recorded is not None else [None] * len(item.file["deals"])
    )
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
    for rev in item.revisions:
        revision = DealRevision.objects.create(
            evening=evening,
            number=rev.number,
            action=rev.action,
            before=rev.before,
            after=rev.after,
            request_key=rev.request_key,
            deal_id=None,  # a deleted deal's id was the other database's: put back, it gets a new one
            undone=rev.undone,
            by=accounts.get(rev.by),
            evening_version=rev.evening_version,
        )
        _stamp(DealRevision, revision.pk, at=rev.at)


def _restore_payment(
    p: PaymentEntry,
    accounts: dict[str, Any],
    *,
    club: Club,
    evening: Evening | None,
    payer: str,
    payee: str,
    players: tuple[Player | None, Player | None],
    currency: str,
) -> Payment:
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
