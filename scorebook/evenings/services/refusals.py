"""The refusals of an evening's writes: a request that cannot be done as asked, said in words.

Each is a ``Refused`` (its ``message``, in the person's language); the views answer it (409, or 422
with the board for htmx). ``Entered`` is what a phone says a deal was entered against, which
``EveningMoved`` compares with where it would go now.
"""

from __future__ import annotations

from typing import NamedTuple

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorebook.core.engine_messages import localized
from scorebook.core.http import Vanished
from scorebook.rules import evening_file
from scorebook.rules.scoring import DealError

from .. import headings
from ..models import Deal, DealRevision, Evening


class Refused(Exception):
    """The write cannot be done as asked; ``message`` says why, in the person's language."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class EveningClosed(Refused):
    def __init__(self) -> None:
        super().__init__(_("This evening is closed: reopen it to change a deal."))


class EveningGone(Refused, Vanished):
    """The evening was deleted meanwhile: a view that does not answer it itself sends the person to the
    list of evenings with the sentence (``core.middleware.VanishedMiddleware``)."""

    def __init__(self) -> None:
        super().__init__(_("This evening has been deleted."))
        self.where = reverse("evening_list")


class Entered(NamedTuple):
    """What the phone showed when the deal was entered: the evening's ``version``, and the deal's
    place, its ``number`` and ``dealer`` (who sits out follows from them at that version)."""

    version: int
    number: int | None = None
    dealer: str = ""


class EveningMoved(Refused):
    """The deal would not go where it was entered: another phone recorded or deleted a deal (another
    place, another dealer), or corrected one since (the same place, but not the evening the scorer
    saw). It is never placed silently. ``version``, ``number``, ``dealer`` and ``sitting_out``: where
    it would go now; ``changed``: the correction (or deletion, putting back) that kept its place."""

    def __init__(
        self,
        entered: Entered,
        version: int,
        number: int,
        dealer: str,
        sitting_out: tuple[str, ...],
        changed: DealRevision | None = None,
    ):
        self.entered, self.version, self.number = entered, version, number
        self.dealer, self.sitting_out = dealer, sitting_out
        out = _("Sits out: %(names)s.") % {"names": ", ".join(sitting_out)} if sitting_out else ""
        if changed is not None:  # the same place: say what changed, not the place twice
            what = {
                DealRevision.Action.CORRECTED: _("deal %(k)s was corrected"),
                DealRevision.Action.DELETED: _("deal %(k)s was deleted"),
                DealRevision.Action.RESTORED: _("deal %(k)s was put back"),
            }[DealRevision.Action(changed.action)] % {"k": changed.number}
            message = _(
                "Not recorded. Meanwhile %(what)s on another phone: this deal is still deal %(n)s, dealt by "
                "%(dealer)s, but the totals it was entered against changed. %(out)s"
            ) % {"what": what, "n": number, "dealer": dealer, "out": out}
        else:
            was = (
                _("This deal was entered as deal %(n)s, dealt by %(dealer)s.")
                % {"n": entered.number, "dealer": entered.dealer}
                if entered.number and entered.dealer
                else _("This deal was entered on an earlier state of the evening.")
            )
            message = _(
                "Not recorded. %(entered)s Meanwhile the evening changed on another phone: it would now be deal "
                "%(n)s, dealt by %(dealer)s. %(out)s"
            ) % {"entered": was, "n": number, "dealer": dealer, "out": out}
        super().__init__(message.strip())


class AdminReopens(Exception):
    """The evening was closed by an admin of its club (or arrived closed): only an admin reopens it."""


class HasDeals(Refused):
    """An evening with deals is never deleted (it can be archived)."""

    def __init__(self) -> None:
        super().__init__(_("This evening cannot be deleted"))


class HasPayments(Refused):
    """An evening with payments (cancelled ones too: they are records) is never deleted: payments
    outlive everything (the database refuses it too, ``Payment.evening`` is ``PROTECT``)."""

    def __init__(self) -> None:
        super().__init__(_("This evening cannot be deleted: payments were recorded for it."))


class Managed(Refused):
    """The evening is run from above it (a club night's table): this is done only from there. The
    sentence names the table (its night, table and session: ``headings``)."""

    def __init__(self, evening: Evening):
        super().__init__(
            _(
                "%(table)s belongs to a club night: only its director closes, reopens, deletes, archives "
                "or shares it, from the night's page."
            )
            % {"table": headings.heading(evening)}
        )


class DealLimit(Refused):
    """The evening has recorded the most deals it may (a club night's deals per session)."""

    def __init__(self, limit: int):
        super().__init__(
            ngettext(
                "This table has played its %(n)s deal of the session: the director closes the session.",
                "This table has played its %(n)s deals of the session: the director closes the session.",
                limit,
            )
            % {"n": limit}
        )


class DealGone(Refused):
    """The deal the page showed has been deleted since."""

    def __init__(self, number: int):
        self.number = number
        super().__init__(_("Deal %(n)s has been deleted in the meantime: nothing was changed.") % {"n": number})


class StaleDeal(Refused):
    """The deal was changed by someone else since the form was shown; ``deal`` is it now."""

    def __init__(self, deal: Deal, message: str = ""):
        self.deal = deal
        super().__init__(message or _("Deal %(n)s was changed in the meantime.") % {"n": deal.number})


class AlreadyPutBack(Refused):
    def __init__(self, number: int):
        super().__init__(_("Deal %(n)s has already been put back.") % {"n": number})


class NoSuchDeletion(Refused):
    def __init__(self) -> None:
        super().__init__(_("There is no deleted deal to put back."))


class Unscorable(Refused):
    """The evening's stored deals cannot be scored: nothing can be changed until it is repaired."""

    def __init__(self, error: DealError | evening_file.FileError):
        self.error = error
        super().__init__(
            _("This evening's stored deals cannot be scored (%(why)s): nothing was changed.")
            % {"why": localized(error)}
        )
