"""The engine's errors in the language of the page.

The engine (``scorebook.rules``) raises ``DealError``, ``FileError`` and ``RulesError``
with an English ``message`` and, for translation, a ``template`` marked with
``gettext_noop`` and its named ``params``. The templates are in the catalogues
(``makemessages`` extracts them); this module translates them where an error reaches a page.
"""

from __future__ import annotations

from django.utils.translation import gettext

from scorebook.rules.model import Ruleset

from .formatting import lang


def localized(error: Exception, rules: Ruleset | None = None) -> str:
    """The message of an engine error, translated; its English ``message`` when it cannot be. With
    the ``rules`` it was raised under, a contract it names by its key ("samen-8") is called by its
    name in the page's language ("together 8", "samen 8", "emballage 8")."""
    fallback = getattr(error, "message", None) or str(error)
    template = getattr(error, "template", None)
    if not template:
        return fallback
    params = getattr(error, "params", None) or {}
    try:
        text = gettext(template)
        if not params:
            return text
        values = {
            key: localized(value, rules) if hasattr(value, "template") else value for key, value in params.items()
        }
        contracts = getattr(rules, "contracts", None) or {}
        if isinstance(values.get("contract"), str) and values["contract"] in contracts:
            values["contract"] = contracts[values["contract"]].names.get(lang())
        return text % values
    except (KeyError, ValueError, TypeError):  # a translation that does not fit its parameters
        return fallback


def localized_with_path(error: Exception) -> str:
    """A ``RulesError`` as ``str()`` shows it, translated: the key it is about, then the message."""
    path = getattr(error, "path", "")
    if not path:
        return localized(error)
    return gettext("%(path)s: %(message)s") % {"path": path, "message": localized(error)}
