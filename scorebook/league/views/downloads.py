"""Files a club takes away: the ledger and the roster for a spreadsheet, and the club's backup.

The CSV files are written as the reader's spreadsheet reads them (``core.spreadsheet``: ``;``
and ``1,50`` in French and Dutch, a name in the language), never with a formula. The backup is
``backup.export_club`` without secrets: no password hash, no e-mail address, and links only as
digests (the server command ``export_club --with-secrets`` adds the hashes and addresses, for the
operator only); restored, its members choose a password through a link (``accounts.password_links``).
"""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Role
from scorebook.core import spreadsheet

from ..backup import export_club
from .ledger import open_ledger, payment_history
from .roster import roster_rows


@require_safe
@login_required
def ledger_csv(request, slug):
    """What is still to pay (one line per open transfer), then every payment marked, with who and when."""
    club, _role = club_for_user(request, slug)
    fmt = spreadsheet.local_format()
    ledger = open_ledger(club)
    to_pay, paid = _("to pay"), _("paid")
    rows = [
        [
            t.date.isoformat(),
            t.variant,
            to_pay,
            t.payer_label,
            t.payee_label,
            spreadsheet.number(t.amount, 2, fmt),
            t.currency,
            "",
            "",
            "",
        ]
        for t in ledger.transfers
    ]
    rows += [
        [
            t.date.isoformat(),
            _("night %(name)s") % {"name": t.name},
            to_pay,
            t.payer_label,
            t.payee_label,
            spreadsheet.number(t.amount, 2, fmt),
            t.currency,
            "",
            "",
            "",
        ]
        for night in ledger.nights
        for t in night.transfers
    ]
    cancelled = _("cancelled")
    rows += [
        [
            p.where,
            "",
            cancelled if p.cancelled else paid,
            p.payer_label,
            p.payee_label,
            spreadsheet.number(p.amount, 2, fmt),
            p.currency,
            p.marked_by,
            timezone.localtime(p.marked_at).strftime("%Y-%m-%d %H:%M"),
            " · ".join(
                part
                for part in (
                    p.note,
                    (
                        _("cancelled on %(day)s by %(who)s")
                        % {
                            "day": timezone.localtime(p.cancelled_at).strftime("%Y-%m-%d %H:%M"),
                            "who": p.cancelled_by or "?",
                        }
                        if p.cancelled
                        else ""
                    ),
                    p.reason,
                )
                if part
            ),
        ]
        for p in payment_history(club, limit=None)
    ]
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
    ]
    filename = spreadsheet.file_name(club.slug, pgettext("file name", "ledger"))
    return spreadsheet.csv_download(filename, header, rows, fmt)


@require_safe
@login_required
def roster_csv(request, slug):
    """The club's players: name, the member account linked to it, evenings played."""
    club, _role = club_for_user(request, slug)
    header = [_("Player"), _("Member account"), _("Evenings")]
    filename = spreadsheet.file_name(club.slug, pgettext("file name", "players"))
    return spreadsheet.csv_download(filename, header, roster_rows(club))


@require_safe
@login_required
def club_backup(request, slug):
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
