"""Cancelling a payment: one page for every payment, whatever it was for (an evening, on account, a
night, the kitty), reached from the evening's settlement page and from the club's ledger.

GET shows the confirmation (in place with htmx), POST cancels with a reason (``payments.cancel_payment``:
a record of who, when and why) and goes back where it was asked from (``next``, checked to be this
site's), which with htmx replaces the list it was shown in (``target``) by the same list as it is now.
A scorer cancels the payments he entered, an admin any; a table's link, none.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorebook.accounts.models import display_name
from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Role
from scorebook.clubs.models.club import SCORING_ROLES
from scorebook.core.formatting import money_text, party_label
from scorebook.core.http import AuthenticatedHttpRequest, page_or_fragment

from .. import payments
from ..access import MAX_ID, evening_for_money
from ..forms import CancelForm
from ..models import Payment

TEMPLATE = "evenings/settle/payment_cancel.html"
TARGETS = {"transfers": "#transfers", "ledger": "#ledger"}  # the lists a page shows payments in (?target=)


class _Line:
    """What the confirmation shows of the payment."""

    def __init__(self, payment: Payment):
        self.payer_label = _("the club's kitty") if payment.payer == Payment.KITTY else party_label(payment.payer)
        self.payee_label = _("the club's kitty") if payment.payee == Payment.KITTY else party_label(payment.payee)
        self.amount_text = money_text(payment.amount, payment.currency)
        self.marked_by = display_name(payment.marked_by)


def _rights(request: HttpRequest, payment: Payment, write: bool) -> tuple[bool, bool, str, str]:
    """(may cancel it, as an admin, where to go back by default, the list htmx replaces): the
    evening's rights for an evening's payment, the club's role for the others."""
    if payment.evening_id is not None:
        access = evening_for_money(request, payment.evening_id, write=write)
        back = reverse("settlement", args=[payment.evening_id]) + "#transfers"
        return access.may_pay, access.as_admin, back, "#transfers"
    if payment.club is None:  # neither an evening's nor a club's: no payment of the site
        raise Http404("No such payment")
    club, role = club_for_user(request, payment.club.slug, *((SCORING_ROLES) if write else ()))
    return role in SCORING_ROLES, role == Role.ADMIN, club.get_absolute_url(), "#ledger"


def _back(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    # a path of this site only (never a view's name for ``redirect``, never another site)
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@require_http_methods(["GET", "HEAD", "POST"])
@page_or_fragment
@login_required
def payment_cancel(request: AuthenticatedHttpRequest, payment: int) -> HttpResponse:
    """Cancel a payment after a confirmation, with a reason. A second tap is told it was cancelled already."""
    if not 0 < payment <= MAX_ID:
        raise Http404("No such payment")
    record = Payment.objects.select_related("club", "marked_by__profile", "cancellation").filter(pk=payment).first()
    if record is None or (record.evening_id is None and record.club_id is None):
        raise Http404("No such payment")
    writing = request.method == "POST"
    may_cancel, admin, default, target = _rights(request, record, writing)
    back = _back(request, default)
    target = TARGETS.get(request.POST.get("target") or request.GET.get("target") or "", target)
    line = _Line(record)
    if not may_cancel or (not admin and record.marked_by_id != request.user.pk):
        raise PermissionDenied("A scorer cancels only the payments they entered")
    form = CancelForm(request.POST) if writing else CancelForm()
    context = {"line": line, "form": form, "back": back, "target": target, "payment": record}
    context["target_name"] = next(name for name, selector in TARGETS.items() if selector == target)
    if writing:
        if not form.is_valid():
            return render(request, TEMPLATE, context, status=422)
        try:
            payments.cancel_payment(record.pk, request.user, admin=admin, reason=form.cleaned_data["reason"])
        except payments.AlreadyCancelled:
            messages.info(request, _("This payment was cancelled already."))
        except payments.NotYours:
            raise PermissionDenied("A scorer cancels only the payments they entered") from None
        else:
            messages.success(
                request,
                _("Cancelled: %(payer)s paying %(payee)s %(amount)s no longer counts; it stays in the history.")
                % {"payer": line.payer_label, "payee": line.payee_label, "amount": line.amount_text},
            )
        return HttpResponseRedirect(back)
    if record.cancelled:
        messages.info(request, _("This payment was cancelled already."))
        return HttpResponseRedirect(back)
    return render(request, TEMPLATE + "#confirm" if request.htmx else TEMPLATE, context)
