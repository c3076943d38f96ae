"""Reading the site's pages in view tests: the body, URLs, and the errors shown next to fields.

``Page`` reads a page as a tree of elements (the standard library's ``html.parser``), so that
attribute order, quoting and whitespace never decide a test:

    page = Page(html)
    page.find("#totals")             # the first element matching a selector, or None
    page.all(".totals .chip")        # every element matching it, in document order
    page.field_value("request_key")  # the value of the one input called request_key
    page.checked("declarers")        # the values of the checked boxes called declarers

A selector is one or more compound selectors separated by spaces (descendant) or ``>``
(child); a compound selector is ``tag``, ``#id``, ``.class``, ``[attr]`` and ``[attr=value]``
in any combination, e.g. ``li.deal#deal-2 span.badge`` or ``input[name=tricks]``.
"""

import re
from html.parser import HTMLParser

from django.urls import reverse

from scorebook.evenings.models import Deal

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def _squeeze(text: str) -> str:
    """Runs of HTML whitespace made one space (a no-break space is text, not whitespace)."""
    return re.sub(r"[ \t\n\r\f]+", " ", text).strip()


class Element:
    def __init__(self, tag: str, attrs: dict[str, str], parent: "Element | None" = None):
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Element | str] = []

    def __repr__(self):
        return f"<{self.tag} {self.attrs}>"

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    @property
    def id(self) -> str | None:
        return self.attrs.get("id")

    def get(self, attr: str, default=None):
        """An attribute's value; names are case-insensitive, as the parser lowers them (``viewBox``)."""
        return self.attrs.get(attr.lower(), default)

    def has(self, attr: str) -> bool:
        """Whether the attribute is there at all (``hidden``, ``checked``, ``readonly`` …)."""
        return attr.lower() in self.attrs

    def strings(self) -> list[str]:
        """Everything a reader or a browser could follow: the text and every attribute value inside."""
        return [self.text] + [v for e in [self, *self.elements()] for v in e.attrs.values()]

    @property
    def raw_text(self) -> str:
        return "".join(c if isinstance(c, str) else c.raw_text for c in self.children)

    @property
    def text(self) -> str:
        """The text inside, entities decoded and runs of HTML whitespace made one space."""
        return _squeeze(self.raw_text)

    @property
    def spaced_text(self) -> str:
        """The text with a space where each element starts or ends (a figure and its hidden label stay two words)."""
        return _squeeze(self._spaced())

    def _spaced(self) -> str:
        return "".join(c if isinstance(c, str) else f" {c._spaced()} " for c in self.children)

    def own_text(self) -> str:
        """The text directly inside this element, not inside its children."""
        return _squeeze("".join(c for c in self.children if isinstance(c, str)))

    def elements(self):
        """Every element below this one, in document order."""
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.elements()

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def all(self, selector: str) -> list["Element"]:
        steps = _parse_selector(selector)
        return [e for e in self.elements() if _matches_path(e, steps, self)]

    def find(self, selector: str) -> "Element | None":
        found = self.all(selector)
        return found[0] if found else None

    def one(self, selector: str) -> "Element":
        """The only element matching ``selector`` (fails when there are none or several)."""
        found = self.all(selector)
        assert len(found) == 1, f"{len(found)} elements match {selector!r}"
        return found[0]

    def by_id(self, ident: str) -> "Element | None":
        """The element with this id (ids may hold dots, which a selector would read as classes)."""
        return next((e for e in self.elements() if e.id == ident), None)

    def texts(self, selector: str) -> list[str]:
        return [e.text for e in self.all(selector)]

    def inputs(self, name: str) -> list["Element"]:
        return [e for e in self.all(f"[name={name}]") if e.tag in ("input", "select", "textarea", "button")]

    def checked(self, name: str) -> list[str]:
        """The values of the checked radio buttons or checkboxes called ``name``."""
        return [
            e.get("value") or "on"
            for e in self.inputs(name)
            if e.tag == "input" and e.get("type") in ("radio", "checkbox") and e.has("checked")
        ]

    def field_value(self, name: str) -> str:
        """The value the one field called ``name`` shows (input, textarea or select)."""
        fields = [e for e in self.inputs(name) if e.get("type") not in ("radio", "checkbox", "submit")]
        assert len(fields) == 1, f"{len(fields)} fields are called {name!r}"
        [field] = fields
        if field.tag == "textarea":
            return field.raw_text.removeprefix("\n")
        if field.tag == "select":
            chosen = [o for o in field.all("option") if o.has("selected")]
            return (chosen[0].get("value") or chosen[0].text) if chosen else ""
        return field.get("value") or ""


class Page(Element):
    """A whole page or a fragment of one, parsed."""

    def __init__(self, html: str):
        super().__init__("#document", {})
        _Builder(self).feed(html)


class _Builder(HTMLParser):
    def __init__(self, root: Element):
        super().__init__(convert_charrefs=True)
        self.stack = [root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: ("" if v is None else v) for k, v in attrs}, self.stack[-1])
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


_COMPOUND = re.compile(r"([a-zA-Z][\w-]*)?((?:[#.][\w-]+|\[[\w-]+(?:=[^\]]*)?\])*)$")
_PART = re.compile(r"([#.])([\w-]+)|\[([\w-]+)(?:=([^\]]*))?\]")


def _parse_selector(selector: str) -> list[tuple[str, tuple]]:
    """[(combinator, (tag, id, classes, attrs)), …], the combinator before each step."""
    steps, combinator = [], " "
    for token in selector.replace(">", " > ").split():
        if token == ">":
            combinator = ">"
            continue
        match = _COMPOUND.match(token)
        assert match, f"unsupported selector {token!r}"
        tag, ident, classes, attrs = match.group(1), None, set(), {}
        for kind, name, attr, val in _PART.findall(match.group(2)):
            if kind == "#":
                ident = name
            elif kind == ".":
                classes.add(name)
            else:
                attrs[attr] = val.strip("\"'") if val else None
        steps.append((combinator, (tag, ident, classes, attrs)))
        combinator = " "
    return steps


def _matches(element: Element, compound) -> bool:
    tag, ident, classes, attrs = compound
    return (
        (tag is None or element.tag == tag)
        and (ident is None or element.id == ident)
        and classes <= element.classes
        and all(a in element.attrs and (v is None or element.attrs[a] == v) for a, v in attrs.items())
    )


def _matches_path(element: Element, steps, scope: Element) -> bool:
    *before, (combinator, compound) = steps
    if not _matches(element, compound):
        return False
    if not before:
        return True
    parent = element.parent
    if combinator == ">":
        return parent is not None and parent is not scope and _matches_path(parent, before, scope)
    while parent is not None and parent is not scope:
        if _matches_path(parent, before, scope):
            return True
        parent = parent.parent
    return False


def body(response) -> str:
    return response.content.decode()


def url(name, evening, *args):
    return reverse(name, args=[evening.pk, *args])


def field_errors(html: str, field: str) -> str:
    """The text of the error list rendered next to ``field`` (empty when there is none)."""
    found = Page(html).by_id(f"id_{field}_error")
    return found.text if found is not None and "field-errors" in found.classes else ""


def every_error(html: str) -> str:
    """The text of every error list next to a field and every error box above a form."""
    page = Page(html)
    return " ".join(page.texts("ul.field-errors") + page.texts("div.errors"))


def chip_name(chip: Element) -> str:
    """The full name on a totals chip: a shortened name keeps it in the button's label; the crown is not part of it."""
    button = chip.find("button.chip-name")
    return button.get("aria-label") if button is not None else chip.one("span.chip-name").own_text()


def player_chips(html: str) -> list[Element]:
    """The chips of the scoring page's totals, the bête chip left out."""
    return [c for c in Page(html).all("#totals .chip") if "pot" not in c.classes]


def totals(html: str) -> dict[str, int]:
    """Every player's total as the chips show it (the bête chip left out)."""
    return {chip_name(c): int(c.one(".chip-total").text) for c in player_chips(html)}


def is_partial(html: str) -> bool:
    """An htmx answer: the board alone, not a whole page."""
    page = Page(html)
    return page.by_id("board") is not None and page.find("html") is None


def datas(evening) -> list[dict]:
    """The stored deals of an evening, in order."""
    return [d.data for d in Deal.objects.filter(evening=evening).order_by("number")]
