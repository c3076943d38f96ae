"""An evening's rules page says how Scorebook scores its variant: the variant's page of docs/rules/ in the
reader's language (docs/fr/rules/, docs/nl/rules/), the text the repository publishes, read from the
checkout (evenings/rules_text.py).

Its figures and grid are left out (the page shows the evening's own copy of them, house rules
marked), links to other pages of the rules become links to their help pages, and a page that has no
translation yet is shown in English, marked as English on a French or Dutch page. A link holder sees
the same on the read-only rules page."""

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from scorebook.rules import registry

pytestmark = pytest.mark.django_db

PLAYERS = {"mort": ("Anne", "Bert", "Carl")}
LANGUAGES = ("fr", "nl", "en")
IN_ENGLISH = {"fr": "En anglais.", "nl": "In het Engels."}


def how_section(html: str) -> str:
    match = re.search(r'<section aria-labelledby="how-title".*?</section>', html, re.S)
    assert match, "no explanation of the variant on the page"
    return match.group()


def words(html: str) -> str:
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    return text.replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")


def page(key: str, lang: str) -> Path:
    docs = Path(django_settings.DOCS_DIR)
    return (docs / "rules" if lang == "en" else docs / lang / "rules") / f"{key}.md"


def first_sentence(path: Path) -> str:
    """The first sentence of the page's first section ("How Scorebook scores it"), as its Markdown has it."""
    section = re.split(r"^## .+\n", path.read_text(), flags=re.M)[1]
    paragraph = next(p for p in section.split("\n\n") if p.strip() and not p.startswith(("<!--", "-", "|")))
    plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", paragraph.replace("\n", " "))
    plain = re.sub(r"[*`]", "", plain)
    return plain.split(". ")[0].split(" :")[0].split("\u00a0:")[0].split(": ")[0]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", [rules.key for rules in registry.all_presets()])
def test_it_shows_how_the_variant_is_scored_in_the_readers_language(scorer_client, make_evening, key, lang):
    evening = make_evening(key, PLAYERS.get(key, ("Anne", "Bert", "Carl", "Dina")))
    scorer_client.cookies["django_language"] = lang
    section = how_section(scorer_client.get(reverse("evening_rules", args=[evening.pk])).content.decode())
    assert first_sentence(page(key, lang)) in words(section)
    assert section.startswith('<section aria-labelledby="how-title" class="rules-doc">'), "not in the reader's language"
    assert not any(label in section for label in IN_ENGLISH.values())
    assert "<h4" not in section.split("<details", 1)[0]
    assert len(re.findall(r"<details", section)) >= 2  # the worked examples, what a house rule changes... one tap away
    assert not re.search(r'href="[^"]*\.md', section), "a link to a page the site does not serve"
    assert reverse("help_page", args=["rules", key]) in section, "no way to the whole page"


def test_it_leaves_out_the_figures_and_the_grid_whatever_the_language(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen")
    for lang, hidden in (("en", "The figures as shipped"), ("fr", "Les chiffres standard"), ("nl", "Het rooster")):
        scorer_client.cookies["django_language"] = lang
        section = how_section(scorer_client.get(reverse("evening_rules", args=[evening.pk])).content.decode())
        assert f"<summary>{hidden}</summary>" not in section, lang
        assert 'id="samen-8"' not in section and "samen-13" not in section, lang


def test_it_links_the_other_pages_of_the_rules_to_their_help_pages(scorer_client, make_evening):
    evening = make_evening("liege")
    scorer_client.cookies["django_language"] = "fr"
    section = how_section(scorer_client.get(reverse("evening_rules", args=[evening.pk])).content.decode())
    money = reverse("help_page", args=["rules", "money"])
    assert f'href="{money}#{quote("des-points-à-largent")}"' in section


def test_it_reads_the_text_from_the_docs_of_the_checkout(scorer_client, make_evening, settings, tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "gand.md").write_text(
        "# THE TITLE\n\nIntro.\n\n## How Scorebook scores it\n\nA [link](../operating.md) and *this*.\n\n"
        "## The grid\n\nNOT SHOWN\n\n## Sources\n\nA book.\n"
    )
    settings.DOCS_DIR = tmp_path
    evening = make_evening("gand")
    scorer_client.cookies["django_language"] = "en"
    section = how_section(scorer_client.get(reverse("evening_rules", args=[evening.pk])).content.decode())
    assert "<p>A link and <em>this</em>.</p>" in section
    assert "NOT SHOWN" not in section and "THE TITLE" not in section
    assert "<summary>Sources</summary>" in section


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_it_marks_a_page_not_translated_yet_as_english(scorer_client, make_evening, settings, tmp_path, lang):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "gand.md").write_text("# Ghent\n\n## How Scorebook scores it\n\nIn jetons.\n")
    settings.DOCS_DIR = tmp_path
    evening = make_evening("gand")
    scorer_client.cookies["django_language"] = lang
    section = how_section(scorer_client.get(reverse("evening_rules", args=[evening.pk])).content.decode())
    assert section.startswith('<section aria-labelledby="how-title" class="rules-doc" lang="en">')
    assert f'<h2 id="how-title" lang="{lang}">' in section
    assert IN_ENGLISH[lang] in section and "In jetons." in section


def test_a_link_holder_reads_it_too(client, make_evening):
    evening = make_evening("liege")
    client.cookies["django_language"] = "nl"
    html = client.get(reverse("evening_public_rules", args=[evening.share_token])).content.decode()
    assert first_sentence(page("liege", "nl")) in words(how_section(html))


def test_it_shows_nothing_of_a_page_that_is_not_there(scorer_client, make_evening, settings, tmp_path):
    settings.DOCS_DIR = tmp_path
    html = scorer_client.get(reverse("evening_rules", args=[make_evening().pk])).content.decode()
    assert 'aria-labelledby="how-title"' not in html
