"""What an evening's pages call it in their heading: its variant and date, unless the app that runs
it from above (``Evening.managed``: a club night's table) names it better ("Table 2 · session 1").

The apps above register a namer (``register``) when they start; the evenings app imports none of
them (layers: evenings never imports nights)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.formats import date_format

from .models import Evening

Namer = Callable[[Evening], str | None]
_namers: list[Namer] = []


def register(namer: Namer) -> None:
    """``namer(evening)``: the heading of a managed evening, or None when it is not one of its own."""
    if namer not in _namers:
        _namers.append(namer)


def heading(evening: Evening) -> str:
    if evening.managed:
        for namer in _namers:
            named = namer(evening)
            if named:
                return named
    return f"{evening.variant_name} · {date_format(evening.date, 'DATE_FORMAT')}"
