"""The pages issue 29 brought, on a phone at 390x844 and 360x640, as people use them: a secretary back
after a restore chooses her password from the link the operator gave her and makes a member's link
on the members page; the member chooses his and is in; the director makes the night's ranking link
(shown once, with its QR); a scorer imports an evening file into the club (the question about the
rules); a night for 2 a point asks to be confirmed. Each page is checked by axe-core, for tap targets
and text sizes (test_accessibility.check), and photographed."""

import json
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

import night_builders
from browser.test_accessibility import check, inspect
from club_fixtures import admin  # noqa: F401 (Adèle, the club admin)
from night_builders import EIGHT
from scorebook.accounts import password_links
from scorebook.clubs.models import Club, Membership, Role

pytestmark = pytest.mark.django_db(transaction=True)

FILE = json.dumps(
    {
        "format": "scorebook-evening/1",
        "ruleset": "kleurenwiezen",
        "date": "2026-02-20",
        "players": ["Anne", "Bert", "Carl", "Dina"],
        "first_dealer": "Anne",
        "deals": [{"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 10}],
    }
)


def restored(username: str, first_name: str):
    """An account restored from a club's backup: no password, never logged in."""
    user = get_user_model().objects.create(username=username, first_name=first_name)
    user.set_unusable_password()
    user.save()
    return user


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 640)])
def test_a_restored_club_gets_back_in_and_the_new_pages_work_on_a_phone(phone, scorer, width, height):
    club = Club.objects.create(name="De Troef", slug="de-troef")
    secretary, member = restored("adele", "Adèle"), restored("mia", "Mia")
    Membership.objects.create(club=club, user=secretary, role=Role.ADMIN)
    Membership.objects.create(club=club, user=member, role=Role.MEMBER)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    night = night_builders.night(club, scorer, EIGHT, day=date(2026, 11, 21), seed=0, ranking_link=False)
    problems: list[str] = []
    size = f"{width}"

    # the secretary opens the link the operator handed her
    adele = phone(width=width, height=height, name=f"restored-secretary-{size}")
    check(adele, password_links.address(password_links.make(secretary)), "01-choose-password", problems)
    adele.page.fill("#id_new_password1", "een-lang-wachtwoord")
    adele.page.fill("#id_new_password2", "een-lang-wachtwoord")
    with adele.page.expect_navigation():
        adele.tap("main form button.primary")
    expect(adele.page.locator(".messages")).to_contain_text("Your password is set")
    check(adele, f"/c/{club.slug}/members/", "02-members-no-password-yet", problems)
    row = adele.page.locator("li.member", has_text="Mia")
    with adele.page.expect_navigation():
        adele.tap(row.locator("form[action$='/password-link/'] button"))
    link = adele.page.locator("li.member", has_text="Mia").locator("input.invite-link").input_value()
    assert "/accounts/password/" in link
    inspect(adele, "the members page, a link shown", "03-members-link-shown", problems)

    # the member opens it on his phone
    mia = phone(width=width, height=height, name=f"restored-member-{size}")
    mia.page.goto(link)
    mia.page.fill("#id_new_password1", "mijn-eigen-wachtwoord")
    mia.page.fill("#id_new_password2", "mijn-eigen-wachtwoord")
    with mia.page.expect_navigation():
        mia.tap("main form button.primary")
    mia.goto(f"/c/{club.slug}/")
    mia.shot("04-member-in")
    gone = mia.page.goto(link)
    assert gone is not None and gone.status == 410

    # the director makes the ranking link
    marie = phone(width=width, height=height, name=f"restored-director-{size}")
    marie.login(scorer.username, next_path=f"/nights/{night.pk}/")
    check(marie, f"/nights/{night.pk}/", "05-night-no-link-yet", problems)
    marie.page.locator("#ranking-link").scroll_into_view_if_needed()
    with marie.page.expect_navigation():
        marie.tap("form[action$='/ranking-link/'] button")
    expect(marie.page.locator(".night-qr svg")).to_be_visible()
    inspect(marie, "the ranking link, shown once", "06-ranking-link-shown-once", problems)
    ranking = marie.page.locator(".night-url a").get_attribute("href")
    check(marie, f"/c/{club.slug}/nights/", "07-nights-ranking-without-link", problems)
    hall = phone(width=width, height=height, name=f"restored-hall-{size}")
    hall.page.goto(ranking)
    expect(hall.page.locator(".night-status")).to_contain_text("Provisional")

    # an evening file into the club: which rules
    check(marie, "/evenings/import/", "08-import-which-rules", problems)
    marie.page.select_option("#id_club", str(club.pk))
    marie.page.fill("#id_text", FILE)
    with marie.page.expect_navigation():
        marie.tap("form.sb-form button[type=submit]")
    expect(marie.page.locator(".messages")).to_contain_text("scored with the club's house rules")
    inspect(marie, "the imported evening", "09-imported-rules-named", problems)

    # a night for 2 a point asks to be confirmed
    check(marie, f"/c/{club.slug}/nights/new/", "10-new-night-stake", problems, refuse={"#id_stake": "2"})
    expect(marie.page.locator("#id_confirm_stake")).to_be_visible()
    assert problems == [], "\n".join(problems)
