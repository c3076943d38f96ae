"""A club night's tables are locked to their night (issue 20, item 2; docs/rules/club-nights.md): a table records
no more deals than the night's deals per session, and only the night closes, reopens or deletes it.
Marie (``director``) directs the night."""

import pytest
from django.urls import reverse

from night_builders import deal, tables
from scorebook.evenings import services as evenings
from scorebook.evenings.models import Evening

pytestmark = pytest.mark.django_db


@pytest.mark.both_databases
def test_a_table_of_a_four_deal_night_refuses_a_fifth_deal(make_night, director):
    night = make_night(players=8, deals=4)
    table = tables(night)[0].evening
    for _ in range(4):
        evenings.record_deal(table, deal(table), director)
    with pytest.raises(evenings.DealLimit) as refused:
        evenings.record_deal(table, deal(table), director)
    assert "its 4 deals of the session" in refused.value.message
    assert table.deals.count() == 4


@pytest.mark.both_databases
def test_the_scoring_page_says_the_table_has_played_its_deals(director_client, make_night, director):
    night = make_night(players=8, deals=1)
    table = tables(night)[0].evening
    evenings.record_deal(table, deal(table), director)
    names = [s.name for s in table.seats.all()]
    response = director_client.post(
        reverse("deal_record", args=[table.pk]),
        {"contract": "samen-9", "declarers": [names[1], names[3]], "tricks": "9"},
        follow=True,
    )
    assert "its 1 deal of the session" in response.content.decode()
    assert table.deals.count() == 1


@pytest.mark.both_databases
def test_a_put_back_deal_respects_the_limit_too(make_night, director):
    night = make_night(players=8, deals=1)
    table = tables(night)[0].evening
    evenings.record_deal(table, deal(table), director)
    evenings.delete_deal(table, 1, director)
    evenings.record_deal(table, deal(table), director)
    revision = table.revisions.filter(action="deleted").get()
    with pytest.raises(evenings.DealLimit):
        evenings.restore_deal(table, revision.pk, director)


@pytest.mark.both_databases
@pytest.mark.parametrize(
    "act",
    [
        lambda e, u: evenings.set_status(e, Evening.Status.CLOSED, u, admin=True),
        lambda e, u: evenings.delete_evening(e),
        lambda e, u: evenings.set_archived(e, True),
        lambda e, u: evenings.new_share_link(e),
    ],
    ids=["close", "delete", "archive", "share"],
)
def test_only_the_night_closes_deletes_archives_or_shares_a_table(make_night, director, act):
    night = make_night(players=8)
    table = tables(night)[0].evening
    with pytest.raises(evenings.Managed):
        act(table, director)
    table.refresh_from_db()
    assert table.is_open and not table.archived and not table.share_id


@pytest.mark.both_databases
def test_the_night_still_closes_and_reopens_its_tables(make_night, director):
    from scorebook.nights import services as nights

    night = make_night(players=8)
    nights.close_session(night, 1, director)
    assert {t.evening.status for t in tables(night)} == {"closed"}
    nights.reopen_session(night, 1, "A deal to correct", director)
    assert {t.evening.status for t in tables(night)} == {"open"}
    assert night.events.first().detail == "A deal to correct"


def test_the_table_page_offers_none_of_the_nights_acts(director_client, make_night):
    night = make_night(players=8)
    table = tables(night)[0].evening
    html = director_client.get(reverse("settlement", args=[table.pk])).content.decode()
    for name in ("evening_close", "evening_delete", "evening_archive"):
        assert reverse(name, args=[table.pk]) not in html
    assert "belongs to a club night" in html
    assert (
        reverse("evening_share", args=[table.pk])
        not in director_client.get(reverse("evening", args=[table.pk])).content.decode()
    )


def test_the_tables_phone_page_names_its_night_table_and_session(director_client, make_night):
    from pages import Page, body

    night = make_night(players=8)
    table = tables(night, 2)[1]
    page = Page(body(director_client.get(reverse("evening", args=[table.evening.pk]))))
    assert page.one("h1").text == "Kaartavond · Table 2 · session 2"


@pytest.mark.parametrize("name", ["evening_close", "evening_archive", "evening_share"])
def test_an_admin_refused_on_a_nights_table_is_told_it_belongs_to_the_night(client, admin, make_night, name):
    """Not "your role does not allow this" (issue 30): Adèle is the club's admin; the table's page
    says which night, table and session it belongs to, and who runs it."""
    night = make_night(players=8)
    table = tables(night)[0].evening
    client.force_login(admin)
    response = (
        client.post(reverse(name, args=[table.pk]))
        if name != "evening_share"
        else client.get(reverse(name, args=[table.pk]))
    )
    assert response.status_code == 403
    text = response.content.decode()
    assert "Kaartavond · Table 1 · session 1 belongs to a club night: only its director" in text
    assert "Your role does not allow this" not in text
    table.refresh_from_db()
    assert table.is_open and not table.archived


@pytest.mark.both_databases
def test_the_tables_phone_says_its_sessions_deals_are_done_after_its_last_deal(director_client, make_night):
    """After its last deal of the session a table's page offers no "Deal 5" (issue 30): the answer to
    that deal is the whole board, which says the session's deals are done, without the record form;
    the deals can still be corrected."""
    night = make_night(players=8, deals=2)
    table = tables(night)[0].evening
    names = [s.name for s in table.seats.order_by("position")]
    answer = None
    for declarers in ([names[1], names[3]], [names[0], names[2]]):
        answer = director_client.post(
            reverse("deal_record", args=[table.pk]),
            {"contract": "samen-9", "declarers": declarers, "tricks": "9"},
            headers={"HX-Request": "true"},
        )
        assert answer.status_code == 200
    html = answer.content.decode()
    assert "This session's deals are done: the table has played its 2 deals." in html
    assert 'id="record"' not in html and 'id="save-deal"' not in html and "Deal 3" not in html
    assert "Only the club's scorers record deals" not in html
    page = director_client.get(reverse("evening", args=[table.pk])).content.decode()
    assert "This session's deals are done" in page and 'id="record"' not in page
    assert reverse("deal_edit", args=[table.pk, 2]) in page
