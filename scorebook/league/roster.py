"""Merging two roster records of one person: his seats move, the evenings' summaries are rebuilt.

It changes evenings (their seats and summaries), so it lives above them, here.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import formats
from django.utils.translation import gettext as _

from scorebook.clubs.models import Player
from scorebook.clubs.services import Conflict, Refused, lock_club
from scorebook.evenings.models import Evening, Payment, Seat
from scorebook.evenings.services import rebuild
from scorebook.ledger.models import Prize
from scorebook.nights.models import Participant


def evening_label(evening: Evening) -> str:
    """How an evening is named to people: its date and variant."""
    return f"{formats.date_format(evening.date, 'DATE_FORMAT')} · {evening.variant_name}"


def shared_evenings(a: Player, b: Player) -> QuerySet[Evening]:
    """The evenings where both players sat: they cannot be the same person."""
    return Evening.objects.filter(seats__player=a).filter(seats__player=b).distinct().order_by("date", "pk")


def _gone(name: str) -> Player:
    """A record merged (or gone) in the meantime: nothing is merged."""
    raise Conflict(
        _("%(name)s is no longer in the roster (merged in the meantime): nothing was changed.") % {"name": name}
    )


def merge_players(keep: Player, drop: Player) -> int:
    """``drop`` was the same person as ``keep``: his seats move to ``keep``, then he is deleted.

    Each seat keeps its ``name`` (the deals of its evening use it), so no evening's
    score changes; the summaries, which name the player record, are rebuilt.
    Returns the number of seats moved.
    """
    if keep.pk == drop.pk:
        raise Refused(_("A player cannot be merged with himself."))
    if keep.club_id is None or keep.club_id != drop.club_id:
        raise Refused(_("Only two players of the same club can be merged."))
    with transaction.atomic():
        lock_club(keep.club_id)  # one roster change at a time: both records are read again under it
        names = {keep.pk: keep.name, drop.pk: drop.name}
        keep = Player.objects.select_for_update().filter(pk=keep.pk).first() or _gone(names[keep.pk])
        drop = Player.objects.select_for_update().filter(pk=drop.pk).first() or _gone(names[drop.pk])
        both = list(shared_evenings(keep, drop)[:3])
        if both:
            raise Refused(
                _("%(a)s and %(b)s both sat at the evening of %(evening)s: they are two people.")
                % {"a": keep.name, "b": drop.name, "evening": ", ".join(evening_label(e) for e in both)}
            )
        night = (
            Participant.objects.filter(player=keep, night__participants__player=drop)
            .values_list("night__name", flat=True)
            .first()
        )
        if night is not None:
            raise Refused(
                _("%(a)s and %(b)s both took part in the club night “%(night)s”: they are two people.")
                % {"a": keep.name, "b": drop.name, "night": night}
            )
        if keep.user_id and drop.user_id and keep.user_id != drop.user_id:
            raise Refused(
                _("%(a)s and %(b)s are linked to two different accounts: unlink one first.")
                % {"a": keep.name, "b": drop.name}
            )
        account = keep.user_id or drop.user_id
        evening_ids = list(Seat.objects.filter(player=drop).values_list("evening_id", flat=True))
        moved = Seat.objects.filter(player=drop).update(player=keep)
        Participant.objects.filter(player=drop).update(player=keep)  # his nights are the kept record's
        Payment.objects.filter(payer_player=drop).update(payer_player=keep)  # his payments are his still
        Payment.objects.filter(payee_player=drop).update(payee_player=keep)
        Prize.objects.filter(player=drop).update(player=keep)  # the kitty owes the kept record his prizes
        drop.delete()
        if account != keep.user_id:
            keep.user_id = account
            keep.save(update_fields=["user"])
        for evening in Evening.objects.filter(pk__in=evening_ids):
            rebuild(evening)
    return moved
