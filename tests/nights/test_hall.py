"""The hall's live ranking (hall.py, ``ranking_live``): the page polls with its marks (every half
minute from when it was opened) and the version of the region it shows (a key of what it was made
from, a fingerprint of what it shows); it is told 304 when that is what it would be shown now, even
a mark later when nothing it shows changed; it is sent the rows that changed when it shows the
ranking of its mark before; a deal recorded after the page's last mark counts from its next one, a
closed session and a correction at once; a poll writes nothing and reads the same whatever the
deals played."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from night_builders import deal, tables
from scorebook.core.formatting import signed_points
from scorebook.evenings import services as evenings
from scorebook.nights import hall, services

# the hall reads the deals' stored JSON results, compares their times and sums its key in SQL
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

ASKS = re.compile(r'hx-headers="\{&quot;If-None-Match&quot;: &quot;\\&quot;([0-9a-f.]+)\\&quot;&quot;\}"')
POLLS = re.compile(r'id="live-poll" hidden hx-get="live/\?p=(\d+)"')


@pytest.fixture
def follower(client):
    """Someone in the hall with the ranking's link on his phone: no account."""
    return client


def page(client, night) -> tuple[str, str | None]:
    """The ranking page, and the version of the region it shows (what its poll sends back; None: it
    does not poll). Its marks: ``poll``'s, the clock being stopped (the ``clock`` fixture)."""
    html = client.get(reverse("night_ranking", args=[night.ranking_token])).content.decode()
    asks, polls = ASKS.search(html), POLLS.search(html)
    assert (asks is None) == (polls is None) and (polls is None or int(polls.group(1)) == phase())
    return html, asks and f'"{asks.group(1)}"'


def phase() -> int:
    """The marks of a page opened in the test: the stopped clock's seconds, as the page says."""
    return int(hall.time.time()) % hall.TICK_SECONDS


def poll(client, night, version: str | None):
    """The page's poll, as htmx sends it: its address (its marks) and its version."""
    headers = {"HX-Request": "true"} | ({"If-None-Match": version} if version else {})
    url = reverse("night_ranking_live", args=[night.ranking_token])
    return client.get(f"{url}?p={phase()}", headers=headers)


def version_in(response) -> str:
    return f'"{ASKS.search(response.content.decode()).group(1)}"'


def test_it_answers_304_to_the_page_whose_region_is_current(follower, make_night, director, clock):
    night = make_night(players=8)
    t = tables(night)[0]
    clock.record(t)
    clock.later()
    html, version = page(follower, night)
    assert "+11" in html and 'id="rank-8"' in html
    unchanged = poll(follower, night, version)
    assert unchanged.status_code == 304 and unchanged["ETag"] == version and unchanged.content == b""


def test_it_answers_304_a_mark_later_when_nothing_the_page_shows_changed(follower, make_night, director, clock):
    """A deal without points (an all pass) and a director's change of nothing shown change every
    version of the night; not what the hall sees."""
    night = make_night(players=8)
    _html, version = page(follower, night)
    t = tables(night)[0]
    clock.record(t, {"contract": "pass"})
    services.table_links(night, session=1)  # new cards for the tables: nothing shown either
    clock.later()
    assert poll(follower, night, version).status_code == 304


def test_it_sends_the_rows_that_changed_since_the_mark_before(follower, make_night, director, clock):
    night = make_night(players=16)
    t = tables(night)[1]
    clock.record(t)  # its seats 2 and 4: +11, the others -11
    clock.later()
    _html, version = page(follower, night)
    clock.record(t)  # again: +22 and -22, the twelve others still 0
    clock.later()
    answer = poll(follower, night, version)
    text = answer.content.decode()
    assert answer.status_code == 200 and answer["HX-Reswap"] == "none"  # out of band only
    moved = re.findall(r'<tr id="rank-(\d+)" hx-swap-oob="true">', text)
    assert moved == ["1", "2", "15", "16"] and "<table" not in text
    assert "+22" in text and "\u221222" in text
    assert version_in(answer) == answer["ETag"] != version  # the page's next version, out of band
    assert poll(follower, night, answer["ETag"]).status_code == 304
    for position in moved:  # each row sent is the row the page now shows there
        row = re.search(rf'<tr id="rank-{position}"[^>]*>(.*?)</tr>', text).group(1)
        assert row in page(follower, night)[0]


def test_each_page_moves_at_its_own_marks_from_when_it_was_opened(follower, make_night, clock):
    """A page opened shows every deal recorded until then, and then moves every half minute from
    then: the pages of the hall do not all ask for the new ranking in the same seconds."""
    night = make_night(players=8)
    _html, early = page(follower, night)
    early_polls = f"?p={phase()}"
    t = tables(night)[0]
    clock.record(t)
    clock.later(10)
    html, late = page(follower, night)  # opened 10 s later: the deal is shown
    assert "+11" in html and phase() != int(early_polls[3:])
    url = reverse("night_ranking_live", args=[night.ranking_token])
    headers = {"HX-Request": "true", "If-None-Match": early}
    assert follower.get(url + early_polls, headers=headers).status_code == 304  # not before its mark
    clock.later(20)
    moved = follower.get(url + early_polls, headers=headers)
    assert moved.status_code == 200 and moved["HX-Reswap"] == "none" and "+11" in moved.content.decode()
    assert poll(follower, night, late).status_code == 304  # the later page is current


def test_it_sends_the_whole_region_to_a_page_it_cannot_tell(follower, make_night, director, clock):
    night = make_night(players=8)
    _html, version = page(follower, night)
    t = tables(night)[0]
    for _ in range(2):  # two marks behind: the page's rows are not those of the mark before
        clock.record(t)
        clock.later()
    for asked in (version, '"no-such-version"', None):
        whole = poll(follower, night, asked)
        assert whole.status_code == 200 and "HX-Reswap" not in whole
        assert whole.content.decode().count('<tr id="rank-') == 8 and "hx-swap-oob" in whole.content.decode()


def test_a_deal_and_a_closed_session_show_from_the_pages_next_mark_a_correction_at_once(
    follower, make_night, director, clock
):
    night = make_night(players=8)
    t = tables(night)[0]
    _html, version = page(follower, night)
    recorded = clock.record(t)
    assert poll(follower, night, version).status_code == 304  # recorded after the page's mark: not yet
    clock.later()
    moved = poll(follower, night, version)
    assert moved.status_code == 200 and "+11" in moved.content.decode()
    version = moved["ETag"]
    clock.record(t)
    evenings.edit_deal(t.evening, 1, deal(t.evening, made=False), director, recorded.deal.version)
    corrected = poll(follower, night, version)  # deal 1 corrected: at once (deal 2 not counted yet)
    assert corrected.status_code == 200 and "+11" not in corrected.content.decode()
    clock.close(night, 1)
    with CaptureQueriesContext(connection) as queries:  # closed after its mark: from the next one
        assert poll(follower, night, corrected["ETag"]).status_code == 304
    assert len(queries) == 2  # its key: nothing it is made of changed, nothing computed
    clock.later()
    closed = poll(follower, night, corrected["ETag"])
    text = closed.content.decode()
    assert closed.status_code == 200 and closed["HX-Reswap"] == "none"  # the rows that changed, and the status
    both = signed_points(t.evening.seats.get(position=1).points)  # deal 1 corrected, and deal 2
    assert f'<td class="night-total">{both}</td>' in text
    assert '<p id="live-status" class="night-status" hx-swap-oob="true">Provisional: 1 session of 2 closed.' in text


def test_it_stops_the_polling_with_the_final_ranking_at_once(follower, make_night, director, clock):
    night = make_night(players=8)
    _html, version = page(follower, night)
    t = tables(night)[0]
    clock.record(t)
    for session in (1, 2):
        clock.close(night, session)
    final = poll(follower, night, version)  # every session closed: the final ranking, before the page's mark
    assert final.status_code == 286  # htmx: stop polling
    text = final.content.decode()
    assert "Final ranking" in text and "+11" in text and 'id="live-poll"' not in text
    assert 'id="live-poll"' not in page(follower, night)[0]  # a page opened now does not poll


def test_a_poll_writes_nothing_and_reads_the_same_whatever_the_deals_played(follower, make_night, clock):
    night = make_night(players=16)
    version = page(follower, night)[1]

    def reads(version) -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            status = poll(follower, night, version).status_code
        writes = [q["sql"] for q in queries if q["sql"].split()[0].upper() in {"INSERT", "UPDATE", "DELETE"}]
        assert writes == []
        return status, len(queries)

    assert reads(version) == (304, 2)  # current: the key of what it is made of, two small queries
    whole = []
    for deals in (1, 6):
        for _ in range(deals):
            for t in tables(night):
                clock.record(t)
        clock.later()
        whole.append(reads(None))
    # the key, the night, who takes part, the tables' seats, the deals since the mark before
    assert whole[0] == whole[1] == (200, 6)
