"""The house-rules pages: a club changes the figures of a variant (docs/rules/README.md).

Admins edit every figure of a preset; members read them; everyone else gets 404. What
is stored is only what differs from the preset, the next evening of the club scores
with it, and an evening already started keeps the copy of the rules it began with.
"""

from __future__ import annotations

from dataclasses import replace
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.urls import reverse

from builders import club_evening
from pages import body, field_errors
from scorebook.clubs.models import Club, HouseRules, Membership, Role
from scorebook.clubs.rules_forms import OUTCOMES, SIDES, cell_name, house_rules_form
from scorebook.evenings import services, stored
from scorebook.rules import registry
from scorebook.rules.model import MAX_TRICKS, ContractRules, RulesError, payout_cells, to_dict
from scorebook.rules.reading import contract_from_dict

pytestmark = pytest.mark.django_db

PRESETS = ["classique", "short", "francais", "mort", "gand", "kleurenwiezen", "liege", "encheres"]
FOUR = ["Anne", "Bert", "Carl", "Dina"]


# --- reading the editor's form as a browser would send it ------------------------------


class _FormReader(HTMLParser):
    """The name/value pairs the rules form (#rules-form) submits, and whether inputs are disabled."""

    def __init__(self):
        super().__init__()
        self.inside = False
        self.pairs: list[tuple[str, str]] = []
        self.disabled: list[str] = []
        self.enabled: list[str] = []
        self._select: str | None = None
        self._select_first: str | None = None
        self._select_chosen = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == "rules-form":
            self.inside = True
        if not self.inside:
            return
        name = a.get("name")
        if tag == "input" and name:
            (self.disabled if "disabled" in a else self.enabled).append(name)
            if "disabled" in a:
                return
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.pairs.append((name, a.get("value", "on")))
            elif kind != "submit":
                self.pairs.append((name, a.get("value", "")))
        elif tag == "select" and name:
            (self.disabled if "disabled" in a else self.enabled).append(name)
            self._select = None if "disabled" in a else name
            self._select_first, self._select_chosen = None, False
        elif tag == "option" and self._select:
            if self._select_first is None:
                self._select_first = a.get("value", "")
            if "selected" in a:
                self.pairs.append((self._select, a.get("value", "")))
                self._select_chosen = True

    def handle_endtag(self, tag):
        if tag == "form" and self.inside:
            self.inside = False
        if tag == "select" and self._select:
            if not self._select_chosen:
                self.pairs.append((self._select, self._select_first or ""))
            self._select = None


def read_form(response) -> _FormReader:
    reader = _FormReader()
    reader.feed(body(response))
    return reader


def form_data(response, **changes) -> dict:
    """What the page's form submits, with some inputs changed (``None`` leaves one out)."""
    data = dict(read_form(response).pairs)
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = str(value)
    return data


def cell(contract, outcome, tricks, side):
    return f"contracts.{contract}.{outcome}.{tricks}.{side}"


# --- fixtures ----------------------------------------------------------------------------


@pytest.fixture
def club(admin, scorer):
    """Adèle (``admin``) runs the club and edits its rules; Marie (``scorer``) keeps the score of its evenings."""
    club = Club.objects.create(name="Les As de Liège", slug="as")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    return club


@pytest.fixture(autouse=True)
def in_english(client):
    """The messages are checked in English (the site's default language is French)."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture
def admin_client(client, admin, club):
    client.force_login(admin)
    return client


@pytest.fixture
def member(make_user, club):
    user = make_user("michel", first_name="Michel")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    return user


def edit_url(club, key):
    return reverse("club_rules_edit", args=[club.slug, key])


def post_edit(client, club, key, **changes):
    """Open the editor, change some inputs, and save, as an admin's browser does."""
    page = client.get(edit_url(club, key))
    assert page.status_code == 200
    return client.post(edit_url(club, key), form_data(page, **changes))


def overrides(club, key):
    house = HouseRules.objects.filter(club=club, ruleset=key).first()
    return house.overrides if house else None


def totals(evening) -> dict[str, int]:
    return dict(stored.scored(evening).result.totals)


def stored_points(evening) -> dict[str, int]:
    evening.refresh_from_db()
    return {p["name"]: p["points"] for p in evening.summary["players"]}


SAMEN_8_WITH_9 = {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 9}


# --- the list ------------------------------------------------------------------------------


def test_it_lists_the_eight_variants_with_the_clubs_changes(admin_client, club):
    HouseRules.objects.create(
        club=club, ruleset="kleurenwiezen", overrides={"contracts": {"samen-8": {"made": {"9": [12, -12]}}}}
    )
    response = admin_client.get(reverse("club_rules", args=[club.slug]))
    assert response.status_code == 200
    html = body(response)
    for key in PRESETS:
        assert f'href="{edit_url(club, key)}"' in html
    assert "2 figures changed" in html  # one cell: the declarer's and the opponent's figure
    assert html.count("the preset") >= 7


def test_it_lets_a_member_see_the_list(client, member, club):
    client.force_login(member)
    response = client.get(reverse("club_rules", args=[club.slug]))
    assert response.status_code == 200
    assert "Only the club's admins can change them." in body(response)


# --- the editor: every figure ---------------------------------------------------------------


def test_it_shows_a_cell_for_each_number_of_tricks_that_can_happen(admin_client, club):
    response = admin_client.get(edit_url(club, "kleurenwiezen"))
    names = set(read_form(response).enabled)
    for tricks in range(8, 14):
        assert cell("samen-8", "made", tricks, "declarer") in names
        assert cell("samen-8", "failed", tricks, "opponent") not in names
    for tricks in range(8):
        assert cell("samen-8", "failed", tricks, "declarer") in names
        assert cell("samen-8", "made", tricks, "opponent") not in names
    # troel: 8 tricks is made, or failed when the trump was changed (needs 9)
    assert {cell("troel", "made", 8, "declarer"), cell("troel", "failed", 8, "declarer")} <= names
    assert {"contracts.troel.needs", "contracts.troel.needs_if_trump_changed", "contracts.piccolo.needs"} <= names
    assert {"misere_combination", "all_pass_multiplier"} <= names
    assert 'value="8"' in body(response)


def test_it_shows_the_bete_rules_for_encheres_only(admin_client, club):
    encheres = set(read_form(admin_client.get(edit_url(club, "encheres"))).enabled)
    assert {"bete.failure_floor", "bete.ante", "bete.end"} <= encheres
    assert "bete.ante" not in set(read_form(admin_client.get(edit_url(club, "liege"))).enabled)


def test_it_shows_every_classic_figure(admin_client, club):
    names = set(read_form(admin_client.get(edit_url(club, "classique"))).enabled)
    assert {
        "manche_target",
        "book",
        "honours.cards",
        "honours.points.3",
        "honours.points.4",
        "honours.points.5",
        "honours.towards_manche",
        "honours.barred_at",
        "claim.on",
        "claim.at",
        "claim.points",
        "manche_scoring",
        "manche_values.0.from",
        "manche_values.0.value",
        "manche_base",
        "manches_to_win",
        "robre_bonus",
        "chelem_points",
    } <= names


@pytest.mark.both_databases
@pytest.mark.parametrize("key", PRESETS)
def test_it_saves_nothing_when_the_preset_is_sent_back_unchanged(admin_client, club, key):
    page = admin_client.get(edit_url(club, key))
    data = form_data(page)
    # a browser sends every input: it must stay below Django's limit on the number of fields
    assert len(data) < settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    response = admin_client.post(edit_url(club, key), data)
    assert response.status_code == 302, field_errors(body(response), "")
    assert overrides(club, key) is None


@pytest.mark.both_databases
def test_it_keeps_the_clubs_changes_when_the_form_is_sent_back_unchanged(admin_client, club):
    stored = {"contracts": {"alleen-6": {"made": {"7": [18, -6]}}}, "all_pass_multiplier": 1}
    HouseRules.objects.create(club=club, ruleset="kleurenwiezen", overrides=stored)
    page = admin_client.get(edit_url(club, "kleurenwiezen"))
    assert 'value="18"' in body(page)
    response = admin_client.post(edit_url(club, "kleurenwiezen"), form_data(page))
    assert response.status_code == 302
    assert overrides(club, "kleurenwiezen") == stored


# --- saving, and what the next evening does with it -------------------------------------------


@pytest.mark.both_databases
def test_it_saves_a_changed_cell_and_the_next_evening_scores_with_it(admin_client, admin, scorer, club):
    assert totals(club_evening(club, scorer, stake=None, deals=[SAMEN_8_WITH_9]))["Anne"] == 11
    response = post_edit(
        admin_client,
        club,
        "kleurenwiezen",
        **{cell("samen-8", "made", 9, "declarer"): 12, cell("samen-8", "made", 9, "opponent"): -12},
    )
    assert response.status_code == 302
    assert overrides(club, "kleurenwiezen") == {"contracts": {"samen-8": {"made": {"9": [12, -12]}}}}
    house = HouseRules.objects.get(club=club, ruleset="kleurenwiezen")
    assert house.updated_by == admin
    evening = club_evening(club, scorer, stake=None, deals=[SAMEN_8_WITH_9])
    assert evening.rules["contracts"]["samen-8"]["made"]["9"] == [12, -12]
    assert totals(evening) == {"Anne": 12, "Bert": -12, "Carl": 12, "Dina": -12}
    page = admin_client.get(response["Location"])
    assert "2 figures changed" in body(page)
    assert 'class="changed"' in body(page)


@pytest.mark.both_databases
def test_it_never_changes_a_past_evening_when_the_clubs_rules_change(admin_client, scorer, club):
    """Changing the club's rules never changes a past evening."""
    past = club_evening(club, scorer, stake=None, deals=[SAMEN_8_WITH_9])
    rules_before = past.rules
    assert stored_points(past) == {"Anne": 11, "Bert": -11, "Carl": 11, "Dina": -11}

    post_edit(
        admin_client,
        club,
        "kleurenwiezen",
        **{cell("samen-8", "made", 9, "declarer"): 12, cell("samen-8", "made", 9, "opponent"): -12},
        all_pass_multiplier=1,
    )
    assert overrides(club, "kleurenwiezen")
    # the past evening keeps its copy of the rules, its stored totals, and re-scores the same
    past.refresh_from_db()
    assert past.rules == rules_before
    assert stored_points(past) == {"Anne": 11, "Bert": -11, "Carl": 11, "Dina": -11}
    services.record_deal(past, SAMEN_8_WITH_9, scorer)  # even a deal recorded after the change
    assert totals(past) == {"Anne": 22, "Bert": -22, "Carl": 22, "Dina": -22}
    assert stored_points(past) == {"Anne": 22, "Bert": -22, "Carl": 22, "Dina": -22}

    # and going back to the preset does not touch the evening played with the change
    changed = club_evening(club, scorer, stake=None, deals=[SAMEN_8_WITH_9])
    admin_client.post(edit_url(club, "kleurenwiezen"), {"action": "reset"})
    changed.refresh_from_db()
    assert totals(changed)["Anne"] == 12
    assert stored_points(changed)["Anne"] == 12


@pytest.mark.both_databases
def test_it_applies_a_changed_all_pass_multiplier_and_misere_rule(admin_client, scorer, club):
    response = post_edit(
        admin_client, club, "kleurenwiezen", all_pass_multiplier=3, misere_combination="failures-pay-others"
    )
    assert response.status_code == 302
    assert overrides(club, "kleurenwiezen") == {"all_pass_multiplier": 3, "misere_combination": "failures-pay-others"}
    rules = registry.resolve("kleurenwiezen", overrides(club, "kleurenwiezen"))
    assert rules.all_pass_multiplier == 3


@pytest.mark.both_databases
def test_it_saves_the_bete_rules_of_encheres(admin_client, club):
    response = post_edit(
        admin_client, club, "encheres", **{"bete.ante": 2, "bete.end": "carry", "bete.failure_floor": None}
    )
    assert response.status_code == 302
    assert overrides(club, "encheres") == {"bete": {"failure_floor": False, "ante": 2, "end": "carry"}}


@pytest.mark.both_databases
def test_it_moves_the_cells_when_a_contract_needs_another_number_of_tricks(admin_client, club):
    page = admin_client.get(edit_url(club, "kleurenwiezen"))
    response = admin_client.post(edit_url(club, "kleurenwiezen"), form_data(page, **{"contracts.samen-8.needs": 7}))
    # 7 tricks now make the contract: its made cell is asked for, and nothing is saved yet
    assert response.status_code == 422
    html = body(response)
    assert "Enter the figure for 7 tricks." in field_errors(html, cell("samen-8", "made", 7, "declarer"))
    assert cell("samen-8", "failed", 7, "declarer") not in read_form(response).enabled
    assert overrides(club, "kleurenwiezen") is None
    # filling the new cells saves; the failed cell for 7 tricks is gone
    data = form_data(
        response, **{cell("samen-8", "made", 7, "declarer"): 6, cell("samen-8", "made", 7, "opponent"): -6}
    )
    response = admin_client.post(edit_url(club, "kleurenwiezen"), data)
    assert response.status_code == 302
    assert overrides(club, "kleurenwiezen") == {
        "contracts": {"samen-8": {"needs": 7, "made": {"7": [6, -6]}, "failed": {"7": None}}}
    }


@pytest.mark.both_databases
def test_it_saving_the_presets_figures_forgets_the_clubs_row(admin_client, club):
    HouseRules.objects.create(club=club, ruleset="gand", overrides={"all_pass_multiplier": 2})
    response = post_edit(admin_client, club, "gand", all_pass_multiplier=1)
    assert response.status_code == 302
    assert overrides(club, "gand") is None


@pytest.mark.both_databases
def test_it_goes_back_to_the_preset(admin_client, scorer, club):
    HouseRules.objects.create(
        club=club, ruleset="kleurenwiezen", overrides={"contracts": {"samen-8": {"made": {"9": [12, -12]}}}}
    )
    page = admin_client.get(edit_url(club, "kleurenwiezen"))
    assert "Back to the preset" in body(page)
    response = admin_client.post(edit_url(club, "kleurenwiezen"), {"action": "reset"})
    assert response.status_code == 302
    assert overrides(club, "kleurenwiezen") is None
    assert totals(club_evening(club, scorer, stake=None, deals=[SAMEN_8_WITH_9]))["Anne"] == 11


# --- classic parameters --------------------------------------------------------------------------


@pytest.mark.both_databases
def test_it_applies_a_manche_of_10_in_francais(admin_client, scorer, club):
    twelve = {"tricks": [12, 1], "honours": [0, 0]}  # 6 trick points for Anne and Carl
    # the preset's manche of 5: two such deals win two manches, the robre ends and is settled
    assert totals(club_evening(club, scorer, ruleset="francais", stake=None, deals=[twelve, twelve]))["Anne"] > 0

    response = post_edit(admin_client, club, "francais", manche_target=10)
    assert response.status_code == 302
    assert overrides(club, "francais") == {"manche_target": 10}
    evening = club_evening(club, scorer, ruleset="francais", stake=None, deals=[twelve, twelve])
    assert evening.rules["manche_target"] == 10
    assert totals(evening) == dict.fromkeys(FOUR, 0)  # one manche of 12 points, the robre goes on


@pytest.mark.both_databases
def test_it_saves_honours_claim_and_manche_values_in_classique(admin_client, club):
    response = post_edit(
        admin_client,
        club,
        "classique",
        **{
            "honours.cards": 5,
            "honours.points.5": 6,
            "honours.barred_at": "4, 9",
            "claim.on": None,
            "manche_values.3.from": 8,
            "manche_values.3.value": 0,
            "robre_bonus": 4,
        },
    )
    assert response.status_code == 302, body(response)
    rules = registry.resolve("classique", overrides(club, "classique"))
    assert rules.honours_cards == 5
    assert dict(rules.honours_points) == {3: 2, 4: 4, 5: 6}
    assert rules.honours_barred_at == (4, 9)
    assert rules.claim_at is None
    assert rules.manche_values == ((0, 3), (1, 2), (5, 1), (8, 0))
    assert rules.robre_bonus == 4


# --- refused values: on the field, 422, nothing saved ------------------------------------------------


@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("key", "name", "value", "message"),
    [
        ("kleurenwiezen", "all_pass_multiplier", -1, "greater than or equal to 1"),
        ("kleurenwiezen", cell("samen-8", "made", 9, "declarer"), "douze", "Enter a whole number."),
        ("kleurenwiezen", cell("samen-8", "failed", 3, "opponent"), "1.5", "Enter a whole number."),
        ("kleurenwiezen", "contracts.grote-miserie.needs", -1, "must be at least 0"),
        ("kleurenwiezen", "contracts.piccolo.needs", 14, "must be at most 13"),
        ("kleurenwiezen", "contracts.troel.needs_if_trump_changed", 7, "must be at least 8"),
        ("kleurenwiezen", cell("alleen-5", "made", 6, "declarer"), None, "Enter the figure for 6 tricks."),
        ("kleurenwiezen", cell("alleen-5", "failed", 2, "opponent"), "", "Enter the figure for 2 tricks."),
        ("encheres", "bete.ante", -3, "greater than or equal to 0"),
        ("classique", "manche_target", -10, "greater than or equal to 1"),
        ("classique", "manche_target", "dix", "Enter a whole number."),
        ("classique", "honours.barred_at", "4, quatre", "separated by commas"),
        ("classique", "claim.at", 10, "must be below the manche target"),
        ("classique", "manche_values.1.from", 0, "thresholds must start at 0 and go up"),  # on the table: its first row
        ("classique", "manche_values.2.value", None, "Fill in both figures of the row"),
        ("classique", "honours.points.3", -2, "greater than or equal to 0"),
    ],
)
def test_it_refuses_an_invalid_value_on_its_field_and_saves_nothing(admin_client, club, key, name, value, message):
    response = post_edit(admin_client, club, key, **{name: value})
    assert response.status_code == 422
    html = body(response)
    shown_on = "manche_values.0.from" if name == "manche_values.1.from" else name  # an error about the whole table
    assert message in field_errors(html, shown_on), html
    assert 'aria-invalid="true"' in html
    assert "Nothing was saved" in html
    assert overrides(club, key) is None
    assert not HouseRules.objects.exists()


@pytest.mark.both_databases
def test_it_shows_a_rules_error_about_a_whole_row_on_that_row(admin_client, club):
    # with the bête, what the declarers receive must be what the opponents pay
    name = cell("solo", "made", 7, "declarer")
    response = post_edit(admin_client, club, "encheres", **{name: 99})
    assert response.status_code == 422
    assert "the row must balance" in field_errors(body(response), name)
    assert 'id="c-solo" data-key="solo" open' in body(response)  # the contract to correct is open
    assert overrides(club, "encheres") is None


@pytest.mark.both_databases
def test_it_reports_errors_in_several_contracts_at_once(admin_client, club):
    response = post_edit(
        admin_client, club, "kleurenwiezen", **{"contracts.grote-miserie.needs": -1, "contracts.open-miserie.needs": -2}
    )
    html = body(response)
    assert "must be at least 0" in field_errors(html, "contracts.grote-miserie.needs")
    assert "must be at least 0" in field_errors(html, "contracts.open-miserie.needs")


@pytest.mark.both_databases
def test_it_refuses_a_form_saved_over_someone_elses_change(admin_client, club):
    page = admin_client.get(edit_url(club, "gand"))
    HouseRules.objects.create(club=club, ruleset="gand", overrides={"all_pass_multiplier": 2})  # another admin
    response = admin_client.post(edit_url(club, "gand"), form_data(page, misere_combination="failures-pay-others"))
    assert response.status_code == 409
    assert "Someone changed these rules" in body(response)
    assert overrides(club, "gand") == {"all_pass_multiplier": 2}
    # saving again, knowingly, replaces the other change with what the form holds
    response = admin_client.post(edit_url(club, "gand"), form_data(response))
    assert response.status_code == 302
    assert overrides(club, "gand") == {"misere_combination": "failures-pay-others"}


# --- who may see and change what -----------------------------------------------------------------------


def test_it_shows_members_the_rules_read_only_and_refuses_their_changes(client, member, club):
    HouseRules.objects.create(
        club=club, ruleset="kleurenwiezen", overrides={"contracts": {"samen-8": {"made": {"9": [12, -12]}}}}
    )
    client.force_login(member)
    page = client.get(edit_url(club, "kleurenwiezen"))
    assert page.status_code == 200
    form = read_form(page)
    assert [name for name in form.enabled if not name.startswith(("csrf", "_"))] == []
    assert cell("samen-8", "made", 9, "declarer") in form.disabled
    assert "Save the house rules" not in body(page)
    assert "Back to the preset" not in body(page)
    assert 'value="12"' in body(page)

    data = dict.fromkeys(form.disabled, "1")
    assert client.post(edit_url(club, "kleurenwiezen"), data).status_code == 403
    assert client.post(edit_url(club, "kleurenwiezen"), {"action": "reset"}).status_code == 403
    assert overrides(club, "kleurenwiezen") == {"contracts": {"samen-8": {"made": {"9": [12, -12]}}}}


def test_it_refuses_scorers_changes_too(scorer_client, club):
    client = scorer_client
    assert client.post(edit_url(club, "gand"), {"all_pass_multiplier": "2"}).status_code == 403
    assert not HouseRules.objects.exists()


@pytest.mark.both_databases
def test_it_still_notices_a_change_made_meanwhile_after_a_refused_save(admin_client, club):
    page = admin_client.get(edit_url(club, "gand"))
    refused = admin_client.post(edit_url(club, "gand"), form_data(page, all_pass_multiplier=0))
    assert refused.status_code == 422
    HouseRules.objects.create(club=club, ruleset="gand", overrides={"misere_combination": "failures-pay-others"})
    response = admin_client.post(edit_url(club, "gand"), form_data(refused, all_pass_multiplier=2))
    assert response.status_code == 409
    assert overrides(club, "gand") == {"misere_combination": "failures-pay-others"}


def test_it_hides_the_club_from_outsiders(outsider_client, club):
    assert outsider_client.get(reverse("club_rules", args=[club.slug])).status_code == 404
    assert outsider_client.get(edit_url(club, "gand")).status_code == 404
    assert outsider_client.post(edit_url(club, "gand"), {"all_pass_multiplier": "2"}).status_code == 404
    assert outsider_client.post(edit_url(club, "gand"), {"action": "reset"}).status_code == 404


def test_it_hides_the_club_from_the_admins_of_another_club(client, make_user, club):
    other_admin = make_user("otto")
    other = Club.objects.create(name="Whist Gent", slug="gent")
    Membership.objects.create(club=other, user=other_admin, role=Role.ADMIN)
    client.force_login(other_admin)
    assert client.get(edit_url(other, "gand")).status_code == 200
    assert client.get(reverse("club_rules", args=[club.slug])).status_code == 404
    assert client.get(edit_url(club, "gand")).status_code == 404
    assert client.post(edit_url(club, "gand"), {"all_pass_multiplier": "2"}).status_code == 404
    assert not HouseRules.objects.exists()


def test_it_answers_404_for_an_unknown_variant(admin_client, club):
    assert admin_client.get(edit_url(club, "bridge")).status_code == 404
    assert admin_client.post(edit_url(club, "bridge"), {"action": "reset"}).status_code == 404


@pytest.mark.both_databases
def test_it_starts_from_the_preset_when_the_stored_changes_no_longer_fit(admin_client, club):
    HouseRules.objects.create(club=club, ruleset="gand", overrides={"contracts": {"no-such-contract": {"needs": 3}}})
    assert admin_client.get(reverse("club_rules", args=[club.slug])).status_code == 200
    page = admin_client.get(edit_url(club, "gand"))
    assert page.status_code == 200
    assert "no longer fit" in body(page)
    response = admin_client.post(edit_url(club, "gand"), form_data(page, all_pass_multiplier=2))
    assert response.status_code == 302
    assert overrides(club, "gand") == {"all_pass_multiplier": 2}
    assert to_dict(registry.resolve("gand", overrides(club, "gand")))["all_pass_multiplier"] == 2


# --- the editor's grid and the engine's validation are one layout ----------------------


def _needs_choices(rules: ContractRules):
    """Every needs 0..13, each with every usable needs-when-the-trump-changed (blank included)."""
    trump = any(c.needs_if_trump_changed is not None for c in rules.contracts.values())
    for needs in range(MAX_TRICKS + 1):
        for changed in [None, *range(needs, MAX_TRICKS + 1)] if trump else [None]:
            yield needs, changed


@pytest.mark.slow
@pytest.mark.parametrize("key", [k for k in PRESETS if isinstance(registry.get(k), ContractRules)])
def test_the_editor_offers_exactly_the_cells_the_engine_requires_for_every_contract_and_needs(key):
    rules = registry.get(key)
    seen = set()
    for needs, changed in _needs_choices(rules):
        data = {}
        for ckey, contract in rules.contracts.items():
            data[f"contracts.{ckey}.needs"] = str(needs)
            if contract.needs_if_trump_changed is not None:
                data[f"contracts.{ckey}.needs_if_trump_changed"] = "" if changed is None else str(changed)
        form = house_rules_form(key, rules, data=data)
        for ckey, contract in rules.contracts.items():
            trump = None if contract.needs_if_trump_changed is None else changed
            edited = replace(contract, needs=needs, needs_if_trump_changed=trump)
            if (ckey, edited.needs, edited.needs_if_trump_changed) in seen:
                continue
            seen.add((ckey, edited.needs, edited.needs_if_trump_changed))
            cells = payout_cells(edited)
            wanted = {outcome: {c.tricks for c in cells if getattr(c, outcome)} for outcome in OUTCOMES}
            # the editor: a pair of fields for each cell of the layout, and none other
            prefixes = tuple(f"contracts.{ckey}.{outcome}." for outcome in OUTCOMES)
            offered = {name for name in form.fields if name.startswith(prefixes)}
            assert offered == {
                cell_name(ckey, outcome, tricks, side)
                for outcome in OUTCOMES
                for tricks in wanted[outcome]
                for side in SIDES
            }, (key, ckey, needs, changed)
            # the engine: tables with exactly those cells are accepted, one cell more or less is refused
            shape = to_dict(rules)["contracts"][ckey] | {"needs": needs}
            if contract.needs_if_trump_changed is not None:
                shape["needs_if_trump_changed"] = changed
            tables = {outcome: {str(t): [1, -1] for t in wanted[outcome]} for outcome in OUTCOMES}
            contract_from_dict(ckey, shape | tables, f"contracts.{ckey}")
            for outcome in OUTCOMES:
                for tricks in range(MAX_TRICKS + 1):
                    table = dict(tables[outcome])
                    if str(tricks) in table:
                        del table[str(tricks)]
                    else:
                        table[str(tricks)] = [1, -1]
                    with pytest.raises(RulesError):
                        contract_from_dict(ckey, shape | tables | {outcome: table}, f"contracts.{ckey}")
    for contract in rules.contracts.values():  # and the preset itself has that layout
        cells = payout_cells(contract)
        assert set(contract.made) == {c.tricks for c in cells if c.made}
        assert set(contract.failed) == {c.tricks for c in cells if c.failed}
