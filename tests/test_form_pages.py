"""Every form page of the site, read as a screen reader would: each page as it opens (GET) and as it
comes back refused (an invalid POST, answered 422 with the errors next to the fields).

On each page:
- every id that an ``aria-describedby`` or ``aria-labelledby`` names exists, and no id is written twice;
- every input, select and textarea has a label (``<label for>``, a label around it, or an aria label);
- every field's help text (``ID_helptext``) and errors (``ID_error``) are named by the field's
  ``aria-describedby`` (its fieldset's, for a list of choices), next to it in the page;
- every input marked ``aria-invalid`` is described by an error list next to it;
- every error list is announced (``role="alert"``, itself or a region around it).

A template with a form field that no page here renders fails ``test_it_reads_every_template_with_a_form_field``.
"""

from __future__ import annotations

import copy
import re
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

import night_builders
from builders import club_evening
from conftest import world_of_the_module
from night_builders import EIGHT
from pages import Element, Page
from scorebook.accounts import password_links
from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club, Membership, Player, Role, Season
from scorebook.ledger import services as ledger
from scorebook.nights import services as nights

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
CONTROLS = ("input", "select", "textarea")
NOT_FIELDS = {"hidden", "submit", "button", "reset", "image"}
# a field of a form in a template: Django's field group, or an input written by hand
FORM_FIELD = re.compile(r"as_field_group|<select\b|<textarea\b|<input\b(?![^>]*type=\"(?:hidden|submit)\")")
FOUR = ["Anne", "Bert", "Carl", "Dina"]
PAIR = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}


def _build(make_user):
    """Adèle runs De Klaverboer (admin), Marie keeps its score (scorer): an evening of each family,
    a season, a club night with its first session closed, a roster and an invitation."""
    admin, scorer = make_user("adele", first_name="Adèle"), make_user("marie", first_name="Marie")
    admin.email = "adele@example.org"
    admin.save()
    club = Club.objects.create(name="De Klaverboer", slug="klaverboer")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    membership = Membership.objects.create(club=club, user=scorer, role=Role.SCORER)

    def evening(ruleset, deals):
        return club_evening(club, scorer, date(2026, 11, 20), deals, FOUR, ruleset)

    night = night_builders.night(club, scorer, EIGHT, day=date(2026, 11, 21), seed=0, ranking_link=False)
    nights.close_session(night, 1, scorer)
    _invitation, join = clubs.create_invitation(club, admin, role=Role.MEMBER, days=7, uses=1)
    # a member restored from a backup, with no password yet: his link to choose one
    restored = make_user("restored")
    restored.set_unusable_password()
    restored.save()
    return {
        "join": join,  # its token: the link's page makes an account and joins
        "admin": admin,
        "scorer": scorer,
        "club": club,
        "membership": membership,
        "kw": evening("kleurenwiezen", [PAIR, {"contract": "pass"}]),
        "classic": evening("classique", [{"tricks": [7, 6]}]),
        "season": Season.objects.create(
            club=club, name="2026", start=date(2026, 1, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
        ),
        "night": night,
        "anne": Player.objects.get(club=club, name="Anne"),
        "bert": Player.objects.get(club=club, name="Bert"),
        "carl": Player.objects.get(club=club, name="Carl"),
        "zoe": Player.objects.create(club=club, name="Zoé"),  # a second record of Anne, never at a table
        "expense": ledger.record_expense(club, Decimal("12.00"), "EUR", date(2026, 11, 20), "cards", admin)[0],
        "payment": ledger.record_on_account(
            club,
            Player.objects.get(club=club, name="Anne"),
            Player.objects.get(club=club, name="Bert"),
            Decimal("1.00"),
            "EUR",
            admin,
        )[0],
        "choose": password_links.make(restored),
    }


built_world = world_of_the_module(_build)  # built once: each case reads it, its invalid posts undone


@pytest.fixture
def world(built_world, db):
    return copy.deepcopy(built_world)


# what each case posts instead of data: the editor's own figures, one made impossible; a write answered
# with a page (a link shown once); no POST at all
RULES, PAGE = "rules", "page"
# a write only (POST): no page of its own to open
POST_ONLY = {"club_invitation_new", "club_member_role", "deal_record", "adjustment", "evening_share_reset"}
POST_ONLY |= {"night_substitute", "night_late", "club_player_rename", "club_player_link", "club_players_paste"}
POST_ONLY |= {"payment_add", "club_ledger_pay", "club_kitty_fees", "club_kitty_expense", "club_kitty_payment"}


def _cases(w) -> dict:
    """case -> (who, url name, args, GET query or None, invalid POST data or None): every page with a form field."""
    slug, kw, classic, night = w["club"].slug, w["kw"].pk, w["classic"].pk, w["night"].pk
    anne, zoe, carl = w["anne"].pk, w["zoe"].pk, w["carl"].pk
    season = w["season"].pk
    user = w["admin"]
    reset = [urlsafe_base64_encode(force_bytes(user.pk)), default_token_generator.make_token(user)]
    choose = [w["choose"]]
    return {
        # accounts
        "login": (None, "login", [], None, {"username": "adele", "password": "wrong"}),
        "signup": (None, "signup", [], None, {"username": "a@b", "password1": "x", "password2": "y"}),
        "password_reset": (None, "password_reset", [], None, {"email": "not an address"}),
        "password_reset_confirm": (None, "password_reset_confirm", reset, None, {"new_password1": "a"}),
        "password_link": (None, "password_link", choose, None, {"new_password1": "a", "new_password2": "b"}),
        "club_join_signup": (None, "club_join_signup", [w["join"]], None, {"username": "a@b", "password1": "x"}),
        "password_change": (
            "adele",
            "password_change",
            [],
            None,
            {"old_password": "wrong", "new_password1": "a", "new_password2": "b"},
        ),
        "profile": ("adele", "profile", [], None, {"display_name": "", "email": "not an address"}),
        # clubs
        "club_list": ("adele", "club_list", [], None, None),
        "club_new": ("adele", "club_new", [], None, {"name": "", "slug": "Not a slug!"}),
        "club_settings": ("adele", "club_settings", [slug], None, {"name": "", "slug": "Not a slug!"}),
        "club_members": ("adele", "club_members", [slug], None, None),
        "club_invitation_new": ("adele", "club_invitation_new", [slug], None, {"role": "member", "uses": "0"}),
        "club_member_role": ("adele", "club_member_role", [slug, w["membership"].pk], None, {"role": "king"}),
        "house_rules_contracts": ("adele", "club_rules_edit", [slug, "kleurenwiezen"], {"open": "samen-9"}, RULES),
        "house_rules_classic": ("adele", "club_rules_edit", [slug, "classique"], None, RULES),
        "house_rules_bete": ("adele", "club_rules_edit", [slug, "encheres"], None, RULES),
        # evenings
        "evening_new": ("marie", "evening_new", [], None, {"ruleset": "kleurenwiezen", "player_0": "A", "stake": "-1"}),
        "evening_import": ("marie", "evening_import", [], None, {"text": "{"}),
        "evening_share": ("marie", "evening_share", [kw], None, PAGE),
        "scoring_contracts": ("marie", "deal_record", [kw], None, {"contract": "samen-9", "tricks": "99"}),
        "scoring_classic": ("marie", "deal_record", [classic], None, {"tricks": "99"}),
        "adjustment": ("marie", "adjustment", [kw], None, {"adj-points_0": "x"}),
        "deal_edit_contracts": ("marie", "deal_edit", [kw, 1], None, {"contract": "samen-9", "tricks": "99"}),
        "deal_edit_classic": ("marie", "deal_edit", [classic, 1], None, {"tricks": "99"}),
        # a payment typed on the settlement page: the same person twice, no amount
        "payment_add": ("marie", "payment_add", [kw], None, {"payer": "Anne", "payee": "Anne", "amount": "x"}),
        # club nights
        "night_new": ("marie", "night_new", [slug], None, {"name": "", "deals_per_session": "0", "guests": "x"}),
        "night": ("marie", "night", [night], None, None),
        "night_substitute": ("marie", "night_substitute", [night], None, {"leaving": "99", "name": ""}),
        "night_late": ("marie", "night_late", [night], None, {"name": ""}),
        "night_session_reopen": ("marie", "night_session_reopen", [night, 1], None, {"reason": ""}),
        "night_edit": ("marie", "night_edit", [night], None, {"name": "", "date": "no", "deals_per_session": "0"}),
        # the league's pages of the club
        "club_evenings": ("adele", "club_evenings", [slug], {"date_from": "2026-13-45", "date_to": "no"}, None),
        "club_players": ("adele", "club_players", [slug], None, {"name": ""}),
        # the pasted list checked, then sent on with no name ticked: the check page again, saying so
        "club_players_paste": ("adele", "club_players_paste", [slug], None, {"step": "add", "names": "Anne V.\nZoé"}),
        "club_player_rename": ("adele", "club_player_rename", [slug, anne], None, {"name": ""}),
        "club_player_link": ("adele", "club_player_link", [slug, anne], None, {"user": "99999"}),
        "club_player_merge": ("adele", "club_player_merge", [slug, anne], {"with": zoe}, {"other": zoe, "keep": carl}),
        "club_player": ("adele", "club_player", [slug, anne], None, None),
        "season_new": ("adele", "season_new", [slug], None, {"name": "", "league_points": "x"}),
        "season_edit": ("adele", "season_edit", [slug, season], None, {"name": "", "end": "2025-01-01"}),
        "club_ledger_pay": ("adele", "club_ledger_pay", [slug], None, {"payer": anne, "payee": anne, "amount": "x"}),
        "club_settle_up": ("adele", "club_settle_up", [slug], None, None),
        # the kitty: its page, its fees, an expense, money into it, withdrawing an expense; cancelling a payment
        "club_kitty": ("adele", "club_kitty", [slug], None, None),
        "club_kitty_fees": ("adele", "club_kitty_fees", [slug], None, {"evening_fee": "x", "night_fee": "-1"}),
        "club_kitty_expense": (
            "adele",
            "club_kitty_expense",
            [slug],
            None,
            {"expense-amount": "0", "expense-day": "no", "expense-note": ""},
        ),
        "club_kitty_payment": (
            "adele",
            "club_kitty_payment",
            [slug],
            None,
            {"pay-direction": "in", "pay-player": anne, "pay-amount": "999999"},
        ),
        "club_kitty_withdraw": (
            "adele",
            "club_kitty_withdraw",
            [slug, "expense", w["expense"].pk],
            None,
            {"reason": ""},
        ),
        "payment_cancel": ("adele", "payment_cancel", [w["payment"].pk], None, {"reason": " "}),
    }


CASES = [
    "login",
    "signup",
    "password_reset",
    "password_reset_confirm",
    "password_link",
    "club_join_signup",
    "password_change",
    "profile",
    "club_list",
    "club_new",
    "club_settings",
    "club_members",
    "club_invitation_new",
    "club_member_role",
    "house_rules_contracts",
    "house_rules_classic",
    "house_rules_bete",
    "evening_new",
    "evening_import",
    "evening_share",
    "scoring_contracts",
    "scoring_classic",
    "adjustment",
    "deal_edit_contracts",
    "deal_edit_classic",
    "payment_add",
    "night_new",
    "night",
    "night_substitute",
    "night_late",
    "night_session_reopen",
    "night_edit",
    "club_evenings",
    "club_players",
    "club_players_paste",
    "club_player_rename",
    "club_player_link",
    "club_player_merge",
    "club_player",
    "season_new",
    "season_edit",
    "club_ledger_pay",
    "club_settle_up",
    "club_kitty",
    "club_kitty_fees",
    "club_kitty_expense",
    "club_kitty_payment",
    "club_kitty_withdraw",
    "payment_cancel",
]


def _client(client, w, who):
    client.logout()
    if who:
        client.force_login(w["admin"] if who == "adele" else w["scorer"])
    return client


def _form_values(page: Page) -> dict:
    """What the page's big form would send as it stands (its inputs, selects and textareas)."""
    form = max(page.all("form"), key=lambda f: len(f.all("input")))
    data: dict[str, list[str]] = {}
    for e in form.elements():
        name = e.get("name")
        if not name or e.has("disabled"):
            continue
        if e.tag == "input" and e.get("type") in ("checkbox", "radio"):
            if e.has("checked"):
                data.setdefault(name, []).append(e.get("value") or "on")
        elif e.tag == "input" and e.get("type") not in ("submit", "button"):
            data.setdefault(name, []).append(e.get("value") or "")
        elif e.tag == "select":
            chosen = [o for o in e.all("option") if o.has("selected")] or e.all("option")[:1]
            data.setdefault(name, []).extend(o.get("value", o.text) for o in chosen)
        elif e.tag == "textarea":
            data.setdefault(name, []).append(e.raw_text.removeprefix("\n"))
    return data


def _pages(client, w, case):
    """(what, response) for the page of a case: opened, then refused."""
    who, name, args, query, invalid = _cases(w)[case]
    url = reverse(name, args=args)
    c = _client(client, w, who)
    if name not in POST_ONLY:
        response = c.get(url, query or {}, follow=True)  # a reset link goes on to its form
        url = response.redirect_chain[-1][0] if response.redirect_chain else url
        # invalid filters (GET) come back 422 with their errors
        assert response.status_code in ((200, 422) if query else (200,)), f"GET {url}: {response.status_code}"
        yield f"GET {url}", response
    if invalid is None:
        return
    if invalid == PAGE:  # a write that answers with a page
        response = c.post(reverse("evening_share_reset", args=args), {})
        assert response.status_code == 200, f"POST {url}: {response.status_code}"
        yield f"POST {url}", response
        return
    if invalid == RULES:
        data = _form_values(Page(c.get(url).content.decode()))
        figure = next(k for k, v in data.items() if not k.startswith(("_", "csrf", "schedule")) and v[0].isdigit())
        invalid = data | {figure: ["not a figure"]}
    response = c.post(url, invalid)
    assert response.status_code == 422, f"POST {url}: {response.status_code}"
    page = Page(response.content.decode())
    assert page.all(".field-errors") + page.all(".errors") + page.all("[role=alert]"), f"POST {url}: no error"
    yield f"POST {url}", response


def _described_by(control: Element) -> set[str]:
    """The ids describing a control: its own aria-describedby, or its fieldset's (a list of choices)."""
    ids = set(control.get("aria-describedby", "").split())
    fieldset = next((a for a in control.ancestors() if a.tag == "fieldset" and a.get("aria-describedby")), None)
    return ids | (set(fieldset.get("aria-describedby").split()) if fieldset is not None else set())


def _near(a: Element, b: Element, levels: int = 3) -> bool:
    """``b`` is inside one of ``a``'s ancestors up to ``levels`` above it."""
    return any(b is ancestor or b in ancestor.elements() for ancestor in list(a.ancestors())[:levels])


def _labelled(control: Element, page: Page, labels_for: set[str]) -> bool:
    if control.get("aria-label", "").strip():
        return True
    if control.get("aria-labelledby") and all(page.by_id(i) for i in control.get("aria-labelledby").split()):
        return True
    if control.id and control.id in labels_for:
        return True
    return any(a.tag == "label" for a in control.ancestors())


def problems(page: Page) -> list[str]:
    found = []
    elements = list(page.elements())
    ids: dict[str, Element] = {}
    for e in elements:
        if e.id:
            if e.id in ids:
                found.append(f"the id {e.id!r} is written twice")
            ids[e.id] = e
    for e in elements:
        for attr in ("aria-describedby", "aria-labelledby"):
            for ident in e.get(attr, "").split():
                if ident not in ids:
                    found.append(f"{e!r}: {attr} names {ident!r}, which is not on the page")
    labels_for = {label.get("for") for label in page.all("label") if label.get("for")}
    controls = [
        e
        for e in elements
        if e.tag in CONTROLS and e.get("type", "text") not in NOT_FIELDS and not e.has("hidden")  # not shown
    ]
    for control in controls:
        if not _labelled(control, page, labels_for):
            found.append(f"{control!r} has no label")
        described = _described_by(control)
        for suffix in ("_helptext", "_error") if control.id else ():
            base = control.id.rsplit("_", 1)[0] if control.get("type") in ("radio", "checkbox") else control.id
            related = ids.get(f"{control.id}{suffix}") or (ids.get(f"{base}{suffix}") if base else None)
            if related is not None and related.id not in described:
                found.append(f"{control!r}: {related.id!r} is not in its aria-describedby")
            if related is not None and not _near(related, control):
                found.append(f"{control!r}: {related.id!r} is not next to it")
        if control.get("aria-invalid") == "true":
            errors = [ids[i] for i in described if i in ids and "field-errors" in ids[i].classes]
            if not errors:
                found.append(f"{control!r} is marked invalid without an error list describing it")
            elif not any(_near(error, control) for error in errors):
                found.append(f"{control!r}: its errors are not next to it")
    for error in page.all(".field-errors") + page.all(".errors"):
        if not any(e.get("role") == "alert" or e.get("aria-live") for e in (error, *error.ancestors())):
            found.append(f"{error!r} ({error.text[:40]}) is not announced")
    return found


# the cases whose invalid post is refused inside the site's write (under its lock): both databases
WRITES = {"evening_share", "scoring_contracts", "scoring_classic", "adjustment"}
WRITES |= {"house_rules_contracts", "house_rules_classic", "house_rules_bete"}


@pytest.mark.parametrize(
    "case",
    [pytest.param(case, marks=pytest.mark.both_databases) if case in WRITES else case for case in CASES],
)
def test_every_form_page_ties_its_labels_help_and_errors_to_the_fields(client, world, case):
    seen = set()
    for what, response in _pages(client, world, case):
        seen |= _templates(response)
        found = problems(Page(response.content.decode()))
        assert not found, "\n".join([what, *found])
    RENDERED[case] = seen


# the templates each case's pages rendered, kept by the case's test above: the test below reads them
# rather than render every page again (it renders the cases whose test did not run in this process)
RENDERED: dict[str, set[str]] = {}


def _templates(response) -> set[str]:
    return {t.name for t in response.templates if t.name}


@pytest.mark.slow  # every page of the cases again, but those the cases' test rendered in this process
def test_it_reads_every_template_with_a_form_field(client, world):
    """A new form (or a template given a field) joins the cases above."""
    assert list(_cases(world)) == CASES
    rendered = set()
    for case in CASES:
        if case not in RENDERED:
            RENDERED[case] = {name for _what, response in _pages(client, world, case) for name in _templates(response)}
        rendered |= RENDERED[case]
    with_fields = {
        path.relative_to(TEMPLATES).as_posix()
        for path in TEMPLATES.rglob("*.html")
        if FORM_FIELD.search(path.read_text())
    }
    assert with_fields - rendered == set()


def test_it_notices_each_kind_of_problem():
    """The checker itself, on a page written to break each rule."""
    page = Page(
        """<form>
        <label for="id_a">A</label><input id="id_a" aria-describedby="id_a_helptext">
        <input id="id_b" aria-invalid="true">
        <div><label for="id_c">C</label><input id="id_c" aria-describedby="id_c_error"></div>
        <p><ul class="field-errors" id="id_c_error"><li>wrong</li></ul></p>
        <div><div><div><div><ul class="field-errors" id="id_d_error" role="alert"><li>far</li></ul>
        </div></div></div></div>
        <label for="id_d">D</label><input id="id_d" aria-invalid="true" aria-describedby="id_d_error">
        <span id="id_a"></span>
        </form>"""
    )
    found = "\n".join(problems(page))
    assert "the id 'id_a' is written twice" in found
    assert "names 'id_a_helptext', which is not on the page" in found
    assert "<input {'id': 'id_b', 'aria-invalid': 'true'}> has no label" in found
    assert "id_b" in found and "marked invalid without an error list" in found
    assert "(wrong) is not announced" in found
    assert "'id_d_error' is not next to it" in found
