"""How Scorebook scores a variant, in words: its page of ``docs/rules/`` in the reader's language
(``docs/fr/rules/``, ``docs/nl/rules/``; English where it has no translation), shown on the rules page
of each of its evenings, so that players read at the table the same text the repository publishes.

The page is rendered as the site's help renders it (``core.doc_pages``): links to the other pages of
the rules and the guides lead to their help pages. What the rules page already shows as the evening
played it (the figures and the grid, with the house rules marked) is left out, and so is the page's
title. A translation has the outline of its English page (``tests/test_doc_translations.py``): its
sections are known by their place, the English page's titles name them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString

from scorebook.core import doc_pages

# the sections of a variant's page that the rules page shows as played, from the evening's own copy
SHOWN_AS_PLAYED = ("The figures as shipped", "The grid")
OPEN = "How Scorebook scores it"  # shown at once, with what comes before it; the other sections one tap away
SECTION = re.compile(r"^## (.+)$", re.M)


@dataclass(frozen=True)
class Section:
    title: str  # empty for what comes before the first heading
    html: SafeString
    open: bool = False  # shown at once (else behind its title)


@dataclass(frozen=True)
class Explanation:
    sections: list[Section] = field(default_factory=list)
    lang: str = "en"  # the language of the text


def page_of(key: str) -> Path:
    """The variant's English page."""
    return Path(settings.DOCS_DIR) / "rules" / f"{key}.md"


def _help_url(section: str, name: str) -> str | None:
    return reverse("help_page", args=[section, name]) if doc_pages.source(section, name, "en") else None


def explanation(key: str, lang: str) -> Explanation:
    """The variant's page as sections (the text before the first heading first), without its title
    and the sections the rules page shows as played; no section when the page is not there."""
    found = doc_pages.source("rules", key, lang)
    if found is None:
        return Explanation()
    path, text_lang = found
    text = doc_pages.prepare(path.read_text(encoding="utf-8"))
    text = re.sub(r"\A\s*# .*\n", "", text)  # the title: the rules page has its own
    parts = SECTION.split(text)
    english = SECTION.findall(page_of(key).read_text(encoding="utf-8"))
    out = []
    if parts[0].strip():
        out.append(Section("", doc_pages.render(parts[0], path=path, resolve=_help_url, shift=1), open=True))
    for i, (title, body) in enumerate(zip(parts[1::2], parts[2::2], strict=True)):
        known = english[i].strip() if i < len(english) else ""
        if known not in SHOWN_AS_PLAYED:
            html = doc_pages.render(body, path=path, resolve=_help_url, shift=1)
            out.append(Section(title.strip(), html, open=known == OPEN))
    return Explanation(out, text_lang)
