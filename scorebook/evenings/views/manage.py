"""Deleting an evening that has no deal, and archiving one out of the lists (scorers and admins).

Each action is a confirmation page (GET) and the change (POST): it works without JavaScript.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scorebook.core.http import AuthenticatedHttpRequest

from .. import payments, services
from ..access import evening_for_user, refuse_if_managed
from ..models import Evening

CONFIRM = "core/confirm.html"


def _label(evening: Evening) -> str:
    where = evening.club.name if evening.club is not None else _("My table book")
    return f"{date_format(evening.date, 'DATE_FORMAT')} · {evening.variant_name} · {where}"


def _after_delete(evening: Evening) -> HttpResponse:
    return redirect(evening.club.get_absolute_url() if evening.club is not None else reverse("evening_list"))


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def evening_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """An evening without deals (started by mistake, or emptied) and without payments can be deleted.
    One with payments (cancelled ones too) cannot: the page names them, and offers to archive it."""
    access = evening_for_user(request, pk, write=True)
    evening = access.evening
    refuse_if_managed(evening)
    has_deals = evening.deals.exists()
    records = payments.payment_records(evening)
    if request.method == "POST" and not has_deals and not records:
        try:
            services.delete_evening(access)
        except services.HasDeals:  # a deal was recorded in the meantime
            has_deals = True
        except services.HasPayments:  # a payment was recorded in the meantime
            records = payments.payment_records(evening)
        except services.EveningGone:  # another phone deleted it a moment ago
            messages.info(request, _("This evening had already been deleted."))
            return _after_delete(evening)
        else:
            messages.success(request, _("The evening of %(date)s is deleted.") % {"date": date_format(evening.date)})
            return _after_delete(evening)
    context = {
        "title": _("Delete this evening?"),
        "eyebrow": _label(evening),
        "lines": [
            _("It has no deal. Its table (who sat where) is deleted with it; the players stay in the roster."),
        ],
        "action": reverse("evening_delete", args=[evening.pk]),
        "button": _("Delete the evening"),
        "cancel_url": reverse("settlement", args=[evening.pk]),
    }
    if records and not has_deals:  # payments outlive everything: name them, and what can be done instead
        context |= {
            "title": _("This evening cannot be deleted"),
            "lines": payments.sentences(records),
            "refusal": _(
                "Payments were recorded for it, and a payment is never deleted (one recorded by mistake is "
                "cancelled, and stays in the history): archive the evening to take it out of the lists."
            ),
            "alternative": (reverse("evening_archive", args=[evening.pk]), _("Archive the evening")),
        }
    elif has_deals:  # nothing to confirm: say why, and what can be done instead
        count = evening.deals.count()
        context |= {
            "title": _("This evening cannot be deleted"),
            "lines": [],
            "refusal": ngettext(
                "It has %(count)s deal: archive it to take it out of the lists.",
                "It has %(count)s deals: archive it to take it out of the lists.",
                count,
            )
            % {"count": count},
            "alternative": (reverse("evening_archive", args=[evening.pk]), _("Archive the evening")),
        }
    refused = has_deals or bool(records)
    return render(request, CONFIRM, context, status=422 if refused and request.method == "POST" else 200)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def evening_archive(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Archive an evening out of the lists, or bring it back (``archived`` = 1 or 0)."""
    access = evening_for_user(request, pk, write=True)
    evening = access.evening
    refuse_if_managed(evening)
    wanted = not evening.archived
    if request.method == "POST":
        wanted = request.POST.get("archived", "1") != "0"
        try:
            services.set_archived(access, wanted)
        except services.EveningGone as gone:
            messages.error(request, gone.message)
            return _after_delete(evening)
        if wanted:
            messages.success(
                request,
                _("The evening of %(date)s is archived: it is out of the lists, and still counts.")
                % {"date": date_format(evening.date)},
            )
        else:
            messages.success(
                request, _("The evening of %(date)s is back in the lists.") % {"date": date_format(evening.date)}
            )
        return redirect("settlement", evening.pk)
    if wanted:
        title, button = _("Archive this evening?"), _("Archive the evening")
        lines = [
            _("It leaves the club's lists of evenings. Its deals, standings and money do not change."),
            _("It can still be opened from its address, and brought back at any time."),
        ]
    else:
        title, button = _("Bring this evening back?"), _("Bring it back to the lists")
        lines = [_("It is archived: it is out of the lists of evenings.")]
    context = {
        "title": title,
        "eyebrow": _label(evening),
        "lines": lines,
        "action": reverse("evening_archive", args=[evening.pk]),
        "hidden": [("archived", "1" if wanted else "0")],
        "button": button,
        "cancel_url": reverse("settlement", args=[evening.pk]),
    }
    return render(request, CONFIRM, context)
