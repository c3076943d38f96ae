# Throwaway: before/after screenshots of the form pages (not committed).
import os
from datetime import date
from pathlib import Path

import pytest

from club_fixtures import admin  # noqa: F401
from scorebook.clubs.models import Club, Membership, Player, Role, Season
from scorebook.nights import services as nights

pytestmark = pytest.mark.django_db(transaction=True)
OUT = Path("/tmp/tpl/shots") / os.environ.get("SHOTS_LABEL", "before")


def _submit(page, fills, button=None):
    page.evaluate("() => document.querySelectorAll('form').forEach(f => f.noValidate = true)")
    for sel, value in fills.items():
        loc = page.locator(sel).first
        if value is None:
            loc.check()
        elif loc.evaluate("e => e.tagName") == "SELECT":
            loc.select_option(value)
        else:
            loc.fill(value)
    with page.expect_navigation():
        (page.locator(button) if button else page.locator(list(fills)[0]).first).evaluate(
            "e => (e.form || e.closest('form')).requestSubmit()" if not button else "e => e.click()"
        )


@pytest.mark.browser
def test_shots(phone, live_server, admin, scorer, make_evening):  # noqa: F811
    club = Club.objects.create(name="De Troef", slug="de-troef")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    for n in ["Anne", "Bert", "Carl", "Dina", "Emma", "Fien", "Gust", "Hilde"]:
        Player.objects.create(club=club, name=n)
    season = Season.objects.create(club=club, name="2026", start=date(2026, 1, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen")
    night = nights.create_night(club=club, user=admin, name="Kaartavond", date=date(2026, 11, 21), ruleset="kleurenwiezen",
        sessions=2, deals_per_session=8, ranking="total", place_points=[], stake=None, currency="EUR",
        players=["Anne", "Bert", "Carl", "Dina", "Emma", "Fien", "Gust", "Hilde"])
    anne = Player.objects.get(club=club, name="Anne")
    bert = Player.objects.get(club=club, name="Bert")
    slug = club.slug
    scenarios = [
        # name, path, invalid fills (selector -> value) or None, submit button selector
        ("login", "/accounts/login/", {"input[name=username]": "adele", "input[name=password]": "wrong"}, None, False),
        ("signup", "/accounts/signup/", {"input[name=username]": "x", "input[name=password1]": "a", "input[name=password2]": "b"}, None, False),
        ("password-reset", "/accounts/password_reset/", {"input[name=email]": "nope"}, None, False),
        ("profile", "/accounts/profile/", {"input[name=email]": "nope"}, None, True),
        ("password-change", "/accounts/password_change/", {"input[name=old_password]": "x", "input[name=new_password1]": "a", "input[name=new_password2]": "b"}, None, True),
        ("new-evening", "/evenings/new/", {"input[name=player_0]": "Anne", "input[name=stake]": "-1"}, None, True),
        ("import", "/evenings/import/", {"textarea[name=text]": "{"}, None, True),
        ("new-club", "/clubs/new/", {"input[name=name]": "", "input[name=slug]": "Bad slug!"}, None, True),
        ("club-settings", f"/c/{slug}/settings/", {"input[name=name]": "", "input[name=slug]": "Bad slug!"}, None, True),
        ("members", f"/c/{slug}/members/", {"#id_uses": "0"}, None, True),
        ("rules-editor", f"/c/{slug}/rules/kleurenwiezen/?open=samen-9", {"#c-samen-9 tbody input[type=number]": "99999"}, None, True),
        ("rules-editor-classique", f"/c/{slug}/rules/classique/", {"input[type=number]": "-5"}, None, True),
        ("new-night", f"/c/{slug}/nights/new/", {"input[name=name]": "", "input[name=deals_per_session]": "0", "input[name=place_points]": "a, b", "textarea[name=guests]": "x"}, None, True),
        ("night", f"/nights/{night.pk}/", {"form[action$='/late/'] [name=name]": ""}, None, True),
        ("reopen", f"/nights/{night.pk}/sessions/1/reopen/", {"[name=reason]": ""}, None, True),
        ("season-new", f"/c/{slug}/seasons/new/", {"input[name=name]": "", "input[name=league_points]": "x"}, None, True),
        ("evenings-filter", f"/c/{slug}/evenings/", {"input[name=date_from]": "2026-13-45"}, None, True),
        ("players", f"/c/{slug}/players/", {"#id_name": ""}, None, True),
        ("merge", f"/c/{slug}/players/{anne.pk}/merge/?with={bert.pk}", None, None, True),
    ]
    for width, height in ((390, 844), (360, 640)):
        outdir = OUT / f"{width}"
        outdir.mkdir(parents=True, exist_ok=True)
        p = phone(width=width, height=height, name=f"tpl-{width}")
        logged = False
        only = os.environ.get("ONLY")
        for name, path, fills, button, login in scenarios:
            if only and name not in only.split(","):
                continue
            if login and not logged:
                p.login("adele", next_path="/evenings/")
                logged = True
            p.page.goto(p.url(path))
            p.page.wait_for_load_state("load")
            p.page.screenshot(path=str(outdir / f"{name}-get.png"), full_page=True)
            if fills:
                try:
                    _submit(p.page, fills, button)
                    p.page.wait_for_load_state("load")
                    p.page.screenshot(path=str(outdir / f"{name}-invalid.png"), full_page=True)
                    (outdir / f"{name}-invalid.html").write_text(p.page.content())
                except Exception as exc:  # noqa: BLE001
                    print("FAILED", name, exc)
