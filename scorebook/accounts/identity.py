"""Names that identify a person: reserved user names, and look-alikes of an existing name.

Two names look alike when their skeletons are equal: folded (NFKC, case), each character
replaced by a plain ASCII character it can be confused with (the Unicode confusables
table, through ``confusable_homoglyphs``), and 0 read as o, 1 as l. So a Cyrillic
``а_admin`` is ``a_admin``, and a full-width ``ｂ_member`` is ``b_member``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data
from django.contrib.auth import get_user_model

from .models import Profile

RESERVED_USERNAMES = ("demo",)  # seed_demo's account, whose password is published
_DIGITS = str.maketrans({"0": "o", "1": "l", "|": "l"})


@lru_cache(maxsize=4096)
def _plain(char: str) -> str:
    if char.isascii():
        return char
    glyphs = [g["c"] for g in confusables_data.get(char, ())]
    ascii_glyphs = sorted(g for g in glyphs if g.isascii())
    if ascii_glyphs:
        return ascii_glyphs[0]
    return min([char, *glyphs])  # one representative for a group of non-Latin look-alikes


def skeleton(name: str) -> str:
    # look-alikes are mapped before and after case folding: a capital's look-alike may differ
    plain = "".join(_plain(c) for c in unicodedata.normalize("NFKC", name))
    folded = unicodedata.normalize("NFKC", plain).casefold()
    return "".join(_plain(c) for c in folded).translate(_DIGITS)


def is_reserved(username: str) -> bool:
    return skeleton(username) in {skeleton(r) for r in RESERVED_USERNAMES}


def username_like(username: str, *, exclude_pk=None) -> str | None:
    """An existing user name that looks like ``username`` (another account's), or None."""
    wanted = skeleton(username)
    users = get_user_model().objects.exclude(pk=exclude_pk).values_list("username", flat=True)
    return next((u for u in users.iterator() if skeleton(u) == wanted), None)


def display_name_like(name: str, *, exclude_user_pk=None) -> str | None:
    """Another account's display name that looks like ``name``, or None."""
    wanted = skeleton(name)
    names = Profile.objects.exclude(user_id=exclude_user_pk).values_list("display_name", flat=True)
    return next((n for n in names.iterator() if skeleton(n) == wanted), None)
