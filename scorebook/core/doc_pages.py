"""The pages of ``docs/`` on the site, in the reader's language: the rules (``docs/rules/``) and the
guides (``docs/guides/``), read from the checkout as the templates are.

A page is shown in the reader's language where it is translated (``docs/fr/...``, ``docs/nl/...``),
else in English, and the caller says so. Its Markdown is rendered by markdown-it-py (CommonMark and
its tables; raw HTML is not rendered: the page's comments, its translation stamp included, are left
out, and an anchor ``<a id="KEY"></a>`` before a heading becomes that heading's id). Every heading gets
the id GitHub gives it, so that the pages' own ``#anchors`` work here too; a link to another page of
the rules or the guides becomes a link to its help page; a link to a page the site does not serve
(the operator's and the developer's pages, in English) becomes plain text; a picture is served from
the language's folder of pictures (``docs/img/``, ``docs/fr/img/``, ``docs/nl/img/``: static files
under ``help/LANG/``, see ``STATICFILES_DIRS``). Tables scroll sideways inside a focusable region.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.templatetags.static import static
from django.utils.safestring import SafeString
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.attrs import attrs_block_plugin

SECTIONS = ("rules", "guides")
TRANSLATED = ("fr", "nl")  # the languages of docs/'s translations; English is the source
COMMENT = re.compile(r"<!--.*?-->\n?", re.S)
ANCHOR = re.compile(r'^<a id="([\w-]+)"></a>$', re.M)
WEB = re.compile(r"[a-z][a-z+.-]*:")
NAME = re.compile(r"^[\w-]+$")

# what a relative link of a page leads to: a help page's address with its anchor, or None (plain text)
Resolver = Callable[[str, str], str | None]


def docs_dir() -> Path:
    return Path(settings.DOCS_DIR)


def names(section: str) -> list[str]:
    """The pages of a section, by their English files (``README`` first)."""
    found = sorted(path.stem for path in (docs_dir() / section).glob("*.md"))
    return sorted(found, key=lambda name: name != "README")


def source(section: str, name: str, lang: str) -> tuple[Path, str] | None:
    """The page in ``lang`` where it is translated, else in English: (its file, the language of its
    text); None when the section has no such page."""
    if section not in SECTIONS or not NAME.match(name):
        return None
    english = docs_dir() / section / f"{name}.md"
    if not english.is_file():
        return None
    translated = docs_dir() / lang / section / f"{name}.md"
    if lang in TRANSLATED and translated.is_file():
        return translated, lang
    return english, "en"


def prepare(text: str) -> str:
    """The page's Markdown as the site renders it: comments out, anchors as the next block's id."""
    return ANCHOR.sub(r"{#\1}", COMMENT.sub("", text))


def title(text: str) -> str:
    """The page's title: its first heading, as plain text."""
    match = re.search(r"^# (.+)$", text, re.M)
    return re.sub(r"[`*]", "", match.group(1)).strip() if match else ""


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def link_target(folder: str, target: str) -> tuple[str, str, str] | None:
    """A relative link of a page in ``folder`` (relative to docs/, such as ``fr/rules``) as the page it
    leads to: (section, name, anchor), or None for anything but a page of the rules or the guides."""
    path, _, anchor = target.partition("#")
    if not path:
        return None
    parts = posixpath.normpath(posixpath.join(folder, path)).split("/")
    if parts[0] in TRANSLATED:
        parts = parts[1:]
    if len(parts) == 2 and parts[0] in SECTIONS and parts[1].endswith(".md"):
        return parts[0], parts[1][: -len(".md")], anchor
    return None


def picture(folder: str, target: str) -> str | None:
    """A picture of a page in ``folder``, as the address the site serves it at (None: not a picture of
    a language's folder of pictures)."""
    parts = posixpath.normpath(posixpath.join(folder, target)).split("/")
    lang = parts[0] if parts[0] in TRANSLATED else "en"
    rest = parts[1:] if lang != "en" else parts
    if len(rest) == 2 and rest[0] == "img" and rest[1].endswith(".png"):
        return static(f"help/{lang}/{rest[1]}")
    return None


def _inline_text(token: Token) -> str:
    return "".join(child.content for child in token.children or [] if child.type in ("text", "code_inline"))


def _headings(state: StateCore) -> None:
    """Each heading its GitHub id (unless the page gave it one), one level down if the page is shown
    inside another (``shift``)."""
    seen: dict[str, int] = {}
    shift = state.env.get("shift", 0)
    for i, token in enumerate(state.tokens):
        if token.type not in ("heading_open", "heading_close"):
            continue
        token.tag = f"h{min(int(token.tag[1]) + shift, 6)}"
        if token.type == "heading_open" and not token.attrGet("id"):
            base = slug(_inline_text(state.tokens[i + 1]))
            n = seen.get(base, 0)
            seen[base] = n + 1
            token.attrSet("id", base if n == 0 else f"{base}-{n}")


def _links(state: StateCore) -> None:
    """Links to the rules and the guides lead to their help pages, pictures to the language's folder;
    a link to anything else of the repository is its text alone."""
    folder: str = state.env["folder"]
    resolve: Resolver = state.env["resolve"]
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        kept: list[Token] = []
        dropped = 0
        for child in token.children:
            if child.type == "image":
                address = picture(folder, str(child.attrGet("src") or ""))
                if address:
                    child.attrSet("src", address)
            if child.type == "link_open":
                href = str(child.attrGet("href") or "")
                address = _address(folder, href, resolve)
                if address is None:
                    dropped += 1
                    continue
                child.attrSet("href", address)
            if child.type == "link_close" and dropped:
                dropped -= 1
                continue
            kept.append(child)
        token.children = kept
        _whole_link(kept)


def _whole_link(children: list[Token]) -> None:
    """A paragraph or list item that is one link and nothing else is a tap target of its own (44 px)."""
    whole = len(children) >= 2 and children[0].type == "link_open" and children[-1].type == "link_close"
    if whole and not any(c.type == "link_open" for c in children[1:]):
        children[0].attrSet("class", "whole-link")


def _address(folder: str, href: str, resolve: Resolver) -> str | None:
    if WEB.match(href) or href.startswith("#"):
        return href
    target = link_target(folder, href)
    if target is None:
        return None
    section, name, anchor = target
    address = resolve(section, name)
    return f"{address}#{anchor}" if address and anchor else address


def _table_open(_renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    """A table scrolls sideways inside a region a keyboard can reach, named by the heading above it."""
    label = next(
        (_inline_text(tokens[i + 1]) for i in range(idx - 1, -1, -1) if tokens[i].type == "heading_open"),
        env.get("title", ""),
    )
    quoted = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return f'<div class="table-scroll" role="region" tabindex="0" aria-label="{quoted}">\n<table>\n'


def _table_close(_renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    return "</table>\n</div>\n"


def markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table").use(attrs_block_plugin)
    md.core.ruler.push("doc_headings", _headings)
    md.core.ruler.push("doc_links", _links)
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)
    return md


def render(text: str, *, path: Path, resolve: Resolver, shift: int = 0) -> SafeString:
    """A page's Markdown (already ``prepare``d) as HTML; ``path``: its file, for its relative links."""
    folder = path.parent.relative_to(docs_dir()).as_posix()
    env: dict[str, Any] = {"folder": folder, "resolve": resolve, "shift": shift, "title": title(text)}
    # our own pages, rendered without raw HTML: safe to insert
    return SafeString(markdown().render(text, env))
