"""Helpers of the club-night tests."""

import re

NAMES = [f"P{n:02d}" for n in range(1, 41)]


def samen(evening, made=True):
    """A samen-9 of the second and fourth seats (never the dealer of the first deal)."""
    names = [s.name for s in evening.seats.all()]
    return {"contract": "samen-9", "declarers": [names[1], names[3]], "tricks": "9" if made else "7"}


def tables(night, session=1):
    return list(night.night_sessions.get(number=session).tables.select_related("evening").order_by("number"))


def card_links(html: str) -> list[str]:
    return re.findall(r'<a href="https?://[^/"]+(/t/[^/"]+/)">', html)


def deal(evening, made=True):
    """The same deal as the engine reads it (for the services)."""
    return {**samen(evening, made), "tricks": 9 if made else 7}
