"""Names in the order a reader expects: ``Eric``, ``Éric``, ``Erica`` ... ``Zoë``, never ``Éric``
after ``Zoë`` (the order of the code points), and the same order on SQLite and PostgreSQL
(whose own collations differ with the server's locale).

The Unicode Collation Algorithm with its default table (``pyuca``, pure Python, the table
shipped inside the package): accents and capitals only decide between names that are otherwise
equal, so ``Éric`` sits beside ``Eric``; ``Æ``, ``Ø``, ``Ł`` and ``ß`` sort with the letters they
are read as, where stripping accents (NFKD) would leave ``Ødegaard`` after ``Zoë``; hyphens and
apostrophes weigh less than letters (``O'Brien`` beside ``Obert``). French, Dutch and English use
this default order unchanged (their CLDR collations have no tailoring), so one key serves the
three languages. Plain Python, no Django: the engine-side modules (standings) use it too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _collator() -> Any:  # pyuca's Collator (the library has no types)
    from pyuca import Collator  # its table takes a moment to load: once per process, when first needed

    return Collator()


@lru_cache(maxsize=8192)
def sort_key(text: str) -> tuple:
    """The key that sorts ``text`` among names (then by the text itself, so that the order is total)."""
    return (_collator().sort_key(text), text)


def by_name[T](items: Iterable[T], name: Callable[[T], str] = str) -> list[T]:
    """``items`` sorted by ``name(item)`` in the reader's order."""
    return sorted(items, key=lambda item: sort_key(name(item)))
