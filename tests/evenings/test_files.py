"""Export an evening as its evening file, import one from an upload or a paste, and the round trip."""

import json
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from pages import Page
from scorebook.evenings import creation, stored
from scorebook.evenings.models import Deal, Evening
from scorebook.rules import evening_file, registry
from scorebook.rules.model import to_dict

pytestmark = pytest.mark.django_db

IMPORT = "/evenings/import/"

# Five at the table, Bert deals first: the dealer sits out (Bert, Carl twice after the pass, Dina, Eric, Anne).
KLEURENWIEZEN_DEALS = [
    {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 9},
    {"contract": "pass"},
    {"contract": "kleine-miserie", "declarers": ["Bert", "Dina"], "tricks": {"Bert": 0, "Dina": 2}},
    {"contract": "alleen-5", "declarers": ["Eric"], "tricks": 4, "trump": "hearts"},
    {"contract": "troel", "declarers": ["Anne", "Bert"], "tricks": 9, "trump_changed": True},
    {"adjustment": {"Carl": -5, "Eric": 5}, "note": "revoke"},
    {"contract": "samen-9", "declarers": ["Carl", "Eric"], "tricks": 10, "dealer": "Anne"},
]
ENCHERES_DEALS = [
    {"contract": "solo", "declarers": ["Anne"], "tricks": 5},
    {"contract": "abondance", "declarers": ["Bert"], "tricks": 8},
    {
        "contract": "petite-misere-a-deux",
        "declarers": ["Carl", "Dina"],
        "tricks": {"Carl": 0, "Dina": 1},
        "exposed_fault": "Anne",
    },
    {"contract": "huit-a-deux", "declarers": ["Anne", "Carl"], "tricks": 9},
]
CLASSIQUE_DEALS = [
    {"robre": {"teams": [["Anne", "Bert"], ["Carl", "Dina"]]}},
    {"tricks": [9, 4], "honours": [3, 0]},
    {"tricks": [13, 0], "honours": [4, 0]},  # manche
    {"tricks": [4, 9], "honours": [0, 0]},
    {"tricks": [13, 0], "honours": [4, 0]},  # manche and robre
    {"robre": {"teams": [["Anne", "Carl"], ["Bert", "Dina"]]}},
    {"tricks": [5, 8], "honours": [0, 2]},
    {"adjustment": {"Anne": -2, "Bert": 2}, "note": "misdeal"},
]
HOUSE_RULES = {
    "kleurenwiezen": {"all_pass_multiplier": 3, "contracts": {"samen-8": {"made": {"8": [10, -10]}}}},
    "encheres": {"bete": {"ante": 1}},
    "classique": {"robre_bonus": 4, "manche_target": 8, "claim": None},
}


def export(client, evening):
    return client.get(reverse("evening_export", args=[evening.pk]))


# --- export --------------------------------------------------------------------------


def test_it_exports_the_evening_file_as_a_download(scorer_client, make_evening):
    evening = make_evening(deals=KLEURENWIEZEN_DEALS[:3])
    response = export(scorer_client, evening)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="scorebook-2026-11-20-kleurenwiezen.json"'
    data = json.loads(response.content)
    assert data["format"] == "scorebook-evening/1"
    assert data["players"] == ["Anne", "Bert", "Carl", "Dina"]
    assert data["stake"] == "0.1" and data["currency"] == "EUR"
    assert data["deals"] == KLEURENWIEZEN_DEALS[:3]
    assert response.content.decode() == creation.export_text(evening)


def test_it_exports_a_file_the_engine_scores_to_the_same_totals(scorer_client, make_evening):
    evening = make_evening("encheres", deals=ENCHERES_DEALS)
    report = evening_file.score_file(export(scorer_client, evening).content)
    result = stored.scored(evening).result
    assert report["totals"] == dict(result.totals)
    assert report["pot"] == result.pot


def test_it_hides_the_export_from_an_outsider(outsider_client, make_evening):
    evening = make_evening(deals=KLEURENWIEZEN_DEALS[:1])
    assert export(outsider_client, evening).status_code == 404


# --- round trip ----------------------------------------------------------------------


def round_trip(client, evening) -> Evening:
    text = export(client, evening).content.decode()
    before = set(Evening.objects.values_list("pk", flat=True))
    response = client.post(IMPORT, {"file": SimpleUploadedFile("evening.json", text.encode(), "application/json")})
    (new_pk,) = set(Evening.objects.values_list("pk", flat=True)) - before
    assert response.status_code == 302
    assert response["Location"] == reverse("evening", args=[new_pk])
    return Evening.objects.get(pk=new_pk)


def assert_identical(original: Evening, copy: Evening) -> None:
    assert copy.pk != original.pk
    assert stored.players_of(copy) == stored.players_of(original)
    assert copy.ruleset == original.ruleset
    assert copy.rules == original.rules
    assert (copy.date, copy.stake, copy.currency, copy.first_dealer) == (
        original.date,
        original.stake,
        original.currency,
        original.first_dealer,
    )
    assert [d.data for d in copy.deals.all()] == [d.data for d in original.deals.all()]
    assert [d.number for d in copy.deals.all()] == list(range(1, original.deals.count() + 1))
    a, b = stored.scored(original).result, stored.scored(copy).result
    assert dict(b.totals) == dict(a.totals)
    assert b.pot == a.pot
    assert [dict(d.deltas) for d in b.deals] == [dict(d.deltas) for d in a.deals]
    assert creation.export_text(copy) == creation.export_text(original)


@pytest.mark.both_databases
@pytest.mark.parametrize(
    "ruleset, players, deals",
    [
        ("kleurenwiezen", ("Anne", "Bert", "Carl", "Dina", "Eric"), KLEURENWIEZEN_DEALS),
        ("encheres", ("Anne", "Bert", "Carl", "Dina"), ENCHERES_DEALS),
        ("classique", ("Anne", "Bert", "Carl", "Dina"), CLASSIQUE_DEALS),
    ],
)
@pytest.mark.parametrize("house_rules", [False, True], ids=["preset", "house-rules"])
def test_it_gives_back_an_identical_evening_after_export_and_import(
    scorer_client, make_evening, ruleset, players, deals, house_rules
):
    rules = HOUSE_RULES[ruleset] if house_rules else None
    original = make_evening(ruleset, players=players, deals=deals, rules=rules, first_dealer=1, stake="0.25")
    if house_rules:
        assert original.rules != to_dict(registry.get(ruleset))
    copy = round_trip(scorer_client, original)
    assert_identical(original, copy)
    assert copy.owner.username == "marie"


def test_it_keeps_the_house_rules_in_the_file_as_changes_from_the_preset(scorer_client, make_evening):
    evening = make_evening("classique", deals=CLASSIQUE_DEALS[:3], rules=HOUSE_RULES["classique"])
    data = json.loads(export(scorer_client, evening).content)
    assert data["rules"] == {"robre_bonus": 4, "manche_target": 8, "claim": None}


@pytest.mark.both_databases
def test_it_round_trips_an_evening_without_a_stake(scorer_client, make_evening):
    original = make_evening("liege", deals=[{"contract": "solo-6", "declarers": ["Bert"], "tricks": 5}], stake=None)
    copy = round_trip(scorer_client, original)
    assert copy.stake is None
    assert_identical(original, copy)


# --- import --------------------------------------------------------------------------


def evening_text(**changes) -> str:
    data = {
        "format": "scorebook-evening/1",
        "ruleset": "kleurenwiezen",
        "date": "2026-11-13",
        "players": ["Anne", "Bert", "Carl", "Dina"],
        "first_dealer": "Bert",
        "stake": "0.05",
        "deals": KLEURENWIEZEN_DEALS[:3],
    }
    data.update(changes)
    return json.dumps(data)


def test_it_shows_the_import_form(scorer_client):
    response = scorer_client.get(IMPORT)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'enctype="multipart/form-data"' in html
    assert 'type="file"' in html and 'name="file"' in html
    assert "<textarea" in html and 'name="text"' in html


def test_it_imports_nothing_for_an_anonymous_post(client):
    response = client.post(IMPORT, {"text": evening_text()})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not Evening.objects.exists()


@pytest.mark.both_databases
def test_it_imports_a_pasted_evening_file(scorer_client, scorer):
    response = scorer_client.post(IMPORT, {"text": evening_text()})
    evening = Evening.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("evening", args=[evening.pk])
    assert evening.owner == scorer
    assert str(evening.date) == "2026-11-13" and evening.stake == Decimal("0.05")
    assert stored.players_of(evening) == ["Anne", "Bert", "Carl", "Dina"]
    assert evening.first_dealer == 1
    assert evening.deals.count() == 3


@pytest.mark.both_databases
def test_it_imports_an_uploaded_evening_file(outsider_client, outsider):
    upload = SimpleUploadedFile("evening.json", evening_text().encode(), "application/json")
    response = outsider_client.post(IMPORT, {"file": upload}, follow=True)
    evening = Evening.objects.get()
    assert evening.owner == outsider  # the importer owns the new evening
    assert response.redirect_chain[0] == (reverse("evening", args=[evening.pk]), 302)
    assert [str(m) for m in response.context["messages"]] == [
        "Evening imported with 3 deals.",
        "It is closed, being of an earlier day: reopen it to correct a deal.",
    ]
    assert evening.status == "closed"  # an old evening (13 November) arrives closed; its owner may reopen it


def errors_of(response, field):
    assert response.status_code == 422  # the form again, with the reason next to the field
    return response.context["form"].errors.get(field, [])


def test_it_shows_a_deal_error_with_the_deal_number_next_to_the_field(scorer_client):
    deals = [KLEURENWIEZEN_DEALS[0], {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 14}]
    response = scorer_client.post(IMPORT, {"text": evening_text(deals=deals)})
    assert errors_of(response, "text") == ["Deal 2: 14 tricks: a deal has only 13"]
    # with the field (in its group, under the text area), not at the top
    errors = Page(response.content.decode()).by_id("id_text_error")
    assert errors.text == "Deal 2: 14 tricks: a deal has only 13"
    assert next(a for a in errors.ancestors() if "field" in a.classes).find("textarea[name=text]") is not None
    assert not Evening.objects.exists()


def test_it_shows_a_file_error_with_the_deal_number(scorer_client):
    deals = KLEURENWIEZEN_DEALS[:2] + [{"contract": "samen-8", "declarers": ["Anne", "Carl"], "trick": 9}]
    upload = SimpleUploadedFile("evening.json", evening_text(deals=deals).encode())
    response = scorer_client.post(IMPORT, {"file": upload})
    assert errors_of(response, "file") == ["Deal 3: unknown key 'trick'"]
    assert "Deal 3: unknown key &#x27;trick&#x27;" in response.content.decode()
    assert not Evening.objects.exists()


def test_it_shows_an_error_about_the_whole_file_without_a_deal_number(scorer_client):
    response = scorer_client.post(IMPORT, {"text": evening_text(players=["Anne", "Bert", "Carl"], deals=[])})
    assert errors_of(response, "text") == ["kleurenwiezen is played by 4 to 7 players, not 3"]
    response = scorer_client.post(IMPORT, {"text": evening_text(ruleset="bridge")})
    assert "unknown variant 'bridge'" in errors_of(response, "text")[0]
    response = scorer_client.post(IMPORT, {"text": evening_text(rules={"contracts": {"samen-8": {"needs": 20}}})})
    assert errors_of(response, "text")[0].startswith("rules: contracts.samen-8.needs")
    assert not Evening.objects.exists()


def test_it_shows_an_error_for_a_file_that_is_not_json(scorer_client):
    for content in (b"not json at all", b"\xff\xfe\x00garbage", b'["a list"]', b""):
        upload = SimpleUploadedFile("evening.json", content)
        response = scorer_client.post(IMPORT, {"file": upload})
        assert response.status_code == 422, content
        assert errors_of(response, "file"), content
    assert not Evening.objects.exists()


def test_it_refuses_an_upload_over_one_megabyte(scorer_client):
    big = evening_text().encode() + b" " * (1024 * 1024)
    response = scorer_client.post(IMPORT, {"file": SimpleUploadedFile("evening.json", big)})
    (error,) = errors_of(response, "file")
    assert "1 MB at most" in error
    assert "1 MB at most" in response.content.decode()
    assert not Evening.objects.exists()


@pytest.mark.both_databases
def test_it_accepts_an_upload_of_exactly_one_megabyte(scorer_client):
    text = evening_text().encode()
    exact = text + b" " * (1024 * 1024 - len(text))
    response = scorer_client.post(IMPORT, {"file": SimpleUploadedFile("evening.json", exact)})
    assert response.status_code == 302
    assert Evening.objects.count() == 1


def test_it_refuses_a_pasted_text_over_one_megabyte(scorer_client):
    text = evening_text()
    response = scorer_client.post(IMPORT, {"text": text[:-1] + " " * (1024 * 1024) + text[-1]})
    assert "1 MB at most" in errors_of(response, "text")[0]


def test_it_asks_for_a_file_or_a_text(scorer_client):
    assert errors_of(scorer_client.post(IMPORT, {}), "file") == ["Choose an evening file, or paste its text below."]
    upload = SimpleUploadedFile("evening.json", evening_text().encode())
    response = scorer_client.post(IMPORT, {"file": upload, "text": evening_text()})
    assert errors_of(response, "text") == ["Give either a file or a pasted text, not both."]
    assert not Evening.objects.exists()


def test_it_keeps_the_pasted_text_after_an_error(scorer_client):
    text = evening_text(deals=[{"contract": "samen-99"}])
    response = scorer_client.post(IMPORT, {"text": text})
    assert errors_of(response, "text")
    assert response.context["form"]["text"].value() == text


def test_it_saves_nothing_when_a_later_deal_is_wrong(scorer_client):
    deals = KLEURENWIEZEN_DEALS[:3] + [{"contract": "alleen-5", "declarers": ["Zoe"], "tricks": 5}]
    response = scorer_client.post(IMPORT, {"text": evening_text(deals=deals)})
    assert errors_of(response, "text") == ["Deal 4: declarers: 'Zoe' is not at the table"]
    assert not Evening.objects.exists() and not Deal.objects.exists()
