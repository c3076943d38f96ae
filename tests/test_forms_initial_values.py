"""Every create/edit form of the site accepts its own initial values.

Each page is read as the role that uses it; every form it shows is sent back as it came,
with only its required free-text fields filled (a name, a date, a password). None may be
refused: a form that rejects what it showed itself (a season's "[]" league points) fails here.
"""

from datetime import date
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from builders import club_evening
from conftest import PASSWORD
from scorebook.clubs.models import Club, Membership, Player, Role, Season

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

SKIPPED_ACTIONS = ("/i18n/", "/accounts/logout/")  # the language switch and logging out are no forms to fill
FREE_TEXT = {"text": "Test Name", "search": "Test Name", "email": "new@example.org", "password": PASSWORD}
# what a user types in the free-text fields a form needs but the browser does not mark required
TYPED = {
    "amount": "1,50",
    "username": "newcomer",
    "player_0": "Anne",
    "player_1": "Bert",
    "player_2": "Carl",
    "player_3": "Dina",
}
TYPED["names"] = "Anne Claes\nBert Maes"  # the roster's paste box (a CSV file may be sent instead)


class Forms(HTMLParser):
    """The POST forms of a page: their action and the values they would send as shown."""

    def __init__(self):
        super().__init__()
        self.forms, self._form, self._select, self._textarea = [], None, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {
                "action": a.get("action") or "",
                "method": (a.get("method") or "get").lower(),
                "data": {},
                "empty": [],
            }
            return
        f = self._form
        if f is None:
            return
        if tag == "input":
            kind, name = (a.get("type") or "text").lower(), a.get("name")
            if not name or kind in ("submit", "button", "reset", "file", "image"):
                return
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    f["data"].setdefault(name, []).append(a.get("value", "on"))
                return
            value = a.get("value") or ""
            if not value and "required" in a:
                f["empty"].append((name, kind))
            f["data"].setdefault(name, []).append(value)
        elif tag == "select":
            self._select = {"name": a.get("name"), "first": None, "chosen": None}
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            if self._select["first"] is None:
                self._select["first"] = value
            if "selected" in a:
                self._select["chosen"] = value
        elif tag == "textarea":
            self._textarea = {"name": a.get("name"), "text": "", "required": "required" in a}
        elif tag == "button" and a.get("name") and "submit_name" not in f:
            f["submit_name"] = (a["name"], a.get("value", ""))

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea["text"] += data

    def handle_endtag(self, tag):
        f = self._form
        if tag == "select" and self._select is not None and f is not None:
            s = self._select
            value = s["chosen"] if s["chosen"] is not None else s["first"]
            if s["name"] and value is not None:
                f["data"].setdefault(s["name"], []).append(value)
            self._select = None
        elif tag == "textarea" and self._textarea is not None and f is not None:
            t = self._textarea
            if t["name"]:
                text = t["text"].lstrip("\n")
                if not text and t["required"]:
                    f["empty"].append((t["name"], "text"))
                f["data"].setdefault(t["name"], []).append(text)
            self._textarea = None
        elif tag == "form" and f is not None:
            self.forms.append(f)
            self._form = None


def post_forms(html: str, page_url: str):
    parser = Forms()
    parser.feed(html)
    for form in parser.forms:
        if form["method"] != "post" or any(form["action"].startswith(s) for s in SKIPPED_ACTIONS):
            continue
        data = {k: list(v) for k, v in form["data"].items()}
        for name, kind in form["empty"]:
            data[name] = [
                date.today().isoformat()
                if kind == "date"
                else "1"
                if kind == "number"
                else FREE_TEXT.get(kind, "Test Name")
            ]
        for name, value in TYPED.items():
            if data.get(name) in ([""], ["Test Name"]):
                data[name] = [value]
        if "submit_name" in form:
            data.setdefault(form["submit_name"][0], [form["submit_name"][1]])
        yield form["action"] or page_url, data


@pytest.fixture
def site(make_user):
    """A club as a secretary runs it: members in every role, players, a season, an evening."""
    admin = make_user("adele", first_name="Adèle")
    scorer = make_user("marie", first_name="Marie")
    member = make_user("mia", first_name="Mia")
    club = Club.objects.create(name="De Troef", slug="de-troef")
    for user, role in ((admin, Role.ADMIN), (scorer, Role.SCORER), (member, Role.MEMBER)):
        Membership.objects.create(club=club, user=user, role=role)
    evening = club_evening(club, scorer, date(2026, 9, 10), [{"contract": "pass"}])
    season = Season.objects.create(  # a past season: a new one made today does not meet it
        club=club, name="Winter", start=date(2025, 9, 1), end=date(2025, 12, 31), ruleset="kleurenwiezen"
    )
    Player.objects.create(club=club, name="Emma")
    return {"admin": admin, "scorer": scorer, "member": member, "club": club, "evening": evening, "season": season}


def pages(site):
    club, slug = site["club"], site["club"].slug
    anne = Player.objects.get(club=club, name="Anne")
    return [
        ("admin", reverse("club_new")),
        ("admin", reverse("club_list")),
        ("admin", reverse("club_settings", args=[slug])),
        ("admin", reverse("club_members", args=[slug])),
        ("admin", reverse("club_players", args=[slug])),
        ("admin", reverse("club_rules_edit", args=[slug, "kleurenwiezen"])),
        ("admin", reverse("club_rules_edit", args=[slug, "classique"])),
        ("admin", reverse("season_new", args=[slug])),
        ("admin", reverse("season_edit", args=[slug, site["season"].pk])),
        (
            "admin",
            reverse("club_player_merge", args=[slug, anne.pk])
            + f"?with={Player.objects.get(club=club, name='Emma').pk}",
        ),
        ("scorer", reverse("club_players", args=[slug])),
        ("scorer", reverse("evening_new") + f"?club={club.pk}"),
        ("scorer", reverse("evening_new")),
        ("scorer", reverse("settlement", args=[site["evening"].pk])),
        ("member", reverse("club_players", args=[slug])),
        ("member", reverse("profile")),
        (None, reverse("signup")),
    ]


PAGE_COUNT = 17


@pytest.mark.parametrize("index", range(PAGE_COUNT))
def test_it_accepts_every_form_as_it_is_first_shown(client, site, index):
    entries = pages(site)
    assert len(entries) == PAGE_COUNT
    role, url = entries[index]
    if role:
        client.force_login(site[role])
    page = client.get(url)
    assert page.status_code == 200, url
    sent = 0
    for action, data in post_forms(page.content.decode(), url):
        response = client.post(action, data)
        assert response.status_code in (200, 302), f"{url} → {action}: {response.status_code} {data}"
        sent += 1
    assert sent, f"{url} shows no form"


def test_it_creates_a_season_from_the_form_as_it_comes(client, site):
    """Issue 15: the league points came pre-filled with "[]", which the form then refused."""
    client.force_login(site["admin"])
    url = reverse("season_new", args=[site["club"].slug])
    html = client.get(url).content.decode()
    assert 'value="[]"' not in html
    (action, data), *_ = [f for f in post_forms(html, url) if f[0] in ("", url)]
    data["name"] = ["Spring"]
    data["start"], data["end"] = ["2027-01-01"], ["2027-04-30"]
    assert client.post(action, data).status_code == 302
    assert Season.objects.filter(club=site["club"], name="Spring", league_points=[]).exists()
