"""The scoring page: running totals, whose deal it is, the record form, the deal list.

Every form posts to its own view, which hands the form's deal to one service function
and answers with the ``board`` partial (the form's ``hx-target``): the board after the
change, or the form with its errors next to the fields (422). Without JavaScript the
same forms post normally and redirect back, or show the page with their errors.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorebook.core.engine_messages import localized
from scorebook.rules import registry
from scorebook.rules.evening_file import FileError
from scorebook.rules.model import ClassicRules
from scorebook.rules.scoring import DealError

from .. import display, rules_display, services
from ..access import MAX_ID, evening_for_user, visible_evenings
from ..forms import AdjustmentForm, ClassicDealForm, NewEveningForm, RobreForm, deal_form_class
from ..links import login_or_link
from ..models import DealRevision

TEMPLATE = "evenings/scoring.html"
INVALID = 422
RECENT = 10  # deals listed on the scoring page (a phone shows about five); the rest is one tap away (?deals=all)


@login_required
def evening_list(request):
    """The evenings this user may see; archived ones only when asked (?archived=1)."""
    archived = request.GET.get("archived") == "1"
    visible = visible_evenings(request.user)
    evenings = visible.filter(archived=archived).select_related("club").prefetch_related("seats")
    hidden = 0 if archived else visible.filter(archived=True).count()
    context = {"evenings": evenings, "archived": archived, "archived_count": hidden}
    return render(request, "evenings/list.html", context)


@login_required
def evening_new(request):
    initial = {"club": request.GET.get("club", "")}
    if request.GET.get("ruleset") in registry.keys():  # noqa: SIM118 (a function of the registry, not a dict)  # the home page's link to a variant
        initial["ruleset"] = request.GET["ruleset"]
    form = NewEveningForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        c = form.cleaned_data
        evening = services.create_evening(
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


def _deal_form(table, data=None, robre=None):
    cls = deal_form_class(table.rules)
    kwargs = {"rules": table.rules, "players": table.players}
    if cls is ClassicDealForm and robre is not None:
        kwargs["teams"] = robre.teams
    return cls(data, **kwargs)


def _adjustment_form(table, data=None, robre=None):
    return AdjustmentForm(data, players=table.players, prefix="adj")


def _robre_form(table, data=None, robre=None):
    """The partnerships form of classic games; offered before the first deal of a robre."""
    rules = table.rules
    if not isinstance(rules, ClassicRules):
        raise Http404("Only classic games have robres")
    initial = None
    if robre is not None:
        initial = {"choice": robre.dummy_partner if rules.dummy else "\x1f".join(robre.teams[0] + robre.teams[1])}
    return RobreForm(data, players=list(table.players), dummy=rules.dummy, prefix="robre", initial=initial)


# --- the board -------------------------------------------------------------------------------


def _board(request, evening, scored, *, status=200, **forms):
    """The page, or its ``board`` partial for htmx: the state after the evening's deals, the
    record forms (``forms``: one sent back with its errors), the latest deals."""
    result = scored.result
    rules = scored.engine.rules
    classic = isinstance(rules, ClassicRules)
    robre = result.next.robre
    last = None if request.GET.get("deals") == "all" else RECENT
    rows = display.deal_rows(result, rules, last, scored.deals)
    revisions = list(evening.revisions.select_related("by")[:5])
    # undo is offered only while the deletion is the latest change of the evening
    undo = next((r for r in revisions if r.action == DealRevision.Action.DELETED), None)
    if undo is not None and undo.evening_version != evening.version:
        undo = None
    context = {
        "evening": evening,
        "rules": rules,
        "classic": classic,
        "players": scored.engine.players,
        "chips": display.total_chips(result),
        "next": result.next,
        "next_number": len(result.deals) + 1,
        "pot": result.pot,
        "has_bete": getattr(rules, "bete", None) is not None,
        "robre": robre,
        "robres_done": result.robres,
        "can_score": evening.is_open and evening.may_score,
        "rows": list(reversed(rows)),
        "hidden_deals": len(result.deals) - len(rows),
        "revisions": revisions,
        "undo": undo,
        "form": forms.get("form") or _deal_form(scored.engine, robre=robre),
        "adjustment_form": forms.get("adjustment_form") or _adjustment_form(scored.engine),
        "choices": None if classic else display.contract_choices(rules, display.played_contracts(result)),
        "rotation": display.rotation(scored.state, result),
        "undo_dealer": _dealer_of(result, undo.number) if undo is not None else None,
        "refused": status == INVALID,
        "rules_summary": rules_display.summary(evening.ruleset, rules),
    }
    if classic:
        context["claim_teams"] = [
            side for side in (0, 1) if rules.claim_at is not None and robre.points[side] == rules.claim_at
        ]
        context["robre_form"] = forms.get("robre_form") or (
            None if robre.deals else _robre_form(scored.engine, robre=robre)
        )
    template = f"{TEMPLATE}#board" if request.htmx else TEMPLATE
    return render(request, template, context, status=status)


def _dealer_of(result, number: int) -> str | None:
    """Who deals deal ``number`` now (after a deletion moved it up), if it exists."""
    return result.deals[number - 1].dealer if 0 < number <= len(result.deals) else None


def _scored(evening):
    """The evening scored from its deals, put back in order first if they disagree with it."""
    try:
        return services.scored_in_order(evening)
    except services.Inconsistent:
        raise _Broken(evening) from None


class _Broken(Exception):
    def __init__(self, evening):
        self.evening = evening


def _broken_page(request, evening):
    """The evening's stored deals cannot be put in order: say so, never loop."""
    return render(request, "evenings/broken.html", {"evening": evening}, status=500)


@login_or_link
def evening(request, pk):
    evening = evening_for_user(request, pk)
    try:
        scored = _scored(evening)
    except _Broken:
        return _broken_page(request, evening)
    return _board(request, evening, scored)


def _closed(request, evening):
    """A write to a closed evening: refused (422 for htmx and an offline queue: the board says why)."""
    messages.error(request, _("This evening is closed: reopen it to change a deal."))
    if request.htmx:
        return _board(request, evening, services.scored(evening), status=INVALID)
    return redirect(evening)


def _after_write(request, evening, scored=None):
    """After a change: the board for htmx, else back to the page (post, redirect, get)."""
    if request.htmx:
        return _board(request, evening, scored or services.scored(evening))
    return redirect(evening)


def _record(request, pk, build_form, form_name: str):
    """Record one line from a posted form: the deal form, an adjustment, or a new robre. The form
    is checked against the table; the service scores the deal on the evening's deals."""
    evening = evening_for_user(request, pk, write=True)
    if not evening.is_open:
        return _closed(request, evening)
    form = build_form(services.engine_evening(evening, []), request.POST)
    if form.is_valid():
        try:
            key = form.cleaned_data.get("request_key") or ""
            recorded = services.record_deal(evening, form.deal_data(), request.user, key)
        except (DealError, FileError) as error:
            form.add_engine_error(error)
        except services.EveningClosed:
            evening.status = evening.Status.CLOSED
            return _closed(request, evening)
        else:
            return _after_write(request, evening, recorded.scored)
    return _board(request, evening, services.scored(evening), status=INVALID, **{form_name: form})


@login_or_link
@require_POST
def deal_record(request, pk):
    return _record(request, pk, _deal_form, "form")


@login_or_link
@require_POST
def adjustment(request, pk):
    return _record(request, pk, _adjustment_form, "adjustment_form")


@login_or_link
@require_POST
def robre_start(request, pk):
    return _record(request, pk, _robre_form, "robre_form")


def _deal_or_404(evening, number):
    deal = evening.deals.filter(number=number).first() if 0 < number <= MAX_ID else None
    if deal is None:
        raise Http404("No such deal")
    return deal


@login_or_link
def deal_edit(request, pk, number):
    evening = evening_for_user(request, pk, write=True)
    deal = _deal_or_404(evening, number)
    scored = services.scored(evening)
    deal_result = scored.result.deals[number - 1]
    rules = scored.engine.rules
    players = list(scored.engine.players)
    editable = "adjustment" not in deal.data and "robre" not in deal.data
    status = 200
    conflict = None
    cls = deal_form_class(rules)
    kwargs = {"rules": rules, "players": players}
    if cls is ClassicDealForm:
        kwargs["teams"] = deal_result.robre.teams
    if request.method == "POST":
        if not evening.is_open:
            return _closed(request, evening)
        form = cls(request.POST, **kwargs)
        if not editable:
            form.is_valid()
            form.add_error(None, _("This line cannot be corrected here: delete it and record it again."))
        elif form.is_valid():
            try:
                services.edit_deal(
                    evening,
                    number,
                    form.deal_data(),
                    request.user,
                    form.cleaned_data.get("version"),
                    _posted_id(request),
                )
                messages.success(request, _("Deal %(n)s corrected.") % {"n": number})
                return redirect(evening)
            except DealError as error:
                form.add_engine_error(error, number)
            except services.StaleDeal as stale:
                conflict = stale.deal
                deal = stale.deal
                form = cls(initial=cls.initial_from(deal.data, players) | {"version": deal.version}, **kwargs)
            except services.EveningClosed:
                return _closed(request, evening)
        status = 409 if conflict else INVALID
    else:
        initial = cls.initial_from(deal.data, players) | {"version": deal.version} if editable else None
        form = cls(initial=initial, **kwargs)
    context = {
        "evening": evening,
        "deal": deal,
        "number": number,
        "form": form,
        "rules": rules,
        "classic": isinstance(rules, ClassicRules),
        "editable": editable,
        "deal_result": deal_result,
        "description": display.describe(deal_result, rules),
        "players": players,
        "conflict": conflict,
        "can_score": evening.is_open,
        "groups": None if isinstance(rules, ClassicRules) else display.contract_groups(rules),
    }
    return render(request, "evenings/deal_edit.html", context, status=status)


@login_or_link
@require_POST
def deal_delete(request, pk, number):
    evening = evening_for_user(request, pk, write=True)
    if not evening.is_open:
        return _closed(request, evening)
    _deal_or_404(evening, number)
    try:
        services.delete_deal(evening, number, request.user, _posted_id(request))
    except DealError as error:
        messages.error(request, _("Deal %(n)s cannot be deleted: %(why)s") % {"n": number, "why": localized(error)})
    except services.StaleDeal:
        messages.error(
            request, _("The list of deals changed in the meantime: nothing was deleted. Check it and try again.")
        )
    except services.EveningClosed:
        return _closed(request, evening)
    return _after_write(request, evening)


def _posted_id(request) -> int | None:
    """The deal's id as the page showed it (guards a number that moved since)."""
    raw = request.POST.get("deal")
    return int(raw) if raw and raw.isdigit() and len(raw) < 19 else None


@login_or_link
@require_POST
def deal_restore(request, pk, revision):
    evening = evening_for_user(request, pk, write=True)
    if not evening.is_open:
        return _closed(request, evening)
    if not 0 < revision <= MAX_ID:
        raise Http404("No such revision")
    rev = get_object_or_404(DealRevision, pk=revision, evening=evening, action=DealRevision.Action.DELETED)
    try:
        services.restore_deal(evening, rev, request.user)
    except DealError as error:
        messages.error(request, _("The deal cannot be put back: %(why)s") % {"why": localized(error)})
    except services.EveningClosed:
        return _closed(request, evening)
    return _after_write(request, evening)
