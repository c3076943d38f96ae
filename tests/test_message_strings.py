"""Translated messages are whole sentences: never pasted together from pieces (issue 15, point 10).

A sentence built as ``_("…") + name`` or ``f"{_('…')} {other}"`` cannot be translated: word order,
plural and gender differ between French, Dutch and English. Placeholders (``%(name)s``) and
``ngettext``/``pgettext`` say the same thing in one message. This scans the site's Python.
"""

import ast
from pathlib import Path

import scorebook

GETTEXT = {
    "_",
    "gettext",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "gettext_noop",
}
ROOT = Path(scorebook.__file__).parent


def _is_message(node) -> bool:
    """A call to a gettext function, or such a call formatted with ``%``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _is_message(node.left)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in GETTEXT
    return False


def pasted_messages(source: str, filename: str = "<source>") -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        where = f"{filename}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            if _is_message(node.left) or _is_message(node.right):
                found.append(f"{where}: a translated message added to another string")
        elif isinstance(node, ast.JoinedStr):
            if any(isinstance(v, ast.FormattedValue) and _is_message(v.value) for v in node.values):
                found.append(f"{where}: a translated message inside an f-string")
        elif isinstance(node, ast.Call) and _is_message(node) and node.args:
            first = node.args[0]
            if isinstance(first, ast.JoinedStr | ast.BinOp):
                found.append(f"{where}: a message id built at run time")
    return found


def test_it_catches_the_ways_a_sentence_gets_pasted():
    assert pasted_messages('x = _("Hello ") + name')
    assert pasted_messages('x = name + _("is here")')
    assert pasted_messages("x = f\"{_('Marked')} {who}\"")
    assert pasted_messages('x = _("%(a)s is") % {"a": a} + " ok"')
    assert pasted_messages('x = _(f"{n} evenings")')
    assert not pasted_messages('x = _("%(name)s is here") % {"name": name}')
    assert not pasted_messages('x = ngettext("%(n)s evening", "%(n)s evenings", n) % {"n": n}')
    assert not pasted_messages('x = ", ".join([_("a"), _("b")])')


def test_no_message_of_the_site_is_pasted_together():
    problems = []
    for path in sorted(ROOT.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        problems += pasted_messages(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT.parent)))
    assert problems == []
