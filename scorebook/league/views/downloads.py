"""Files a club takes away: the ledger and the roster for a spreadsheet, and the club's backup.

The CSV files are written as the reader's spreadsheet reads them (``core.spreadsheet``: ``;``
and ``1,50`` in French and Dutch, a name in the language), never with a formula. The backup is
``backup.export_club`` without secrets: no password hash, no e-mail address, and links only as
digests (the server command ``export_club --with-secrets`` adds the hashes and addresses, for the
operator only); restored, its members choose a password through a link (``accounts.password_links``).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Club, Role
from scorebook.core import spreadsheet
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.ledger import books

from ..backup import export_club
from .roster import roster_rows


@require_safe
@login_required
def ledger_csv(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Each party's balance, what is still to pay (one line per open transfer, evening by evening and
    night by night), then every payment and kitty record, with who and when: all from the ledger."""
    club, _role = club_for_user(request, slug)
    fmt = spreadsheet.local_format()
    rows = _balance_rows(club, fmt) + _to_pay_rows(club, fmt) + _history_rows(club, fmt)
    header = [
        _("Evening"),
        _("Variant"),
        _("Status"),
        _("Payer"),
        _("Payee"),
        _("Amount"),
        _("Currency"),
        _("Marked by"),
        _("Marked on"),
        _("Note"),
        _("Player"),
        _("Balance"),
    ]
    filename = spreadsheet.file_name(club.slug, pgettext("file name", "ledger"))
    return spreadsheet.csv_download(filename, header, rows, fmt)


def _row(**cells: str) -> list[str]:
    """A line of the ledger's CSV: the cells named, the others empty (``COLUMNS``)."""
    out = [""] * len(COLUMNS)
    for name, value in cells.items():
        out[COLUMNS.index(name)] = value
    return out


def _balance_rows(club: Club, fmt: spreadsheet.Format) -> list[list[str]]:
    """Each party's balance, a line per currency."""
    return [
        _row(status=_("balance"), player=b.name, currency=currency, balance=spreadsheet.number(amount, 2, fmt))
        for b in books.balances(club)
        for currency, amount in sorted(b.money.items())
    ]


def _to_pay_rows(club: Club, fmt: spreadsheet.Format) -> list[list[str]]:
    """What is still to pay: a line per open transfer, evening by evening, then night by night."""
    to_pay = _("to pay")
    evenings, _count = books.open_evenings(club, limit=None)
    rows = [
        _row(
            evening=t.date.isoformat(),
            variant=t.variant,
            status=to_pay,
            payer=t.payer_label,
            payee=t.payee_label,
            amount=spreadsheet.number(t.amount, 2, fmt),
            currency=t.currency,
        )
        for e in evenings
        for t in e.transfers
    ]
    nights, _count = books.open_nights(club, limit=None)
    return rows + [
        _row(
            evening=t.date.isoformat(),
            variant=_("night %(name)s") % {"name": t.name},
            status=to_pay,
            payer=t.payer_label,
            payee=t.payee_label,
            amount=spreadsheet.number(t.amount, 2, fmt),
            currency=t.currency,
        )
        for night in nights
        for t in night.transfers
    ]


def _minute(moment: Any) -> str:
    """A moment of the history (a payment marked or cancelled), to the minute in the site's time zone."""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def _history_rows(club: Club, fmt: spreadsheet.Format) -> list[list[str]]:
    """Every payment and kitty record, with who and when, and a cancellation's who, when and why."""
    statuses = {"payment": _("paid"), "expense": _("kitty expense"), "prize": _("prize")}
    rows = []
    for p in books.history(club, limit=None):
        cancelled = (
            _("cancelled on %(day)s by %(who)s") % {"day": _minute(p.cancelled_at), "who": p.cancelled_by or "?"}
            if p.cancelled
            else ""
        )
        rows.append(
            _row(
                evening=p.where,
                status=_("cancelled") if p.cancelled else statuses[p.what],
                payer=p.payer_label,
                payee=p.payee_label,
                amount=spreadsheet.number(p.amount, 2, fmt),
                currency=p.currency,
                marked_by=p.marked_by,
                marked_on=_minute(p.marked_at),
                note=" · ".join(part for part in (p.note, cancelled, p.reason) if part),
            )
        )
    return rows


COLUMNS = [
    "evening",
    "variant",
    "status",
    "payer",
    "payee",
    "amount",
    "currency",
    "marked_by",
    "marked_on",
    "note",
    "player",
    "balance",
]


@require_safe
@login_required
def roster_csv(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The club's players: name, the member account linked to it, evenings played."""
    club, _role = club_for_user(request, slug)
    header = [_("Player"), _("Member account"), _("Evenings")]
    filename = spreadsheet.file_name(club.slug, pgettext("file name", "players"))
    return spreadsheet.csv_download(filename, header, roster_rows(club))


@require_safe
@login_required
def club_backup(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The club's backup as a JSON file, for its admins: everything the club holds (``backup``), without
    password hashes or e-mail addresses, and links only as their digests."""
    club, _role = club_for_user(request, slug, Role.ADMIN)
    text = json.dumps(export_club(club, with_secrets=False), ensure_ascii=False, indent=1) + "\n"
    day = timezone.localdate().isoformat()
    filename = spreadsheet.file_name(club.slug, pgettext("file name", "backup"), day, extension="json")
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    response["Cache-Control"] = "private, no-store"
    return response
