"""docs/glossary.md is the one list of Scorebook's words in English, French and Dutch, and the site's
catalogues (locale/*/LC_MESSAGES/django.po) and the translations of docs/ (docs/fr/, docs/nl/) use it:

- every contract of every preset is in its table of contracts, with the names the site shows for it
  (the presets' names) in each language, and no other contract is;
- the site's groups and kinds of contracts, and every word of its tables of the game and the site that
  the site shows on its own (a message of the catalogues), translate as the glossary says;
- a word the glossary says not to use is in no catalogue and no translated page of its language.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

from scorebook.rules import registry
from scorebook.rules.model import ContractRules
from tools.docs.pages import without_generated

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"
LANGUAGES = {"français": "fr", "Nederlands": "nl"}


def tables(text: str) -> dict[str, list[list[str]]]:
    """The rows of each section's tables (the header and the rule left out), by the section's heading."""
    found: dict[str, list[list[str]]] = {}
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        title, _, body = section.partition("\n")
        rows = [line.strip().strip("|").split("|") for line in body.splitlines() if line.startswith("|")]
        found[title.strip()] = [[cell.strip() for cell in row] for row in rows[2:] if not set(row[0]) <= {"-", ":"}]
    return found


def catalogue(code: str) -> dict[str, str]:
    """Each message's translation, by its msgid (not the file names and other messages with a context)."""
    entries = polib.pofile(str(ROOT / "locale" / code / "LC_MESSAGES" / "django.po"))
    return {e.msgid: e.msgstr for e in entries if not e.obsolete and not e.msgid_plural and not e.msgctxt}


GLOSSARY_TABLES = tables(GLOSSARY.read_text())
CATALOGUES = {code: catalogue(code) for code in ("fr", "nl")}


def test_it_reads_the_glossarys_tables():
    assert tables("## A\n\n| x | y |\n|---|---|\n| a | b |\n| c | d |\n\n## B\n\ntext\n") == {
        "A": [["a", "b"], ["c", "d"]],
        "B": [],
    }


def test_it_names_every_contract_as_the_site_does():
    rows = GLOSSARY_TABLES["The contracts"]
    by_key = {}
    for keys, en, fr, nl in rows[: next(i for i, row in enumerate(rows) if len(row) == 3)]:
        for key in re.findall(r"`([^`]+)`", keys):
            by_key[key] = (en, fr, nl)
    shipped = {}
    for rules in registry.all_presets():
        if isinstance(rules, ContractRules):
            for contract in rules.contracts.values():
                shipped[contract.key] = (contract.names.en, contract.names.fr, contract.names.nl)
    wrong = {key: (names, by_key.get(key)) for key, names in shipped.items() if by_key.get(key) != names}
    assert not wrong, f"the site's names (presets) and the glossary's differ: {wrong}"
    assert set(by_key) == set(shipped), f"no such contract: {set(by_key) - set(shipped)}"


def _words() -> list[tuple[str, str, str]]:
    rows = GLOSSARY_TABLES["The game"] + GLOSSARY_TABLES["The site"]
    contracts = GLOSSARY_TABLES["The contracts"]
    groups = contracts[next(i for i, row in enumerate(contracts) if len(row) == 3) :]
    return [(en, fr, nl) for en, fr, nl in rows + groups]


def test_it_translates_the_sites_words_as_the_glossary_says():
    """The message written as the glossary writes the word, or else with a capital (a heading, a button)."""
    checked, wrong = 0, []
    for english, *terms in _words():
        for code, term in zip(("fr", "nl"), terms, strict=True):
            said = CATALOGUES[code].get(english) or CATALOGUES[code].get(english[:1].upper() + english[1:])
            if said is None:
                continue
            checked += 1
            if said.lower() != term.lower():
                wrong.append(f"{english!r} is {said!r} in the {code} catalogue, {term!r} in the glossary")
    assert not wrong, "\n".join(wrong)
    assert checked >= 2 * 50, f"only {checked} translations checked: the glossary's words are no longer the site's"


def test_it_checks_every_group_of_contracts_the_scoring_page_shows():
    groups = {en for en, _, _ in _words()}
    assert {"Together", "Alone", "Three aces", "Misère and piccolo", "Abondance and slam", "trou (pair)"} <= groups


def _avoided() -> list[pytest.ParameterSet]:
    return [
        pytest.param(LANGUAGES[language], word, id=f"{LANGUAGES[language]}: {word}")
        for language, word, _ in GLOSSARY_TABLES["Words we do not use"]
    ]


@pytest.mark.parametrize(("code", "word"), _avoided())
def test_it_never_uses_a_word_the_glossary_avoids(code, word):
    pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)
    found = [said for said in CATALOGUES[code].values() if pattern.search(said)]
    for page in sorted((ROOT / "docs" / code).rglob("*.md")):
        found += [
            f"{page.relative_to(ROOT)}: {line}"
            for line in without_generated(page.read_text()).splitlines()
            if pattern.search(line)
        ]
    assert not found, f"{word!r} ({code}), which the glossary avoids:\n" + "\n".join(found)
