"""The generated parts of the pages of ``docs/``, in every language, and the files they make.

A page marks each part with a pair of comments; ``make docs`` writes what is between them, in the
page's language (``docs/fr/...`` in French, ``docs/nl/...`` in Dutch, the rest in English), and
``python -m tools.docs --check`` (a test) fails when a file differs from what the code makes::

    <!-- generated: figures kleurenwiezen -->      the settings of a preset and its contracts
    <!-- generated: grid kleurenwiezen -->         every contract's payout table, by tricks
    <!-- generated: example gand.toml: NAME -->    a worked example: the sheet NAME of tests/rules/cases
    <!-- generated: variants -->                   the eight presets
    <!-- generated: limits -->                     the bounds of money typed, the settle-up's budget
    <!-- generated: settle-up Anne +6.00, Bert -4.00, ... -->   a club's balances settled up
    ...
    <!-- end generated -->

The JSON Schema of the evening file (``docs/evening-file.schema.json``) is written from
``scorebook.rules.evening_schema``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from . import examples, money, presets
from .words import language_of

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SCHEMA_FILE = DOCS / "evening-file.schema.json"
BLOCK = re.compile(r"(?P<open><!-- generated: (?P<what>.+?) -->\n)(?P<body>.*?)(?P<close><!-- end generated -->)", re.S)

MAKERS: dict[str, Callable[..., str]] = {
    "variants": presets.variants,
    "figures": presets.figures,
    "grid": presets.grid,
    "netting": examples.netting,
    "score": examples.score_output,
    "limits": money.limits,
    "settle-up": money.settle_up_example,
}


def make(what: str, lang: str = "en") -> str:
    """The text of one generated part, from its marker's words, in ``lang``."""
    kind, _, argument = what.partition(" ")
    if kind == "example":
        file, _, name = argument.partition(": ")
        return examples.example(file, name, lang)
    maker = MAKERS.get(kind)
    if maker is None:
        raise ValueError(f"unknown generated part {what!r}")
    return maker(argument, lang) if argument else maker(lang)


def regenerate(text: str, lang: str = "en") -> str:
    return BLOCK.sub(lambda m: m["open"] + "\n" + make(m["what"], lang).strip("\n") + "\n\n" + m["close"], text)


def markers(text: str) -> list[str]:
    """The generated parts a page asks for, in order (what a translation must ask for too)."""
    return [m["what"] for m in BLOCK.finditer(text)]


def without_generated(text: str) -> str:
    """The page as written by hand: every generated part's body left out, its markers kept."""
    return BLOCK.sub(lambda m: m["open"] + m["close"], text)


def schema_text() -> str:
    from scorebook.rules import evening_schema

    return json.dumps(evening_schema.json_schema(), ensure_ascii=False, indent=2) + "\n"


def outputs() -> dict[Path, str]:
    """Every file of docs/ that holds a generated part, with the text it should have."""
    out = {}
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text()
        if BLOCK.search(text):
            out[path] = regenerate(text, language_of(path, DOCS))
    out[SCHEMA_FILE] = schema_text()
    return out


def stale() -> list[Path]:
    """The files whose generated parts differ from what the code makes now."""
    return [path for path, text in outputs().items() if not path.exists() or path.read_text() != text]


def write() -> list[Path]:
    changed = stale()
    for path, text in outputs().items():
        if path in changed:
            path.write_text(text)
    return changed
