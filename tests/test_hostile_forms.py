"""Every form and every address of the site refuses hostile input in words (issue 23, item 6).

The forms are not listed by hand: every page of the URL conf (the admin left out) is opened as
the visitor who may open it (``test_access_matrix``'s world and lines), every ``<form>`` on it
is read (its fields, their kinds and their values), and each field in turn is sent a list of
hostile values, the others keeping the values the page gave them: control characters, a NUL
byte, right-to-left overrides and marks, zero-width characters, full-width look-alikes of a name already
there, superscripts and other digits than 0-9 in number fields, NaN and infinities, huge
numbers, markup. The query parameters the pages' links carry get the same; every address that
carries a token (``/s/``, ``/r/``, ``/t/``, ``/join/``, the password reset) is asked with
hostile tokens. Nothing may answer 500; a number field refuses anything but a number; a name
field refuses control and direction characters and a look-alike of a name already there, every
free-text field (a note, a reason) control characters, the bidi controls, invisible characters
and line separators; every
refusal says why on the page. Each post is undone (a savepoint) before the next, so every
one meets the world as it was. The PostgreSQL run (``DATABASE_URL``) runs the same.
"""

from __future__ import annotations

import copy
import re
import uuid
from dataclasses import dataclass, field
from datetime import date
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from django.db import transaction
from django.test import Client
from django.urls import Resolver404, URLResolver, get_resolver, resolve, reverse

from builders import PLAYERS, club_evening
from conftest import world_of_the_module
from pages import VOID, Page
from scorebook.clubs.models import Player
from scorebook.evenings import payments, services
from test_access_matrix import OK, _lines
from test_access_matrix import _build as _build_the_club

SCRIPT = "<script>alert(1)</script>"
# a name already in the club's roster and at its night: its look-alikes must be refused
KNOWN_NAME = "Anne"
CONTROL = {"bell": "Anne\x07Bert", "nul": "An\x00ne", "escape": "\x1b[31mRed", "c1 control": "An\x85ne"}
DIRECTION = {
    "rtl override": "\u202eennA",
    "rtl isolate": "Anne\u2067x\u2069",
    "zero width space": "An\u200bne",
    "byte order mark": "\ufeffAnne",
    "rtl mark": "Anne\u200f",
    "arabic letter mark": "\u061cAnne",
    "ltr embedding": "\u202aAnne\u202c",
}
# what every free-text field refuses (a note, a reason, a name): controls, the bidi controls, and the
# invisible characters and line separators (issue 39; a zero-width joiner may belong in a note: an
# emoji is written with one)
BIDI = {k: DIRECTION[k] for k in ("rtl override", "rtl isolate", "rtl mark", "arabic letter mark", "ltr embedding")}
BIDI |= {k: DIRECTION[k] for k in ("zero width space", "byte order mark")} | {"line separator": "Anne\u2028Bert"}
LOOKALIKE = {"full width": "Ａｎｎｅ", "cyrillic a": "\u0410nne"}
NOT_A_NUMBER = {
    "superscript": "²",
    "superscript after a digit": "1²",
    "arabic-indic digits": "١٢",
    "full-width digits": "１２",
    "nan": "NaN",
    "infinity": "Infinity",
    "minus infinity": "-inf",
    "exponent overflow": "1e999",
    "nul": "1\x00",
    "words": "four",
}
EXTREMES = {"huge": "9" * 30, "negative huge": "-" + "9" * 30, "negative": "-1", "decimal": "3.5"}
OTHER = {"markup": SCRIPT, "long": "x" * 5000, "only spaces": "   ", "empty": ""}
# every field of a form at once gets each of these (a field's own checks must hold with the others
# refused too); each field alone gets what it must refuse and one value of each other kind
EVERY_VALUE = CONTROL | DIRECTION | {"full width": LOOKALIKE["full width"]} | NOT_A_NUMBER | EXTREMES | OTHER
SOME = {"bell": CONTROL["bell"], "nul": CONTROL["nul"], "rtl override": DIRECTION["rtl override"]}
SOME |= {"superscript": "²", "huge": EXTREMES["huge"], "markup": SCRIPT}
SAMPLE = 25  # a form with more fields has each value alone in 25 of them, spread over the form
BIG_SAMPLE = 4  # the house rules' hundreds of cells (also fuzzed by test_hostile_input)
HOSTILE_TOKENS = {
    "nul": "\x00",
    "nul inside": "abc\x00def",
    "nul in a read-only link's id": "a\x00b.secret",
    "superscript": "²",
    "rtl override": "\u202eabc",
    "full width": "ＡＢＣ",
    "control": "\x07",
    "long": "a" * 5000,
    "dots": "..",
    "markup": "<b>",
}
NAME_FIELDS = {"name", "display_name", "guests"} | {f"player_{seat}" for seat in range(7)}
NEVER = {"logout", "set_language"}  # forms whose success changes who the visitor is or his language
# the world's night has no stake, so no line to mark paid: its form (hidden fields only) is posted with
# hostile values in tests/league/test_night_settles_once.py
NEVER |= {"club_ledger_night_paid"}
# a season's prizes are awarded once it is over, and the world's season runs to the end of its year: its
# form (one button) is posted in tests/ledger/test_kitty_season.py
NEVER |= {"season_prizes"}
# the undo of a deletion is offered only on the phone that deleted the deal (its session), not to the
# crawl, and its form has no field: it is posted twice, late and from htmx in tests/evenings/test_deal_edit.py
NEVER |= {"deal_restore"}


@dataclass
class Field:
    name: str
    kind: str  # "text", "number", "choice", "hidden", "file", "password"
    choices: list[str] = field(default_factory=list)


@dataclass
class Form:
    page: str
    method: str
    action: str
    url_name: str
    data: list[tuple[str, str]]
    fields: dict[str, Field]

    def __str__(self):
        return f"{self.method.upper()} {self.url_name} (form on {self.page})"


def _owner(page: Page, element, forms_by_id):
    owner = element.get("form")
    if owner:
        return forms_by_id.get(owner)
    return next((a for a in element.ancestors() if a.tag == "form"), None)


def _kind(element) -> str:
    if element.tag == "select":
        return "choice"
    if element.tag == "textarea":
        return "text"
    kind = (element.get("type") or "text").lower()
    if kind in ("radio", "checkbox"):
        return "choice"
    if kind == "number" or element.get("inputmode") in ("numeric", "decimal"):
        return "number"
    if kind in ("hidden", "file", "password"):
        return kind
    return "text"


def forms_on(html: str, page_url: str) -> list[Form]:
    page = Page(html)
    found = page.all("form")
    forms_by_id = {f.id: f for f in found if f.id}
    out = []
    for element in found:
        method = (element.get("method") or "get").lower()
        action = element.get("action") or page_url
        if action.startswith("http"):
            continue
        try:
            url_name = resolve(urlsplit(action).path).url_name
        except Resolver404:
            url_name = "?"
        data, fields = [], {}
        controls = [e for e in page.elements() if e.tag in ("input", "select", "textarea") and e.get("name")]
        for control in controls:
            if _owner(page, control, forms_by_id) is not element or control.has("disabled"):
                continue
            name, kind = control.get("name"), _kind(control)
            if kind == "file" or name == "csrfmiddlewaretoken":
                if name == "csrfmiddlewaretoken":
                    data.append((name, control.get("value")))
                continue
            info = fields.setdefault(name, Field(name, kind))
            if control.tag == "select":
                options = control.all("option")
                info.choices += [o.get("value", o.text) for o in options]
                chosen = [o for o in options if o.has("selected")] or options[:1]
                data += [(name, o.get("value", o.text)) for o in chosen]
            elif kind == "choice":
                info.choices.append(control.get("value") or "on")
                if control.has("checked"):
                    data.append((name, control.get("value") or "on"))
            elif control.tag == "textarea":
                data.append((name, control.raw_text.removeprefix("\n")))
            else:
                data.append((name, control.get("value") or ""))
        out.append(Form(page_url, method, action, url_name, data, fields))
    return out


def _values(f: Field) -> dict[str, str]:
    """The values sent to this field alone: all it must refuse, and one of each other kind."""
    if f.kind == "number":
        return NOT_A_NUMBER | {"huge": EXTREMES["huge"], "markup": SCRIPT}
    if f.name in NAME_FIELDS:
        return SOME | CONTROL | DIRECTION | LOOKALIKE | {"only spaces": "   ", "long": OTHER["long"]}
    if f.kind == "text":
        return SOME | CONTROL | BIDI
    return SOME


def _posts(form: Form):
    """(field or None for every field at once, label, data) of every post made to this form."""
    for label, value in EVERY_VALUE.items():
        yield (
            None,
            label,
            [(k, v) for k, v in form.data if k not in form.fields] + [(name, value) for name in form.fields],
        )
    names = list(form.fields)
    sample = BIG_SAMPLE if len(names) > 100 else SAMPLE
    if len(names) > sample:
        names = names[:: len(names) // sample + 1]
    for name in names:
        f = form.fields[name]
        for label, value in _values(f).items():
            yield f, label, [(k, v) for k, v in form.data if k != name] + [(name, value)]


def _more_states(world):
    """Pages in the states that show the forms the world's own pages do not: an evening closed,
    one without deals, a classic one before its first robre, a deal just deleted, a payment made
    in the ledger, a member's own claim, the second step of a merge."""
    club, scorer = world["club"], world["users"]["scorer"]

    def evening(ruleset="kleurenwiezen", players=PLAYERS, deals=()):
        return club_evening(club, scorer, date(2026, 11, 22), deals, players, ruleset)

    pair = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}
    closed = evening(deals=[pair])
    services.set_status(closed, "closed")
    empty = evening()
    robre = evening("classique", ["Anne", "Bert", "Carl", "Dina", "Emma"])
    deleted = evening(deals=[pair, pair])
    services.delete_deal(deleted, 2, scorer)
    due = payments.still_due(world["kw"])[0]
    payments.record_payment(world["kw"], due.payer, due.payee, due.amount, scorer)
    slug = club.slug
    twin = Player.objects.create(club=club, name="Anne V.")  # never sat with Anne: the merge may go on
    return [
        ("outsider", reverse("club_join", args=[world["join"]])),
        ("admin", reverse("settlement", args=[closed.pk])),
        ("admin", reverse("evening_delete", args=[empty.pk])),
        ("admin", reverse("evening", args=[robre.pk])),
        ("admin", reverse("evening", args=[deleted.pk])),
        ("admin", reverse("club_ledger", args=[slug])),
        ("member", reverse("club_players", args=[slug])),
        ("admin", reverse("club_player_merge", args=[slug, world["player"].pk]) + f"?with={twin.pk}"),
    ]


def _build(make_user):
    """The access matrix's club, and the states of ``_more_states``: built once for the module, each test
    reads it and undoes its own writes."""
    world = _build_the_club(make_user)
    world["more_states"] = _more_states(world)
    world["built"] = uuid.uuid4().hex  # which build: what the crawl found in it is kept (_FOUND)
    return world


built_world = world_of_the_module(_build)


@pytest.fixture
def world(built_world, db):
    return copy.deepcopy(built_world)


def _pages(world):
    """(role, url) of every page of the site a visitor may open."""
    out = []
    for name, args, method, _data, expected in _lines(world):
        if method != "get":
            continue
        role = next((r for r in ("admin", "scorer", "anonymous") if expected.get(r) == OK), None)
        if role is not None:
            out.append((role, reverse(name, args=args)))
    return out + world["more_states"]


class Undone:
    """A request whose writes are undone afterwards, and whose cookies never stay."""

    def __init__(self, client: Client):
        self.client = client

    def __call__(self, method, url, data):
        cookies = self.client.cookies
        self.client.cookies = type(cookies)(cookies)
        savepoint = transaction.savepoint_create()
        try:
            return getattr(self.client, method)(url, data)
        finally:
            transaction.savepoint_rollback(savepoint)
            self.client.cookies = cookies


def _clients(world):
    clients = {"anonymous": Client()}
    for role in ("admin", "scorer", "member", "outsider"):
        clients[role] = Client()
        clients[role].force_login(world["users"][role])
    return clients


ERROR_CLASSES = {"field-errors", "errors", "errorlist"}
# a start tag (its name, its attributes) with text right inside it
TAG_AND_TEXT = re.compile(
    r"""<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*>"""
    r"[ \t\r\n\f]*[^<\s]"
)
CLASS = re.compile(r"""\sclass\s*=\s*(?:"([^"]*)"|'([^']*)')""")
NOT_ELEMENTS = re.compile(r"<!--.*?-->|<(script|style)\b.*?</\1\s*>", re.S | re.I)


def _refused_in_words(response) -> bool:
    """A 422 page that says what is wrong: an error next to a field, or above the form. (An error with its
    text right inside it says so at once; otherwise the page is read whole.)"""
    html = response.content.decode()
    for tag in TAG_AND_TEXT.finditer(NOT_ELEMENTS.sub("", html)):
        found = CLASS.search(tag.group(2))
        if (
            found
            and tag.group(1).lower() not in VOID
            and ERROR_CLASSES & set((found.group(1) or found.group(2)).split())
        ):
            return True
    page = Page(html)
    return any(e.text for e in page.all(".field-errors") + page.all(".errors") + page.all(".errorlist"))


# what the crawl found in the module's world (the same for each test of the module): read once a build
_FOUND: dict[str, tuple[list, dict]] = {}


def _crawl(world):
    """The clients of each role (this test's), and the forms and links the crawl finds on every page."""
    clients = _clients(world)
    if world["built"] not in _FOUND:
        _FOUND[world["built"]] = _found(clients, world)
    forms, links = _FOUND[world["built"]]
    return clients, forms, links


def _found(clients, world):
    forms, links = [], {}
    for role, url in _pages(world):
        response = clients[role].get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        forms += [(role, f) for f in forms_on(html, url) if f.url_name not in NEVER]
        for a in Page(html).all("a[href]"):
            parts = urlsplit(a.get("href"))
            if parts.query and not parts.netloc and parts.path.startswith("/"):
                links.setdefault((role, parts.path), set()).update(k for k, _v in parse_qsl(parts.query))
    return forms, links


def _problem(response, what) -> str | None:
    if response.status_code >= 500:
        return f"{what}: {response.status_code}"
    return None


@pytest.mark.django_db
def test_it_finds_every_form_of_the_site(world):
    """The crawl reaches a form for every address that takes a post (so the fuzz below misses none)."""
    _clients, forms, _links = _crawl(world)
    posted = {f.url_name for _role, f in forms if f.method == "post"}
    takes_posts = {line[0] for line in _lines(world) if line[2] == "post"}
    missing = takes_posts - posted - NEVER
    assert not missing, " ".join(sorted(missing))
    assert len(_swept(forms)) > 30  # the forms the sweep below posts to


PARTS = 8  # the sweep below, in parts that two processes share


def _swept(forms) -> list:
    """(role, form) of each form the sweep posts to: a form met on several pages (the same address and fields)
    once, as the first visitor who met it."""
    seen, out = set(), []
    for role, form in forms:
        key = (form.method, form.url_name, tuple(sorted(form.fields)))
        if key in seen or not form.fields:
            continue
        seen.add(key)
        out.append((role, form))
    return out


@pytest.mark.slow  # every field of every form, each hostile value: a big sweep (in PARTS parts)
@pytest.mark.both_databases  # what reaches the database (a NUL, 5,000 characters, 30 digits) is refused its own way
@pytest.mark.django_db
@pytest.mark.parametrize("part", range(PARTS))
def test_it_refuses_hostile_input_in_every_form_in_words(world, part):
    clients, forms, _links = _crawl(world)
    problems = []
    for role, form in _swept(forms)[part::PARTS]:
        send = Undone(clients[role])
        answered = {}  # a post sent twice (a form of one field: every field at once is that field alone) is sent once
        for f, label, data in _posts(form):
            what = f"{form}, {f.name if f else 'every field'} = {label}"
            if tuple(data) not in answered:
                answered[tuple(data)] = _send(send, form, data)
            response = answered[tuple(data)]
            if isinstance(response, str):  # a 500: every one is listed
                problems.append(f"{what}: {response}"[:300])
                continue
            if problem := _problem(response, what):
                problems.append(problem)
            elif form.method == "post" and response.status_code == 422 and not _refused_in_words(response):
                problems.append(f"{what}: 422 without a word")
            elif form.method == "post" and f is not None and response.status_code not in (422, 429):
                strict = (
                    (f.kind == "number" and label in NOT_A_NUMBER)
                    or (f.name in NAME_FIELDS and label in CONTROL | DIRECTION | {"cyrillic a": ""})
                    # a pasted list of names is shown back line by line first, each refused line said
                    or (f.kind == "text" and label in CONTROL | BIDI and f.name != "names")
                )  # a full-width name is folded to its plain letters (tests/test_names.py)
                if strict:
                    problems.append(f"{what}: accepted ({response.status_code})")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def _send(send, form, data):
    """The answer to ``data`` sent to ``form`` (undone after), or what it raised, in words."""
    try:
        if form.method == "post":
            payload = {}
            for k, v in data:
                payload.setdefault(k, []).append(v)
            return send("post", form.action, payload)
        return send("get", f"{urlsplit(form.action).path}?{urlencode(data)}", None)
    except Exception as error:  # noqa: BLE001  (a 500: every one is listed)
        return f"{type(error).__name__}: {error}"


@pytest.mark.django_db
def test_it_refuses_hostile_query_parameters_on_every_page(world):
    clients, _forms, links = _crawl(world)
    problems = []
    for (role, path), params in sorted(links.items()):
        send = Undone(clients[role])
        for param in sorted(params):
            for label, value in (SOME | NOT_A_NUMBER).items():
                what = f"GET {path}?{param}= {label}"
                try:
                    response = send("get", f"{path}?{urlencode({param: value})}", None)
                except Exception as error:  # noqa: BLE001
                    problems.append(f"{what}: {type(error).__name__}: {error}"[:300])
                    continue
                if problem := _problem(response, what):
                    problems.append(problem)
    assert len(links) > 5
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def _token_patterns():
    """Every address with a part that is not an id: its name and the names of those parts."""

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                if str(p.pattern).startswith("admin"):
                    continue
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif p.name and p.pattern.converters:
                free = [k for k, c in p.pattern.converters.items() if type(c).__name__ != "IdConverter"]
                if free:
                    yield p.name, free, list(p.pattern.converters)

    return list(walk(get_resolver().url_patterns))


@pytest.mark.django_db
def test_it_answers_every_token_address_with_a_hostile_token_without_a_500(world):
    clients = _clients(world)
    night = world["night"]
    good = {  # a real value for each part of an address, so that one part at a time is hostile
        "slug": world["club"].slug,
        "token": world["kw"].share_token,
        "ruleset": "kleurenwiezen",
        "uidb64": "MQ",
        "pk": world["kw"].pk,
        "number": 1,
    }
    problems, tried = [], 0
    for name, free, parts in _token_patterns():
        base = dict(good)
        if name.startswith("night_"):
            base |= {"token": world["ranking_token"], "pk": night.pk}
        for part in free:
            for label, value in HOSTILE_TOKENS.items():
                kwargs = {p: base.get(p, 1) for p in parts}
                path = reverse(name, kwargs=kwargs)
                # swap the part for the hostile value in the path as sent (percent-encoded, as a browser would)
                hostile = path.replace(f"/{kwargs[part]}/", "/" + _quote(value) + "/", 1)
                if hostile == path:
                    hostile = path.replace(str(kwargs[part]), _quote(value), 1)
                for role in ("anonymous", "admin"):
                    send = Undone(clients[role])
                    for method in ("get", "post"):
                        tried += 1
                        what = f"{method.upper()} {name} with {part} = {label} as {role}"
                        try:
                            response = send(method, hostile, {} if method == "post" else None)
                        except Exception as error:  # noqa: BLE001
                            problems.append(f"{what}: {type(error).__name__}: {error}"[:300])
                            continue
                        if problem := _problem(response, what):
                            problems.append(problem)
    assert tried > 100
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def _quote(value: str) -> str:
    from urllib.parse import quote

    return quote(value, safe="")
