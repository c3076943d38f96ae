"""A link used up while its page was open: tapping Join says so in words on a phone (409), never a 404."""

import pytest
from django.db.models import F

from scorebook.clubs import services
from scorebook.clubs.models import Club, Invitation, Membership, Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 360])
def test_it_tells_a_phone_that_the_link_stopped_working(phone, make_user, scorer, width):
    club = services.create_club(name="De Troef", slug="de-troef", user=scorer)
    invitation, token = services.create_invitation(club, scorer, role=Role.MEMBER, days=7, uses=1)
    make_user("nina")
    p = phone(width=width, name=f"join-link-stopped-{width}")
    p.login("nina", next_path=f"/join/{token}/")
    p.goto(f"/join/{token}/")
    Invitation.objects.filter(pk=invitation.pk).update(uses=F("max_uses"))  # someone else took the last use
    with p.page.expect_navigation() as navigation:
        p.tap('button[type="submit"]:has-text("Join the club")')
    assert navigation.value.status == 409
    text = " ".join(p.page.locator("main").inner_text().split())
    assert "This invitation link no longer works" in text and "ask the club for a new link" in text
    assert "De Troef" not in text
    assert p.page.evaluate("() => document.documentElement.scrollWidth") <= width
    p.shot("page")
    assert not Membership.objects.filter(club=Club.objects.get(), user__username="nina").exists()
