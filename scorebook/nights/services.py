"""Every write of a club night: one function each, inside ``transaction.atomic()``, locking the
night's row first (so two directors' changes happen one after the other).

The tables are evenings of the club, made and closed through ``evenings.services``; a table
whose evening has no deal yet may be seated again (a substitute, a late arrival).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date as date_cls
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorebook.clubs.models import Club, Player
from scorebook.clubs.services import lock_club
from scorebook.core.http import Vanished
from scorebook.evenings import creation, links
from scorebook.evenings import services as evenings
from scorebook.evenings.models import Deal, Evening, Payment, Seat, link_token_hash, new_link_token
from scorebook.rules import registry
from scorebook.rules.model import to_dict

from . import seating
from .models import Night, NightEvent, NightSession, NightTable, Participant


class NightError(Exception):
    """The change cannot be made (the message is a sentence for the director)."""


class NightGone(Vanished):
    """The night was deleted meanwhile: the person is sent to the club's nights with the sentence."""

    def __init__(self, night: Night) -> None:
        super().__init__(_("This club night has been deleted."))
        self.where = reverse("night_list", args=[Club.objects.only("slug").get(pk=night.club_id).slug])


def _locked(night: Night) -> Night:
    found = Night.objects.select_for_update().filter(pk=night.pk).first()
    if found is None:
        raise NightGone(night)
    return found


def _bump(night: Night) -> None:
    night.version += 1
    night.save(update_fields=["version"])


def create_night(
    *,
    club: Club,
    user: User | AnonymousUser | None,
    name: str,
    date: date_cls,
    ruleset: str,
    sessions: int,
    deals_per_session: int | None,
    ranking: str,
    place_points: list[int | float],
    stake: Decimal | None,
    currency: str,
    players: list[str],
    seed: int = 0,
) -> Night:
    """A night with its participants numbered 1..N in the order given, its plan, and one evening
    per table and session, every one with the club's house rules as they are now.

    Everything long is done before the transaction, so that it holds the database (the whole of it
    on SQLite, where another club's phone waits for it) a fraction of a second: the plan is drawn
    (PlanError before anything is written), the participants found in the roster (the new ones
    added to it, in a short transaction of their own), and every table's evening built and scored
    in memory (``creation.prepare_evenings``). The transaction then checks that those players are
    still the roster's (a merge or a rename meanwhile: all prepared again) and writes the night in
    a few inserts, all at once: nobody ever sees part of it."""
    plan = seating.make_plan(len(players), sessions, seed=seed)
    rules = to_dict(registry.resolve(ruleset, club.overrides_for(ruleset)))
    settings = {
        "name": name,
        "date": date,
        "ruleset": ruleset,
        "sessions": sessions,
        "deals_per_session": deals_per_session,
        "ranking": ranking,
        "place_points": place_points,
        "stake": stake,
        "currency": currency,
        "seed": seed,
    }
    for _attempt in range(3):
        people, prepared = _prepare_tables(club, user, players, plan, rules, settings)
        with transaction.atomic():
            lock_club(club.pk)
            names = dict(Player.objects.filter(pk__in=[p.pk for p in people], club=club).values_list("pk", "name"))
            if any(names.get(p.pk) != p.name for p in people):
                continue  # a player merged or renamed while the night was prepared: prepare it again
            return _write_night(
                club=club,
                user=user,
                rules=rules,
                plan=plan,
                people=people,
                prepared=prepared,
                # the club's fee as it is now, once for the night (its tables owe none of their own)
                kitty_fee=Club.objects.filter(pk=club.pk).values_list("kitty_night_fee", flat=True).first(),
                **settings,
            )
    raise NightError(_("The club's roster changed while the night was prepared: try again."))


def _prepare_tables(
    club: Club,
    user: User | AnonymousUser | None,
    players: list[str],
    plan: seating.Plan,
    rules: dict[str, Any],
    settings: dict[str, Any],
) -> tuple[list[Player], list[creation.NewEvening]]:
    """Before the night's transaction: its participants found in the roster (the new ones added to
    it, in a short transaction of their own), and every table's evening built and scored in memory."""
    with transaction.atomic():
        lock_club(club.pk)  # one roster change at a time (a merge, a rename, a pasted list)
        people = creation.players_named(players, user, club)
    seats = dict(enumerate(people, start=1))
    prepared = creation.prepare_evenings(
        [[seats[n] for n in table] for session in plan.sessions for table in session],
        ruleset=settings["ruleset"],
        rules=rules,
        stake=settings["stake"],
        currency=settings["currency"],
        date=settings["date"],
        user=user,
        club=club,
        managed=True,  # the table is run from the night: closed, reopened, deleted only through it
        deal_limit=settings["deals_per_session"],
    )
    return people, prepared


def _write_night(
    *,
    plan: seating.Plan,
    people: list[Player],
    prepared: list[creation.NewEvening],
    user: User | AnonymousUser | None,
    rules: dict[str, Any],
    **fields: Any,
) -> Night:
    """The prepared night written: its row, participants, sessions, tables' evenings and seats."""
    night = Night.objects.create(**fields, rules=rules, plan=plan.as_dict(), created_by=_user(user))
    Participant.objects.bulk_create(
        Participant(night=night, number=number, player=player, name=player.name)
        for number, player in enumerate(people, start=1)
    )
    sessions = NightSession.objects.bulk_create(
        NightSession(night=night, number=number) for number in range(1, len(plan.sessions) + 1)
    )
    evenings = iter(creation.insert_evenings(prepared))
    NightTable.objects.bulk_create(
        NightTable(session=session, number=number, evening=next(evenings))
        for session, tables in zip(sessions, plan.sessions, strict=True)
        for number in range(1, len(tables) + 1)
    )
    return night


def table_links(night: Night, session: int | None = None) -> dict[int, str]:
    """New scoring links for the night's tables (of one session when given); the earlier links of
    those tables stop working. {evening pk: token}: shown once, on the printed cards."""
    tables = NightTable.objects.filter(session__night=night)
    if session is not None:
        tables = tables.filter(session__number=session)
    tokens = links.issue_many([Evening(pk=pk) for pk in tables.values_list("evening_id", flat=True)])
    tables.filter(reprint=True).update(reprint=False)
    return tokens


def reprint_links(night: Night) -> dict[int, str]:
    """New links for the tables seated again or added since their cards were printed (only those)."""
    tables = list(NightTable.objects.filter(session__night=night, reprint=True).select_related("evening"))
    tokens = links.issue_many([t.evening for t in tables])
    NightTable.objects.filter(pk__in=[t.pk for t in tables]).update(reprint=False)
    return tokens


def new_ranking_link(night: Night) -> str:
    """A new read-only link to the night's live ranking; the one before stops at once (404). Only
    its digest is kept: the token is shown once, to the director who made it."""
    token = new_link_token()
    with transaction.atomic():
        locked = _locked(night)
        locked.ranking_hash, locked.ranking_link_at = link_token_hash(token), timezone.now()
        locked.save(update_fields=["ranking_hash", "ranking_link_at"])
    night.ranking_hash, night.ranking_link_at = locked.ranking_hash, locked.ranking_link_at
    return token


def to_reprint(night: Night) -> list[NightTable]:
    """The tables whose cards must be printed again (seated again or new), by session and number."""
    return list(
        NightTable.objects.filter(session__night=night, reprint=True)
        .select_related("session")
        .order_by("session__number", "number")
    )


def _replaced(table: NightTable) -> None:
    """The table was seated again: its printed card stops working (its page says it was replaced)
    and the director is told to reprint it."""
    links.revoke(table.evening, replaced=True)
    NightTable.objects.filter(pk=table.pk).update(reprint=True)


def table_link(table: NightTable) -> str:
    token = links.issue(table.evening)
    NightTable.objects.filter(pk=table.pk).update(reprint=False)
    return token


def revoke_table_link(table: NightTable) -> int:
    return links.revoke(table.evening)


def close_session(night: Night, number: int, user: User | AnonymousUser | None) -> None:
    """The session is over: every one of its tables is closed (no deal changes any more)."""
    with transaction.atomic():
        night = _locked(night)
        session = NightSession.objects.select_for_update().get(night=night, number=number)
        if not session.is_open:
            return  # closed meanwhile (another director): once is enough, and logged once
        tables = list(session.tables.values_list("evening_id", flat=True))
        evenings.set_status_of_tables(tables, Evening.Status.CLOSED, user)
        session.status, session.closed_at = NightSession.Status.CLOSED, timezone.now()
        session.save(update_fields=["status", "closed_at"])
        NightEvent.objects.create(night=night, kind=NightEvent.Kind.CLOSED, session=number, by=_user(user))
        _bump(night)


def reopen_session(night: Night, number: int, reason: str, user: User | AnonymousUser | None) -> None:
    """A closed session opened again (a deal to correct), the reason kept in the night's log."""
    with transaction.atomic():
        night = _locked(night)
        session = NightSession.objects.select_for_update().get(night=night, number=number)
        if session.is_open:
            return  # reopened meanwhile (another director): once is enough, and logged once
        tables = list(session.tables.values_list("evening_id", flat=True))
        evenings.set_status_of_tables(tables, Evening.Status.OPEN, user)
        session.status, session.closed_at = NightSession.Status.OPEN, None
        session.save(update_fields=["status", "closed_at"])
        NightEvent.objects.create(
            night=night, kind=NightEvent.Kind.REOPENED, session=number, detail=reason, by=_user(user)
        )
        _bump(night)


def edit_night(
    night: Night, *, name: str, date: date_cls, deals_per_session: int | None, user: User | AnonymousUser | None
) -> None:
    """The night's name, date and deals per session changed (its tables' evenings take the date and
    the limit), in its log. A limit below the deals a table has recorded already is refused."""
    with transaction.atomic():
        night = _locked(night)
        evenings_of = Evening.objects.filter(night_table__session__night=night)
        most = (
            Deal.objects.filter(evening__in=evenings_of)
            .values("evening")
            .annotate(n=models.Count("id"))
            .aggregate(m=models.Max("n"))["m"]
            or 0
        )
        if deals_per_session is not None and deals_per_session < most:
            raise NightError(
                ngettext(
                    "A table has played %(n)s deal already: the deals per session cannot be fewer.",
                    "A table has played %(n)s deals already: the deals per session cannot be fewer.",
                    most,
                )
                % {"n": most}
            )
        changes = []
        if name != night.name:
            changes.append(f"{night.name} → {name}")
        if date != night.date:
            changes.append(f"{night.date.isoformat()} → {date.isoformat()}")
        if deals_per_session != night.deals_per_session:
            changes.append(f"{night.deals_per_session or '–'} → {deals_per_session or '–'}")
        if not changes:
            return
        for pk in evenings_of.select_for_update().values_list("pk", flat=True):  # the tables, locked in order
            Evening.objects.filter(pk=pk).update(date=date, deal_limit=deals_per_session, updated_at=timezone.now())
        night.name, night.date, night.deals_per_session = name, date, deals_per_session
        night.save(update_fields=["name", "date", "deals_per_session"])
        NightEvent.objects.create(
            night=night,
            kind=NightEvent.Kind.EDITED,
            session=current_session(night),
            detail="; ".join(changes)[:300],
            by=_user(user),
        )
        _bump(night)


def payments_of(night: Night) -> list[Payment]:
    """Every payment recorded for the night (for the night as a whole, or at one of its tables),
    cancelled ones too, the first first: what keeps a night from being deleted."""
    return list(
        Payment.objects.filter(Q(night_link__night=night) | Q(evening__night_table__session__night=night))
        .select_related("cancellation")
        .order_by("marked_at", "pk")
    )


def delete_night(night: Night) -> None:
    """A night made by mistake goes, with its tables' evenings: only while no deal and no payment is
    recorded for it (checked under the night's lock and each table's; the database refuses it too,
    ``NightPayment.night`` and ``Payment.evening`` are ``PROTECT``)."""
    with transaction.atomic():
        night = _locked(night)
        tables = list(
            Evening.objects.select_for_update().filter(night_table__session__night=night).order_by("pk").only("pk")
        )
        if Deal.objects.filter(evening__in=tables).exists():
            raise NightError(_("A deal has been recorded at one of its tables: the night cannot be deleted."))
        if payments_of(night):
            raise NightError(_("Payments were recorded for it: the night cannot be deleted."))
        evenings.delete_evenings(tables)
        night.delete()


def current_session(night: Night) -> int:
    """The session being played: the first one still open (the last one when all are closed)."""
    first = night.night_sessions.filter(status=NightSession.Status.OPEN).order_by("number").first()
    return first.number if first else night.sessions


def next_unplayed(night: Night) -> int | None:
    """The session after the last one begun (a deal recorded) or closed; None: the last one has begun."""
    begun = set(
        Deal.objects.filter(evening__night_table__session__night=night)
        .values_list("evening__night_table__session__number", flat=True)
        .distinct()
    )
    begun |= set(night.night_sessions.filter(status=NightSession.Status.CLOSED).values_list("number", flat=True))
    start = max(begun, default=0) + 1
    return start if start <= night.sessions else None


def substitute(night: Night, leaving: Participant, name: str, user: User | AnonymousUser | None) -> Participant:
    """``name`` takes ``leaving``'s place: at every table of the night whose evening has no deal
    yet, he sits where the plan put ``leaving``. A table already begun keeps its seat: its deals
    are the leaver's (the substitute finishes them there in his name)."""
    with transaction.atomic():
        night = _locked(night)
        leaving = Participant.objects.select_for_update().get(pk=leaving.pk, night=night)
        if leaving.last_session is not None:
            raise NightError(f"{leaving.name} has already left the night.")
        player = creation.player_named(name, user, night.club)
        if night.participants.filter(player=player).exists():
            raise NightError(f"{player.name} already takes part in this night.")
        now = current_session(night)
        number = (night.participants.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        sub = Participant.objects.create(
            night=night, number=number, player=player, name=player.name, first_session=now, replaces=leaving
        )
        leaving.last_session = now
        leaving.save(update_fields=["last_session"])
        plan = night.plan
        # the leaver's tables only (a big night has hundreds), their evenings locked in order
        his = NightTable.objects.filter(session__night=night, evening__seats__player=leaving.player)
        tables = list(his.select_related("evening", "session").order_by("evening_id"))
        list(Evening.objects.select_for_update().filter(pk__in=[t.evening_id for t in tables]).order_by("pk"))
        begun = set(
            Deal.objects.filter(evening__in=[t.evening_id for t in tables]).values_list("evening_id", flat=True)
        )
        for table in tables:
            evening = Evening.objects.get(pk=table.evening_id)
            if not evening.is_open or evening.pk in begun:
                continue
            Seat.objects.filter(evening=evening, player=leaving.player).update(player=player, name=player.name)
            evenings.rebuild(evening)
            _replaced(table)
            seats = plan["sessions"][table.session.number - 1]["tables"][table.number - 1]
            seats[seats.index(leaving.number)] = sub.number
        night.plan = plan
        night.save(update_fields=["plan"])
        NightEvent.objects.create(
            night=night,
            kind=NightEvent.Kind.SUBSTITUTE,
            session=now,
            detail=f"{sub.number}. {sub.name} ← {leaving.number}. {leaving.name}",
            by=_user(user),
        )
        _bump(night)
    return sub


def late_arrival(night: Night, name: str, user: User | AnonymousUser | None) -> Participant:
    """A player who comes late plays from the next session that has not begun: the plan of the
    sessions from there on is drawn again (the sessions begun are kept as they were played),
    starting from the plan drawn before so that as few tables as possible change.

    Everything long is done before the transaction (no lock is held meanwhile): the plan is drawn,
    the player found in the roster (added to it in a short transaction of its own), and the tables
    to seat again prepared in memory (``_Reseating``). The transaction then checks that the night
    did not change meanwhile (its version and the session it starts from: every change of its
    tables' seats goes through the night), else all is prepared again, and writes."""
    for _attempt in range(3):
        try:
            night.refresh_from_db()
        except Night.DoesNotExist:
            raise NightGone(night) from None
        with _gone_meanwhile(night):
            start = next_unplayed(night)
            if start is None:
                raise NightError("Every session has begun: a late arrival can no longer be seated.")
            version = night.version
            participants = list(night.participants.select_related("player"))
            number = max((p.number for p in participants), default=0) + 1
            plan = _plan_with(night, start, participants, number)
            with transaction.atomic():
                lock_club(night.club_id)  # one roster change at a time
                (player,) = creation.players_named([name], user, night.club)
            if any(p.player_id == player.pk for p in participants):
                raise NightError(f"{player.name} already takes part in this night.")
            people = {p.number: p.player for p in participants} | {number: player}
            reseating = _Reseating.prepare(night, start, plan, people, user)
        with transaction.atomic():
            night = _locked(night)
            if night.version != version or next_unplayed(night) != start:
                continue  # a table began or the night changed while the plan was drawn: draw it again
            if night.participants.filter(player=player).exists():
                raise NightError(f"{player.name} already takes part in this night.")
            late = Participant.objects.create(
                night=night, number=number, player=player, name=player.name, first_session=start
            )
            reseating.write()
            night.plan = plan.as_dict()
            night.save(update_fields=["plan"])
            NightEvent.objects.create(
                night=night,
                kind=NightEvent.Kind.LATE,
                session=start,
                detail=f"{late.number}. {late.name}",
                by=_user(user),
            )
            _bump(night)
        return late
    raise NightError("The night changed while its plan was drawn again: try again.")


@contextmanager
def _gone_meanwhile(night: Night) -> Iterator[None]:
    """What is read without a lock may meet the night's deletion (its sessions, participants or tables
    gone, a plan of nobody refused): said as the night gone when it is, else as it was raised."""
    try:
        yield
    except (NightError, KeyError, Evening.DoesNotExist):
        if not Night.objects.filter(pk=night.pk).exists():
            raise NightGone(night) from None
        raise


def _plan_with(night: Night, start: int, participants: list[Participant], number: int) -> seating.Plan:
    """The night's plan with participant ``number`` playing from session ``start`` on: the sessions
    begun kept as they were played, the others drawn again from the plan drawn before; a table that
    keeps its players keeps its number and seats (its card holds)."""
    playing = [p.number for p in participants if p.last_session is None or p.last_session >= start] + [number]
    sessions = [tuple(tuple(t) for t in s["tables"]) for s in night.plan["sessions"]]
    try:
        plan = seating.make_plan(
            playing,
            night.sessions,
            seed=night.seed + number,
            played=sessions[: start - 1],
            previous=sessions[start - 1 :],
        )
    except seating.PlanError as error:
        raise NightError(str(error)) from None
    redrawn = seating.aligned(sessions[start - 1 :], plan.sessions[start - 1 :])
    return seating.Plan(plan.sessions[: start - 1] + redrawn)


@dataclass
class _Reseating:
    """The sessions from ``start`` on, none begun, seated as a new plan says, prepared in memory:
    the tables whose players or seats change seated again (``again``: each evening with its new
    seats, state and summary; their cards replaced), a table added where the count of tables grew
    (``new``: prepared evenings, a new card each), a table removed where it shrank (``gone``).
    ``write`` writes it in a few queries for the whole night, in the night's transaction."""

    tables: list[int]  # every evening of those sessions (locked and checked without deals)
    again: list[tuple[NightTable, Evening, list[Seat]]]
    new: list[tuple[NightSession, int, creation.NewEvening]]
    gone: list[int]

    @classmethod
    def prepare(
        cls, night: Night, start: int, plan: seating.Plan, people: dict[int, Player], user: User | AnonymousUser | None
    ) -> _Reseating:
        sessions = {s.number: s for s in night.night_sessions.filter(number__gte=start)}
        existing = list(NightTable.objects.filter(session__in=sessions.values()).select_related("session"))
        seated: dict[int, list[int]] = {t.evening_id: [] for t in existing}
        for evening_id, player_id in (
            Seat.objects.filter(evening__in=list(seated)).order_by("position").values_list("evening_id", "player_id")
        ):
            seated[evening_id].append(player_id)
        by_place = {(t.session.number, t.number): t for t in existing}
        changed, added, wanted = [], [], set()
        for s_number in range(start, night.sessions + 1):
            for t_number, numbers in enumerate(plan.sessions[s_number - 1], start=1):
                players = [people[n] for n in numbers]
                wanted.add((s_number, t_number))
                table = by_place.get((s_number, t_number))
                if table is None:
                    added.append((sessions[s_number], t_number, players))
                elif seated[table.evening_id] != [p.pk for p in players]:
                    changed.append((table, players))  # the same players in the same seats: its card still holds
        rows = Evening.objects.in_bulk([table.evening_id for table, _players in changed])
        again = []
        for table, players in changed:
            evening = rows[table.evening_id]
            again.append((table, evening, evenings.seats_again(evening, players)))
        prepared = creation.prepare_evenings(
            [players for _session, _number, players in added],
            ruleset=night.ruleset,
            rules=night.rules,
            stake=night.stake,
            currency=night.currency,
            date=night.date,
            user=user,
            club=night.club,
            managed=True,
            deal_limit=night.deals_per_session,
        )
        return cls(
            tables=list(seated),
            again=again,
            new=[(session, number, p) for (session, number, _players), p in zip(added, prepared, strict=True)],
            gone=[t.evening_id for place, t in by_place.items() if place not in wanted],
        )

    def write(self) -> None:
        list(Evening.objects.select_for_update().filter(pk__in=self.tables).order_by("pk").values_list("pk"))
        if Deal.objects.filter(evening__in=self.tables).exists():
            raise NightError("A table of that session has begun: it cannot be seated again.")
        if self.again:
            evenings.write_seats_again([(evening, seats) for _table, evening, seats in self.again])
            links.revoke_many([evening for _table, evening, _seats in self.again], replaced=True)
            NightTable.objects.filter(pk__in=[table.pk for table, _evening, _seats in self.again]).update(reprint=True)
        if self.new:
            NightTable.objects.bulk_create(
                NightTable(session=session, number=number, evening=evening, reprint=True)
                for (session, number, _prepared), evening in zip(
                    self.new, creation.insert_evenings([p for _s, _n, p in self.new]), strict=True
                )
            )
        evenings.delete_evenings([Evening(pk=pk) for pk in self.gone])


def _user(user: User | AnonymousUser | None) -> User | None:
    return user if user is not None and user.is_authenticated else None
