"""A list of evenings shows the evenings run from above it (a club night's tables) as one line for
their group: the app that runs them registers how (``register``), the evenings app importing none of
them (layers: evenings never imports nights). A ``Grouping`` says which of its evenings stands for
its group in a list (``lead``: a filter on evenings) and the line each shows (``lines``: {evening pk:
``Line``} for the evenings of one page, seen by ``user``, in a query or two whatever their number)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from .models import Evening


@dataclass(frozen=True)
class Line:
    title: str  # the group's name (a night's)
    url: str
    detail: str  # what it is, in words ("club night of 10 tables")
    open: bool


@dataclass(frozen=True)
class Grouping:
    lead: Q
    lines: Callable[[Iterable[Evening], User | AnonymousUser], dict[int, Line]]


_groupings: list[Grouping] = []


def register(grouping: Grouping) -> None:
    if grouping not in _groupings:
        _groupings.append(grouping)


def listed(evenings: QuerySet[Evening]) -> QuerySet[Evening]:
    """``evenings`` as the lines of a list: every evening of its own, and one of each group."""
    lead = Q(managed=False)
    for grouping in _groupings:
        lead |= grouping.lead
    return evenings.filter(lead)


def lines(evenings: Iterable[Evening], user: User | AnonymousUser) -> dict[int, Line]:
    """The line each group's evening of ``evenings`` shows instead of its own."""
    managed = [e for e in evenings if e.managed]
    found: dict[int, Line] = {}
    for grouping in _groupings if managed else ():
        found |= grouping.lines(managed, user)
    return found
