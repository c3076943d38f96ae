"""A club's backup, declared as a schema (``scorebook.core.schema``: why pydantic, how a fault becomes
a sentence). One class per kind of object, a field per key (``backup_entries``); the relations
between the lists (a member is one of the accounts, a seat one of the players, a night's table one
of the evenings) are the validators of ``ClubBackup``, here. What depends on the database it is
restored into (a club or an account that exists there) is ``league.restore.check``.

To extend the backup: declare the new object in ``backup_entries`` (or in its app, as
``nights.backup_schema``), add a field for it to ``ClubBackup`` with a default (older backups lack
it), export it in ``league.backup.export_club`` and restore it in ``league.restore``. Whoever did
something (an author, a "by") is one of the backup's accounts or null: add its place to
``ClubBackup._authors``.

Text is cleaned as the site's forms clean it (``core.schema.Name`` and ``FreeText``, over
``core.cleaning``: the same refusals in the same words), a moment is within reason (``Moment``: from
2000 to today), a link is only ever a digest.
"""

from collections.abc import Iterator
from typing import Annotated, Any, Self

from django.utils.translation import gettext as _
from pydantic import ValidationInfo, field_validator, model_validator

from scorebook.clubs.models import Role
from scorebook.core.cleaning import Names
from scorebook.core.schema import (
    Flag,
    Schema,
    among,
    fault,
    value,
)
from scorebook.nights.backup_schema import NightBackup

from .backup import FORMAT, FORMATS
from .backup_entries import (
    KITTY,
    Account,
    AccountPaymentEntry,
    ClaimEntry,
    ClubEntry,
    EveningEntry,
    HouseRulesEntry,
    InvitationEntry,
    KittyEntry,
    Member,
    PaymentEntry,
    PlayerEntry,
    SeasonEntry,
)


def _format(raw: Any) -> str:
    if raw not in FORMATS:
        raise fault(f"not a club backup ({FORMAT!r} expected)")
    return raw


def _one_of(raw: Any, names: set[str]) -> bool:
    """``raw`` is one of the user ``names`` (whatever it is: a list, a number...)."""
    return isinstance(raw, str) and raw in names


class ClubBackup(Schema):
    """The whole backup, in the order a restore reads it."""

    format: Annotated[str, value(_format)]
    with_secrets: Flag = False  # made with export_club --with-secrets: its accounts' hashes and addresses
    club: ClubEntry
    accounts: list[Account]
    invitations: Any = None  # written by format 1 (their links in clear); never restored
    invitation_links: list[InvitationEntry] = []  # format 2: digests only
    members: list[Member]
    players: list[PlayerEntry]
    claims: list[ClaimEntry] = []
    house_rules: list[HouseRulesEntry]
    seasons: list[SeasonEntry]
    evenings: list[EveningEntry]
    payments_on_account: list[AccountPaymentEntry] = []  # since payments are records
    nights: list[NightBackup] = []
    kitty: KittyEntry = KittyEntry()  # since the club's kitty

    @field_validator("accounts")
    @classmethod
    def _accounts(cls, accounts: list[Account]) -> list[Account]:
        seen = Names()  # as the sign-up refuses it: in other capitals or a look-alike (a Cyrillic а) too
        for i, a in enumerate(accounts):
            if a.username in seen:
                taken = _("This user name is taken, or one that looks just like it: choose another.")
                raise fault(taken.rstrip("."), i, "username")  # the document's sentence ends it
            seen.add(a.username)
        return accounts

    @field_validator("members")
    @classmethod
    def _members(cls, members: list[Member], info: ValidationInfo) -> list[Member]:
        names = cls._names(info)
        if names is None:  # the accounts are refused: that is the fault reported
            return members
        for i, m in enumerate(members):
            if not _one_of(m.username, names):
                raise fault(f"{m.username!r} is not one of the backup's accounts", i)
        if len({m.username for m in members}) != len(members):
            raise fault("an account is a member twice")
        if not any(m.role == Role.ADMIN for m in members):
            raise fault("the club has no admin")
        links = info.data.get("invitation_links") or []
        for i, m in enumerate(members):
            if m.invitation is not None and m.invitation >= len(links):
                raise fault(f"invitation {m.invitation} is not one of the backup's invitation links", i, "invitation")
        return members

    @field_validator("players")
    @classmethod
    def _players(cls, players: list[PlayerEntry], info: ValidationInfo) -> list[PlayerEntry]:
        names = cls._names(info)
        if names is None:
            return players
        for i, p in enumerate(players):
            if p.account is not None and not _one_of(p.account, names):
                raise fault(f"{p.account!r} is not one of the backup's accounts", i, "account")
        if len({p.id for p in players}) != len(players):
            raise fault("an id is given twice")
        roster = Names()  # as the roster refuses a name: in other capitals or a look-alike (a Cyrillic а) too
        for i, p in enumerate(players):
            if same := roster.like(p.name):
                raise fault((_("%(name)s is already in the roster.") % {"name": same}).rstrip("."), i, "name")
            roster.add(p.name)
        linked = [p.account for p in players if p.account is not None]
        if len(set(linked)) != len(linked):
            raise fault("an account is linked to two players")
        return players

    @field_validator("claims")
    @classmethod
    def _claims(cls, claims: list[ClaimEntry], info: ValidationInfo) -> list[ClaimEntry]:
        names, players = cls._names(info), info.data.get("players")
        if names is None or players is None:
            return claims
        ids = {p.id for p in players}
        for i, c in enumerate(claims):
            if c.player not in ids:
                raise fault("one of the backup's players is expected", i, "player")
            if not _one_of(c.account, names):
                raise fault(f"{c.account!r} is not one of the backup's accounts", i, "account")
        if len({(c.player, c.account) for c in claims}) != len(claims):
            raise fault("a claim is given twice")
        return claims

    @field_validator("house_rules")
    @classmethod
    def _house_rules(cls, house_rules: list[HouseRulesEntry]) -> list[HouseRulesEntry]:
        if len({h.ruleset for h in house_rules}) != len(house_rules):
            raise fault("a variant is given twice")
        return house_rules

    @field_validator("evenings")
    @classmethod
    def _evenings(cls, evenings: list[EveningEntry], info: ValidationInfo) -> list[EveningEntry]:
        names, players = cls._names(info), info.data.get("players")
        if names is None or players is None:
            return evenings
        ids = {p.id for p in players}
        for i, e in enumerate(evenings):
            seats = e.seats
            if (
                len(seats) != len(e.engine.players)
                or not all(among(s, ids) for s in seats)
                or len(set(seats)) != len(seats)
            ):
                raise fault("one player of the backup per seat is expected", i, "seats")
            if e.owner is not None and not _one_of(e.owner, names):
                raise fault(f"{e.owner!r} is not one of the backup's accounts", i, "owner")
        return evenings

    @field_validator("payments_on_account")
    @classmethod
    def _on_account(cls, payments: list[AccountPaymentEntry], info: ValidationInfo) -> list[AccountPaymentEntry]:
        players = info.data.get("players")
        if players is None:
            return payments
        ids = {p.id for p in players}
        for i, p in enumerate(payments):
            parties = [x for x in (p.payer, p.payee) if x != KITTY]
            if p.payer == p.payee or not parties or not all(among(x, ids) for x in parties):
                raise fault("two different players of the backup (or one and the kitty) are expected", i)
        return payments

    @field_validator("kitty")
    @classmethod
    def _kitty(cls, kitty: KittyEntry, info: ValidationInfo) -> KittyEntry:
        players, seasons = info.data.get("players"), info.data.get("seasons")
        if players is None or seasons is None:
            return kitty
        ids = {p.id for p in players}
        nights = info.data.get("nights")
        for i, entry in enumerate(kitty.night_fees):
            if nights is not None and entry.night >= len(nights):
                raise fault("one of the backup's nights is expected", "night_fees", i, "night")
        for i, prize in enumerate(kitty.prizes):
            if not among(prize.player, ids):
                raise fault("a player of the backup is expected", "prizes", i, "player")
            if prize.season is not None and prize.season >= len(seasons):
                raise fault("one of the backup's seasons is expected", "prizes", i, "season")
        return kitty

    @field_validator("nights")
    @classmethod
    def _nights(cls, nights: list[NightBackup], info: ValidationInfo) -> list[NightBackup]:
        players, evenings = info.data.get("players"), info.data.get("evenings")
        if players is not None and evenings is not None:
            used: set[int] = set()
            ids, rulesets = {p.id for p in players}, [e.engine.rules.key for e in evenings]
            for i, night in enumerate(nights):
                night.check_references(i, ids, rulesets, used)
        payments = info.data.get("payments_on_account") or []
        for i, p in enumerate(payments):
            if p.night is not None and p.night >= len(nights):
                raise fault(f"payments_on_account[{i}]: night {p.night} is not one of the backup's nights")
        return nights

    @model_validator(mode="after")
    def _authors(self) -> Self:
        """Whoever did something (made a link, recorded a deal, marked a payment...) is one of the
        backup's accounts, or nobody (null): never an account the backup does not hold."""
        names = {a.username for a in self.accounts}
        for at, who in self._who():
            if who is not None and not _one_of(who, names):
                raise fault(f"{who!r} is not one of the backup's accounts", *at)
        return self

    def _who(self) -> Iterator[tuple[tuple[str | int, ...], Any]]:
        """(path, author) of every author the backup names."""
        for i, inv in enumerate(self.invitation_links):
            yield ("invitation_links", i, "created_by"), inv.created_by
        for i, p in enumerate(self.players):
            yield ("players", i, "created_by"), p.created_by
        for i, h in enumerate(self.house_rules):
            yield ("house_rules", i, "updated_by"), h.updated_by
        for i, e in enumerate(self.evenings):
            yield ("evenings", i, "closed_by"), e.closed_by
            for k, recorded in enumerate(e.recorded or ()):
                yield ("evenings", i, "recorded", k, "by"), recorded.by
            for k, revision in enumerate(e.revisions):
                yield ("evenings", i, "revisions", k, "by"), revision.by
            for k, payment in enumerate(e.payments):
                yield from _payment_authors(payment, ("evenings", i, "payments", k))
        for i, on_account in enumerate(self.payments_on_account):
            yield from _payment_authors(on_account, ("payments_on_account", i))
        for i, n in enumerate(self.nights):
            yield ("nights", i, "created_by"), n.created_by
            for k, event in enumerate(n.events):
                yield ("nights", i, "events", k, "by"), event.by
        for part in ("expenses", "prizes"):  # the kitty's records
            for i, r in enumerate(getattr(self.kitty, part)):
                yield ("kitty", part, i, "recorded_by"), r.recorded_by
                if r.withdrawn is not None:
                    yield ("kitty", part, i, "withdrawn", "by"), r.withdrawn.by

    @staticmethod
    def _names(info: ValidationInfo) -> set[str] | None:
        """The accounts' user names (None when the accounts are refused: their fault is reported)."""
        accounts = info.data.get("accounts")
        return None if accounts is None else {a.username for a in accounts}


def _payment_authors(p: PaymentEntry, at: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    yield (*at, "marked_by"), p.marked_by
    if p.cancelled is not None:
        yield (*at, "cancelled", "by"), p.cancelled.by
