"""A table scored from its card's link, without an account: that table, that session, while open."""

import pytest
from django.urls import reverse

from night_builders import samen, tables
from scorebook.evenings import links
from scorebook.evenings.models import Deal, ScoringLink, link_token_hash
from scorebook.nights import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_scorer(client):
    """Whoever holds the phone at table 1 of session 1: no account."""
    return client


def open_link(client, token):
    return client.get(reverse("scoring_link", args=[token]))


@pytest.mark.both_databases
def test_it_opens_the_tables_scoring_page_and_records_and_corrects_its_deals(table_scorer, make_night):
    night = make_night()
    table = tables(night)[0]
    token = services.table_link(table)
    response = open_link(table_scorer, token)
    assert response.status_code == 302 and response["Location"] == reverse("evening", args=[table.evening.pk])
    assert table_scorer.get(response["Location"]).status_code == 200
    recorded = table_scorer.post(reverse("deal_record", args=[table.evening.pk]), samen(table.evening))
    assert recorded.status_code == 302
    assert Deal.objects.filter(evening=table.evening).count() == 1
    deal = Deal.objects.get(evening=table.evening)
    corrected = table_scorer.post(
        reverse("deal_edit", args=[table.evening.pk, 1]), {**samen(table.evening, made=False), "version": deal.version}
    )
    assert corrected.status_code == 302
    assert Deal.objects.get(evening=table.evening).data["tricks"] == 7


@pytest.mark.both_databases
def test_it_stores_only_a_hash_of_a_token_of_at_least_128_bits(make_night):
    night = make_night()
    token = services.table_link(tables(night)[0])
    assert len(token) >= 22  # url-safe base64: 6 bits a character
    stored = ScoringLink.objects.get()
    assert stored.token_hash == link_token_hash(token) and token not in stored.token_hash


@pytest.mark.both_databases
def test_it_reaches_nothing_else_with_the_link(table_scorer, make_night, club):
    night = make_night()
    first, other = tables(night)[:2]
    open_link(table_scorer, services.table_link(first))
    assert table_scorer.get(reverse("evening", args=[other.evening.pk])).status_code == 404
    assert table_scorer.post(reverse("deal_record", args=[other.evening.pk]), samen(other.evening)).status_code == 404
    later = tables(night, 2)[0]
    assert table_scorer.get(reverse("evening", args=[later.evening.pk])).status_code == 404
    for name, args in [
        ("club", [club.slug]),
        ("night", [night.pk]),
        ("settlement", [first.evening.pk]),
        ("evening_close", [first.evening.pk]),
        ("evening_list", []),
    ]:
        response = table_scorer.get(reverse(name, args=args))
        assert response.status_code in (302, 405) and "/login/" in response.get("Location", "/login/"), name
    assert not Deal.objects.exists()


@pytest.mark.both_databases
def test_it_refuses_a_revoked_link_at_once_even_on_an_opened_page(table_scorer, make_night):
    night = make_night()
    table = tables(night)[0]
    token = services.table_link(table)
    open_link(table_scorer, token)
    services.revoke_table_link(table)
    refused = table_scorer.post(reverse("deal_record", args=[table.evening.pk]), samen(table.evening))
    # gone for this phone, and it says so (issue 30): not "page not found ... ask for an invitation"
    assert refused.status_code == 410
    assert "This phone no longer scores this table: its link was withdrawn" in refused.content.decode()
    assert open_link(table_scorer, token).status_code == 404


@pytest.mark.both_databases
def test_it_refuses_a_deal_once_the_session_is_closed(table_scorer, make_night, director):
    night = make_night()
    table = tables(night)[0]
    open_link(table_scorer, services.table_link(table))
    services.close_session(night, 1, director)
    response = table_scorer.post(reverse("deal_record", args=[table.evening.pk]), samen(table.evening))
    assert response.status_code == 302
    assert not Deal.objects.exists()


@pytest.mark.both_databases
def test_it_slows_an_address_that_tried_too_many_unknown_links_never_a_valid_card(table_scorer, make_night, caplog):
    """A hall shares one address (issue 20): twenty scans of old cards after a reprint refuse the
    next unknown link, never a valid card, and no log line holds a link."""
    night = make_night()
    token = services.table_link(tables(night)[0])
    for i in range(links.ATTEMPTS):
        assert open_link(table_scorer, f"not-a-real-token-{i:04d}").status_code == 404
    with caplog.at_level("INFO"):
        refused = open_link(table_scorer, "not-a-real-token-9999")
        assert refused.status_code == 429 and "Too many attempts" in refused.content.decode()
        assert open_link(table_scorer, token).status_code == 302  # was 429: the whole hall locked out
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "/t/" in logged and "not-a-real-token-9999" not in logged and token not in logged


def test_no_log_line_holds_a_secret_link():
    import logging

    from scorebook.core.logs import RedactLinks

    record = logging.LogRecord(
        "django.request", logging.WARNING, __file__, 1, "%s: %s", ("Not Found", "/t/Zx9-secret_token/"), None
    )
    RedactLinks().filter(record)
    assert record.getMessage() == "Not Found: /t/…/"
    for path in ("/s/ab.cd/live/", "/r/tok123/players/3/", "/join/inv-xyz/", "/reset/MQ/set-password/"):
        record = logging.LogRecord("django.server", logging.INFO, __file__, 1, f"GET {path} 200", None, None)
        RedactLinks().filter(record)
        assert "…" in record.getMessage() and path.split("/")[2] not in record.getMessage()


@pytest.mark.both_databases
def test_it_makes_a_new_link_that_replaces_the_old_one(table_scorer, make_night):
    night = make_night()
    table = tables(night)[0]
    old = services.table_link(table)
    new = services.table_link(table)
    assert open_link(table_scorer, old).status_code == 404
    assert open_link(table_scorer, new).status_code == 302


def test_the_progress_never_tells_a_stranger_that_a_night_exists(client, cast, make_night, director_client):
    night = make_night()
    url = reverse("night_progress", args=[night.pk])
    tag = director_client.get(url)["ETag"]
    assert director_client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    for who, status in (("outsider", 404), ("member", 403)):
        client.force_login(cast[who])
        assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == status  # was 304 for anyone logged in
        assert client.get(url).status_code == status


def test_the_deployed_proxy_keeps_no_address_in_a_log():
    """nginx's access log would write every table card's and link's token (its addresses): the
    operating guide's server block turns it off; gunicorn's access log, which the guide keeps in the
    journal, hides them with the site's mask (gunicorn.conf.py; tests/test_no_token_in_logs.py)."""
    from bench import deployment

    block = deployment.nginx_block()
    assert "access_log off;" in block
    assert "RedactLinks" in (deployment.ROOT / "gunicorn.conf.py").read_text()
