"""The scoring page: running totals, whose deal it is, the record form, the deal list.

The page reads what the writes stored (``stored.read_sheet``): nothing is scored again.
Every form posts to its own view, which hands the form's deal to one service function
and answers with the ``board`` partial (the form's ``hx-target``): the board after the
change, or the form with its errors next to the fields (422), or the reason a request
that lost a race was refused (422 with the board; 409 without JavaScript). A recorded line
is answered with what changed only (``_answer``) when the page showed the evening just
before and the record forms keep their shape. Without JavaScript the same forms post
normally and redirect back, or show the page with their errors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap

from scorebook.core.http import AuthenticatedHttpRequest, HtmxHttpRequest, page_or_fragment
from scorebook.rules import registry
from scorebook.rules.deals import Evening as EngineEvening
from scorebook.rules.evening_file import FileError
from scorebook.rules.model import ClassicRules, ContractRules
from scorebook.rules.outcome import RobreState
from scorebook.rules.scoring import DealError, Standing

from .. import creation, display, headings, listing, rules_display, services, stored
from ..access import EveningAccess, evening_for_user, visible_evenings
from ..forms import (
    AdjustmentForm,
    ClassicDealForm,
    ContractDealForm,
    NewEveningForm,
    RecordForm,
    RobreForm,
    deal_form_class,
)
from ..links import login_or_link
from ..models import DealRevision, Evening

TEMPLATE = "evenings/scoring.html"
INVALID = 422
ADJUSTMENT = "adj"  # the adjustment form's prefix
RECENT = 10  # deals listed on the scoring page (a phone shows about five); the rest is one tap away (?deals=all)


LIST_PAGE = 30  # evenings a page of the list (the installed app's start page: the first one, kept offline)


@login_required
def evening_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The evenings this user may see, the newest first, a page at a time (?page=2: older ones);
    archived ones only when asked (?archived=1); a club night as one line (``listing``). A page costs
    the same however many there are."""
    archived = request.GET.get("archived") == "1"
    visible = listing.listed(visible_evenings(request.user))  # a club night: one line
    evenings = visible.filter(archived=archived).select_related("club").prefetch_related("seats")
    page = Paginator(evenings, LIST_PAGE).get_page(request.GET.get("page"))
    hidden = 0 if archived or page.number > 1 else visible.filter(archived=True).count()
    lines = listing.lines(page.object_list, request.user)
    rows = [(e, lines.get(e.pk)) for e in page.object_list]  # a club night: its line, else none
    context = {"evenings": page.object_list, "rows": rows, "page": page, "archived": archived, "archived_count": hidden}
    return render(request, "evenings/list.html", context)


@login_required
def evening_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    initial = {"club": request.GET.get("club", "")}
    if request.GET.get("ruleset") in registry.keys():  # noqa: SIM118 (a function of the registry, not a dict)  # the home page's link to a variant
        initial["ruleset"] = request.GET["ruleset"]
    form = NewEveningForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        c = form.cleaned_data
        evening = creation.create_evening(
            club=c["club"],
            ruleset=c["ruleset"],
            players=c["players"],
            first_dealer=c["first_dealer_index"],
            stake=c.get("stake"),
            currency=c.get("currency") or "EUR",
            date=c["date"],
            user=request.user,
        )
        return redirect(evening)
    known = form.known_players()
    status = INVALID if form.is_bound else 200
    return render(request, "evenings/new.html", {"form": form, "known_players": known}, status=status)


# --- the forms of the page -------------------------------------------------------------------


# Each takes the table (``table.rules``, ``table.players``: an engine evening, with or without its
# deals): a posted form is checked against the table alone, the engine then judges the deal.
# ``robre``: the robre under way, for what the page shows (team names, the current partnerships).


def _deal_form(
    table: EngineEvening, data: Any = None, robre: RobreState | None = None, initial: dict[str, Any] | None = None
) -> ContractDealForm | ClassicDealForm:
    cls = deal_form_class(table.rules)
    kwargs: dict[str, Any] = {"rules": table.rules, "players": table.players, "initial": initial}
    if cls is ClassicDealForm and robre is not None:
        kwargs["teams"] = robre.teams
    return cls(data, **kwargs)


def _entered(evening: Evening, standing: Standing) -> dict[str, Any]:
    """What the record form says it was entered against: the evening's version, the next deal's
    number and dealer (a phone keeps them with a deal saved offline; the service compares)."""
    return {"evening_version": evening.version, "deal_number": standing.number + 1, "dealer": standing.next.dealer}


def _adjustment_form(table: EngineEvening, data: Any = None, robre: RobreState | None = None) -> AdjustmentForm:
    return AdjustmentForm(data, players=table.players, prefix=ADJUSTMENT)


def _robre_form(table: EngineEvening, data: Any = None, robre: RobreState | None = None) -> RobreForm:
    """The partnerships form of classic games; offered before the first deal of a robre."""
    rules = table.rules
    if not isinstance(rules, ClassicRules):
        raise Http404("Only classic games have robres")
    initial = None
    if robre is not None:
        initial = {"choice": robre.dummy_partner if rules.dummy else "\x1f".join(robre.teams[0] + robre.teams[1])}
    return RobreForm(data, players=list(table.players), dummy=rules.dummy, prefix="robre", initial=initial)


@dataclass(frozen=True)
class Forms:
    """The record forms of the board: the one sent back with its errors, the others new."""

    deal: Form | None = None
    adjustment: AdjustmentForm | None = None
    robre: RobreForm | None = None

    @classmethod
    def refused(cls, form: Form) -> Forms:
        if isinstance(form, AdjustmentForm):
            return cls(adjustment=form)
        if isinstance(form, RobreForm):
            return cls(robre=form)
        return cls(deal=form)


def _claim_teams(rules: ClassicRules, robre: RobreState) -> list[int]:
    """The sides standing where they may claim the manche by showing their honours."""
    return [side for side in (0, 1) if rules.claim_at is not None and robre.points[side] == rules.claim_at]


# --- the board -------------------------------------------------------------------------------


def _board_context(
    request: HttpRequest, access: EveningAccess, sheet: stored.Sheet, forms: Forms, *, refused: bool = False
) -> dict[str, Any]:
    """What the board shows: the state after the evening's last deal, the record forms, the last
    deals (``sheet``: read from what the writes stored, nothing scored again), and the latest
    corrections (with the undo of a deletion)."""
    evening = access.evening
    standing, rules = sheet.standing, sheet.table.rules
    classic = isinstance(rules, ClassicRules)
    robre = standing.next.robre
    revisions = list(evening.revisions.select_related("by")[:5])
    # undo is offered only while the deletion is the latest change of the evening, and only on the
    # phone that deleted (another phone's deletion is in the corrections, without an Undo)
    undo = next((r for r in revisions if r.action == DealRevision.Action.DELETED and not r.undone), None)
    if undo is not None and (undo.evening_version != evening.version or not _deleted_here(request, undo)):
        undo = None
    context = {
        "evening": evening,
        "access": access,
        "rules": rules,
        "classic": classic,
        "players": sheet.table.players,
        "chips": display.total_chips(standing),
        "next": standing.next,
        "next_number": standing.number + 1,
        "pot": standing.pot,
        "has_bete": getattr(rules, "bete", None) is not None,
        "robre": robre,
        "robres_done": standing.robres,
        "can_score": evening.is_open and access.may_score,
        # a night's table that has played its deals of the session: no form for a deal it cannot record
        "deals_done": evening.deal_limit is not None and standing.number >= evening.deal_limit,
        "rows": display.rows_of(sheet.lines, sheet.table.players, rules, sheet.deals, sheet.before)[::-1],
        "hidden_deals": sheet.hidden,
        "revisions": revisions,
        "undo": undo,
        "form": forms.deal or _deal_form(sheet.table, robre=robre, initial=_entered(evening, standing)),
        "adjustment_form": forms.adjustment or _adjustment_form(sheet.table),
        "choices": display.contract_choices(rules, quick=evening.quick_contracts)
        if isinstance(rules, ContractRules)
        else None,
        "rotation": display.rotation(sheet.state),
        "undo_dealer": _dealer_of(evening, sheet, undo.number) if undo is not None else None,
        "refused": refused,
        "rules_summary": rules_display.summary(evening.ruleset, rules, evening.rules_from),
        "heading": headings.heading(evening),  # the page's h1: a night's table names its table and session
    }
    if isinstance(rules, ClassicRules) and robre is not None:  # (a classic game is always in a robre)
        context["claim_teams"] = _claim_teams(rules, robre)
        context["robre_form"] = forms.robre or (None if robre.deals else _robre_form(sheet.table, robre=robre))
    return context


UNDO_KEY = "deleted_here"  # {evening pk: the deletion this session made last}: its Undo is this phone's


def _deleted_here(request: HttpRequest, revision: DealRevision) -> bool:
    return (request.session.get(UNDO_KEY) or {}).get(str(revision.evening_id)) == revision.pk


def _board(
    request: HtmxHttpRequest,
    access: EveningAccess,
    sheet: stored.Sheet | None = None,
    *,
    status: int = 200,
    forms: Forms = Forms(),
) -> HttpResponse:
    """The page, or its ``board`` partial for htmx: the state after the evening's last deal, the
    record forms (``forms``: one sent back with its errors), the latest deals."""
    if sheet is None:
        sheet = stored.read_sheet(access.evening, None if request.GET.get("deals") == "all" else RECENT)
    context = _board_context(request, access, sheet, forms, refused=status == INVALID)
    template = f"{TEMPLATE}#board" if request.htmx else TEMPLATE
    return render(request, template, context, status=status)


def _dealer_of(evening: Evening, sheet: stored.Sheet, number: int) -> str | None:
    """Who deals deal ``number`` now (after a deletion moved it up), if it exists."""
    line = next((line for line in sheet.lines if line.number == number), None)
    if line is None and 0 < number <= sheet.standing.number:
        deal = evening.deals.filter(number=number).only(*stored.LINE_FIELDS).first()
        line = stored.result_of(deal, sheet.table) if deal is not None else None
    return line.dealer if line is not None else None


def _broken_page(request: HttpRequest, evening: Evening) -> HttpResponse:
    """The evening's stored deals cannot be scored: say so, never loop."""
    return render(request, "evenings/broken.html", {"evening": evening}, status=500)


@page_or_fragment
@login_or_link
def evening(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    access = evening_for_user(request, pk)
    try:
        sheet = stored.read_sheet(access.evening, None if request.GET.get("deals") == "all" else RECENT)
    except (DealError, FileError):
        return _broken_page(request, access.evening)
    return _board(request, access, sheet)


def refused(request: HtmxHttpRequest, access: EveningAccess, refusal: services.Refused) -> HttpResponse:
    """A write that lost a race (or found the evening closed): the reason in words, with the board
    as it is now: in its notices for htmx (422, as a refused form: an offline queue keeps the line
    as refused), else the page with the notice (409; a closed evening: back to its page). An
    evening deleted meanwhile: the list of evenings. ``X-Refused`` names the refusal for a phone
    sending its waiting deals (closed, gone, limit: what it may offer to do next)."""
    response = _refusal_answer(request, access, refusal)
    response["X-Refused"] = REFUSALS.get(type(refusal), "refused")
    return response


REFUSALS = {services.EveningClosed: "closed", services.EveningGone: "gone", services.DealLimit: "limit"}


def _refusal_answer(request: HtmxHttpRequest, access: EveningAccess, refusal: services.Refused) -> HttpResponse:
    evening, message = access.evening, refusal.message
    if isinstance(refusal, services.EveningClosed) and not request.user.is_authenticated:
        # a table's phone (a scoring link): the director closes and reopens its tables
        message = _("This table is closed: only the director can reopen it. Ask the director.")
    messages.error(request, message)
    if isinstance(refusal, services.EveningGone):
        url = reverse("evening_list")
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if isinstance(refusal, services.EveningClosed) and not request.htmx:
        return redirect(evening)
    try:
        return _board(request, access, status=INVALID if request.htmx else 409)
    except (DealError, FileError):
        return _broken_page(request, evening)


def after_write(request: HtmxHttpRequest, access: EveningAccess) -> HttpResponse:
    """After a change: the board for htmx, else back to the page (post, redirect, get)."""
    if request.htmx:
        return _board(request, access)
    return redirect(access.evening)


def _record(request: HtmxHttpRequest, pk: int, build_form: Callable[[EngineEvening, Any], RecordForm]) -> HttpResponse:
    """Record one line from a posted form (``build_form``: the deal form, an adjustment, or a new
    robre). In the write's transaction, the evening is read once, under its lock: the user's rights
    are checked on it, the form is checked against its table, and the service scores the deal from
    the state after the evening's last deal (``services.record_deal``, given the access read under
    the lock, and the table). The answer is drawn once the transaction is over."""
    access: EveningAccess | None = None
    form: RecordForm | None = None
    table: EngineEvening | None = None
    try:
        with transaction.atomic():
            access = evening_for_user(request, pk, write=True, locked=True)
            if not access.evening.is_open:
                raise services.EveningClosed()
            table = stored.table_of(access.evening)
            form = build_form(table, request.POST)
            recorded = None
            if form.is_valid():
                key = form.cleaned_data.get("request_key") or ""
                recorded = services.record_deal(
                    access, form.deal_data(), request.user, key, _entered_of(form), table=table
                )
    except (DealError, FileError) as error:
        if form is None:  # the evening's own table cannot be read: not the form's fault
            raise
        form.add_engine_error(error)
    except services.EveningMoved as moved:
        assert access is not None and table is not None  # (read before the service could refuse)
        return _moved(request, access, table, moved)
    except services.Refused as refusal:
        assert access is not None  # (read before anything could be refused)
        return refused(request, access, refusal)
    else:
        if recorded is not None:
            return _with_version(_recorded(request, access, recorded), access.evening.version)
    assert access is not None and form is not None  # (a form's error comes after both were read)
    return _board(request, access, status=INVALID, forms=Forms.refused(form))


def _entered_of(form: RecordForm) -> services.Entered | None:
    """The evening's version the deal was entered against (a deal form that says it), else None."""
    version = form.cleaned_data.get("evening_version")
    if version is None:
        return None
    return services.Entered(version, form.cleaned_data.get("deal_number"), form.cleaned_data.get("dealer") or "")


def _with_version(response: HttpResponse, version: int) -> HttpResponse:
    """The evening's version after the answer (a phone sending its waiting deals chains them on it)."""
    response.headers["X-Evening-Version"] = str(version)
    return response


def _moved(
    request: HtmxHttpRequest, access: EveningAccess, table: EngineEvening, moved: services.EveningMoved
) -> HttpResponse:
    """The evening changed since the deal was entered: 409, never placed silently. The board as it
    is now, the deal back in the form (to be saved as the next deal, entered against the version now:
    the service checks again) with both places in words; a phone's waiting deal shows the words on
    its row with the choice."""
    messages.error(request, moved.message)
    data = request.POST.copy()
    data["evening_version"], data["deal_number"], data["dealer"] = str(moved.version), str(moved.number), moved.dealer
    access.evening.refresh_from_db()
    form = _deal_form(table, data)
    form.is_valid()
    try:
        return _with_version(_board(request, access, status=409, forms=Forms(deal=form)), moved.version)
    except (DealError, FileError):
        return _broken_page(request, access.evening)


def _recorded(request: HtmxHttpRequest, access: EveningAccess, recorded: services.Recorded) -> HttpResponse:
    """The answer to a recorded line. Without JavaScript: back to the page. With htmx, when the page
    that posted shows the evening as it was just before (``X-Board-Version``) and the record forms
    keep their shape: only what changed (``_answer``); otherwise the whole board."""
    evening = access.evening
    if not recorded.created:
        if recorded.deal is None:
            messages.info(request, _("This deal was recorded, then deleted: it is not recorded again."))
        return after_write(request, access)
    _deal, _before, after = recorded.new()
    result = after.results[-1]
    words = display.saved_words(result, after.rules)
    messages.success(request, _("Deal %(n)s saved: %(what)s") % {"n": result.number, "what": words}, extra_tags="saved")
    if not request.htmx:
        return redirect(evening)
    shown = request.headers.get("X-Board-Version", "")
    all_deals = "deals=all" in (request.htmx.current_url or "")
    if shown == str(evening.version - 1) and not all_deals and _forms_kept(evening, recorded):
        answer = _answer(request, evening, recorded)
        if answer is not None:
            return answer
    return _board(request, access)


def _forms_kept(evening: Evening, recorded: services.Recorded) -> bool:
    """The record forms look the same after the deal as before it (so the page keeps them, reset):
    for classic games, the same robre under way, begun before the deal (no partnerships form to show
    or hide) with no claim offered or withdrawn; contract games keep their quick buttons all
    evening (``Evening.quick_contracts``)."""
    _deal, state_before, state_after = recorded.new()
    rules = state_after.rules
    if evening.deal_limit is not None and state_after.number >= evening.deal_limit:
        return False  # its last deal of the session: the board without the form
    before, after = state_before.next_deal().robre, state_after.next_deal().robre
    if isinstance(rules, ClassicRules) and before is not None and after is not None:
        return (
            (before.number, before.teams) == (after.number, after.teams)
            and before.deals > 0
            and _claim_teams(rules, before) == _claim_teams(rules, after)
        )
    return True


def _answer(request: HtmxHttpRequest, evening: Evening, recorded: services.Recorded) -> HttpResponse | None:
    """The small answer to a recorded line, swapped out of band into the page that posted it (the
    form stays where it is, reset by the page): the new row (and the one before it, whose delete
    warning may change), the totals, the robre, who deals next and sits out, the notices, the next
    request keys and the rotation; the oldest row leaves when more than ``RECENT`` are shown. Only
    what these parts show is worked out (no forms, no contract buttons, no rules summary), from what
    the service gave back: nothing is read again. None when what it gave does not make the rows (the
    evening was rebuilt first, a stored result does not fit): the whole board then."""
    deal, _before, after = recorded.new()
    if recorded.previous is None:
        return None
    found = [stored.result_of(row, after.evening) for row in recorded.previous]
    earlier = [r for r in found if r is not None]
    if len(earlier) != len(found):
        return None
    standing, rules, players = after.standing(), after.rules, after.players
    lines, deals = earlier[-1:] + [after.results[-1]], recorded.previous[-1:] + [deal]
    before = earlier[-2] if len(earlier) == 2 else None
    rows = display.rows_of(lines, players, rules, deals, before)[::-1]
    number = standing.number
    context = {
        "oob": True,
        "evening": evening,
        "classic": isinstance(rules, ClassicRules),
        "rules": rules,
        "has_bete": getattr(rules, "bete", None) is not None,
        "can_score": True,
        "chips": display.total_chips(standing),
        "pot": standing.pot,
        "robre": standing.next.robre,
        "robres_done": standing.robres,
        "next": standing.next,
        "next_number": number + 1,
        "new_row": rows[0],
        "previous_row": rows[1] if len(rows) > 1 else None,
        "gone_row": number - RECENT if number > RECENT else None,
        "hidden_deals": max(number - RECENT, 0),
        "keys": [RecordForm()["request_key"], RecordForm(prefix=ADJUSTMENT)["request_key"]],
        "rotation": display.rotation(after),
    }
    return reswap(render(request, f"{TEMPLATE}#recorded", context), "none")


@login_or_link
@require_POST
def deal_record(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _record(request, pk, _deal_form)


@login_or_link
@require_POST
def adjustment(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _record(request, pk, _adjustment_form)


@login_or_link
@require_POST
def robre_start(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _record(request, pk, _robre_form)
