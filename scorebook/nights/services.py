"""Every write of a club night: one function each, inside ``transaction.atomic()``, locking the
night's row first (so two directors' changes happen one after the other).

The tables are evenings of the club, made and closed through ``evenings.services``; a table
whose evening has no deal yet may be seated again (a substitute, a late arrival).
"""

from __future__ import annotations

from datetime import date as date_cls
from decimal import Decimal

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorebook.evenings import creation, links
from scorebook.evenings import services as evenings
from scorebook.evenings.models import Deal, Evening, Seat
from scorebook.rules import registry
from scorebook.rules.model import to_dict

from . import seating
from .models import Night, NightEvent, NightSession, NightTable, Participant


class NightError(Exception):
    """The change cannot be made (the message is a sentence for the director)."""


def _locked(night: Night) -> Night:
    return Night.objects.select_for_update().get(pk=night.pk)


def _bump(night: Night) -> None:
    night.version += 1
    night.save(update_fields=["version"])


def create_night(
    *,
    club,
    user,
    name: str,
    date: date_cls,
    ruleset: str,
    sessions: int,
    deals_per_session: int | None,
    ranking: str,
    place_points: list,
    stake: Decimal | None,
    currency: str,
    players: list[str],
    seed: int = 0,
) -> Night:
    """A night with its participants numbered 1..N in the order given, its plan, and one evening
    per table and session, every one with the club's house rules as they are now.

    The plan is drawn before the transaction (PlanError before anything is written, and no
    lock held while it is searched): the transaction only writes rows of the new night."""
    plan = seating.make_plan(len(players), sessions, seed=seed)
    rules = to_dict(registry.resolve(ruleset, club.overrides_for(ruleset)))
    with transaction.atomic():
        night = Night.objects.create(
            club=club,
            name=name,
            date=date,
            ruleset=ruleset,
            rules=rules,
            sessions=sessions,
            deals_per_session=deals_per_session,
            ranking=ranking,
            place_points=place_points,
            stake=stake,
            currency=currency,
            seed=seed,
            plan=plan.as_dict(),
            created_by=_user(user),
        )
        for number, player_name in enumerate(players, start=1):
            player = creation.player_named(player_name, user, club)
            Participant.objects.create(night=night, number=number, player=player, name=player.name)
        names = {p.number: p.name for p in night.participants.all()}
        for s_number, session in enumerate(plan.sessions, start=1):
            s = NightSession.objects.create(night=night, number=s_number)
            for t_number, table in enumerate(session, start=1):
                _new_table(night, s, t_number, [names[n] for n in table], user)
    return night


def _new_table(night: Night, session: NightSession, number: int, names: list[str], user) -> NightTable:
    evening = creation.create_evening(
        ruleset=night.ruleset,
        players=names,
        first_dealer=0,
        stake=night.stake,
        currency=night.currency,
        date=night.date,
        user=user,
        rules=night.rules,
        club=night.club,
    )
    # the table is run from the night (rules.md 6): closed, reopened, deleted only through it
    Evening.objects.filter(pk=evening.pk).update(managed=True, deal_limit=night.deals_per_session)
    evening.managed, evening.deal_limit = True, night.deals_per_session
    return NightTable.objects.create(session=session, number=number, evening=evening)


def table_links(night: Night, session: int | None = None) -> dict[int, str]:
    """New scoring links for the night's tables (of one session when given); the earlier links of
    those tables stop working. {evening pk: token}: shown once, on the printed cards."""
    tables = NightTable.objects.filter(session__night=night).select_related("evening")
    if session is not None:
        tables = tables.filter(session__number=session)
    tokens = links.issue_many([t.evening for t in tables])
    tables.filter(reprint=True).update(reprint=False)
    return tokens


def reprint_links(night: Night) -> dict[int, str]:
    """New links for the tables seated again or added since their cards were printed (only those)."""
    tables = list(NightTable.objects.filter(session__night=night, reprint=True).select_related("evening"))
    tokens = links.issue_many([t.evening for t in tables])
    NightTable.objects.filter(pk__in=[t.pk for t in tables]).update(reprint=False)
    return tokens


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


def close_session(night: Night, number: int, user) -> None:
    """The session is over: every one of its tables is closed (no deal changes any more)."""
    with transaction.atomic():
        night = _locked(night)
        session = NightSession.objects.select_for_update().get(night=night, number=number)
        if not session.is_open:
            return  # closed meanwhile (another director): once is enough, and logged once
        for table in session.tables.select_related("evening"):
            evenings.set_status(table.evening, Evening.Status.CLOSED, user, through_manager=True)
        session.status, session.closed_at = NightSession.Status.CLOSED, timezone.now()
        session.save(update_fields=["status", "closed_at"])
        NightEvent.objects.create(night=night, kind=NightEvent.Kind.CLOSED, session=number, by=_user(user))
        _bump(night)


def reopen_session(night: Night, number: int, reason: str, user) -> None:
    """A closed session opened again (a deal to correct), the reason kept in the night's log."""
    with transaction.atomic():
        night = _locked(night)
        session = NightSession.objects.select_for_update().get(night=night, number=number)
        if session.is_open:
            return  # reopened meanwhile (another director): once is enough, and logged once
        for table in session.tables.select_related("evening"):
            evenings.set_status(table.evening, Evening.Status.OPEN, user, through_manager=True)
        session.status, session.closed_at = NightSession.Status.OPEN, None
        session.save(update_fields=["status", "closed_at"])
        NightEvent.objects.create(
            night=night, kind=NightEvent.Kind.REOPENED, session=number, detail=reason, by=_user(user)
        )
        _bump(night)


def edit_night(night: Night, *, name: str, date: date_cls, deals_per_session: int | None, user) -> None:
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


def delete_night(night: Night) -> None:
    """A night made by mistake goes, with its tables' evenings: only while no deal is recorded at
    any of its tables (checked under the night's lock and each table's)."""
    with transaction.atomic():
        night = _locked(night)
        tables = list(Evening.objects.select_for_update().filter(night_table__session__night=night).order_by("pk"))
        if Deal.objects.filter(evening__in=tables).exists():
            raise NightError(_("A deal has been recorded at one of its tables: the night cannot be deleted."))
        for evening in tables:
            evenings.delete_evening(evening, through_manager=True)
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


def substitute(night: Night, leaving: Participant, name: str, user) -> Participant:
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
        for table in NightTable.objects.filter(session__night=night).select_related("evening", "session"):
            evening = Evening.objects.select_for_update().get(pk=table.evening_id)
            seat = Seat.objects.filter(evening=evening, player=leaving.player).first()
            if seat is None or not evening.is_open or Deal.objects.filter(evening=evening).exists():
                continue
            Seat.objects.filter(pk=seat.pk).update(player=player, name=player.name)
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


def late_arrival(night: Night, name: str, user) -> Participant:
    """A player who comes late plays from the next session that has not begun: the plan of the
    sessions from there on is drawn again (the sessions begun are kept as they were played),
    starting from the plan drawn before so that as few tables as possible change.

    The plan is drawn before the transaction (no lock is held while it is searched); the
    transaction then checks that the night did not change meanwhile (its version and the
    session it starts from), else the plan is drawn again."""
    for _attempt in range(3):
        night.refresh_from_db()
        start = next_unplayed(night)
        if start is None:
            raise NightError("Every session has begun: a late arrival can no longer be seated.")
        version = night.version
        participants = list(night.participants.all())
        number = max((p.number for p in participants), default=0) + 1
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
        # a table that keeps its players keeps its number and seats: its card holds
        redrawn = seating.aligned(sessions[start - 1 :], plan.sessions[start - 1 :])
        plan = seating.Plan(plan.sessions[: start - 1] + redrawn)
        with transaction.atomic():
            night = _locked(night)
            if night.version != version or next_unplayed(night) != start:
                continue  # a table began or the night changed while the plan was drawn: draw it again
            player = creation.player_named(name, user, night.club)
            if night.participants.filter(player=player).exists():
                raise NightError(f"{player.name} already takes part in this night.")
            late = Participant.objects.create(
                night=night, number=number, player=player, name=player.name, first_session=start
            )
            names = {p.number: p.name for p in night.participants.all()}
            for s_number in range(start, night.sessions + 1):
                _seat_session(night, s_number, [[names[n] for n in t] for t in plan.sessions[s_number - 1]], user)
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


def _seat_session(night: Night, number: int, tables: list[list[str]], user) -> None:
    """Seat a session that has not begun as ``tables`` says: its evenings seated again, a table
    added or removed when the count of tables changed (a new table needs its card)."""
    session = NightSession.objects.get(night=night, number=number)
    existing = list(session.tables.select_related("evening").order_by("number"))
    for i, names in enumerate(tables):
        if i >= len(existing):
            NightTable.objects.filter(pk=_new_table(night, session, i + 1, names, user).pk).update(reprint=True)
            continue
        evening = Evening.objects.select_for_update().get(pk=existing[i].evening_id)
        if Deal.objects.filter(evening=evening).exists():
            raise NightError("A table of that session has begun: it cannot be seated again.")
        if [s.name for s in evening.seats.order_by("position")] == [
            creation.player_named(name, user, night.club).name for name in names
        ]:
            continue  # the same players in the same seats: its card still holds
        _replaced(existing[i])
        Seat.objects.filter(evening=evening).delete()
        for position, name in enumerate(names):
            player = creation.player_named(name, user, night.club)
            Seat.objects.create(evening=evening, player=player, position=position, name=player.name)
        Evening.objects.filter(pk=evening.pk).update(first_dealer=0)
        evening.first_dealer = 0
        evenings.rebuild(evening)
    for table in existing[len(tables) :]:
        evenings.delete_evening(table.evening, through_manager=True)


def _user(user):
    return user if user is not None and user.is_authenticated else None
