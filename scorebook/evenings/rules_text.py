"""How Scorebook scores a variant, in words: its page of ``docs/rules/`` (read from the checkout, as the
templates are), shown on the rules page of each of its evenings, so that players read at the table
the same text the repository publishes.

The page's Markdown is rendered by markdown-it-py (CommonMark and its tables; raw HTML is not
rendered, so the page's own comments and anchors stay out). What the rules page already shows as the
evening played it (the figures and the grid, with the house rules marked) is left out, and so is the
page's title; links to other pages of ``docs/`` become plain text (the site does not serve them), links
to the web stay links. The text is English: the template says so and marks it ``lang="en"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.token import Token

# the sections of a variant's page that the rules page shows as played, from the evening's own copy
SHOWN_AS_PLAYED = ("The figures as shipped", "The grid")
OPEN = "How Scorebook scores it"  # shown at once, with what comes before it; the other sections one tap away
SECTION = re.compile(r"^## (.+)$", re.M)
COMMENT = re.compile(r"<!--.*?-->\n?", re.S)
WEB = re.compile(r"https?://")


@dataclass(frozen=True)
class Section:
    title: str  # empty for what comes before the first heading
    html: SafeString
    open: bool = False  # shown at once (else behind its title)


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.core.ruler.push("site_links", _site_links)
    return md


def _site_links(state) -> None:
    """Links to pages of docs/ (which the site does not serve) as their text; links to the web as links.
    Headings one level down: the page's own sections are h2."""
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + 1, 6)}"
        if token.type != "inline" or not token.children:
            continue
        kept: list[Token] = []
        dropped = 0
        for child in token.children:
            if child.type == "link_open" and not WEB.match(str(child.attrGet("href") or "")):
                dropped += 1
                continue
            if child.type == "link_close" and dropped:
                dropped -= 1
                continue
            kept.append(child)
        token.children = kept


def page_of(key: str) -> Path:
    return Path(settings.DOCS_DIR) / "rules" / f"{key}.md"


def sections(key: str) -> list[Section]:
    """The variant's page as sections (the text before the first heading first), without its title
    and the sections the rules page shows as played; [] when the page is not there."""
    path = page_of(key)
    if not path.is_file():
        return []
    text = COMMENT.sub("", path.read_text(encoding="utf-8"))
    text = re.sub(r"\A# .*\n", "", text)  # the title: the rules page has its own
    parts = SECTION.split(text)
    md = _markdown()
    # our own pages, rendered without raw HTML: safe to insert
    out = [Section("", mark_safe(md.render(parts[0])), open=True)] if parts[0].strip() else []
    for title, body in zip(parts[1::2], parts[2::2], strict=True):
        if title.strip() not in SHOWN_AS_PLAYED:
            out.append(Section(title.strip(), mark_safe(md.render(body)), open=title.strip() == OPEN))
    return out
