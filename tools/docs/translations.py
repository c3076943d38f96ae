"""The translations of ``docs/`` (``docs/fr/``, ``docs/nl/``) kept in step with their English pages.

A translated page mirrors its English page's place (``docs/fr/rules/liege.md`` translates
``docs/rules/liege.md``) and starts with a stamp: the fingerprint of the English page it was made from,
its generated parts left out (those are made in every language by the same code, ``make docs``)::

    <!-- translation of docs/rules/liege.md at 1f2e3d4c5b6a -->

When the English page changes, its fingerprint no longer matches the stamp and the tests name the
translation as out of date. ``python -m tools.docs translations`` says which, and what changed in
English since the stamp (read from git's history of the page); once the translation says the same,
``python -m tools.docs stamp docs/fr/rules/liege.md`` records the new fingerprint.

``mismatches`` compares what must be the same in every language: the generated parts asked for, the
house rules checked, the anchors, the headings' outline and the pictures (each language's own).
"""

from __future__ import annotations

import difflib
import hashlib
import re
import subprocess
from pathlib import Path

from .pages import DOCS, ROOT, markers, without_generated
from .words import LANGS

STAMP = re.compile(r"\A<!-- translation of (?P<source>\S+) at (?P<fingerprint>[0-9a-f]{12}) -->\n")
CHECK = re.compile(r"<!-- check: .*? -->\n```json\n.*?\n```", re.S)
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
HEADING = re.compile(r"^(#{1,6}) ", re.M)
PICTURE = re.compile(r"!\[[^\]]*\]\((?P<path>[^)\s]+\.png)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def translations() -> list[Path]:
    return sorted(path for lang in LANGS[1:] for path in (DOCS / lang).rglob("*.md"))


def source_of(path: Path) -> Path:
    """The English page a translation follows: its path without the language's folder."""
    relative = path.relative_to(DOCS)
    return DOCS.joinpath(*relative.parts[1:])


def fingerprint(text: str) -> str:
    return hashlib.sha256(without_generated(text).encode()).hexdigest()[:12]


def stamp_line(source: Path) -> str:
    return f"<!-- translation of {source.relative_to(ROOT)} at {fingerprint(source.read_text())} -->\n"


def out_of_date() -> dict[Path, str]:
    """Each translation that does not follow its English page as it is now, with why."""
    found = {}
    for path in translations():
        source, match = source_of(path), STAMP.match(path.read_text())
        if not source.exists():
            found[path] = f"no English page {source.relative_to(ROOT)}"
        elif match is None or match["source"] != str(source.relative_to(ROOT)):
            found[path] = "no stamp: its first line says which English page it translates, and at what fingerprint"
        elif match["fingerprint"] != fingerprint(source.read_text()):
            found[path] = f"{source.relative_to(ROOT)} changed since it was translated"
    return found


def stamp(path: Path) -> None:
    """Record that the translation ``path`` follows its English page as it is now."""
    text = path.read_text()
    path.write_text(stamp_line(source_of(path)) + STAMP.sub("", text, count=1))


def changes_since(path: Path) -> str:
    """What changed in the English page since the translation's stamp: a diff from the version of the page
    in git's history whose fingerprint is the stamp's (empty when none is found)."""
    source = source_of(path)
    match = STAMP.match(path.read_text())
    if match is None or not source.exists():
        return ""
    relative = str(source.relative_to(ROOT))
    log = subprocess.run(["git", "log", "--format=%H", "--", relative], cwd=ROOT, capture_output=True, text=True)
    for commit in log.stdout.split():
        shown = subprocess.run(["git", "show", f"{commit}:{relative}"], cwd=ROOT, capture_output=True, text=True)
        if shown.returncode == 0 and fingerprint(shown.stdout) == match["fingerprint"]:
            old = without_generated(shown.stdout).splitlines(keepends=True)
            new = without_generated(source.read_text()).splitlines(keepends=True)
            return "".join(difflib.unified_diff(old, new, f"{relative} at {commit[:10]}", f"{relative} now"))
    return ""


def outline(text: str) -> dict[str, object]:
    """What a page and its translations share, whatever the language."""
    body = FENCE.sub("", text)
    return {
        "generated parts": markers(text),
        "house rules checked": CHECK.findall(text),
        "anchors": ANCHOR.findall(text),
        "headings": [len(level) for level in HEADING.findall(body)],
        "pictures": [Path(p).name for p in PICTURE.findall(text)],
    }


def mismatches(path: Path) -> list[str]:
    """How the translation ``path`` departs from its English page's outline (empty when it does not)."""
    source = source_of(path)
    if not source.exists():
        return [f"no English page {source.relative_to(ROOT)}"]
    mine, theirs = outline(path.read_text()), outline(source.read_text())
    return [
        f"{key}: {mine[key]} where the English page has {theirs[key]}" for key in theirs if mine[key] != theirs[key]
    ]
