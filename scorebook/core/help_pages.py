"""Help: the rules of every variant and the guides (``docs/``), in the reader's language, for anyone
(they hold nothing of a club). The menu's *Help* opens the list; each page is one page of ``docs/``
(``core.doc_pages``), in English only where it has no translation yet, and then said so."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scorebook.rules import registry

from . import doc_pages

# the guides, in the order of an evening, a club, its money, a club night
GUIDES = ("scorer", "secretary", "treasurer", "night-director")


@dataclass(frozen=True)
class Entry:
    title: str
    url: str
    lang: str  # the language of the page's text


def _url(section: str, name: str) -> str | None:
    return reverse("help_page", args=[section, name]) if doc_pages.source(section, name, "en") else None


def _entry(section: str, name: str, lang: str) -> Entry | None:
    found = doc_pages.source(section, name, lang)
    if found is None:
        return None
    path, text_lang = found
    return Entry(
        doc_pages.title(path.read_text(encoding="utf-8")), reverse("help_page", args=[section, name]), text_lang
    )


def _rules_order() -> list[str]:
    """The rules: what every variant shares, each variant as the site lists them, then the money and nights."""
    variants = [rules.key for rules in registry.all_presets()]
    others = [name for name in doc_pages.names("rules") if name not in variants]
    return others[:1] + variants + others[1:]


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    lang = get_language()
    guides = [entry for name in GUIDES if (entry := _entry("guides", name, lang))]
    rules = [entry for name in _rules_order() if (entry := _entry("rules", name, lang))]
    return render(request, "core/help.html", {"guides": guides, "rules": rules, "language": lang})


@require_safe
def page(request: HttpRequest, section: str, name: str) -> HttpResponse:
    lang = get_language()
    found = doc_pages.source(section, name, lang)
    if found is None:
        raise Http404
    path, text_lang = found
    text = doc_pages.prepare(path.read_text(encoding="utf-8"))
    html: SafeString = doc_pages.render(text, path=path, resolve=_url)
    context = {"title": doc_pages.title(text), "html": html, "text_lang": text_lang, "language": lang}
    return render(request, "core/help_page.html", context)
