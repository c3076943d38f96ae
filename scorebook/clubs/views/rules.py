"""House rules: the club's changes to the figures of each variant.

Members see the rules the club plays by; admins change them. What is stored is only
what differs from the preset (``registry.diff``); an evening keeps its own full copy
of the rules it was started with, so a change here never rewrites a past evening.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from scorebook.clubs.access import club_for_user
from scorebook.core.engine_messages import localized_with_path
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.rules import registry
from scorebook.rules.model import ContractRules, Family, RulesError, Ruleset

from .. import services as club_services
from ..models import Club, HouseRules, Role
from ..models.rules import rules_version
from ..rules_forms import ContractRulesForm, HouseRulesForm, house_rules_form

INVALID = 422
CONFLICT = 409


def _lang() -> str:
    return (get_language() or "fr")[:2]


def _preset_key(ruleset: str) -> str:
    try:
        return registry.get(ruleset).key
    except RulesError:
        raise Http404("No such variant") from None


def _current(club: Club, key: str) -> tuple[HouseRules | None, Ruleset, str]:
    """(house rules row or None, the rules the club plays by, a problem with the stored rules or "")."""
    house = HouseRules.objects.filter(club=club, ruleset=key).first()
    if house is None:
        return None, registry.get(key), ""
    try:
        return house, house.resolved(), ""
    except RulesError as exc:  # stored by an older version of the presets: start again from the preset
        return house, registry.get(key), localized_with_path(exc)


@login_required
@require_safe
def rules_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club, role = club_for_user(request, slug)
    stored = {h.ruleset: h for h in HouseRules.objects.filter(club=club)}
    lang = _lang()
    variants = []
    for preset in registry.all_presets():
        house = stored.get(preset.key)
        changed, problem = 0, ""
        if house is not None:
            try:
                changed = house.changed_figures()
            except RulesError as exc:
                problem = localized_with_path(exc)
        variants.append(
            {
                "key": preset.key,
                "name": preset.names.get(lang),
                "classic": preset.family is Family.CLASSIC,
                "changed": changed,
                "problem": problem,
                "updated_at": house.updated_at if house else None,
            }
        )
    return render(
        request,
        "clubs/rules/list.html",
        {"club": club, "role": role, "is_admin": role == Role.ADMIN, "variants": variants},
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def rules_edit(request: AuthenticatedHttpRequest, slug: str, ruleset: str) -> HttpResponse:
    """GET: every figure of the variant (read-only for members). POST (admins): save, or go back to the preset."""
    if request.method == "POST":
        return _rules_save(request, slug, ruleset)
    club, role = club_for_user(request, slug)
    key = _preset_key(ruleset)
    house, current, problem = _current(club, key)
    form = house_rules_form(key, current, editable=role == Role.ADMIN, open_contract=request.GET.get("open", ""))
    return _editor(request, club, role, key, form, house, problem)


def _rules_save(request: AuthenticatedHttpRequest, slug: str, ruleset: str) -> HttpResponse:
    """An admin's post: back to the preset, a schedule's preview, or the figures saved (the form
    checked against the club's rules, then ``services.save_house_rules`` decides under the club's lock)."""
    club, role = club_for_user(request, slug, Role.ADMIN)
    key = _preset_key(ruleset)
    action = request.POST.get("action", "")
    if action == "reset":
        if club_services.reset_house_rules(club, key):
            messages.success(request, _("Back to the preset: the next evening uses its figures."))
        else:
            messages.info(request, _("These rules were already the preset's."))
        return redirect("club_rules_edit", club.slug, key)
    if action.startswith("schedule:"):
        return _schedule_preview(request, club, role, key, action.partition(":")[2])
    house, current, problem = _current(club, key)
    form = house_rules_form(key, current, request.POST, open_contract=request.POST.get("_open", ""))
    submitted = request.POST.get("_version")
    if not form.is_valid():
        # the re-shown form still carries the version it was opened with: a later change is still noticed
        return _editor(request, club, role, key, form, house, problem, status=INVALID, version=submitted)
    checked = rules_version(house.overrides if house else None)  # what the form was checked against
    seen = (checked,) if submitted is None else (checked, submitted)
    try:
        saved, house = club_services.save_house_rules(club, key, form.cleaned_overrides, request.user, seen=seen)
    except club_services.RulesChanged as changed:
        form.add_error(None, changed.message)
        house, _rules, problem = _current(club, key)  # as the other change left them
        return _editor(request, club, role, key, form, house, problem, status=CONFLICT)
    _say_saved(request, saved, house)
    target = reverse("club_rules_edit", args=[club.slug, key])
    opened = request.POST.get("_open", "")
    if opened and opened in getattr(form.current, "contracts", {}):
        target += f"?open={opened}#c-{opened}"
    return redirect(target)


def _say_saved(request: HttpRequest, saved: club_services.RulesSaved, house: HouseRules | None) -> None:
    if saved is club_services.RulesSaved.PRESET:
        messages.success(request, _("Saved: these are the preset's figures."))
    elif saved is club_services.RulesSaved.UNCHANGED or house is None:
        messages.info(request, _("Nothing changed."))
    else:
        count = house.changed_figures()
        messages.success(
            request,
            ngettext(
                "Saved: %(count)s figure differs from the preset. The next evening uses it; "
                "evenings already started keep their rules.",
                "Saved: %(count)s figures differ from the preset. The next evening uses them; "
                "evenings already started keep their rules.",
                count,
            )
            % {"count": count},
        )


def _schedule_preview(request: HttpRequest, club: Club, role: Role, key: str, contract: str) -> HttpResponse:
    """Fill a contract's grid (or its family's) from one value and a step per trick, and show the
    result: nothing is saved until the admin saves the page. Not zero-sum where the preset is, or
    any other problem, is shown next to the figures at once."""
    house, current, problem = _current(club, key)
    if not isinstance(current, ContractRules) or contract not in current.contracts:
        raise Http404("No such contract")
    probe = ContractRulesForm(key, current, request.POST)
    data, targets = probe.with_schedule(contract)
    form = house_rules_form(key, current, data, open_contract=contract)
    valid = form.is_valid()
    names = [current.contracts[k].names.get(_lang()) for k in targets]
    preview = ngettext(
        "Preview: the grid of %(names)s is filled in below. Nothing is saved yet: check it, then save.",
        "Preview: the grids of %(names)s are filled in below. Nothing is saved yet: check them, then save.",
        len(names),
    ) % {"names": ", ".join(names)}
    return _editor(
        request,
        club,
        role,
        key,
        form,
        house,
        problem,
        status=200 if valid else INVALID,
        version=request.POST.get("_version"),
        preview=preview,
    )


def _editor(
    request: HttpRequest,
    club: Club,
    role: Role,
    key: str,
    form: HouseRulesForm,
    house: HouseRules | None,
    problem: str,
    status: int = 200,
    version: str | None = None,
    preview: str = "",
) -> HttpResponse:
    preset = registry.get(key)
    context = {
        "club": club,
        "role": role,
        "is_admin": role == Role.ADMIN,
        "key": key,
        "name": preset.names.get(_lang()),
        "form": form,
        "house": house,
        "problem": problem,
        "changed": house.changed_figures() if house is not None and not problem else 0,
        "version": version or rules_version(house.overrides if house else None),
        "classic": preset.family is Family.CLASSIC,
        "preview": preview,
    }
    return render(request, "clubs/rules/edit.html", context, status=status)
