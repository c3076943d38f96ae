"""The scoring page: running totals, whose deal it is, the record form, the deal list.

htmx posts swap the ``board`` partial; without JavaScript the same forms post
normally and redirect back (or re-render with their errors).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from functools import cached_property

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import trigger_client_event

from scorebook.rules.model import ClassicRules
from scorebook.rules.evening_file import FileError
from scorebook.rules.scoring import DealError

from .. import display, services
from ..access import _get_evening_for_user, visible_evenings
from ..engine_messages import localized
from ..forms import AdjustmentForm, ClassicDealForm, NewEveningForm, RobreForm, deal_form_class, new_request_key
from ..models import DealRevision

TEMPLATE = "evenings/scoring.html"
INVALID = 422
RECENT = 20  # deals listed on the scoring page; the rest is one tap away (?deals=all)


@login_required
def evening_list(request):
    evenings = visible_evenings(request.user).select_related("club").prefetch_related("seats")
    return render(request, "evenings/list.html", {"evenings": evenings})


@login_required
def evening_new(request):
    form = NewEveningForm(request.POST or None, user=request.user, initial={"club": request.GET.get("club", "")})
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


class _Table:
    """What the record forms need of an evening, each part computed only when asked for.
    The rules and players come with the evening's scored state, remembered by the process
    (``services.scored``): a deal is recorded without reading the other deals."""

    def __init__(self, evening, scored=None):
        self.evening = evening
        if scored is not None:
            self.scored = scored

    @cached_property
    def scored(self):
        return services.scored(self.evening)

    @property
    def rules(self):
        return self.scored.engine.rules

    @property
    def players(self):
        return self.scored.engine.players


def _deal_form(table, data=None, initial=None, prefix=None):
    cls = deal_form_class(table.rules)
    kwargs = {"rules": table.rules, "players": table.players, "initial": initial, "prefix": prefix}
    if cls is ClassicDealForm:
        kwargs["teams"] = table.scored.result.next.robre.teams
    return cls(data, **kwargs)


def _state(evening, scored) -> dict:
    """What the board shows of the evening's state: totals, whose deal, the robre."""
    result = scored.result
    rules = scored.engine.rules
    classic = isinstance(rules, ClassicRules)
    robre = result.next.robre
    context = {
        "evening": evening,
        "rules": rules,
        "classic": classic,
        "players": scored.engine.players,
        "chips_html": display.chips_html(display.total_chips(result)),
        "next": result.next,
        "sitting_out_json": json.dumps(result.next.sitting_out),  # for the page's script, after a recorded line
        "next_number": len(result.deals) + 1,
        "pot": result.pot,
        "has_bete": getattr(rules, "bete", None) is not None,
        "robre": robre,
        "robres_done": result.robres,
        "can_score": evening.is_open,
    }
    if classic:
        context["claim_teams"] = [
            side for side in (0, 1) if rules.claim_at is not None and robre.points[side] == rules.claim_at
        ]
    return context


def _robre_form(rules, players, robre):
    """The partnerships form, offered before the first deal of a robre."""
    if robre.deals:
        return None
    return RobreForm(players=list(players), dummy=rules.dummy, prefix="robre", initial={"choice": _current_choice(robre, rules)})


def _rows(evening, scored, last, ids=None):
    """The rows of the last ``last`` deals (all of them: None), each with its deal's id and links.

    The deals' ids (by number) are read for those rows only, unless given; None when they
    are not the state's (its deals were changed behind the services' back).
    """
    rows = display.deal_rows(scored.result, scored.engine.rules, last)
    if ids is None:
        first = rows[0].number if rows else len(scored.result.deals) + 1
        ids = dict(evening.deals.filter(number__gte=first).values_list("number", "pk"))
        if max(ids, default=0) != len(scored.result.deals) or len(ids) != len(rows):
            return None
    edit_url = reverse("deal_edit", args=[evening.pk, 0]).replace("/0/", "/{}/")  # one reverse for every row
    delete_url = reverse("deal_delete", args=[evening.pk, 0]).replace("/0/", "/{}/")
    for row in rows:
        row.deal_id = ids[row.number]
        row.edit_url = edit_url.format(row.number)
        row.delete_url = delete_url.format(row.number)
    return rows


def _board(request, evening, *, form=None, adjustment_form=None, robre_form=None, status=200, scored=None):
    """Render the whole page, or only the board partial for htmx."""
    scored = scored or services.scored(evening)
    last = None if request.GET.get("deals") == "all" else RECENT
    rows = _rows(evening, scored, last)
    while rows is None:  # the state is not the stored deals': the whole page from the deals again
        scored = services.rescored(evening)
        rows = _rows(evening, scored, last)
    revisions = list(evening.revisions.select_related("by")[:5])
    # undo is offered only while the deletion is the latest change of the evening
    undo = next((r for r in revisions if r.action == DealRevision.Action.DELETED), None)
    if undo is not None and undo.evening_version != evening.version:
        undo = None
    context = _state(evening, scored) | {
        "rows": list(reversed(rows)),
        "hidden_deals": len(scored.result.deals) - len(rows),
        "revisions": revisions,
        "undo": undo,
        "form": form or _deal_form(_Table(evening, scored)),
        "adjustment_form": adjustment_form or AdjustmentForm(players=scored.engine.players, prefix="adj"),
    }
    if context["classic"]:
        context["robre_form"] = robre_form or _robre_form(context["rules"], context["players"], context["robre"])
    elif form is None:  # an empty form: as rendered before for the same table
        context["form_body"] = _form_body(context["form"], context["rules"], context["next"].sitting_out)
    else:
        context["groups"] = display.contract_groups(context["rules"])
    template = f"{TEMPLATE}#board" if request.htmx else TEMPLATE
    return render(request, template, context, status=status)


# The empty contract form (contract buttons, declarers, steppers, options) of a set of
# rules, for a table and who sits out, by language: most of the scoring page, the same
# before every deal of every evening played so. Kept per process for the rules objects
# in use (``registry.resolve`` hands out one per set of rules); the request key is not in it.
_FORM_BODIES: OrderedDict[int, tuple] = OrderedDict()
_FORM_BODIES_LOCK = threading.Lock()
KEPT_RULES = 32


def _form_body(form, rules, sitting_out) -> str:
    key = (translation.get_language(), tuple(form.players), tuple(sitting_out))
    with _FORM_BODIES_LOCK:
        kept_rules, bodies = _FORM_BODIES.get(id(rules), (None, {}))
        html = bodies.get(key) if kept_rules is rules else None
    if html is None:
        context = {"form": form, "players": form.players, "sitting_out": sitting_out}
        html = render_to_string("evenings/_contract_fields.html#body", context | {"groups": display.contract_groups(rules)})
        with _FORM_BODIES_LOCK:
            kept_rules, bodies = _FORM_BODIES.get(id(rules), (None, {}))
            if kept_rules is not rules:
                bodies = {}
            bodies[key] = html
            _FORM_BODIES[id(rules)] = (rules, bodies)  # the rules stay alive, so their id is not reused
            _FORM_BODIES.move_to_end(id(rules))
            while len(_FORM_BODIES) > KEPT_RULES:
                _FORM_BODIES.popitem(last=False)
    return html


def _recorded(request, evening, scored, deal):
    """An htmx answer to a recorded line: the new row for the top of the list, and out of band
    what changed with it (totals, whose deal, robre, who sits out, fresh request keys).
    On ``deal-recorded`` the page empties the form that was sent and the notices about the
    state before (a message, the undo of a deletion: no longer the latest change)."""
    context = _state(evening, scored) | {
        "row": _rows(evening, scored, 1, ids={deal.number: deal.pk})[0],
        "record_key": new_request_key(),
        "adjustment_key": new_request_key(),
    }
    if context["classic"]:
        context["form"] = _deal_form(_Table(evening, scored))
        context["robre_form"] = _robre_form(context["rules"], context["players"], context["robre"])
    # the fragment uses no context processor, only the CSRF token (the row's delete form)
    html = render_to_string(f"{TEMPLATE}#recorded", context | {"csrf_token": get_token(request)})
    response = HttpResponse(html)
    response["HX-Retarget"] = "#deals"
    response["HX-Reswap"] = "afterbegin"
    return trigger_client_event(response, "deal-recorded", after="swap")


def _current_choice(robre, rules):
    if rules.dummy:
        return robre.dummy_partner
    return "\x1f".join(robre.teams[0] + robre.teams[1])


def _after_write(request, evening, scored=None):
    """After a change: the board for htmx (scored once more only if the change did not say), else a redirect."""
    evening.refresh_from_db()  # the service changed the version under a lock
    if request.htmx:
        return _board(request, evening, scored=scored)
    return redirect(evening)


@login_required
def evening(request, pk):
    evening = _get_evening_for_user(request, pk)
    return _board(request, evening)


def _closed(request, evening):
    messages.error(request, _("This evening is closed: reopen it to change a deal."))
    return _after_write(request, evening)


def _record(request, pk, build_form, form_name: str):
    """Record one line from a posted form: the deal form, an adjustment, or a new robre."""
    evening = _get_evening_for_user(request, pk, write=True)
    if not evening.is_open:
        return _closed(request, evening)
    table = _Table(evening)
    form = build_form(table)
    if form.is_valid():
        try:
            key = form.cleaned_data.get("request_key") or ""
            recorded = services.record_deal(evening, form.deal_data(), request.user, key)
        except (DealError, FileError) as error:
            form.add_engine_error(error)
        except services.EveningClosed:
            return _closed(request, evening)
        else:
            if request.htmx and recorded.created:
                return _recorded(request, evening, recorded.scored, recorded.deal)
            return _after_write(request, evening, recorded.scored)
    return _board(request, evening, status=INVALID, scored=table.scored, **{form_name: form})


@login_required
@require_POST
def deal_record(request, pk):
    return _record(request, pk, lambda table: _deal_form(table, request.POST), "form")


@login_required
@require_POST
def adjustment(request, pk):
    def build(table):
        return AdjustmentForm(request.POST, players=table.players, prefix="adj")

    return _record(request, pk, build, "adjustment_form")


@login_required
@require_POST
def robre_start(request, pk):
    def build(table):
        if not isinstance(table.rules, ClassicRules):
            raise Http404("Only classic games have robres")
        return RobreForm(request.POST, players=list(table.players), dummy=table.rules.dummy, prefix="robre")

    return _record(request, pk, build, "robre_form")


def _deal_or_404(evening, number):
    deals = list(evening.deals.all())
    if not 1 <= number <= len(deals):
        raise Http404("No such deal")
    return deals[number - 1]


@login_required
def deal_edit(request, pk, number):
    evening = _get_evening_for_user(request, pk, write=True)
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


@login_required
@require_POST
def deal_delete(request, pk, number):
    evening = _get_evening_for_user(request, pk, write=True)
    if not evening.is_open:
        return _closed(request, evening)
    _deal_or_404(evening, number)
    try:
        services.delete_deal(evening, number, request.user, _posted_id(request))
    except DealError as error:
        messages.error(request, _("Deal %(n)s cannot be deleted: %(why)s") % {"n": number, "why": localized(error)})
    except services.StaleDeal:
        messages.error(request, _("The list of deals changed in the meantime: nothing was deleted. Check it and try again."))
    return _after_write(request, evening)


def _posted_id(request) -> int | None:
    """The deal's id as the page showed it (guards a number that moved since)."""
    raw = request.POST.get("deal")
    return int(raw) if raw and raw.isdigit() else None


@login_required
@require_POST
def deal_restore(request, pk, revision):
    evening = _get_evening_for_user(request, pk, write=True)
    if not evening.is_open:
        return _closed(request, evening)
    rev = get_object_or_404(DealRevision, pk=revision, evening=evening, action=DealRevision.Action.DELETED)
    try:
        services.restore_deal(evening, rev, request.user)
    except DealError as error:
        messages.error(request, _("The deal cannot be put back: %(why)s") % {"why": localized(error)})
    return _after_write(request, evening)
