"""The documentation agrees with the code and stands on its own, in every language.

- The parts of ``docs/`` made from the code (the presets' figures and grids, the worked examples,
  the evening file's JSON Schema), in English and in the translations (``docs/fr/``, ``docs/nl/``),
  are what ``python -m tools.docs`` (``make docs``) makes now: a change to a preset or a worked
  example without ``make docs`` fails here.
- Every JSON block a page marks as a house rule (``<!-- check: house-rules KEY -->``) is accepted
  by the engine on top of that preset and changes something; every block marked as an evening
  file is read and scored by the engine.
- Every relative link of README.md and docs/ (the translations too) reaches a file of the repository,
  and every anchor (``#...``) a heading or an ``<a id>`` of the page it names; every picture of a
  language's folder (``docs/img/``, ``docs/fr/img/``, ``docs/nl/img/``) is shown by a guide of it.
- No tracked file names a path outside the repository or of one machine.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

from scorebook.rules import evening_file, registry
from scorebook.rules.model import ContractRules
from scorebook.rules.scoring import score
from tools.docs import examples, pages, presets
from tools.docs.words import say

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
CHECK = re.compile(r"<!-- check: (?P<what>[\w-]+)(?: (?P<key>[\w-]+))? -->\n```json\n(?P<body>.*?)\n```", re.S)
LINK = re.compile(
    r"(?<!\!)\[(?:[^\]\[]|\[[^\]]*\])*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)"  # [text](target "title")
    r"|!\[[^\]]*\]\((?P<image>[^)\s]+)\)"  # ![alt](image)
)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")


def _relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


# --- made from the code -----------------------------------------------------------------------------


def test_it_finds_the_generated_parts_up_to_date():
    stale = [_relative(path) for path in pages.stale()]
    assert not stale, f"out of date (run `make docs`): {stale}"


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_it_makes_every_variant_page_with_its_figures_and_examples(lang):
    folder = ROOT / "docs" / "rules" if lang == "en" else ROOT / "docs" / lang / "rules"
    who_pays = say("who-pays", lang, transfers="").split("{")[0].rstrip(" .")
    for rules in registry.all_presets():
        key = rules.key
        text = (folder / f"{key}.md").read_text()
        assert f"<!-- generated: figures {key} -->" in text, key
        assert text.count("<!-- generated: example ") >= 2, f"{key}: a deal, then an evening"
        assert who_pays in text, f"{key}: an evening with its settlement"
        if registry.family(key) == "contract":
            assert f"<!-- generated: grid {key} -->" in text, key


def test_it_refuses_a_sheet_the_engine_disagrees_with(monkeypatch):
    """A page never shows a figure the engine and the sheet do not both give."""
    real = examples.sheet("gand.toml", "an evening with a stake")
    wrong = examples.Sheet(
        real.file, real.ruleset, {**real.case, "totals": {**real.case["totals"], "Anne": 99}}, real.defaults
    )
    monkeypatch.setattr(examples, "sheet", lambda file, name: wrong)
    with pytest.raises(ValueError, match="the engine gives totals"):
        examples.example("gand.toml", "an evening with a stake")


def test_it_puts_each_figure_of_a_preset_on_its_page():
    """The grid of each contract game has every cell of every contract, once (runs of equal cells merged)."""
    for rules in registry.all_presets():
        if not isinstance(rules, ContractRules):
            continue
        text = presets.grid(rules.key)
        for contract in rules.contracts.values():
            assert f'<a id="{contract.key}"></a>' in text
            section = text.split(f'<a id="{contract.key}"></a>', 1)[1].split("<a id=", 1)[0]
            covered = set()
            for low, high in re.findall(r"^\| (\d+)(?: to (\d+))? \|", section, re.M):
                covered.update(range(int(low), int(high or low) + 1))
            assert covered == set(range(14)), (rules.key, contract.key, covered)


# --- the blocks a page asks to check ----------------------------------------------------------------


def _checked_blocks():
    for page in PAGES:
        for match in CHECK.finditer(page.read_text()):
            yield pytest.param(match["what"], match["key"], match["body"], id=f"{_relative(page)}:{match['what']}")


@pytest.mark.parametrize(("what", "key", "body"), list(_checked_blocks()))
def test_it_accepts_every_checked_block(what, key, body):
    data = json.loads(body)
    if what == "house-rules":
        rules = registry.resolve(key, data)
        assert registry.diff(key, rules), f"{key}: the house rule changes nothing"
    elif what == "evening-file":
        score(evening_file.from_dict(data))
    else:
        pytest.fail(f"unknown check {what!r}")


def test_it_checks_a_house_rule_on_every_variant_page():
    checked = {key for what, key, _ in (p.values for p in _checked_blocks()) if what == "house-rules"}
    assert checked >= set(registry.keys())


# --- links and anchors ------------------------------------------------------------------------------


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"[`*_]", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text())
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} (.+?)\s*#*$", text, re.M):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    found.update(re.findall(r'<a id="([^"]+)"', text))
    return found


def links(page: Path) -> list[str]:
    text = INLINE_CODE.sub("", FENCE.sub("", page.read_text()))
    return [m["target"] or m["image"] for m in LINK.finditer(text)]


@pytest.mark.parametrize("page", PAGES, ids=_relative)
def test_it_resolves_every_relative_link_and_anchor(page):
    broken = []
    for target in links(page):
        if re.match(r"[a-z][a-z+.-]*:", target):  # https:, mailto:... (none outside the repository)
            continue
        path, _, anchor = target.partition("#")
        destination = (page.parent / unquote(path)).resolve() if path else page
        if not destination.exists() or ROOT not in (destination, *destination.parents):
            broken.append(f"{target}: no such file")
        elif anchor and (destination.suffix != ".md" or anchor not in anchors(destination)):
            broken.append(f"{target}: no such anchor")
    assert not broken, f"{_relative(page)}: {broken}"


def test_it_knows_an_anchor_when_it_sees_one():
    """The link checker itself: GitHub's anchors for the headings these pages use."""
    assert slug("Long whist · `classique`") == "long-whist--classique"
    assert slug("Money: from points to who pays whom") == "money-from-points-to-who-pays-whom"
    assert slug("What a house rule can change") == "what-a-house-rule-can-change"
    assert slug("[The evening file](evening-file.md)") == "the-evening-file"


def test_it_links_every_page_of_docs_from_somewhere():
    reached = set()
    for page in PAGES:
        for target in links(page):
            path = target.partition("#")[0]
            if path and not re.match(r"[a-z][a-z+.-]*:", path):
                reached.add((page.parent / unquote(path)).resolve())
    orphans = [_relative(p) for p in PAGES if p.name != "README.md" and p.resolve() not in reached]
    assert not orphans, f"no page links to {orphans}"


@pytest.mark.parametrize("folder", ["docs/img", "docs/fr/img", "docs/nl/img"])
def test_it_shows_every_picture_of_a_languages_folder_in_a_guide_and_keeps_them_small(folder):
    pictures = sorted((ROOT / folder).glob("*.png"))
    english = sorted(p.name for p in (ROOT / "docs" / "img").glob("*.png"))
    assert [p.name for p in pictures] == english, "every language has the pictures of every guide"
    shown = {(page.parent / target).resolve() for page in PAGES for target in links(page) if target.endswith(".png")}
    assert pictures and not [p.name for p in pictures if p.resolve() not in shown], "a picture no guide shows"
    assert sum(p.stat().st_size for p in pictures) < 2 * 1024 * 1024
    for picture in pictures:
        data = picture.read_bytes()
        palette = data[:8] == b"\x89PNG\r\n\x1a\n" and data[25] == 3  # IHDR colour type 3, as make screenshots writes
        assert palette, f"{picture.name}: not a palette PNG"


# --- operating the site ------------------------------------------------------------------------------


def test_it_writes_the_deployment_once_in_the_operating_guide():
    """The gunicorn command, the nginx block and the backup commands that the bench and the deployed
    site's tests run (bench/deployment.py) are written once, in docs/operating.md: no other page holds
    a copy that could drift from what is tested."""
    from bench import deployment

    def blocks(page: Path) -> list[str]:
        return page.read_text().split("```")[1::2]

    def deploys(block: str) -> bool:
        gunicorn = re.search(r"^ExecStart=\S*gunicorn ", block, re.M)  # the service that runs it
        return bool(gunicorn) or "server {" in block or "export_club" in block

    operating = ROOT / "docs" / "operating.md"
    assert operating == deployment.PAGE
    assert len([b for b in blocks(operating) if deploys(b)]) == 3
    assert len([line for line in operating.read_text().splitlines() if re.match(r"ExecStart=\S*gunicorn ", line)]) == 1
    assert deployment.gunicorn_line()[:2] == [".venv/bin/gunicorn", "scorebook.wsgi"]
    assert "proxy_pass http://127.0.0.1:8000;" in deployment.nginx_block()
    copies = [_relative(page) for page in PAGES if page != operating and any(deploys(b) for b in blocks(page))]
    assert not copies, f"the deployment is written in docs/operating.md only: {copies}"


# --- nothing outside the repository -----------------------------------------------------------------

# The names looked for are written in pieces, so that this file names no such path itself.
_TEAM = "sha" + "red"  # the team's folder of notes beside the checkout
_NOTES = ("rules", "evening-" + "format")
_MACHINE = ("/" + "work/", "/" + "root/", "/" + "Users/")  # one machine's folders
_HOME = "/" + "home/"
OUTSIDE = re.compile(  # the team's notes, then one machine's paths
    rf"\.\./{_TEAM}|\b{_TEAM}/(?:{'|'.join(_NOTES)})\.md|(?<![\w/.-]){_NOTES[0]}\.md|{_NOTES[1]}\.md"
    + "|"
    + "|".join(re.escape(folder) for folder in _MACHINE)
    + rf"|{_HOME}[a-z]|[A-Z]:\\{_MACHINE[2][1:-1]}"
)


def test_it_names_no_path_outside_the_repository():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True)
    found = []
    for name in files.stdout.split("\0"):
        path = ROOT / name
        if not name or not path.is_file() or path.suffix in {".png", ".lock"}:
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if OUTSIDE.search(line):
                found.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not found, "paths outside the repository:\n" + "\n".join(found)


def test_it_would_find_a_path_outside_the_repository():
    for line in (
        f"see ../{_TEAM}/rules.md",
        f"worked out from {_MACHINE[0]}{_TEAM}/rules.md",
        f"{_TEAM}/evening-{'format'}.md",
        f"{_MACHINE[1]}x",
        f"{_HOME}anne/x",
    ):
        assert OUTSIDE.search(line), line
    for line in ("the bête is shared out", "a shared device", "https://example.org/home/", "docs/rules/README.md"):
        assert not OUTSIDE.search(line), line
