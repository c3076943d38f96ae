"""Translatable error messages of the engine, without Django.

Every error of the engine (``DealError``, ``FileError``, ``RulesError``) is raised with
a *template* marked by ``gettext_noop`` and its named %-parameters::

    raise self.error(gettext_noop("%(player)s is sitting out this deal and cannot declare"), "declarers", player=d)

The error keeps ``template`` and ``params`` so that the site can translate it, and
``message``, the English text (what ``manage.py score`` prints). ``gettext_noop`` only
marks the text: Django's ``makemessages`` extracts its calls into the catalogues.

A parameter may itself be an engine error (an error about the house rules inside an
evening file): it is rendered, and translated, with the error that carries it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation (``makemessages`` looks for this name); it is returned as it is."""
    return message


def render(template: str, params: Mapping[str, Any], translate: Callable[[str], str] = gettext_noop) -> str:
    """The text of a template with its parameters, through ``translate`` (English without it).

    A template without parameters is used as it is, so that it may hold a ``%`` sign.
    """
    text = translate(template)
    if not params:
        return text
    values = {
        key: render(value.template, value.params, translate) if isinstance(value, EngineError) else value
        for key, value in params.items()
    }
    return text % values


class EngineError(ValueError):
    """The base of the engine's errors: a translatable ``template``, its ``params``, the English ``message``."""

    def __init__(self, template: str, params: Mapping[str, Any], prefix: str = ""):
        self.template = template
        self.params = dict(params)
        self.message = render(template, self.params)
        super().__init__(prefix + self.message)  # str(error): the English text after a prefix ("deal 3: ")
