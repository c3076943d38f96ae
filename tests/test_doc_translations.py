"""The translations of docs/ (docs/fr/, docs/nl/) follow their English pages (tools/docs/translations.py).

- Every page of the rules and the guides, and the index of docs/, is translated into French and Dutch.
- Each translation starts with the fingerprint of its English page as it was translated: when the
  English page changes (outside its parts made from the code), the translation is out of date until it
  is brought up to date and stamped again (``make translations``, ``python -m tools.docs stamp``).
- Each translation has its English page's outline: the same parts made from the code, the same house
  rules checked, the same anchors, headings and pictures.
- A figure never differs between languages: the parts made from the code hold the same numbers in
  every language.
- The French follows the site's typography; the Dutch says "je", as the site does.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_translations import NOT_PROSE, typography_faults
from tools.docs import pages, translations
from tools.docs.words import NBSP

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TRANSLATED = ("fr", "nl")
PAGES = translations.translations()
CODE = re.compile(r"```.*?```|`[^`\n]*`|<!--.*?-->|\]\([^)]*\)|https?://\S+", re.S)


def _relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_it_translates_every_page_of_the_rules_and_the_guides(lang):
    english = [DOCS / "README.md", *sorted((DOCS / "rules").glob("*.md")), *sorted((DOCS / "guides").glob("*.md"))]
    missing = [_relative(p) for p in english if not (DOCS / lang / p.relative_to(DOCS)).exists()]
    assert not missing, f"no {lang} translation of {missing}"


def test_every_translation_follows_its_english_page_as_it_is_now():
    behind = {_relative(path): why for path, why in translations.out_of_date().items()}
    assert not behind, (
        f"translations out of date: {behind}\n"
        "`make translations` shows what changed in English; bring each up to date, then "
        "`.venv/bin/python -m tools.docs stamp FILE`"
    )


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A docs/ of one English page and its French translation, stamped."""
    docs = tmp_path / "docs"
    (docs / "rules").mkdir(parents=True)
    (docs / "fr" / "rules").mkdir(parents=True)
    english = docs / "rules" / "gand.md"
    english.write_text("# Ghent\n\nIn jetons.\n\n<!-- generated: figures gand -->\nold\n<!-- end generated -->\n")
    (docs / "fr" / "rules" / "gand.md").write_text("# Gand\n\nEn jetons.\n")
    monkeypatch.setattr(translations, "DOCS", docs)
    monkeypatch.setattr(translations, "ROOT", tmp_path)
    translations.stamp(docs / "fr" / "rules" / "gand.md")
    return english


def test_it_says_a_translation_is_out_of_date_when_its_english_page_changes(tree):
    assert translations.out_of_date() == {}
    tree.write_text(tree.read_text().replace("In jetons.", "In jetons, zero-sum."))
    assert list(translations.out_of_date().values()) == ["docs/rules/gand.md changed since it was translated"]
    translations.stamp(tree.parent.parent / "fr" / "rules" / "gand.md")
    assert translations.out_of_date() == {}


def test_a_figure_made_from_the_code_leaves_the_translations_up_to_date(tree):
    tree.write_text(tree.read_text().replace("old\n", "a new grid\n"))
    assert translations.out_of_date() == {}


def test_it_says_a_translation_without_a_stamp_is_out_of_date(tree):
    french = tree.parent.parent / "fr" / "rules" / "gand.md"
    french.write_text(french.read_text().split("\n", 1)[1])
    assert "no stamp" in next(iter(translations.out_of_date().values()))


@pytest.mark.parametrize("page", PAGES, ids=_relative)
def test_every_translation_has_the_outline_of_its_english_page(page):
    assert translations.mismatches(page) == []


def test_it_sees_a_translation_that_leaves_out_a_part_of_its_english_page():
    english = (DOCS / "rules" / "kleurenwiezen.md").read_text()
    french = (DOCS / "fr" / "rules" / "kleurenwiezen.md").read_text()
    shorter = pages.BLOCK.sub("", french, count=1)
    assert translations.outline(shorter) != translations.outline(english)
    assert translations.outline(french) == translations.outline(english)


def _numbers(text: str, lang: str) -> list[str]:
    """The figures of a text, whatever the language writes them as (100,000.00, 100 000,00, 100.000,00);
    not the sentence naming the worked example's sheet (its name, in English, is said in English only)."""
    text = re.sub(r"\A\s*[^\n]*`tests/rules/cases/[^\n]*\n", "", text)
    text = CODE.sub(" ", text)
    if lang == "en":
        text = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    else:
        text = text.replace(NBSP, " ") if lang == "fr" else re.sub(r"(?<=\d)\.(?=\d{3})", "", text)
        text = re.sub(r"(?<=\d) (?=\d{3}\b)", "", text)
        text = re.sub(r"(?<=\d),(?=\d)", ".", text)
    return re.findall(r"\d+(?:\.\d+)?", text)


@pytest.mark.parametrize("page", [p for p in PAGES if pages.BLOCK.search(p.read_text())], ids=_relative)
def test_every_figure_made_from_the_code_is_the_same_in_every_language(page):
    lang = page.relative_to(DOCS).parts[0]
    english = {m["what"]: m["body"] for m in pages.BLOCK.finditer(translations.source_of(page).read_text())}
    for match in pages.BLOCK.finditer(page.read_text()):
        assert _numbers(match["body"], lang) == _numbers(english[match["what"]], "en"), match["what"]


def test_it_reads_figures_as_each_language_writes_them():
    assert _numbers("| 100,000.00 | -4.20 |", "en") == _numbers(f"| 100{NBSP}000,00 | -4,20 |", "fr")
    assert _numbers("| 100.000,00 | -4,20 |", "nl") == ["100000.00", "4.20"]


@pytest.mark.parametrize("page", sorted((DOCS / "fr").rglob("*.md")), ids=_relative)
def test_it_writes_the_french_pages_with_french_typography(page):
    faults = typography_faults(CODE.sub("\x00", page.read_text()))
    assert not faults, f"{_relative(page)}: {faults[:10]}"


@pytest.mark.parametrize("page", sorted((DOCS / "nl").rglob("*.md")), ids=_relative)
def test_it_addresses_the_dutch_reader_as_the_site_does(page):
    prose = NOT_PROSE.sub(" ", CODE.sub(" ", page.read_text()))
    assert not re.findall(r"\b(u|uw)\b", prose, re.IGNORECASE)
