"""An evening's rules page says how Scorebook scores its variant: the variant's page of docs/rules/,
the text the repository publishes, read from the checkout (evenings/rules_text.py).

Its figures and grid are left out (the page shows the evening's own copy of them, house rules
marked), links to other pages of docs/ become plain text, and the English text is marked as English
on a French or Dutch page. A link holder sees the same on the read-only rules page."""

import re

import pytest
from django.urls import reverse

from scorebook.evenings import rules_text
from scorebook.rules import registry

pytestmark = pytest.mark.django_db

PLAYERS = {"mort": ("Anne", "Bert", "Carl")}


def how_section(html: str) -> str:
    match = re.search(r'<section aria-labelledby="how-title".*?</section>', html, re.S)
    assert match, "no explanation of the variant on the page"
    return match.group()


def first_sentence(key: str) -> str:
    """The first sentence of the variant's "How Scorebook scores it", as the page's Markdown has it."""
    text = rules_text.page_of(key).read_text()
    section = text.split("## How Scorebook scores it\n", 1)[1]
    paragraph = next(p for p in section.split("\n\n") if p.strip() and not p.startswith(("<!--", "-", "|")))
    plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", paragraph.replace("\n", " "))
    plain = re.sub(r"[*`]", "", plain)
    return plain.split(". ")[0]


@pytest.mark.parametrize("key", [rules.key for rules in registry.all_presets()])
def test_it_shows_how_the_variant_is_scored_on_every_variants_rules_page(scorer_client, make_evening, key):
    evening = make_evening(key, PLAYERS.get(key, ("Anne", "Bert", "Carl", "Dina")))
    html = scorer_client.get(reverse("evening_rules", args=[evening.pk])).content.decode()
    section = how_section(html)
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", section)).replace("&#x27;", "'").replace("&quot;", '"')
    assert first_sentence(key) in words
    assert "The figures as shipped" not in section and "<h4" not in section.split("<details", 1)[0]
    assert "Worked examples" in section  # one tap away
    assert not re.search(r'href="[^"]*\.md', section), "a link to a page the site does not serve"


def test_it_reads_the_text_from_the_docs_of_the_checkout(scorer_client, make_evening, settings, tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "gand.md").write_text(
        "# THE TITLE\n\nIntro.\n\n## How Scorebook scores it\n\nA [link](money.md) and *this*.\n\n"
        "## The grid\n\nNOT SHOWN\n\n## Sources\n\nA book.\n"
    )
    settings.DOCS_DIR = tmp_path
    evening = make_evening("gand")
    section = how_section(scorer_client.get(reverse("evening_rules", args=[evening.pk])).content.decode())
    assert "<p>A link and <em>this</em>.</p>" in section
    assert "NOT SHOWN" not in section and "THE TITLE" not in section
    assert "<summary>Sources</summary>" in section


def test_it_marks_the_english_text_on_a_french_page(scorer_client, make_evening):
    evening = make_evening()
    scorer_client.cookies["django_language"] = "fr"
    html = scorer_client.get(reverse("evening_rules", args=[evening.pk])).content.decode()
    section = how_section(html)
    assert section.startswith('<section aria-labelledby="how-title" class="rules-doc" lang="en">')
    assert 'lang="fr">Comment Scorebook compte le whist à la couleur flamand</h2>' in section
    assert "En anglais." in section


def test_a_link_holder_reads_it_too(client, make_evening):
    evening = make_evening("liege")
    html = client.get(reverse("evening_public_rules", args=[evening.share_token])).content.decode()
    assert first_sentence("liege") in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", how_section(html)))


def test_it_shows_nothing_of_a_page_that_is_not_there(scorer_client, make_evening, settings, tmp_path):
    settings.DOCS_DIR = tmp_path
    html = scorer_client.get(reverse("evening_rules", args=[make_evening().pk])).content.decode()
    assert 'aria-labelledby="how-title"' not in html
