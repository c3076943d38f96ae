"""Help (core/help_pages.py): from the menu of every page, a French, a Dutch or an English reader finds
the guides (an evening, a club, its money, a club night) and how every variant is scored, in his own
language, with the pictures of his own screens; a page not translated yet is shown in English and says
so. Every link between the help pages leads to a page and an anchor that exist."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from scorebook.core import doc_pages
from scorebook.rules import registry

pytestmark = pytest.mark.django_db

LANGUAGES = ("fr", "nl", "en")
GUIDES = ("scorer", "secretary", "treasurer", "night-director")
NOT_TRANSLATED = {"fr": "Cette page n'est pas encore traduite", "nl": "Deze pagina is nog niet vertaald"}
# words an English sentence can hardly do without, and a French or Dutch one never uses ("is" and "of"
# are Dutch words too)
ENGLISH = {
    "fr": re.compile(r"\b(the|and|which|with|when|is|are|of|you)\b"),
    "nl": re.compile(r"\b(the|and|which|with|when|are|you)\b"),
}


def read(client, url: str, lang: str) -> str:
    client.cookies["django_language"] = lang
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def visible_text(html: str) -> str:
    """The words a reader meets: no code, no markup, no attribute."""
    html = re.sub(r"<(pre|code|script|template|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<div id="queue-words".*?</div>', " ", html, flags=re.S)  # words for the offline queue
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def help_pages() -> list[str]:
    pages = [reverse("help_page", args=["guides", name]) for name in GUIDES]
    pages += [reverse("help_page", args=["rules", name]) for name in doc_pages.names("rules")]
    return pages


def test_every_page_has_help_in_its_menu(client):
    for lang, word in (("fr", "Aide"), ("nl", "Hulp"), ("en", "Help")):
        html = read(client, reverse("login"), lang)
        assert f'<a class="navlink" href="{reverse("help")}">{word}</a>' in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_it_lists_the_guides_and_every_variants_rules_in_the_readers_language(client, lang):
    html = read(client, reverse("help"), lang)
    for name in GUIDES:
        assert reverse("help_page", args=["guides", name]) in html
    for rules in registry.all_presets():
        assert reverse("help_page", args=["rules", rules.key]) in html
    for name in ("README", "money", "club-nights"):
        assert reverse("help_page", args=["rules", name]) in html
    assert "(en anglais)" not in html and "(in het Engels)" not in html and "(in English)" not in html


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_a_french_or_dutch_reader_meets_no_english_sentence_in_help(client, lang):
    for url in [reverse("help"), *help_pages()]:
        text = visible_text(read(client, url, lang))
        text = re.sub(r"\([^()]*\) \(en\)", "", text)  # the names line of a grid: the contract's name in English
        text = re.sub(r"\| English \|[^|]*\|", "", text)
        found = ENGLISH[lang].findall(text)
        assert len(found) <= 2, f"{url} ({lang}): English words {found[:10]}"
        assert not any(label in text for label in NOT_TRANSLATED.values()), url


def test_a_guide_shows_the_pictures_of_the_readers_screens(client):
    for lang, heading in (("fr", "le guide du marqueur"), ("nl", "de gids voor de puntenteller"), ("en", "scorer")):
        html = read(client, reverse("help_page", args=["guides", "scorer"]), lang)
        assert heading in html
        pictures = re.findall(r'<img src="([^"]+)"', html)
        assert pictures and all(f"/help/{lang}/scorer-" in src for src in pictures), pictures


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_link_between_help_pages_reaches_a_page_and_its_anchor(client, lang):
    broken = []
    for url in help_pages():
        html = read(client, url, lang)
        for href in re.findall(r'<a href="([^"]+)"', html):
            parts = urlsplit(href)
            if parts.scheme or not (parts.path.startswith("/help/") or not parts.path):
                continue
            target = read(client, parts.path, lang) if parts.path else html
            if parts.fragment and f'id="{unquote(parts.fragment)}"' not in target:
                broken.append(f"{url}: {href}")
    assert not broken, broken


def test_it_shows_a_page_not_translated_yet_in_english_and_says_so(client, settings, tmp_path):
    (tmp_path / "guides").mkdir()
    (tmp_path / "guides" / "scorer.md").write_text("# At the table\n\nTap **Save the deal**.\n")
    settings.DOCS_DIR = tmp_path
    html = read(client, reverse("help_page", args=["guides", "scorer"]), "fr")
    assert NOT_TRANSLATED["fr"] in html
    assert '<article class="rules-doc help-page" lang="en">' in html
    assert "<strong>Save the deal</strong>" in html
    assert "(en anglais)" in read(client, reverse("help"), "fr")


def test_it_gives_each_heading_the_anchor_the_pages_link_to(client):
    html = read(client, reverse("help_page", args=["rules", "kleurenwiezen"]), "fr")
    assert '<h2 id="comment-scorebook-le-compte">' in html
    assert '<h4 id="troel">' in html  # the grid's anchors, as the figures link to them
    assert 'href="#troel"' in html


def test_it_answers_404_for_anything_but_a_page_of_the_rules_or_the_guides(client):
    for section, name in (("rules", "nope"), ("img", "scorer-evenings"), ("rules", "..%2Foperating"), ("x", "y")):
        assert client.get(f"/help/{section}/{name}/").status_code == 404


def test_it_reads_the_pages_the_repository_publishes():
    docs = Path(django_settings.DOCS_DIR)
    for lang in ("fr", "nl"):
        for section in doc_pages.SECTIONS:
            for name in doc_pages.names(section):
                assert doc_pages.source(section, name, lang) == (docs / lang / section / f"{name}.md", lang)
