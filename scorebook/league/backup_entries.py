"""The objects of a club's backup (``backup_schema.ClubBackup``), one class per kind, a field per key,
and the values their fields take: what one object needs of itself. The relations between the lists
(a member is one of the accounts, a seat one of the players) are ``ClubBackup``'s validators."""

import re
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Annotated, Any, Self

from django.contrib.auth.hashers import identify_hasher
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email, validate_slug
from django.db.models import Model
from pydantic import BeforeValidator, Field, PrivateAttr, model_validator

from scorebook.accounts.models import Profile
from scorebook.clubs.models import Club, Player, Ranking, Role, Season, TieBreak
from scorebook.core import cleaning
from scorebook.core.money import FEE_LIMIT
from scorebook.core.schema import (
    EARLIEST,
    Day,
    Flag,
    FreeText,
    Moment,
    Name,
    Object,
    OneOf,
    RawList,
    Schema,
    Variant,
    Whole,
    a_typed_date,
    fault,
    plain_strings,
    text,
    value,
    whole,
)
from scorebook.evenings.models import DealRevision, Evening, Payment
from scorebook.rules import evening_file, registry
from scorebook.rules.deals import Adjustment
from scorebook.rules.deals import Evening as EngineEvening
from scorebook.rules.model import RulesError
from scorebook.rules.scoring import DealError, score

MAX_SMALL = 32767  # PositiveSmallIntegerField
PAYMENT_LIMIT = Decimal("9999999999.99")  # what Payment.amount holds (12 digits, 2 decimals)


def _max(model: type[Model], field: str) -> int:
    return cleaning.max_length(model, field)


# --- the values -----------------------------------------------------------------------------------


def _slug(raw: Any) -> str:
    """A short name as the club's form keeps it: lowercased (the site never has two differing in case only)."""
    text(raw, _max(Club, "slug"))
    try:
        validate_slug(raw)
    except ValidationError:
        raise fault(f"{raw!r} is not a short name (letters, digits, - and _)") from None
    return raw.lower()


def _expiry(raw: Any) -> datetime:
    """A moment to come (ISO 8601 with its offset), after 2000."""
    try:
        found = datetime.fromisoformat(raw) if isinstance(raw, str) else None
    except ValueError:
        found = None
    if found is None or found.tzinfo is None or found < EARLIEST:
        raise fault("a date and time (ISO 8601) with its offset is expected")
    return found


HEX64 = re.compile(r"[0-9a-f]{64}\Z")
SHARE_ID = re.compile(r"[A-Za-z0-9_-]{8,16}\Z")


def _digest(raw: Any) -> str:
    if not isinstance(raw, str) or not HEX64.match(raw):
        raise fault("a link's digest (64 hexadecimal digits) is expected")
    return raw


Digest = Annotated[str, value(_digest)]


def _share_id(raw: Any) -> str:
    if not isinstance(raw, str) or not SHARE_ID.match(raw):
        raise fault("a read-only link's id is expected")
    return raw


def _username(raw: Any) -> str:
    text(raw, 150)
    try:
        UnicodeUsernameValidator()(raw)
    except ValidationError:
        raise fault(f"{raw!r} is not a user name (letters, digits and @ . + - _)") from None
    return raw


def _password(raw: Any) -> str:
    text(raw, 128, empty=True)
    if raw and not raw.startswith("!"):
        try:
            identify_hasher(raw)
        except ValueError:
            raise fault("not a password hash this site knows") from None
    return raw


def _email(raw: Any) -> str:
    text(raw, 254, empty=True)
    if raw:
        try:
            validate_email(raw)
        except ValidationError:
            raise fault(f"{raw!r} is not an e-mail address") from None
    return raw


def _places(raw: Any) -> Any:
    if not isinstance(raw, list):
        raise fault("a list is expected")
    if len(raw) > 100:
        raise fault("at most 100 places")
    return raw


def _amount(raw: Any) -> Decimal:
    """An amount written as a form takes it: the digits 0-9 and a point (no exponent, NaN or infinity)."""
    amount = cleaning.decimal_number(raw)
    if (
        amount is None
        or not amount.is_finite()
        or not Decimal("0.01") <= amount <= PAYMENT_LIMIT
        or amount != amount.quantize(Decimal("0.01"))
    ):
        raise fault(f"an amount from 0.01 to {PAYMENT_LIMIT} with at most two decimals is expected", of_object=True)
    return amount


# --- the objects ----------------------------------------------------------------------------------


def _fee(raw: Any) -> Decimal | None:
    """A fee the kitty charges each player (an evening's, a night's, the club's house rule): null, or
    an amount from 0.01 to FEE_LIMIT with at most two decimals."""
    if raw is None:
        return None
    fee = cleaning.decimal_number(raw)
    if fee is None or not fee.is_finite() or not 0 < fee <= FEE_LIMIT or fee != fee.quantize(Decimal("0.01")):
        raise fault(f"null, or an amount from 0.01 to {FEE_LIMIT} with at most two decimals, is expected")
    return fee


Fee = Annotated[Decimal | None, value(_fee)]
KITTY = Payment.KITTY


def _party(raw: Any) -> int | str:
    """A player of the backup (his id: ClubBackup checks it), or the club's kitty."""
    if raw == KITTY:
        return raw
    return whole(raw, 1, 2**63 - 1)


def _currency(raw: Any) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or not 1 <= len(raw) <= 8 or not raw.isalpha():
        raise fault("a currency code is expected")
    return raw


class FormerSlugEntry(Schema):
    slug: Annotated[str, value(_slug)]
    changed_at: Moment


class ClubEntry(Schema):
    name: Name(_max(Club, "name"))
    slug: Annotated[str, value(_slug)]
    created_at: Moment | None = None  # since format 2, as are all the keys with a default below
    former_slugs: list[FormerSlugEntry] = []  # its old addresses, which redirect to the new ones
    kitty_evening_fee: Fee = None  # since the club's kitty
    kitty_night_fee: Fee = None

    @model_validator(mode="after")
    def _slugs_apart(self) -> Self:
        slugs = [self.slug, *(f.slug for f in self.former_slugs)]
        if len(set(slugs)) != len(slugs):
            raise fault("a short name is given twice", "former_slugs")
        return self


class Account(Schema):
    username: Annotated[str, value(_username)]
    first_name: Name(150, empty=True)
    display_name: Name(_max(Profile, "display_name"), empty=True)
    is_active: Flag
    password: Annotated[str, value(_password)] = ""  # a hash, only in a backup made --with-secrets
    email: Annotated[str, value(_email)] = ""  # the same


class InvitationEntry(Schema):
    """An invitation link: its digest only (the link itself is never kept), so that a link given out
    goes on working after a restore (a digest gives no link back)."""

    digest: Digest
    role: OneOf(Role.values)
    created_by: Any = None  # one of the accounts, or null: ClubBackup checks every author
    created_at: Moment
    expires_at: Annotated[datetime, value(_expiry)]  # at most 31 days after it was made: checked below
    max_uses: Whole(1, MAX_SMALL)
    uses: Whole(0, MAX_SMALL)
    revoked_at: Moment | None = None

    @model_validator(mode="after")
    def _within_its_days(self) -> Self:
        if not self.created_at < self.expires_at <= self.created_at + timedelta(days=31):
            raise fault("a date and time within 31 days of its making is expected", "expires_at")
        if self.uses > self.max_uses:
            raise fault("used more times than it allows", "uses")
        return self


class Member(Schema):
    username: Any  # one of the accounts: ClubBackup checks it
    role: OneOf(Role.values)
    joined_at: Moment | None = None
    invitation: Whole(0, 2**31 - 1, none=True) = None  # the link he joined with: its place in the invitations


class PlayerEntry(Schema):
    id: Whole(1, 2**63 - 1)
    name: Name(_max(Player, "name"))
    account: Any  # null, or one of the accounts: ClubBackup checks it
    created_by: Any = None  # one of the accounts, or null
    created_at: Moment | None = None


class ClaimEntry(Schema):
    """A member says a roster entry is him; it waits for an admin's answer (an answered claim is the
    player's account, or nothing)."""

    player: Whole(1, 2**63 - 1)  # one of the backup's players: ClubBackup checks it
    account: Any  # one of the accounts: ClubBackup checks it
    created_at: Moment


class HouseRulesEntry(Schema):
    ruleset: Any  # a preset, which the overrides must fit: checked below
    overrides: Object
    updated_at: Moment | None = None
    updated_by: Any = None  # one of the accounts, or null

    @model_validator(mode="after")
    def _fits_the_preset(self) -> Self:
        plain_strings(self.overrides, "overrides")
        try:
            registry.resolve(self.ruleset, self.overrides)
        except (RulesError, TypeError) as exc:
            raise fault(str(exc)) from None
        return self


class SeasonEntry(Schema):
    name: Name(_max(Season, "name"))
    start: Day
    end: Day
    ruleset: Variant
    ranking: OneOf(Ranking.values)
    min_evenings: Whole(0, MAX_SMALL)
    league_points: Annotated[list[Whole(-10_000, 10_000)], BeforeValidator(_places)]
    drop_worst: Whole(0, MAX_SMALL)
    tie_break: OneOf(TieBreak.values)
    archived: Flag = False

    @model_validator(mode="after")
    def _in_order(self) -> Self:
        if self.end < self.start:
            raise fault("its last day comes before its first")
        return self


class CancellationEntry(Schema):
    by: Any = None  # one of the accounts, or null
    at: Moment
    reason: FreeText(200) = ""


class PaymentEntry(Schema):
    payer: Any = Field(alias="from")  # two different players of the evening: EveningEntry checks them
    payee: Any = Field(alias="to")
    amount: Annotated[Decimal, value(_amount)]
    currency: Annotated[str | None, value(_currency)] = None  # since the kitty (older: the evening's, the club's)
    # written since payments are records (older backups have none: a full transfer, no author, now)
    kind: OneOf(Payment.Kind.values) = Payment.Kind.FULL
    note: FreeText(200) = ""
    marked_by: Any = None  # one of the accounts, or null
    marked_at: Moment | None = None
    cancelled: CancellationEntry | None = None


class AccountPaymentEntry(PaymentEntry):
    """A payment on account: between two of the backup's players (ClubBackup checks them), or between
    one of them and the club's kitty (``"(kitty)"``)."""

    payer: Annotated[int | str, value(_party)] = Field(alias="from")
    payee: Annotated[int | str, value(_party)] = Field(alias="to")
    kind: OneOf(Payment.Kind.values) = Payment.Kind.ACCOUNT
    night: Whole(0, 2**31 - 1) | None = None  # a payment for a night: its place in the backup's nights


class RecordedEntry(Schema):
    """Who recorded a deal of the evening and when (the deal itself is the file's, at the same place)."""

    by: Any = None  # one of the accounts, or null
    at: Moment
    version: Whole(1, 2**31 - 1)
    request_key: Annotated[str, Field(max_length=64, pattern=r"^[A-Za-z0-9_-]*$")] = ""


class RevisionEntry(Schema):
    """A correction of the evening: a deal corrected, deleted, or put back (the undo)."""

    number: Whole(1, evening_file.MAX_DEALS + 1)
    action: OneOf(DealRevision.Action.values)
    before: Any = None  # a deal of the evening (or null): EveningEntry reads it
    after: Any = None
    request_key: Annotated[str, Field(max_length=64, pattern=r"^[A-Za-z0-9_-]*$")] = ""
    undone: Flag = False
    by: Any = None  # one of the accounts, or null
    at: Moment
    evening_version: Whole(0, 2**31 - 1)


class ScoringLinkEntry(Schema):
    """A scoring link (a table's card): its digest, so that a card printed goes on working."""

    digest: Digest
    created_at: Moment
    revoked_at: Moment | None = None
    replaced: Flag = False


class ShareEntry(Schema):
    """The evening's read-only link: its id and its secret's digest."""

    id: Annotated[str, value(_share_id)]
    digest: Digest


class EveningEntry(Schema):
    file: Any  # an evening file (docs/evening-file.md), with its rules and deals: read below
    seats: RawList  # one of the backup's players per seat of the file: ClubBackup checks them
    status: OneOf(Evening.Status.values)
    version: Whole(0, 2**31 - 1)
    share_token: Any = None  # written by format 1 (the link in clear); never restored
    owner: Any  # null, or one of the accounts: ClubBackup checks it
    payments: list[PaymentEntry]
    kitty_fee: Fee = None  # since the club's kitty
    # since format 2
    created_at: Moment | None = None
    updated_at: Moment | None = None
    closed_at: Moment | None = None
    closed_by: Any = None  # one of the accounts, or null
    admin_reopens: Flag = False
    archived: Flag = False
    rules_from: OneOf(Evening.RulesFrom.values) = Evening.RulesFrom.STARTED
    quick_contracts: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=40)] = []
    recorded: list[RecordedEntry] | None = None  # one per deal of the file
    revisions: list[RevisionEntry] = []
    share: ShareEntry | None = None
    scoring_links: list[ScoringLinkEntry] = []

    _engine: EngineEvening = PrivateAttr()

    @model_validator(mode="after")
    def _read_the_file(self) -> Self:
        try:
            engine = evening_file.from_dict(self.file)  # validated like any evening file
            score(engine)
        except (evening_file.FileError, DealError) as exc:
            raise fault(str(exc)) from None
        if engine.date is None:
            raise fault("the evening has no date", "file")
        a_typed_date(engine.date)  # as the new evening's form takes it
        if isinstance(self.file, dict):
            plain_strings(self.file.get("rules"), "file", "rules")
        known = getattr(engine.rules, "contracts", {})
        if any(key not in known for key in self.quick_contracts):
            raise fault("contracts of the evening's rules are expected", "quick_contracts")
        for k, p in enumerate(self.payments):
            if p.payer not in engine.players or p.payee not in engine.players or p.payer == p.payee:
                raise fault("two different players of the evening are expected", "payments", k)
        for k, deal in enumerate(engine.deals):
            _clean_note(deal, "file", "deals", k, "note")
        if self.recorded is not None and len(self.recorded) != len(engine.deals):
            raise fault("one entry per deal of the file is expected", "recorded")
        for k, revision in enumerate(self.revisions):
            for side in ("before", "after"):
                raw = getattr(revision, side)
                if raw is None:
                    continue
                try:
                    deal = evening_file.parse_deal(raw, engine, revision.number)
                except evening_file.FileError as exc:
                    raise fault(str(exc), "revisions", k, side) from None
                _clean_note(deal, "revisions", k, side, "note")
        if self.status == Evening.Status.OPEN and (self.closed_at is not None or self.closed_by is not None):
            raise fault("an open evening has no closing", "closed_at")
        self._engine = engine
        return self

    @property
    def engine(self) -> EngineEvening:
        """The evening as the engine reads it."""
        return self._engine


class WithdrawalEntry(Schema):
    by: Any = None  # one of the accounts, or null
    at: Moment
    reason: FreeText(200) = ""


class KittyRecordEntry(Schema):
    amount: Annotated[Decimal, value(_amount)]
    currency: Annotated[str, value(_currency)]
    recorded_by: Any = None  # one of the accounts, or null
    recorded_at: Moment
    withdrawn: WithdrawalEntry | None = None


class ExpenseEntry(KittyRecordEntry):
    day: Day
    note: FreeText(200)


class PrizeEntry(KittyRecordEntry):
    season: Whole(0, 2**31 - 1, none=True)  # its place in the backup's seasons (null: deleted since)
    season_name: FreeText(80)
    place: Whole(1, MAX_SMALL)
    player: Whole(1, 2**63 - 1)  # one of the backup's players: ClubBackup checks it


class NightFeeEntry(Schema):
    night: Whole(0, 2**31 - 1)  # its place in the backup's nights
    fee: Annotated[Decimal, value(_fee)]


class KittyEntry(Schema):
    expenses: list[ExpenseEntry] = []
    prizes: list[PrizeEntry] = []
    night_fees: list[NightFeeEntry] = []  # the nights whose players owe the kitty a fee


def _clean_note(deal: object, *at: str | int) -> None:
    """An adjustment's note cleaned as the form cleans it (the engine reads any text)."""
    if isinstance(deal, Adjustment) and deal.note:
        from django.core.exceptions import ValidationError as FormError

        from scorebook.core import cleaning

        try:
            cleaning.clean_text(deal.note)
        except FormError as error:
            raise fault(" ".join(str(m) for m in error.messages).rstrip("."), *at) from None
