# ruff: noqa: F811 (the editor tests' fixtures are imported)
"""The house-rules editor against mistakes (issue 15, point 4): a contract's value is changed once and
fills its whole grid, or its family's, with a preview before anything is saved; a grid that is no
longer zero-sum where the preset is must be confirmed; half-edited rows are flagged; the all-pass
doubling is a tick box."""

from __future__ import annotations

import re

import pytest

from clubs.test_house_rules_views import (  # noqa: F401 (fixtures)
    admin_client,
    cell,
    club,
    edit_url,
    form_data,
    in_english,
    overrides,
)
from pages import body

pytestmark = pytest.mark.django_db

KEY = "kleurenwiezen"


def preview(client, club, contract, **changes):
    page = client.get(edit_url(club, KEY))
    data = form_data(page, **changes)
    data["action"] = f"schedule:{contract}"
    return client.post(edit_url(club, KEY), data)


def figures(response, contract, outcome, tricks):
    html = body(response)
    values = []
    for side in ("declarer", "opponent"):
        name = cell(contract, outcome, tricks, side)
        values.append(int(re.search(rf'name="{re.escape(name)}"[^>]*value="(-?\d+)"', html).group(1)))
    return values


def save(client, club, response, **changes):
    data = form_data(response, **changes)
    data.pop("action", None)
    return client.post(edit_url(club, KEY), data)


@pytest.mark.both_databases
def test_it_changes_a_misere_once_and_previews_its_28_boxes_before_saving(admin_client, club):
    response = preview(
        admin_client, club, "grote-miserie", **{"schedule.grote-miserie.made": 15, "schedule.grote-miserie.failed": 15}
    )
    assert response.status_code == 200
    assert "Preview: the grid of misère is filled in below. Nothing is saved yet" in body(response)
    assert overrides(club, KEY) is None  # nothing saved yet
    assert figures(response, "grote-miserie", "made", 0) == [45, -15]
    for tricks in range(1, 14):
        assert figures(response, "grote-miserie", "failed", tricks) == [-45, 15]
    assert save(admin_client, club, response).status_code == 302
    stored = overrides(club, KEY)["contracts"]["grote-miserie"]
    assert stored["made"] == {"0": [45, -15]}
    assert len(stored["failed"]) == 13


def test_it_applies_a_schedule_to_the_whole_family(admin_client, club):
    response = preview(
        admin_client,
        club,
        "samen-8",
        **{
            "schedule.samen-8.made": 10,
            "schedule.samen-8.made_step": 2,
            "schedule.samen-8.failed": 12,
            "schedule.samen-8.failed_step": 3,
            "schedule.samen-8.scope": "family",
        },
    )
    assert response.status_code == 200
    assert "Preview: the grids of together 8, together 9" in body(response)
    assert figures(response, "samen-8", "made", 8) == [10, -10]
    assert figures(response, "samen-8", "made", 10) == [14, -14]
    assert figures(response, "samen-11", "made", 11) == [10, -10]
    assert figures(response, "samen-11", "failed", 10) == [-12, 12]
    assert figures(response, "samen-11", "failed", 8) == [-18, 18]
    assert figures(response, "alleen-5", "made", 5) == [9, -3]  # another family: untouched


@pytest.mark.both_databases
def test_a_grid_that_is_no_longer_zero_sum_must_be_confirmed(admin_client, club):
    """The typo of the issue: samen 9 made with 9 tricks at 11 / -12."""
    page = admin_client.get(edit_url(club, KEY))
    response = admin_client.post(edit_url(club, KEY), form_data(page, **{cell("samen-9", "made", 9, "opponent"): -12}))
    assert response.status_code == 422
    html = body(response)
    assert "Not zero-sum: with 9 tricks the declarers get 22 in all and the opponents pay 24 in all." in html
    assert 'name="confirm_unbalanced"' in html
    assert "not zero-sum" in html  # the contract's badge
    assert overrides(club, KEY) is None
    confirmed = form_data(response, confirm_unbalanced="on")
    assert admin_client.post(edit_url(club, KEY), confirmed).status_code == 302
    assert overrides(club, KEY) == {"contracts": {"samen-9": {"made": {"9": [11, -12]}}}}


@pytest.mark.both_databases
def test_it_flags_a_half_edited_row(admin_client, club):
    page = admin_client.get(edit_url(club, KEY))
    admin_client.post(
        edit_url(club, KEY),
        form_data(page, **{cell("samen-9", "made", 9, "opponent"): -12, "confirm_unbalanced": "on"}),
    )
    html = body(admin_client.get(edit_url(club, KEY)))
    assert "1 row half edited" in html
    assert "9 tricks: only one of the two figures differs from the preset. Check the other" in html
    assert html.count('class="is-half"') == 1


@pytest.mark.both_databases
def test_a_balanced_change_of_both_figures_needs_no_confirmation(admin_client, club):
    page = admin_client.get(edit_url(club, KEY))
    data = form_data(page, **{cell("samen-9", "made", 9, "declarer"): 12, cell("samen-9", "made", 9, "opponent"): -12})
    assert admin_client.post(edit_url(club, KEY), data).status_code == 302
    assert 'class="is-half"' not in body(admin_client.get(edit_url(club, KEY)))


def test_enter_in_a_figure_saves_rather_than_previews(admin_client, club):
    html = body(admin_client.get(edit_url(club, KEY)))
    form = html[html.index('id="rules-form"') :]
    first = re.search(r"<button[^>]*>", form).group(0)
    assert 'type="submit"' in first and "name=" not in first  # the browser's default button is Save


@pytest.mark.both_databases
def test_the_all_pass_doubling_is_a_tick_box(admin_client, club):
    html = body(admin_client.get(edit_url(club, KEY), HTTP_ACCEPT_LANGUAGE="nl"))
    assert re.search(r'<input type="checkbox" name="all_pass_multiplier" value="2"[^>]*checked', html)
    assert "Na alles pas telt het volgende spel dubbel" in html
    page = admin_client.get(edit_url(club, KEY))
    assert admin_client.post(edit_url(club, KEY), form_data(page, all_pass_multiplier=None)).status_code == 302
    assert overrides(club, KEY) == {"all_pass_multiplier": 1}
    html = body(admin_client.get(edit_url(club, KEY)))
    assert re.search(r'<input type="checkbox" name="all_pass_multiplier" value="2"', html)
    assert not re.search(r'name="all_pass_multiplier" value="2"[^>]*checked', html)
