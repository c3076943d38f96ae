"""A club night in a club's backup, declared as a schema (``scorebook.core.schema``: why pydantic).

The night's settings, its participants, its plan and its tables; a table points at one of the
backup's evenings by its place in the backup's list. What the night alone can check (its sessions,
numbers, plan) is checked here; what needs the rest of the backup (the players, the evenings) is
``NightBackup.check_references``, which the club's backup calls (``league.backup_schema``).
"""

from collections.abc import Collection, Sequence
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Self

from pydantic import BeforeValidator, model_validator

from scorebook.core.schema import (
    Day,
    Flag,
    FreeText,
    Moment,
    Name,
    Object,
    OneOf,
    Schema,
    Variant,
    Whole,
    among,
    fault,
    plain_strings,
    value,
    whole,
)
from scorebook.rules import registry
from scorebook.rules.model import RulesError

from . import seating
from .models import Night, NightEvent, NightSession


def _place_points(raw: Any) -> list[int | float]:
    if (
        not isinstance(raw, list)
        or len(raw) > 5
        or any(isinstance(p, bool) or not isinstance(p, int | float) or abs(p) > 1000 for p in raw)
    ):
        raise fault("at most five numbers are expected")
    return raw


def _stake(raw: Any) -> Decimal | None:
    if raw is None:
        return None
    try:
        stake = Decimal(raw) if isinstance(raw, str) else None
    except InvalidOperation:
        stake = None
    if stake is None or not stake.is_finite() or not 0 <= stake <= 10_000:
        raise fault("an amount from 0 to 10000 is expected")
    return stake


def _currency(raw: Any) -> str:
    if not isinstance(raw, str) or not 1 <= len(raw) <= 8:
        raise fault("a currency code is expected")
    return raw


def _some(raw: Any) -> Any:
    if not isinstance(raw, list) or not raw:
        raise fault("a list of participants is expected")
    return raw


def _player(raw: Any) -> int:
    if not among(raw, range(1, 2**63)):
        raise fault("one of the backup's players is expected")
    return raw


def _digest(raw: Any) -> str:
    if not isinstance(raw, str) or len(raw) != 64 or any(c not in "0123456789abcdef" for c in raw):
        raise fault("a link's digest (64 hexadecimal digits) is expected")
    return raw


class ParticipantBackup(Schema):
    shape = "an object with number, player, first_session, last_session and replaces (and name) is expected"

    number: Whole(1, seating.MAX_PLAYERS + 100)
    player: Annotated[int, value(_player)]  # one of the backup's players: check_references
    first_session: Any  # from 1 to the night's sessions: NightBackup checks it
    last_session: Any  # the same, or null
    replaces: Any  # null, or the number of another participant: NightBackup checks it
    name: Name(40) | None = None  # since format 2: his name at the night (the roster's may have changed since)


class TableBackup(Schema):
    shape = "an object with session, table, status and evening (and reprint) is expected"

    session: Any  # from 1 to the night's sessions: NightBackup checks it
    table: Whole(1, 1000)
    status: OneOf(NightSession.Status.values, "open or closed is expected")
    evening: Any  # its place in the backup's evenings: check_references
    reprint: Flag = False  # since format 2: its card to print again


class SessionBackup(Schema):
    """A session of the night, open or closed (and when): format 2 (format 1 had them from the tables)."""

    number: Any  # from 1 to the night's sessions: NightBackup checks it
    status: OneOf(NightSession.Status.values, "open or closed is expected")
    closed_at: Moment | None = None


class EventBackup(Schema):
    """What the director did to the night (its log): format 2."""

    kind: OneOf(NightEvent.Kind.values)
    session: Whole(0, seating.MAX_SESSIONS)
    detail: FreeText(300) = ""
    by: Any = None  # one of the backup's accounts, or null: the club's backup checks it
    at: Moment


class RankingLinkBackup(Schema):
    """The live ranking's link: its digest only (a digest gives no link back), so that the link on a
    hall's screen goes on working after a restore."""

    digest: Annotated[str, value(_digest)]
    made_at: Moment


class NightBackup(Schema):
    shape = "an object with the keys {keys} is expected"

    name: Name(80)
    date: Day
    ruleset: Variant
    sessions: Whole(1, seating.MAX_SESSIONS)
    deals_per_session: Whole(1, 99, none=True)
    ranking: OneOf(Night.Ranking.values)
    place_points: Annotated[list[int | float], value(_place_points)]
    stake: Annotated[Decimal | None, value(_stake)]
    currency: Annotated[str, value(_currency)]
    seed: Whole(0, 2**31 - 1)
    plan: Any  # one list of tables per session: checked below
    participants: Annotated[list[ParticipantBackup], BeforeValidator(_some)]
    tables: list[TableBackup]
    # since format 2
    rules: Object | None = None  # the copy of the rules every table plays with (format 1: its first table's)
    version: Whole(0, 2**31 - 1) = 0
    created_by: Any = None  # one of the backup's accounts, or null: the club's backup checks it
    created_at: Moment | None = None
    ranking_link: RankingLinkBackup | None = None
    session_states: list[SessionBackup] | None = None
    events: list[EventBackup] = []

    @model_validator(mode="after")
    def _within_the_night(self) -> Self:
        numbers = set()
        for k, p in enumerate(self.participants):
            whole(p.first_session, 1, self.sessions, "participants", k, "first_session")
            if p.last_session is not None:
                whole(p.last_session, 1, self.sessions, "participants", k, "last_session")
            numbers.add(p.number)
        if len(numbers) != len(self.participants) or len({p.player for p in self.participants}) != len(
            self.participants
        ):
            raise fault("a number or a player is given twice", "participants")
        if any(p.replaces is not None and not among(p.replaces, numbers) for p in self.participants):
            raise fault("a substitute replaces a number the night does not have", "participants")
        plan = self.plan
        if (
            not isinstance(plan, dict)
            or not isinstance(plan.get("sessions"), list)
            or len(plan["sessions"]) != self.sessions
        ):
            raise fault("one list of tables per session is expected", "plan")
        for s in plan["sessions"]:
            tables = s.get("tables") if isinstance(s, dict) else None
            if not isinstance(tables, list) or any(
                not isinstance(t, list) or not 4 <= len(t) <= 5 or not all(among(x, numbers) for x in t) for t in tables
            ):
                raise fault("tables of 4 or 5 of the night's numbers are expected", "plan")
        for k, t in enumerate(self.tables):
            whole(t.session, 1, self.sessions, "tables", k, "session")
        if len({(t.session, t.table) for t in self.tables}) != len(self.tables):
            raise fault("a table of a session is given twice", "tables")
        if self.session_states is not None:
            for k, state in enumerate(self.session_states):
                whole(state.number, 1, self.sessions, "session_states", k, "number")
            if sorted(state.number for state in self.session_states) != list(range(1, self.sessions + 1)):
                raise fault("each session of the night once is expected", "session_states")
        for k, event in enumerate(self.events):
            if event.session > self.sessions:
                raise fault(f"a whole number from 0 to {self.sessions} is expected", "events", k, "session")
        if self.rules is not None:
            plain_strings(self.rules, "rules")
            try:
                registry.resolve(self.ruleset, self.rules)
            except (RulesError, TypeError) as exc:
                raise fault(str(exc), "rules") from None
        return self

    def check_references(self, at: int, players: Collection[int], rulesets: Sequence[str], used: set[int]) -> None:
        """The night ``nights[at]`` of a backup whose players and evenings (their variants, in the backup's
        order) are these: every participant one of its players, every table one evening of the night's
        variant that no other table has (``used``: the evenings of the tables before it)."""
        for k, p in enumerate(self.participants):
            if p.player not in players:
                raise fault("one of the backup's players is expected", at, "participants", k, "player")
        for k, t in enumerate(self.tables):
            where = (at, "tables", k, "evening")
            index = whole(t.evening, 0, max(len(rulesets) - 1, 0), *where)
            if index >= len(rulesets) or index in used:
                raise fault("an evening of the backup that no other table has is expected", *where)
            if rulesets[index] != self.ruleset:
                raise fault("an evening of the night's variant is expected", *where)
            used.add(index)
