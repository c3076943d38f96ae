"""The engine's errors reach the pages in the reader's language.

The engine (scorebook/rules, no Django) raises DealError, FileError and RulesError with
an English ``message`` and a translatable ``template`` marked with ``gettext_noop`` plus
its named ``params``; the site translates the template where the error is shown: next
to a field of the record form, at the top of the deal edit page, on the import page and
in the house-rules editor. ``manage.py score`` keeps printing English.
"""

from __future__ import annotations

import ast
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from pages import body, datas, every_error, field_errors, url
from scorebook.clubs.models import Club, HouseRules, Membership, Role
from scorebook.core.engine_messages import localized, localized_with_path
from scorebook.evenings.models import Deal, Evening
from scorebook.rules import registry
from scorebook.rules.evening_file import FileError, loads
from scorebook.rules.model import RulesError
from scorebook.rules.scoring import DealError

RULES_DIR = Path(__file__).resolve().parents[2] / "scorebook" / "rules"
FIVE = ("Anne", "Bert", "Carl", "Dina", "Eric")  # Anne deals first and sits out
IMPORT = "/evenings/import/"

SITTING_OUT = {
    "en": "Anne is sitting out this deal and cannot declare",
    "fr": "Anne ne joue pas cette donne et ne peut pas être déclarant",
    "nl": "Anne zit uit in dit spel en kan geen contract spelen",
}


# --- the record form and the deal edit page ----------------------------------------------------


@pytest.mark.both_databases
@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["fr", "nl", "en"])
def test_it_shows_a_declarer_who_sits_out_in_the_readers_language(scorer_client, make_evening, lang):
    evening = make_evening(players=FIVE)
    data = {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": "8"}
    response = scorer_client.post(url("deal_record", evening), data, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 422
    assert SITTING_OUT[lang] in field_errors(body(response), "declarers")
    assert not Deal.objects.filter(evening=evening).exists()


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_translates_an_engine_error_with_figures_next_to_its_field(scorer_client, make_evening):
    evening = make_evening(players=FIVE)
    data = {"contract": "samen-8", "declarers": ["Bert", "Carl", "Dina"], "tricks": "8"}
    response = scorer_client.post(url("deal_record", evening), data, HTTP_ACCEPT_LANGUAGE="fr")
    # the contract by its name in the page's language, never its key (issue 30)
    assert "emballage 8 se joue avec 2 déclarants, pas 3" in field_errors(body(response), "declarers")
    response = scorer_client.post(url("deal_record", evening), data, HTTP_ACCEPT_LANGUAGE="nl")
    assert "samen 8 speel je met 2 spelers, niet 3" in field_errors(body(response), "declarers")
    response = scorer_client.post(url("deal_record", evening), data, HTTP_ACCEPT_LANGUAGE="en")
    assert "together 8 is played by 2 declarers, not 3" in field_errors(body(response), "declarers")


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_names_the_later_deal_a_correction_would_break_in_french(scorer_client, make_evening):
    rotation = [
        {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 8},
        {"contract": "samen-8", "declarers": ["Carl", "Eric"], "tricks": 8},
        {"contract": "samen-8", "declarers": ["Bert", "Dina"], "tricks": 9},
    ]
    evening = make_evening(players=FIVE, deals=rotation)
    # deal 1 made an all pass: Anne deals again, and Bert deals deal 3, where he declares
    response = scorer_client.post(
        url("deal_edit", evening, 1), {"contract": "pass", "version": "1"}, HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert response.status_code == 422
    errors = every_error(body(response))
    assert (
        "La donne 3 deviendrait impossible\u00a0: Bert ne joue pas cette donne et ne peut pas être déclarant" in errors
    )
    assert datas(evening) == rotation


# --- the import page ---------------------------------------------------------------------------


def evening_text(**changes) -> str:
    data = {
        "format": "scorebook-evening/1",
        "ruleset": "kleurenwiezen",
        "players": ["Anne", "Bert", "Carl", "Dina"],
        "first_dealer": "Bert",
        "deals": [{"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 9}],
    }
    data.update(changes)
    return json.dumps(data)


def import_errors(client, text: str, lang: str) -> list[str]:
    response = client.post(IMPORT, {"text": text}, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 422
    return response.context["form"].errors.get("text", [])


@pytest.mark.django_db
def test_it_shows_a_file_error_in_the_readers_language(scorer_client):
    deals = [{"contract": "pass"}, {"contract": "samen-8", "declarers": ["Anne", "Carl"], "trick": 9}]
    text = evening_text(deals=deals)
    assert import_errors(scorer_client, text, "fr") == ["Donne 2\u00a0: clé inconnue 'trick'"]
    assert import_errors(scorer_client, text, "nl") == ["Spel 2: onbekende sleutel 'trick'"]
    assert import_errors(scorer_client, text, "en") == ["Deal 2: unknown key 'trick'"]
    assert not Evening.objects.exists()


@pytest.mark.django_db
def test_it_translates_the_file_errors_about_the_whole_file_and_its_house_rules(scorer_client):
    text = evening_text(players=["Anne", "Bert", "Carl"], first_dealer="Anne", deals=[])
    assert import_errors(scorer_client, text, "fr") == ["kleurenwiezen se joue de 4 à 7 joueurs, pas 3"]
    # a house rule that does not fit: the file error carries the rules error, both translated
    text = evening_text(rules={"contracts": {"samen-8": {"needs": 20}}})
    assert import_errors(scorer_client, text, "fr") == [
        "règles\u00a0: contracts.samen-8.needs\u00a0: doit valoir au plus 13"
    ]
    assert import_errors(scorer_client, text, "nl") == ["regels: contracts.samen-8.needs: mag hoogstens 13 zijn"]
    assert import_errors(scorer_client, text, "en") == ["rules: contracts.samen-8.needs: must be at most 13"]
    # a deal the engine refuses while scoring the file
    deals = [{"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 14}]
    assert import_errors(scorer_client, evening_text(deals=deals), "nl") == [
        "Spel 1: 14 slagen: een spel heeft er maar 13"
    ]
    assert not Evening.objects.exists()


# --- the house-rules editor --------------------------------------------------------------------


class _RulesForm(HTMLParser):
    """The name/value pairs the house-rules form (#rules-form) submits."""

    def __init__(self):
        super().__init__()
        self.inside, self.pairs, self._select, self._first = False, {}, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == "rules-form":
            self.inside = True
        if not self.inside or "disabled" in a:
            return
        name = a.get("name")
        if tag == "input" and name and a.get("type", "text") != "submit":
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self.pairs[name] = a.get("value", "on" if a.get("type") == "checkbox" else "")
        elif tag == "select" and name:
            self._select, self._first = name, None
        elif tag == "option" and self._select:
            if self._first is None:
                self._first = self.pairs[self._select] = a.get("value", "")
            if "selected" in a:
                self.pairs[self._select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        if tag == "select":
            self._select = None


@pytest.fixture
def admin(make_user):
    """Adèle, the club's admin: she edits its house rules."""
    return make_user("adele", first_name="Adèle")


@pytest.fixture
def admin_client(client, admin):
    client.force_login(admin)
    return client


@pytest.fixture
def club(admin):
    club = Club.objects.create(name="Les As de Liège", slug="as")
    Membership.objects.create(club=club, user=admin, role=Role.ADMIN)
    return club


def rules_url(club, key):
    return reverse("club_rules_edit", args=[club.slug, key])


@pytest.mark.both_databases
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "message"),
    [("fr", "doit valoir au plus 13"), ("nl", "mag hoogstens 13 zijn"), ("en", "must be at most 13")],
)
def test_it_shows_a_rules_error_in_the_house_rules_editor_in_the_readers_language(admin_client, club, lang, message):
    page = admin_client.get(rules_url(club, "kleurenwiezen"), HTTP_ACCEPT_LANGUAGE=lang)
    form = _RulesForm()
    form.feed(body(page))
    data = form.pairs | {"contracts.piccolo.needs": "14"}
    response = admin_client.post(rules_url(club, "kleurenwiezen"), data, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 422
    assert message in field_errors(body(response), "contracts.piccolo.needs")
    assert not HouseRules.objects.exists()


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_translates_a_rules_error_about_a_whole_row(admin_client, club):
    page = admin_client.get(rules_url(club, "encheres"), HTTP_ACCEPT_LANGUAGE="fr")
    form = _RulesForm()
    form.feed(body(page))
    name = "contracts.solo.made.7.declarer"
    response = admin_client.post(rules_url(club, "encheres"), form.pairs | {name: "99"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 422
    expected = "les déclarants reçoivent ce que paient les adversaires\u00a0: la ligne doit s'équilibrer"
    assert expected in field_errors(body(response), name)


@pytest.mark.django_db
def test_it_translates_why_the_stored_house_rules_no_longer_fit(admin_client, club):
    HouseRules.objects.create(club=club, ruleset="gand", overrides={"contracts": {"no-such-contract": {"needs": 3}}})
    html = body(admin_client.get(rules_url(club, "gand"), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "contracts.no-such-contract\u00a0: clé de contrat inconnue" in html
    html = body(admin_client.get(rules_url(club, "gand"), HTTP_ACCEPT_LANGUAGE="nl"))
    assert "contracts.no-such-contract: onbekende contractsleutel" in html


# --- the helper --------------------------------------------------------------------------------


def test_it_keeps_the_english_message_and_the_prefix_of_str():
    with pytest.raises(DealError) as caught:
        raise DealError(3, "%(player)s is sitting out this deal and cannot declare", "declarers", player="Anne")
    error = caught.value
    assert error.message == "Anne is sitting out this deal and cannot declare"
    assert str(error) == "deal 3: Anne is sitting out this deal and cannot declare"
    assert error.template == "%(player)s is sitting out this deal and cannot declare"
    assert error.params == {"player": "Anne"}
    assert error.field == "declarers"
    assert str(RulesError("claim.at", "must be below the manche target")) == "claim.at: must be below the manche target"


def test_it_falls_back_to_the_english_message_when_it_cannot_translate():
    # an error raised outside the engine, with a text that is no template (it may hold a % sign)
    error = FileError(0, "the evening could not be saved: 100% full")
    with translation.override("fr"):
        assert localized(error) == "the evening could not be saved: 100% full"
    # an error that is not the engine's
    with translation.override("fr"):
        assert localized(ValueError("plain")) == "plain"


def test_it_translates_a_rules_error_carried_by_a_file_error():
    with pytest.raises(FileError) as caught:
        loads(evening_text(rules={"contracts": {"samen-8": {"needs": 20}}}))
    assert caught.value.message == "rules: contracts.samen-8.needs: must be at most 13"
    with translation.override("nl"):
        assert localized(caught.value) == "regels: contracts.samen-8.needs: mag hoogstens 13 zijn"
    with pytest.raises(RulesError) as caught:
        registry.get("bridge")
    with translation.override("fr"):
        assert localized_with_path(caught.value).startswith("ruleset\u00a0: variante inconnue 'bridge'")


# --- every message of the engine is a template --------------------------------------------------

ERRORS = {"DealError": 1, "FileError": 1, "RulesError": 1}  # the position of the template
HELPERS = {"error": 0}  # self.error(template, ...), r.error(template, ...)
PLACEHOLDER = re.compile(r"%\((\w+)\)[sr]")


def _engine_calls():
    """(file, line, the arguments from the template on, the template, the keywords, the enclosing
    function if it is a helper named ``error``) of every engine error built in scorebook/rules."""
    for path in sorted(RULES_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        functions = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id in ERRORS:
                position = ERRORS[func.id]
            elif isinstance(func, ast.Attribute) and func.attr in HELPERS:
                position = HELPERS[func.attr]
            else:
                continue
            keywords = {k.arg: k.value for k in node.keywords}
            template = node.args[position] if len(node.args) > position else keywords.get("template")
            enclosing = next(
                (
                    f.name
                    for f in functions
                    if f.lineno <= node.lineno <= (f.end_lineno or f.lineno) and f.name == "error"
                ),
                None,
            )
            after = [*node.args[position:], *keywords.values()]  # the template, the field, the params
            yield path.name, node.lineno, after, template, keywords, enclosing


def _templates() -> set[str]:
    found = set()
    for *_where, template, _keywords, _enclosing in _engine_calls():
        if isinstance(template, ast.Call) and getattr(template.func, "id", "") == "gettext_noop":
            found.add(template.args[0].value)
    return found


def test_every_engine_error_is_built_from_a_gettext_noop_template_with_its_parameters():
    calls = list(_engine_calls())
    assert len(calls) > 100, "the scan found too few errors: has the engine moved?"
    problems = []
    for name, line, after, template, keywords, enclosing in calls:
        where = f"{name}:{line}"
        if any(isinstance(n, ast.JoinedStr) for arg in after for n in ast.walk(arg)):
            problems.append(f"{where}: an f-string in the message")  # (a RulesError's key path may be one)
        if isinstance(template, ast.Call) and getattr(template.func, "id", "") == "gettext_noop":
            literal = template.args[0]
            if not (isinstance(literal, ast.Constant) and isinstance(literal.value, str)):
                problems.append(f"{where}: gettext_noop of something other than a literal")
                continue
            wanted = set(PLACEHOLDER.findall(literal.value))
            given = set(keywords) - {"field", None}
            if wanted != given:
                problems.append(f"{where}: {literal.value!r} takes {sorted(wanted)}, given {sorted(given)}")
        elif isinstance(template, ast.Name) and template.id == "template" and enclosing == "error":
            continue  # the helper that passes its caller's template on
        elif isinstance(template, ast.Attribute) and template.attr == "template":
            if not any(k is None for k in keywords):  # exc.template, **exc.params: another error's message, forwarded
                problems.append(f"{where}: a forwarded template without its params")
        else:
            problems.append(f"{where}: the message is not a gettext_noop(...) template")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_every_engine_template_is_translated_with_the_same_parameters(lang):
    templates = _templates()
    assert len(templates) > 90
    untranslated, broken = [], []
    with translation.override(lang):
        for template in sorted(templates):
            text = translation.gettext(template)
            if text == template:
                untranslated.append(template)
            names = PLACEHOLDER.findall(template)
            if names:
                try:
                    text % dict.fromkeys(names, "x")
                except (KeyError, ValueError, TypeError) as exc:
                    broken.append(f"{template!r} -> {text!r}: {exc}")
                if set(PLACEHOLDER.findall(text)) != set(names):
                    broken.append(f"{template!r} -> {text!r}: not the same parameters")
    assert not untranslated, untranslated
    assert not broken, "\n".join(broken)
