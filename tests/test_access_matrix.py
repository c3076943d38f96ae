"""Every URL of the site, requested as each kind of visitor, answers as it should.

Roles: anonymous, an outsider (an account with no link to the club), a member, a
scorer and an admin of the club, and an admin of another club. Another club's
objects answer 404 (nothing leaks); a member without the role gets 403. A new URL
without a line here fails ``test_it_has_a_line_for_every_url_of_the_site``.
"""

import copy
import re
import uuid
from datetime import date
from decimal import Decimal
from http.cookies import SimpleCookie

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

import night_builders
from builders import club_evening
from conftest import world_of_the_module
from night_builders import EIGHT
from pages import Element, Page
from scorebook.accounts.models import Session
from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club, HouseRules, Membership, Player, PlayerClaim, Role, Season
from scorebook.evenings import payments, services
from scorebook.ledger import services as ledger
from scorebook.nights import services as nights

ROLES = ("anonymous", "outsider", "other_admin", "member", "scorer", "admin")
LOGIN = "login"  # a redirect to the login page
OK = {200}
WRITE_OK = {200, 302, 422}  # done, or refused with a message on the page
# expected answers per role, for the usual kinds of page
PUBLIC = dict.fromkeys(ROLES, OK)
SIGNED_IN = {"anonymous": LOGIN} | dict.fromkeys(ROLES[1:], OK)
CLUB_READ = {"anonymous": LOGIN, "outsider": {404}, "other_admin": {404}, "member": OK, "scorer": OK, "admin": OK}
CLUB_SCORE = CLUB_READ | {"member": {403}}
CLUB_ADMIN = CLUB_SCORE | {"scorer": {403}}
PRIVATE = {"anonymous": LOGIN, "outsider": {404}, "other_admin": {404}, "member": {404}, "scorer": OK, "admin": {404}}


def _writes(expected):
    """The same access for a write: allowed roles get a result page or a redirect, never 403/404."""
    return {role: (WRITE_OK if answer == OK else answer) for role, answer in expected.items()}


def _build(make_user):
    users = {role: make_user(role) for role in ROLES[1:]}
    club = Club.objects.create(name="De Klaverboer", slug="klaverboer")
    other = Club.objects.create(name="Elders", slug="elders")
    for role in ("member", "scorer", "admin"):
        Membership.objects.create(club=club, user=users[role], role=Role(role))
    Membership.objects.create(club=other, user=users["other_admin"], role=Role.ADMIN)
    # a member restored from the club's backup, no password yet: the members page offers his link to choose one
    restored = make_user("restored")
    restored.set_unusable_password()
    restored.save()
    Membership.objects.create(club=club, user=restored, role=Role.MEMBER)
    # a house rule: the pages that name the evening's rules list it
    HouseRules.objects.create(club=club, ruleset="kleurenwiezen", overrides={"all_pass_multiplier": 1})

    def evening(ruleset, players, deals, club=club, owner=users["scorer"]):
        # its read-only link made: only its digest is stored, its token is kept for the lines
        return club_evening(club, owner, date(2026, 11, 20), deals, players, ruleset, share=True)

    four = ["Anne", "Bert", "Carl", "Dina"]
    pair = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}
    kw = evening("kleurenwiezen", four, [pair, {"contract": "pass"}, pair])
    services.delete_deal(kw, 2, users["scorer"])
    services.record_deal(kw, {"contract": "pass"}, users["scorer"])
    classic = evening("classique", four, [{"tricks": [7, 6]}])
    private = evening("kleurenwiezen", four, [pair], club=None)
    # closed by the secretary (only an admin reopens it); a long name, which the totals shorten
    closed = evening("kleurenwiezen", ["Anne", "Bert", "Carl", "Godelieve Vandenbroucke-Verhaeghe"], [pair])
    services.set_status(closed, "closed", users["admin"], admin=True)
    season = Season.objects.create(
        club=club, name="2026", start=date(2026, 1, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    night = night_builders.night(club, users["scorer"], EIGHT, day=date(2026, 11, 21), seed=0)
    return {
        "users": users,
        "club": club,
        "night": night,
        "ranking_token": night.ranking_token,
        "kw": kw,
        "classic": classic,
        "private": private,
        "closed": closed,
        "season": season,
        "player": Player.objects.get(club=club, name="Anne"),
        "other_player": Player.objects.get(club=club, name="Bert"),
        "membership": Membership.objects.get(club=club, user=users["member"]),
        "invitation": clubs.create_invitation(club, users["admin"], role=Role.MEMBER, days=7, uses=1)[0],
        "join": clubs.create_invitation(club, users["admin"], role=Role.MEMBER, days=7, uses=50)[1],
        "revision": kw.revisions.get(),
        # a payment the club's admin recorded: a scorer may not cancel it, the admin may
        "payment": payments.record_payment(
            kw,
            kw.summary["transfers"][0]["from"],
            kw.summary["transfers"][0]["to"],
            Decimal("0.01"),
            users["admin"],
            free=True,
        )[0],
        "claim": PlayerClaim.objects.create(player=Player.objects.get(club=club, name="Bert"), user=users["member"]),
        # a payment on account and an expense of the kitty the admin recorded
        "on_account": ledger.record_on_account(
            club,
            Player.objects.get(club=club, name="Anne"),
            Player.objects.get(club=club, name="Bert"),
            Decimal("1.00"),
            "EUR",
            users["admin"],
        )[0],
        "expense": ledger.record_expense(club, Decimal("12.00"), "EUR", date(2026, 11, 20), "cards", users["admin"])[0],
        "built": uuid.uuid4().hex,  # which build (the pages read in it are kept: _read)
    }


# the club the lines read, built once for the module: every test reads it and undoes its own writes
built_world = world_of_the_module(_build)


@pytest.fixture
def world(built_world, db):
    return copy.deepcopy(built_world)


def _lines(w):
    """(url name, args, method, data, expected answers per role)."""
    slug, kw = w["club"].slug, w["kw"]
    transfer = kw.summary["transfers"][0]
    paid = {"payer": transfer["from"], "payee": transfer["to"], "amount": transfer["amount"]}
    return [
        ("home", [], "get", None, PUBLIC),
        ("manifest", [], "get", None, PUBLIC),
        ("service_worker", [], "get", None, PUBLIC),
        ("offline", [], "get", None, PUBLIC),
        ("help", [], "get", None, PUBLIC),
        ("help_page", ["guides", "treasurer"], "get", None, PUBLIC),
        ("login", [], "get", None, PUBLIC),
        ("signup", [], "get", None, {"anonymous": OK} | {key: {302} for key in ROLES[1:]}),
        ("password_reset", [], "get", None, PUBLIC),
        ("password_reset_done", [], "get", None, PUBLIC),
        ("password_reset_complete", [], "get", None, PUBLIC),
        ("password_reset_confirm", ["MQ", "set-password"], "get", None, PUBLIC),
        ("password_link", ["an-unknown-password-link-000"], "get", None, {key: {410} for key in ROLES}),
        ("password_change", [], "get", None, SIGNED_IN),
        ("password_change_done", [], "get", None, SIGNED_IN),
        ("profile", [], "get", None, SIGNED_IN),
        ("logout", [], "post", {}, {key: {302, 200} for key in ROLES}),
        ("set_language", [], "post", {"language": "nl", "next": "/"}, {key: {302} for key in ROLES}),
        ("evening_list", [], "get", None, SIGNED_IN),
        ("evening_new", [], "get", None, SIGNED_IN),
        ("evening_import", [], "get", None, SIGNED_IN),
        ("club_list", [], "get", None, SIGNED_IN),
        ("club_new", [], "get", None, SIGNED_IN),
        # an invitation's page shows a visitor not logged in his ways in: log in, or make an account
        ("club_join", [w["join"]], "get", None, PUBLIC),
        ("club_join", [w["join"]], "post", {}, _writes(SIGNED_IN)),
        ("club_join_signup", [w["join"]], "get", None, {"anonymous": OK} | {key: {302} for key in ROLES[1:]}),
        ("club_join_signup", [w["join"]], "post", {}, {"anonymous": {422}} | {key: {302} for key in ROLES[1:]}),
        # the club
        ("club", [slug], "get", None, CLUB_READ),
        ("club_evenings", [slug], "get", None, CLUB_READ),
        ("club_players", [slug], "get", None, CLUB_READ),
        ("club_player", [slug, w["player"].pk], "get", None, CLUB_READ),
        # a member links himself ("this is me"); the data depends on who posts
        (
            "club_player_link",
            [slug, w["player"].pk],
            "post",
            lambda user: {"user": user.pk if user else ""},
            _writes(CLUB_READ),
        ),
        ("club_player_merge", [slug, w["player"].pk], "get", None, CLUB_ADMIN),
        ("club_player_merge", [slug, w["player"].pk], "post", {"other": w["other_player"].pk}, _writes(CLUB_ADMIN)),
        ("club_player_rename", [slug, w["player"].pk], "post", {"name": "Anne"}, _writes(CLUB_SCORE)),
        ("club_players_paste", [slug], "post", {"names": "Ivo\nJan"}, _writes(CLUB_SCORE)),
        ("club_player_unclaim", [slug, w["player"].pk], "post", {}, _writes(CLUB_READ)),
        ("club_claim_answer", [slug, w["claim"].pk], "post", {"answer": "refuse"}, _writes(CLUB_ADMIN)),
        ("club_settings", [slug], "get", None, CLUB_ADMIN),
        ("club_settings", [slug], "post", {"name": "De Klaverboer", "slug": slug}, _writes(CLUB_ADMIN)),
        ("club_members", [slug], "get", None, CLUB_ADMIN),
        ("club_member_remove", [slug, w["membership"].pk], "get", None, CLUB_ADMIN),
        ("club_member_role", [slug, w["membership"].pk], "post", {"role": "member"}, _writes(CLUB_ADMIN)),
        ("club_member_remove", [slug, w["membership"].pk], "post", {}, _writes(CLUB_ADMIN)),
        # a member restored without a password: his link to choose one, made by an admin (refused with a
        # sentence, 409, for an account that has a password: the member's here)
        (
            "club_member_password_link",
            [slug, w["membership"].pk],
            "post",
            {},
            CLUB_ADMIN | {"admin": {409}, "anonymous": LOGIN},
        ),
        ("club_invitation_new", [slug], "post", {"role": "member", "days": "7", "uses": "1"}, _writes(CLUB_ADMIN)),
        ("club_invitation_revoke", [slug, w["invitation"].pk], "post", {}, _writes(CLUB_ADMIN)),
        ("club_rules", [slug], "get", None, CLUB_READ),
        ("club_rules_edit", [slug, "kleurenwiezen"], "get", None, CLUB_READ),
        ("club_rules_edit", [slug, "kleurenwiezen"], "post", {}, _writes(CLUB_ADMIN)),
        ("season_new", [slug], "get", None, CLUB_ADMIN),
        ("season_new", [slug], "post", {}, _writes(CLUB_ADMIN)),
        ("season", [slug, w["season"].pk], "get", None, CLUB_READ),
        ("season_edit", [slug, w["season"].pk], "get", None, CLUB_ADMIN),
        ("season_edit", [slug, w["season"].pk], "post", {}, _writes(CLUB_ADMIN)),
        ("season_csv", [slug, w["season"].pk], "get", None, CLUB_READ),
        ("season_archive", [slug, w["season"].pk], "post", {"archived": "0"}, _writes(CLUB_ADMIN)),
        ("season_delete", [slug, w["season"].pk], "get", None, CLUB_ADMIN),
        ("season_delete", [slug, w["season"].pk], "post", {}, _writes(CLUB_ADMIN)),
        ("club_ledger", [slug], "get", None, CLUB_READ),
        ("club_ledger_paid", [slug], "post", paid | {"evening": kw.pk}, _writes(CLUB_SCORE)),
        ("club_ledger_pay", [slug], "post", {}, _writes(CLUB_SCORE)),
        ("club_settle_up", [slug], "get", None, CLUB_READ),
        (
            "club_ledger_night_paid",
            [slug],
            "post",
            {"night": w["night"].pk, "payer": w["player"].pk, "payee": w["other_player"].pk, "amount": "0.10"},
            _writes(CLUB_SCORE),
        ),
        ("payment_cancel", [w["on_account"].pk], "get", None, CLUB_ADMIN),
        ("payment_cancel", [w["on_account"].pk], "post", {"reason": "x"}, _writes(CLUB_ADMIN)),
        ("club_ledger_history", [slug], "get", None, CLUB_READ),
        ("club_settle_up_paid", [slug], "post", {}, _writes(CLUB_SCORE)),
        ("club_kitty", [slug], "get", None, CLUB_READ),
        ("club_kitty_fees", [slug], "post", {"evening_fee": "1", "night_fee": ""}, _writes(CLUB_ADMIN)),
        ("club_kitty_expense", [slug], "post", {}, _writes(CLUB_ADMIN)),
        ("club_kitty_payment", [slug], "post", {}, _writes(CLUB_SCORE)),
        ("club_kitty_withdraw", [slug, "expense", w["expense"].pk], "get", None, CLUB_ADMIN),
        ("club_kitty_withdraw", [slug, "expense", w["expense"].pk], "post", {"reason": "x"}, _writes(CLUB_ADMIN)),
        ("season_prizes", [slug, w["season"].pk], "post", {}, _writes(CLUB_ADMIN)),
        ("club_ledger_csv", [slug], "get", None, CLUB_READ),
        ("club_players_csv", [slug], "get", None, CLUB_READ),
        ("club_backup", [slug], "get", None, CLUB_ADMIN),
        ("season_print", [slug, w["season"].pk], "get", None, CLUB_READ),
        # an evening of the club
        ("evening", [kw.pk], "get", None, CLUB_READ),
        ("evening_chart", [kw.pk], "get", None, CLUB_READ),
        ("settlement", [kw.pk], "get", None, CLUB_READ),
        ("evening_print", [kw.pk], "get", None, CLUB_READ),
        ("evening_rules", [kw.pk], "get", None, CLUB_READ),
        ("evening_export", [kw.pk], "get", None, CLUB_READ),
        ("evening_share", [kw.pk], "get", None, CLUB_READ),
        ("evening_share_reset", [kw.pk], "post", {}, _writes(CLUB_SCORE)),
        ("deal_record", [kw.pk], "post", {"contract": "pass"}, _writes(CLUB_SCORE)),
        ("adjustment", [kw.pk], "post", {"adj-points_0": "1"}, _writes(CLUB_SCORE)),
        ("robre_start", [w["classic"].pk], "post", {}, _writes(CLUB_SCORE)),
        ("deal_edit", [kw.pk, 1], "get", None, CLUB_SCORE),
        ("deal_edit", [kw.pk, 1], "post", {"contract": "pass"}, _writes(CLUB_SCORE)),
        ("deal_delete", [kw.pk, 3], "post", {}, _writes(CLUB_SCORE)),
        ("deal_restore", [kw.pk, w["revision"].pk], "post", {}, _writes(CLUB_SCORE)),
        ("payment_toggle", [kw.pk], "post", paid | {"paid": "1"}, _writes(CLUB_SCORE)),
        ("payment_add", [kw.pk], "post", {}, _writes(CLUB_SCORE)),
        ("payment_cancel", [w["payment"].pk], "get", None, CLUB_ADMIN),
        ("payment_cancel", [w["payment"].pk], "post", {"reason": "x"}, _writes(CLUB_ADMIN)),
        ("evening_close", [kw.pk], "post", {}, _writes(CLUB_SCORE)),
        ("evening_reopen", [kw.pk], "post", {}, _writes(CLUB_SCORE)),
        ("evening_archive", [kw.pk], "get", None, CLUB_SCORE),
        ("evening_archive", [kw.pk], "post", {"archived": "0"}, _writes(CLUB_SCORE)),
        ("evening_delete", [kw.pk], "get", None, CLUB_SCORE),
        ("evening_delete", [kw.pk], "post", {}, _writes(CLUB_SCORE)),  # it has deals: refused on the page
        # an evening an admin closed: read by all, reopened by an admin only
        ("evening", [w["closed"].pk], "get", None, CLUB_READ),
        ("settlement", [w["closed"].pk], "get", None, CLUB_READ),
        ("deal_edit", [w["closed"].pk, 1], "get", None, CLUB_SCORE),
        ("evening_reopen", [w["closed"].pk], "post", {}, _writes(CLUB_ADMIN)),
        ("evening_public", [kw.share_token], "get", None, PUBLIC),
        ("evening_public_live", [kw.share_token], "get", None, PUBLIC),
        ("evening_public_rules", [kw.share_token], "get", None, PUBLIC),
        # club nights: the director's pages (admins and scorers), the table links, the public ranking
        ("night_list", [slug], "get", None, CLUB_READ),
        ("night_new", [slug], "get", None, CLUB_SCORE),
        ("night_new", [slug], "post", {}, _writes(CLUB_SCORE)),
        ("night", [w["night"].pk], "get", None, CLUB_SCORE),
        ("night_progress", [w["night"].pk], "get", None, CLUB_SCORE),
        ("night_plan", [w["night"].pk], "get", None, CLUB_SCORE),
        ("night_edit", [w["night"].pk], "get", None, CLUB_SCORE),
        ("night_edit", [w["night"].pk], "post", {}, _writes(CLUB_SCORE)),
        ("night_delete", [w["night"].pk], "get", None, CLUB_SCORE),
        ("night_cards", [w["night"].pk], "post", {"session": "2"}, _writes(CLUB_SCORE)),
        ("night_substitute", [w["night"].pk], "post", {}, _writes(CLUB_SCORE)),
        ("night_late", [w["night"].pk], "post", {}, _writes(CLUB_SCORE)),
        ("night_session_close", [w["night"].pk, 2], "post", {}, _writes(CLUB_SCORE)),
        ("night_session_reopen", [w["night"].pk, 2], "get", None, CLUB_SCORE),
        ("night_session_reopen", [w["night"].pk, 2], "post", {}, _writes(CLUB_SCORE)),
        (
            "night_table_link",
            [w["night"].pk, w["night"].night_sessions.get(number=1).tables.first().pk],
            "post",
            {},
            _writes(CLUB_SCORE),
        ),
        (
            "night_table_revoke",
            [w["night"].pk, w["night"].night_sessions.get(number=1).tables.first().pk],
            "post",
            {},
            _writes(CLUB_SCORE),
        ),
        ("night_ranking_link", [w["night"].pk], "post", {}, _writes(CLUB_SCORE)),
        ("night_ranking", [w["ranking_token"]], "get", None, PUBLIC),
        ("night_ranking_live", [w["ranking_token"]], "get", None, PUBLIC),
        ("night_ranking_csv", [w["ranking_token"]], "get", None, PUBLIC),
        ("night_line", [w["ranking_token"], 1], "get", None, PUBLIC),
        ("night_session_results", [w["ranking_token"], 1], "get", None, PUBLIC),
        # the same ranking from the club's pages: its members, without the link
        ("night_results", [w["night"].pk], "get", None, CLUB_READ),
        ("night_results_live", [w["night"].pk], "get", None, CLUB_READ),
        ("night_results_csv", [w["night"].pk], "get", None, CLUB_READ),
        ("night_results_line", [w["night"].pk, 1], "get", None, CLUB_READ),
        ("night_results_session", [w["night"].pk, 1], "get", None, CLUB_READ),
        ("scoring_link", ["an-unknown-table-link-0000"], "get", None, {key: {404} for key in ROLES}),
        # a private evening: its owner only
        ("evening", [w["private"].pk], "get", None, PRIVATE),
        ("settlement", [w["private"].pk], "get", None, PRIVATE),
        ("deal_record", [w["private"].pk], "post", {"contract": "pass"}, _writes(PRIVATE)),
    ]


def _site_url_names():
    def walk(patterns):
        for p in patterns:
            if isinstance(p, URLResolver):
                if str(p.pattern).startswith("admin"):
                    continue
                yield from walk(p.url_patterns)
            elif p.name:
                yield p.name

    return set(walk(get_resolver().url_patterns))


@pytest.mark.django_db
def test_it_has_a_line_for_every_url_of_the_site(world):
    assert _site_url_names() - {line[0] for line in _lines(world)} == set()


class Read:
    """What a GET answered: its status, its headers, its body."""

    def __init__(self, response):
        self.status_code, self.content = response.status_code, response.content
        self.headers = {name: response.get(name, "") for name in ("Content-Type", "Location")}

    def __getitem__(self, name: str) -> str:
        return self.headers[name]

    def get(self, name: str, default: str = "") -> str:
        return self.headers.get(name) or default


# each page as each role reads it in the module's club as built (before any write: the tests read first,
# and undo what they post): read once for the module's build, by whichever test of the module reads it first
_READ: dict[tuple[str, str, str], Read] = {}


def _read(world, role, url) -> Read:
    """GET ``url`` as ``role`` (a new visitor) in the world as built."""
    key = (world["built"], role, url)
    if key not in _READ:
        _READ[key] = Read(_client(world, role).get(url))
    return _READ[key]


def _client(world, role):
    """A new visitor's client, logged in as ``role`` (but anonymous): its session as a login gives it.
    Each role logs in once; its session's row is then put back as it was after that login before each
    new client, as a fresh login would give it (a login costs what a page does)."""
    client = Client()
    if role == "anonymous":
        return client
    logins = world.setdefault("logins", {})
    if role not in logins:
        client.force_login(world["users"][role])
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
        logins[role] = (SimpleCookie(client.cookies), Session.objects.filter(session_key=key).values().get())
        return client
    cookies, row = logins[role]
    # deleted and written again (update_or_create locks its row through the manager's outer join to the
    # user, which PostgreSQL refuses)
    Session.objects.filter(session_key=row["session_key"]).delete()
    Session.objects.create(**row)
    client.cookies = SimpleCookie(cookies)
    return client


@pytest.mark.both_databases
@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_it_answers_every_url_as_it_should_for(world, role):
    wrong = []
    lines = _lines(world)
    # reading first; then writes, the ones that change who belongs where last
    last = ("season_delete", "club_player_merge", "club_member_remove", "club_invitation_revoke", "club_join")
    lines.sort(
        key=lambda line: (
            line[2] == "post",
            line[0] in last and line[2] == "post",
            last.index(line[0]) if line[0] in last else 0,
        )
    )
    for name, args, method, data, expected in lines:
        url = reverse(name, args=args)
        if callable(data):
            data = data(world["users"].get(role))
        response = _read(world, role, url) if method == "get" else _client(world, role).post(url, data)
        want = expected[role]
        if want == LOGIN and method == "get":  # to the login, which comes back to the page
            good = response.status_code == 302 and response["Location"] == f"{reverse('login')}?next={url}"
        elif want == LOGIN:
            good = response.status_code == 302 and reverse("login") in response["Location"]
        else:
            good = response.status_code in want
        if not good:
            wrong.append(
                f"{method.upper()} {name}: {response.status_code} {response.get('Location', '')}, expected {want}"
            )
    assert not wrong, "\n".join(wrong)


# --- what a page offers, as each role sees it ------------------------------------------------
# A page never shows a role a form, a button or a link that the site then refuses to that same
# role (403), or that leads nowhere (404, 405): every GET page of the lines above is read as each
# role, and each form on it is posted (inside a transaction rolled back afterwards, so that the
# next form meets the same club) and each link of the site followed, as that role.


def _field_values(form: Element, page: Page) -> list[tuple[str, str]]:
    """What a browser would send for ``form`` without the user typing: hidden and filled-in
    fields, ticked boxes, the chosen option (or the first), textareas as they are."""
    ident = form.id
    fields = [e for e in form.elements() if e.tag in ("input", "select", "textarea")]
    if ident:  # fields outside the form that name it (form="record")
        fields += [e for e in page.elements() if e.get("form") == ident and e.tag in ("input", "select", "textarea")]
    values = []
    for field in fields:
        name = field.get("name")
        kind = (field.get("type") or "text").lower()
        if not name or field.has("disabled") or kind in ("submit", "button", "image", "reset", "file"):
            continue
        if kind in ("checkbox", "radio"):
            if field.has("checked"):
                values.append((name, field.get("value") or "on"))
        elif field.tag == "select":
            options = field.all("option")
            chosen = [o for o in options if o.has("selected")] or options[:1]
            values += [(name, o.get("value") if o.has("value") else o.text) for o in chosen]
        elif field.tag == "textarea":
            values.append((name, field.raw_text.removeprefix("\n")))
        else:
            values.append((name, field.get("value") or ""))
    return values


TYPED = {"text", "number", "email", "password", "search", "tel", "url", "date", "time", "datetime-local"}


def _submits(form: Element, page: Page) -> list[Element | None]:
    """The form's submit buttons that carry a name (each sends its own value), or one plain submit;
    none when the form cannot be sent (a read-only form: no button, every field disabled)."""
    ident = form.id
    controls = list(form.elements())
    if ident:
        controls += [e for e in page.elements() if e.get("form") == ident]
    buttons = [
        e
        for e in controls
        if not e.has("disabled")
        and (
            (e.tag == "button" and (e.get("type") or "submit").lower() == "submit")
            or (e.tag == "input" and (e.get("type") or "").lower() in ("submit", "image"))
        )
    ]
    typed = [e for e in controls if e.tag == "input" and (e.get("type") or "text").lower() in TYPED]
    if not buttons and not any(not e.has("disabled") for e in typed):
        return []
    named = [b for b in buttons if b.get("name")]
    return named or [None]


def _offers(page: Page, here: str) -> tuple[list[tuple[str, dict]], set[str]]:
    """(the posts the page offers: (url, data) each; the site's URLs it links to)."""
    posts = []
    for form in page.all("form"):
        url = form.get("hx-post") or form.get("action") or here
        method = "post" if form.get("hx-post") else (form.get("method") or "get").lower()
        if method != "post":
            continue
        base = _field_values(form, page)
        for button in _submits(form, page):
            data = {}
            for name, value in base + ([(button.get("name"), button.get("value") or "")] if button else []):
                data.setdefault(name, []).append(value)
            posts.append((button.get("formaction") if button and button.get("formaction") else url, data))
    links = set()
    for a in page.all("a[href]"):
        href = a.get("href").split("#")[0]
        if href.startswith("/") and not href.startswith("//") and not href.startswith("/static/"):
            links.add(href)
    return posts, links


@pytest.mark.both_databases
@pytest.mark.slow  # every page, every form posted and every link followed, as each role
@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_it_offers_no_form_or_link_that_it_then_refuses_to(world, role):
    from django.db import transaction

    refused = {403, 404, 405}
    wrong, posted, followed = [], set(), set()
    pages = [(name, args) for name, args, method, _data, expected in _lines(world) if method == "get"]
    for name, args in pages:
        here = reverse(name, args=args)
        response = _read(world, role, here)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        posts, links = _offers(Page(response.content.decode()), here)
        for url, data in posts:
            if url in posted:  # whether a role may post there depends on the address, not on the values
                continue
            posted.add(url)
            with transaction.atomic():
                answer = _client(world, role).post(url, data)
                transaction.set_rollback(True)
            if answer.status_code in refused or answer.status_code >= 500:
                wrong.append(f"{name}: its form POST {url} {sorted(data)} answers {answer.status_code}")
        for url in sorted(links - followed):
            followed.add(url)
            answer = _read(world, role, url)
            if answer.status_code in refused or answer.status_code >= 500:
                wrong.append(f"{name}: its link {url} answers {answer.status_code}")
    assert posted and followed
    assert not wrong, f"as {role}:\n" + "\n".join(wrong)


# --- French typography on every page ----------------------------------------------------------
# The catalogue test checks each French text alone; a page also joins texts in its templates
# ("{% translate 'Rules' %}: …"). Every page read in French, as each role, follows the same rule.

SHOWN_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "data-confirm")


def _french_texts(page: Page) -> list[str]:
    """What a French reader reads in French: each text of the page (not scripts, styles or typed
    values, not a part marked ``lang`` in another language), and the attributes that are shown or
    spoken, and the messages kept for the scripts (data-*)."""
    texts = []

    def walk(element, french=True):
        if element.tag in ("script", "style", "textarea", "pre", "code"):
            return
        # a part marked in another language (the rules page's English text) is read in its own
        french = (element.attrs.get("lang") or ("fr" if french else "en")).startswith("fr")
        # stripped of the spaces around it, not of a no-break space (the one after **bold** before a colon)
        own = "".join(c for c in element.children if isinstance(c, str)).strip(" \t\n\r\f")
        if own and french:
            texts.append(own)
        for name, value in element.attrs.items():
            if french and (
                name in SHOWN_ATTRIBUTES or (name.startswith("data-") and " " in value and "{" not in value)
            ):
                texts.append(value)
        for child in element.children:
            if isinstance(child, Element):
                walk(child, french)

    walk(page)
    return texts


@pytest.mark.slow  # every page as each role
@pytest.mark.django_db
@pytest.mark.parametrize("role", ("anonymous", "member", "scorer", "admin"))
def test_it_writes_every_page_in_french_typography_for(world, role):
    from test_translations import typography_faults

    faults = {}
    for name, args, method, _data, _expected in _lines(world):
        if method != "get":
            continue
        client = _client(world, role)
        client.cookies["django_language"] = "fr"
        response = client.get(reverse(name, args=args))
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        for text in _french_texts(Page(response.content.decode())):
            for fault in typography_faults(re.sub(r"[ \t\n\r\f]+", " ", text)):
                faults.setdefault(fault, name)
    assert not faults, f"as {role}:\n" + "\n".join(f"{name}: {fault}" for fault, name in faults.items())


# --- a club night's table link, held with or without an account -------------------------------
# A table's link grants one thing: recording and correcting that table's deals while its session
# is open (docs/rules/club-nights.md), whatever account its holder is logged into. Closing, reopening, deleting,
# archiving and sharing the table happen only through the night (its director), so every holder,
# the club's own scorer included, is refused them on the table's pages; the night's pages answer
# as they do without the link.

HOLDERS = ("anonymous", "outsider", "member", "scorer")
TABLE_WRITE = {"recorded": {200, 302}, "closed": {302, 409, 422}}  # closed: refused, said on the page


def _table_lines(w, table, closed: bool):
    """(url name, args, method, data, expected per holder) for a held table's pages."""
    pk, night = table.evening.pk, w["night"].pk
    signed_in_only = {"anonymous": LOGIN, "outsider": {403}, "member": {403}, "scorer": {403}}
    pair = {"contract": "samen-9", "declarers": [table.evening.seats.all()[1].name, table.evening.seats.all()[3].name]}
    return [
        ("evening", [pk], "get", None, dict.fromkeys(HOLDERS, OK)),
        ("settlement", [pk], "get", None, {"anonymous": LOGIN} | dict.fromkeys(HOLDERS[1:], OK)),
        (
            "deal_record",
            [pk],
            "post",
            {**pair, "tricks": "9"},
            dict.fromkeys(HOLDERS, TABLE_WRITE["closed"] if closed else TABLE_WRITE["recorded"]),
        ),
        ("evening_close" if not closed else "evening_reopen", [pk], "post", {}, signed_in_only),
        ("evening_delete", [pk], "get", None, signed_in_only),
        ("evening_delete", [pk], "post", {}, signed_in_only),
        ("evening_archive", [pk], "get", None, signed_in_only),
        ("evening_archive", [pk], "post", {"archived": "1"}, signed_in_only),
        ("evening_share", [pk], "get", None, signed_in_only),
        ("evening_share_reset", [pk], "post", {}, signed_in_only),
        # the night itself: the link opens nothing of it
        ("night", [night], "get", None, {"anonymous": LOGIN, "outsider": {404}, "member": {403}, "scorer": OK}),
        (
            "night_session_reopen" if closed else "night_session_close",
            [night, 1],
            "post",
            {},
            {"anonymous": LOGIN, "outsider": {404}, "member": {403}, "scorer": WRITE_OK},
        ),
    ]


@pytest.mark.both_databases
@pytest.mark.django_db
@pytest.mark.parametrize("closed", [False, True], ids=["session open", "session closed"])
@pytest.mark.parametrize("holder", HOLDERS)
def test_a_table_link_grants_its_deals_only_for(world, holder, closed):
    night = world["night"]
    table = night.night_sessions.get(number=1).tables.select_related("evening").first()
    token = nights.table_links(night, 1)[table.evening.pk]
    if closed:
        nights.close_session(night, 1, world["users"]["scorer"])
    client = _client(world, holder)
    assert client.get(reverse("scoring_link", args=[token])).status_code == 302  # the card scanned
    wrong = []
    for name, args, method, data, expected in _table_lines(world, table, closed):
        url = reverse(name, args=args)
        response = client.get(url) if method == "get" else client.post(url, data)
        want = expected[holder]
        if want == LOGIN:
            good = response.status_code == 302 and reverse("login") in response["Location"]
        else:
            good = response.status_code in want
        if not good:
            wrong.append(f"{method.upper()} {name}: {response.status_code}, expected {want}")
    assert not wrong, "\n".join(wrong)
    table.evening.refresh_from_db()
    # nobody but the night's director changed it (the club's scorer is one: he closed it through the night)
    assert table.evening.status == ("closed" if closed or holder == "scorer" else "open")
    assert not table.evening.share_id and not table.evening.archived
    assert table.evening.deals.count() == (0 if closed else 1)


# --- a table's link and money: never --------------------------------------------------------------
# Money rights come from a role in the club (a scorer or an admin), never from a table's link: a holder
# without that role is refused every money write on the table's evening and on the club's money pages,
# exactly as without the link, and sees no money button; a club night's table is settled once with its
# night, so even the club's scorer marks nothing on the table itself.


def _money_lines(w, table, payment):
    pk, slug = table.evening.pk, w["club"].slug
    transfer = (table.evening.summary.get("transfers") or [{"from": "x", "to": "y", "amount": "0.10"}])[0]
    paid = {"payer": transfer["from"], "payee": transfer["to"], "amount": transfer["amount"]}
    refused = {"anonymous": LOGIN, "outsider": {403}, "member": {403}, "scorer": {403}}
    club_write = {"anonymous": LOGIN, "outsider": {404}, "member": {403}, "scorer": {302}}
    return [
        ("payment_toggle", [pk], "post", paid | {"paid": "1"}, refused),
        ("payment_add", [pk], "post", paid | {"note": "", "key": "k"}, refused),
        ("payment_cancel", [payment.pk], "get", None, refused),
        ("payment_cancel", [payment.pk], "post", {"reason": "x"}, refused),
        ("club_ledger_paid", [slug], "post", paid | {"evening": pk}, club_write),
        ("club_ledger_pay", [slug], "post", {}, club_write | {"scorer": {422}}),
        ("club_settle_up_paid", [slug], "post", {"line": "x"}, club_write),
        ("club_kitty_payment", [slug], "post", {}, club_write | {"scorer": {422}}),
    ]


@pytest.mark.both_databases
@pytest.mark.django_db
@pytest.mark.parametrize("holder", HOLDERS)
def test_a_table_link_never_records_marks_or_cancels_a_payment_for(world, holder):
    from scorebook.evenings.models import Payment

    night = world["night"]
    table = night.night_sessions.get(number=1).tables.select_related("evening").first()
    names = [s.name for s in table.evening.seats.all()]
    table.evening.stake = Decimal("0.10")
    table.evening.save(update_fields=["stake"])
    services.record_deal(
        table.evening,
        {"contract": "samen-9", "declarers": [names[1], names[3]], "tricks": 10},
        world["users"]["scorer"],
    )
    table.evening.refresh_from_db()
    # a payment marked at the table before nights settled once (kept, as every payment)
    t = table.evening.summary["transfers"][0]
    old = Payment.objects.create(
        evening=table.evening,
        club=world["club"],
        payer=t["from"],
        payee=t["to"],
        amount=Decimal(t["amount"]),
        marked_by=world["users"]["admin"],
    )
    token = nights.table_links(night, 1)[table.evening.pk]
    client = _client(world, holder)
    assert client.get(reverse("scoring_link", args=[token])).status_code == 302  # the card scanned
    before = set(Payment.objects.values_list("pk", flat=True))
    wrong = []
    for name, args, method, data, expected in _money_lines(world, table, old):
        url = reverse(name, args=args)
        response = client.get(url) if method == "get" else client.post(url, data)
        want = expected[holder]
        good = (
            (response.status_code == 302 and reverse("login") in response["Location"])
            if want == LOGIN
            else (response.status_code in want)
        )
        if not good:
            wrong.append(f"{method.upper()} {name}: {response.status_code}, expected {want}")
    assert not wrong, "\n".join(wrong)
    assert set(Payment.objects.values_list("pk", flat=True)) == before and not old.cancelled
    if holder != "anonymous":  # the pages it opens show no money button
        for page in (reverse("evening", args=[table.evening.pk]), reverse("settlement", args=[table.evening.pk])):
            html = client.get(page).content.decode()
            for forbidden in ("payment_toggle", "payment_add"):
                assert reverse(forbidden, args=[table.evening.pk]) not in html, (page, forbidden)
            assert reverse("payment_cancel", args=[old.pk]) not in html, page
