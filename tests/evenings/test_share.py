"""The share page (owner only) and the public read-only score page with its live region."""

import html as htmllib
import re

import pytest
from django.urls import reverse

from pages import Element, Page
from scorebook.evenings import services, stored
from scorebook.evenings.models import Deal, Evening

pytestmark = pytest.mark.django_db

FIVE = ("Anne", "Bert", "Carl", "Dina", "Eric")
SAMEN_8 = {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 9}
# With five at the table the first dealer, Anne, sits out: Bert, Carl, Dina and Eric play.
SAMEN_8_FIVE = {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 9}


def public_url(evening):
    return reverse("evening_public", args=[evening.share_token])


def live_url(evening):
    return reverse("evening_public_live", args=[evening.share_token])


def text_of(response) -> str:
    """The page's text without tags and with collapsed spaces, to read it as a person would."""
    html = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", htmllib.unescape(html))


def main_of(response) -> Element:
    """The page's own content, without the site's top bar."""
    return Page(response.content.decode()).one("main")


# --- the share page ------------------------------------------------------------------


def make_link(client, evening):
    """The owner makes the read-only link: the page that answers is the only one that shows it."""
    return client.post(reverse("evening_share_reset", args=[evening.pk]))


@pytest.mark.both_databases
def test_it_shows_the_owner_the_absolute_link_a_copy_field_and_an_inline_qr_code(scorer_client, make_evening):
    evening = make_evening()
    response = make_link(scorer_client, evening)
    assert response.status_code == 200
    html = response.content.decode()
    link = response.context["url"]
    assert re.fullmatch(r"http://testserver/s/[\w-]+\.[\w-]{32}/", link)
    page = Page(html)
    field = page.one("input#share-url")
    assert field.get("value") == link and field.has("readonly")
    assert page.one("button[data-copy-target=share-url]").has("hidden")  # shown by the script
    assert re.fullmatch(r"0 0 \d+ \d+", page.one("svg.qr-code").get("viewBox"))
    assert page.all("img") == []
    assert scorer_client.get(link).status_code == 200


@pytest.mark.both_databases
def test_it_encodes_the_link_in_the_qr_code(scorer_client, make_evening):
    import segno

    evening = make_evening()
    response = make_link(scorer_client, evening)
    expected = segno.make(response.context["url"], error="m")
    rows = Page(response.content.decode()).one("svg.qr-code").get("viewBox").split()[2]
    assert int(rows) == expected.symbol_size(scale=1, border=4)[0]
    assert response.context["qr"] == expected.svg_inline(
        scale=1,
        border=4,
        dark="#111418",
        light="#ffffff",
        omitsize=True,
        svgclass="qr-code",
        title="QR code of the read-only link",
    )


def test_it_hides_the_share_page_from_an_outsider(outsider_client, make_evening):
    evening = make_evening()
    assert outsider_client.get(reverse("evening_share", args=[evening.pk])).status_code == 404


def test_it_has_no_inline_script_on_the_share_and_public_pages(scorer_client, make_evening):
    evening = make_evening(deals=[SAMEN_8])
    for url in (reverse("evening_share", args=[evening.pk]), public_url(evening)):
        html = scorer_client.get(url).content.decode()
        scripts = re.findall(r"<script[^>]*>", html)
        assert scripts, url
        assert all(" src=" in tag for tag in scripts), scripts
        assert re.findall(r"<script[^>]*>(.*?)</script>", html, re.S) == [""] * len(scripts)  # empty bodies
        assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers
        assert "style=" not in html


# --- the public page -----------------------------------------------------------------


def test_it_shows_the_public_page_without_a_login(client, make_evening):
    evening = make_evening(players=FIVE, deals=[SAMEN_8_FIVE])
    response = client.get(public_url(evening))
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"]
    assert "noindex" in response["X-Robots-Tag"]
    assert '<meta name="robots" content="noindex, nofollow">' in response.content.decode()


def test_it_shows_every_running_total_with_the_leader_marked(client, make_evening):
    evening = make_evening(players=FIVE, deals=[SAMEN_8_FIVE])
    response = client.get(public_url(evening))
    standings = {p["name"]: p for p in response.context["standings"]}
    assert {name: p["total"] for name, p in standings.items()} == {
        "Bert": 11,
        "Dina": 11,
        "Carl": -11,
        "Eric": -11,
        "Anne": 0,
    }
    assert [p["name"] for p in response.context["standings"] if p["leader"]] == ["Bert", "Dina"]
    html = response.content.decode()
    assert html.count("sb-total is-leader") == 2
    assert "+11" in html and "−11" in html


def test_it_marks_no_leader_before_the_first_deal(client, make_evening):
    evening = make_evening()
    response = client.get(public_url(evening))
    assert not any(p["leader"] for p in response.context["standings"])
    assert "No deal yet" in text_of(response)


def test_it_says_whose_deal_is_next_and_who_sits_out(client, make_evening):
    evening = make_evening(players=FIVE, deals=[SAMEN_8_FIVE])
    text = text_of(client.get(public_url(evening)))
    assert "Bert deals next" in text  # Anne dealt the first deal
    assert "Bert sits out" in text  # with five, the dealer sits out
    assert "Anne sits out" not in text


def test_it_shows_the_last_deals_with_their_effect_on_every_player(client, make_evening):
    deals = [
        {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 9},
        {"contract": "pass"},
        {"contract": "kleine-miserie", "declarers": ["Bert", "Dina"], "tricks": {"Bert": 0, "Dina": 2}},
    ]
    evening = make_evening(deals=deals)
    response = client.get(public_url(evening))
    rows = response.context["last_deals"]
    assert [row.number for row in rows] == [3, 2, 1]  # newest first
    assert rows[0].description == "small misère · Bert 0, Dina 2"  # the scoring page's words
    assert rows[0].outcome == "mixed"
    assert rows[0].note == "Bert made, Dina failed"
    assert rows[0].multiplier == 2  # after everyone passed
    # petite misère is 6 from each opponent (18 to the declarer), doubled after the pass:
    # Bert makes it (+36) and gains 12 from Dina's failure; Anne and Carl lose 12 and gain 12
    assert [(c.name, c.delta) for c in rows[0].effects] == [("Bert", 48), ("Dina", -48)]
    assert rows[1].outcome == "" and rows[1].effects == []
    assert rows[2].outcome == "made"
    assert [(c.name, c.delta) for c in rows[2].effects] == [("Anne", 11), ("Bert", -11), ("Carl", 11), ("Dina", -11)]
    text = text_of(response)
    assert "together 8 · Anne & Carl · 9 tricks" in text and "Dina −48" in text and "×2" in text


def test_it_lists_only_the_last_ten_deals(client, make_evening):
    deals = [{"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 8 + n % 2} for n in range(12)]
    evening = make_evening(deals=deals)
    response = client.get(public_url(evening))
    assert [row.number for row in response.context["last_deals"]] == list(range(12, 2, -1))
    assert "The last 10 deals of 12." in text_of(response)


def test_it_shows_the_bete_in_encheres(client, make_evening):
    deals = [
        {"contract": "solo", "declarers": ["Anne"], "tricks": 5},  # fails: 8 jetons into the bête
        {"contract": "abondance", "declarers": ["Bert"], "tricks": 8},  # fails: 22
    ]
    evening = make_evening("encheres", deals=deals)
    response = client.get(public_url(evening))
    assert response.context["has_bete"] and response.context["pot"] == 30
    text = text_of(response)
    assert re.search(r"Bête 30 jetons", text)
    assert [row.pot for row in response.context["last_deals"]] == [30, 8]


def test_it_shows_no_bete_outside_encheres(client, make_evening):
    evening = make_evening(deals=[SAMEN_8])
    response = client.get(public_url(evening))
    assert not response.context["has_bete"]
    assert "sb-bete" not in response.content.decode()


def test_it_shows_the_robre_state_in_classique(client, make_evening):
    deals = [
        {"tricks": [9, 4], "honours": [3, 0]},  # 3 + 2 honours
        {"tricks": [8, 5], "honours": [4, 0]},  # 5 + 2 + 4 = 11: manche to Anne & Carl
        {"tricks": [5, 8], "honours": [0, 0]},  # 2 for Bert & Dina
    ]
    evening = make_evening("classique", deals=deals)
    response = client.get(public_url(evening))
    robre = response.context["robre"]
    assert robre["number"] == 1
    assert [(t["names"], t["manches"], t["points"]) for t in robre["teams"]] == [
        ("Anne & Carl", 1, 0),
        ("Bert & Dina", 0, 2),
    ]
    assert robre["teams"][0]["dots"] == [True, False]
    text = text_of(response)
    assert (
        "Robre 1" in text and "manche to Anne & Carl (3)" in text and "manche 0 – 2" in text
    )  # the scoring page's words


def test_it_counts_the_finished_robres(client, make_evening):
    deals = [
        {"tricks": [13, 0], "honours": [4, 0]},
        {"tricks": [13, 0], "honours": [4, 0]},
    ]
    evening = make_evening("classique", deals=deals)
    response = client.get(public_url(evening))
    assert response.context["robre"]["number"] == 2
    assert "1 robre finished this evening." in text_of(response)
    assert "manche to Anne & Carl (3) · robre 8 – 0" in text_of(response)


def test_it_says_when_the_evening_is_over(client, make_evening):
    evening = make_evening(deals=[SAMEN_8])
    Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.CLOSED)
    text = text_of(client.get(public_url(evening)))
    assert "final score" in text
    assert "deals next" not in text


def test_it_404s_for_an_unknown_token(client, make_evening):
    make_evening()
    assert client.get(reverse("evening_public", args=["not-a-token"])).status_code == 404
    assert client.get(reverse("evening_public_live", args=["not-a-token"])).status_code == 404


def test_it_never_shows_edit_controls_on_the_public_page(scorer_client, make_evening):
    evening = make_evening(deals=[SAMEN_8])
    response = scorer_client.get(public_url(evening))  # even to the owner
    main = main_of(response)
    assert [e.tag for e in main.elements() if e.tag in ("form", "button", "input", "select", "textarea")] == []
    strings = " ".join(main.strings())
    for name in ("deal_record", "evening_share", "evening_export", "evening_close", "settlement"):
        assert reverse(name, args=[evening.pk]) not in strings
    assert f"/e/{evening.pk}/" not in strings
    assert [e for e in main.elements() if e.has("hx-post") or e.has("hx-delete")] == []
    page = response.content.decode()
    for name in ("deal_record", "evening_share", "evening_export"):
        assert reverse(name, args=[evening.pk]) not in page


def test_it_refuses_writes_to_the_public_urls(client, make_evening):
    evening = make_evening(deals=[SAMEN_8])
    for url in (public_url(evening), live_url(evening)):
        assert client.post(url, {"contract": "pass"}).status_code == 405
        assert client.delete(url).status_code == 405


def test_it_never_lets_the_token_write_to_the_scoring_urls(client, make_evening):
    evening = make_evening(deals=[SAMEN_8])
    client.get(public_url(evening))  # the visitor has seen the public page
    before = (Deal.objects.count(), Evening.objects.get(pk=evening.pk).version)
    token = evening.share_token
    attempts = [
        ("deal_record", [evening.pk], {"contract": "pass"}),
        ("deal_edit", [evening.pk, 1], {"contract": "pass"}),
        ("deal_delete", [evening.pk, 1], {}),
        ("adjustment", [evening.pk], {"Anne": "5"}),
        ("evening_close", [evening.pk], {}),
    ]
    for name, args, data in attempts:
        url = reverse(name, args=args)
        for response in (
            client.post(url, {**data, "token": token}),
            client.post(f"{url}?token={token}", data),
            client.post(url, data, HTTP_REFERER=f"http://testserver{public_url(evening)}"),
        ):
            assert response.status_code in (302, 403, 404, 405), (name, response.status_code)
            if response.status_code == 302:
                assert response["Location"].startswith(reverse("login"))
    assert (Deal.objects.count(), Evening.objects.get(pk=evening.pk).version) == before


# --- the live region -----------------------------------------------------------------


def test_it_polls_the_live_region_every_four_seconds(client, make_evening):
    evening = make_evening(deals=[SAMEN_8])
    html = client.get(public_url(evening)).content.decode()
    page = Page(html)
    region = page.one("div#live")
    assert region.get("hx-get") == live_url(evening)
    assert region.get("hx-trigger") == "every 4s"
    assert any(re.fullmatch(r"/static/js/htmx-[\d.]+\.min\.js", s.get("src")) for s in page.all("script[src]"))
    assert page.all(f"a[href={public_url(evening)}]") and "Refresh" in page.text  # for a phone without JS
    assert page.all("meta[http-equiv]") == []  # no meta refresh fighting htmx


def test_it_answers_the_live_region_with_the_totals_and_an_etag(client, make_evening):
    evening = make_evening(deals=[SAMEN_8])
    response = client.get(live_url(evening))
    assert response.status_code == 200
    assert response["ETag"]
    assert "no-cache" in response["Cache-Control"]
    html = response.content.decode()
    assert "<html" not in html  # a fragment
    assert "sb-totals" in html and "+11" in html


def test_it_answers_304_when_nothing_changed(client, make_evening):
    evening = make_evening(deals=[SAMEN_8])
    etag = client.get(live_url(evening))["ETag"]
    response = client.get(live_url(evening), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag
    assert "no-cache" in response["Cache-Control"]


def test_it_does_not_score_the_evening_for_a_304(client, make_evening, monkeypatch, django_assert_num_queries):
    evening = make_evening(deals=[SAMEN_8])
    etag = client.get(live_url(evening))["ETag"]

    def must_not_score(*args, **kwargs):
        raise AssertionError("a 304 must not score the evening")

    monkeypatch.setattr(stored, "scored", must_not_score)
    monkeypatch.setattr(stored, "read_sheet", must_not_score)
    with django_assert_num_queries(1):  # the version, nothing else
        response = client.get(live_url(evening), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304


@pytest.mark.both_databases
def test_it_answers_200_with_the_new_totals_after_a_deal(client, make_evening, scorer):
    evening = make_evening(deals=[SAMEN_8])
    etag = client.get(live_url(evening))["ETag"]
    services.record_deal(evening, {"contract": "alleen-5", "declarers": ["Dina"], "tricks": 6}, scorer)
    response = client.get(live_url(evening), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag
    totals = {p["name"]: p["total"] for p in response.context["standings"]}
    assert totals == {"Anne": 11 - 4, "Bert": -11 - 4, "Carl": 11 - 4, "Dina": -11 + 12}
    assert client.get(live_url(evening), HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


@pytest.mark.both_databases
def test_it_answers_200_after_a_deal_is_deleted_or_the_evening_closes(client, make_evening, scorer):
    evening = make_evening(deals=[SAMEN_8, SAMEN_8])
    etag = client.get(live_url(evening))["ETag"]
    services.delete_deal(evening, 2, scorer)
    response = client.get(live_url(evening), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and response.context["deal_count"] == 1
    etag = response["ETag"]
    services.set_status(evening, Evening.Status.CLOSED)
    response = client.get(live_url(evening), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 286 and "final score" in response.content.decode()  # htmx: stop polling


@pytest.mark.both_databases
def test_it_tells_the_page_to_stop_polling_a_closed_evening_whatever_it_holds(client, make_evening):
    evening = make_evening(deals=[SAMEN_8])
    services.set_status(evening, Evening.Status.CLOSED)
    first = client.get(live_url(evening))
    assert first.status_code == 286 and "ETag" not in first
    again = client.get(live_url(evening), HTTP_IF_NONE_MATCH='"anything"')
    assert again.status_code == 286 and "final score" in again.content.decode()


def test_it_gives_each_evening_its_own_etag(client, make_evening):
    first, second = make_evening(), make_evening()
    assert first.version == second.version == 0
    etag = client.get(live_url(first))["ETag"]
    assert client.get(live_url(second), HTTP_IF_NONE_MATCH=etag).status_code == 200


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_revokes_the_read_only_link_with_a_new_one(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen")
    old = evening.share_token
    assert scorer_client.get(f"/s/{old}/").status_code == 200
    response = make_link(scorer_client, evening)
    assert response.status_code == 200
    new = response.context["url"].split("/s/")[1].rstrip("/")
    assert new != old and len(new.split(".")[1]) >= 22  # at least 128 random bits
    assert scorer_client.get(f"/s/{old}/").status_code == 404
    assert scorer_client.get(f"/s/{new}/").status_code == 200


@pytest.mark.django_db
def test_it_lets_only_a_scorer_revoke_the_link(outsider_client, make_evening):
    evening = make_evening("kleurenwiezen")
    assert outsider_client.post(reverse("evening_share_reset", args=[evening.pk])).status_code == 404
    assert outsider_client.get(reverse("evening_share_reset", args=[evening.pk])).status_code == 405
