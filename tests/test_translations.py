"""Every message of the interface exists in French, Dutch and English.

The messages are extracted from the code and templates (makemessages) into a scratch
copy of the catalogues; any message without a translation, or marked fuzzy, fails.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("fr", "nl", "en")


def _entries(po_text: str):
    """(msgid, msgstr values, fuzzy) for each entry of a .po file, the header left out."""
    for block in re.split(r"\n\s*\n", po_text):
        if "msgid" not in block:
            continue
        fuzzy = bool(re.search(r"^#,.*\bfuzzy\b", block, re.M))
        msgid = "".join(re.findall(r'^(?:msgid|msgid_plural)?\s*"(.*)"$', block.split("msgstr")[0], re.M))
        strs = ["".join(re.findall(r'"(.*)"', part)) for part in re.split(r"^msgstr(?:\[\d\])?", block, flags=re.M)[1:]]
        if msgid == "" and not block.strip().startswith("#:"):
            continue  # the header
        yield msgid, strs, fuzzy


def _extract(tmp_path) -> Path:
    """The messages of a scratch copy of the project, extracted into its copy of the catalogues
    (as ``make catalogues`` does). makemessages writes into every ``locale`` folder it finds under
    its working directory, so it runs in the copy: the checkout's catalogues are never touched."""
    copy = tmp_path / "project"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(".venv", ".git", "artifacts", "node_modules", "staticfiles", "*.sqlite3", "*.mo"),
    )
    env = os.environ | {"LOCALE_DIR": str(copy / "locale"), "DJANGO_SETTINGS_MODULE": "scorebook.settings"}
    env.pop("DATABASE_URL", None)
    command = [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--add-location=file"]
    command += ["--ignore=.venv/*", "--ignore=tests/*"] + [f"--locale={code}" for code in LANGUAGES]
    subprocess.run(command, cwd=copy, env=env, check=True, capture_output=True)
    return copy / "locale"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext (make test installs it)")
def test_it_has_every_message_translated_in_the_three_languages(tmp_path):
    before = {code: (ROOT / "locale" / code / "LC_MESSAGES" / "django.po").read_bytes() for code in LANGUAGES}
    scratch = _extract(tmp_path)
    missing = {}
    for code in LANGUAGES:
        text = (scratch / code / "LC_MESSAGES" / "django.po").read_text()
        untranslated = [msgid for msgid, strs, fuzzy in _entries(text) if fuzzy or not all(strs)]
        if untranslated:
            missing[code] = untranslated
    assert not missing, "\n".join(f"{code}: {len(ids)} untranslated, e.g. {ids[:5]}" for code, ids in missing.items())
    after = {code: (ROOT / "locale" / code / "LC_MESSAGES" / "django.po").read_bytes() for code in LANGUAGES}
    assert after == before, "the test must not rewrite the checkout's catalogues"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs GNU gettext (make test installs it)")
@pytest.mark.parametrize("code", LANGUAGES)
def test_it_keeps_catalogues_that_pass_gettexts_own_checks(code):
    """msgfmt -c: every plural entry has as many forms as the language's header says (French has
    three), format directives agree between msgid and msgstr, the header is well formed."""
    po = ROOT / "locale" / code / "LC_MESSAGES" / "django.po"
    done = subprocess.run(["msgfmt", "-c", "-o", os.devnull, str(po)], capture_output=True, text=True)
    errors = [line for line in done.stderr.splitlines() if "warning:" not in line]
    assert done.returncode == 0 and not errors, done.stderr


def test_it_reads_entries_of_a_catalogue():
    sample = """msgid ""
msgstr ""
"Language: fr\\n"

#: a.py:1
msgid "Deal"
msgstr "Donne"

#: a.py:2
#, fuzzy
msgid "Save"
msgstr "Garder"

#: a.py:3
msgid "Undo"
msgstr ""
"""
    assert list(_entries(sample)) == [("Deal", ["Donne"], False), ("Save", ["Garder"], True), ("Undo", [""], False)]


# --- French typography ------------------------------------------------------------------------
# The rule (issue 23): in French prose a no-break space (U+00A0, the same everywhere: the narrow
# U+202F is not used) stands before ``: ; ! ?`` and inside the quotes « ». A mark glued to the
# next character is no prose (a time 21:14, an address https://, a query ?next=), nor is anything
# inside an HTML tag or a JSON example {…}. Straight or English quotes are not French quotes.
NBSP = "\u00a0"
NOT_PROSE = re.compile(r"<[^>]*>|\{[^{}]*\}")
PROSE_END = set("»)]<.,'’\x00") | {'"'}


def typography_faults(text: str) -> list[str]:
    """Where ``text`` (French) breaks the rule, each fault with the words around it."""
    prose = NOT_PROSE.sub("\x00", text)
    faults = []
    for mark in re.finditer(r"[:;!?]", prose):
        i = mark.start()
        after = prose[i + 1 : i + 2]
        if after and not (after.isspace() or after in PROSE_END):
            continue  # glued: 21:14, https://, ?next=
        if prose[i - 1 : i] != NBSP:
            faults.append(f"no no-break space before {mark.group()!r}: …{prose[max(0, i - 15) : i + 2]}…")
    for quote in re.finditer("«", prose):
        if prose[quote.end() : quote.end() + 1] != NBSP:
            faults.append(f"no no-break space after «: …{prose[quote.start() : quote.start() + 15]}…")
    for quote in re.finditer("»", prose):
        if prose[quote.start() - 1 : quote.start()] != NBSP:
            faults.append(f"no no-break space before »: …{prose[max(0, quote.start() - 15) : quote.end()]}…")
    for quote in re.finditer('["“”]', prose):
        faults.append(f"not a French quote: …{prose[max(0, quote.start() - 15) : quote.end() + 15]}…")
    return [f.replace("\x00", "<…>") for f in faults]


def _msgstrs(entry) -> list[str]:
    return list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]


def test_it_writes_every_french_text_with_french_typography():
    catalogue = polib.pofile(str(ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    faults = [
        f"{entry.msgid!r}: {fault}"
        for entry in catalogue
        if not entry.obsolete
        for text in dict.fromkeys(_msgstrs(entry))
        for fault in typography_faults(text)
    ]
    assert not faults, f"{len(faults)} French texts break the typography rule:\n" + "\n".join(faults)


@pytest.mark.parametrize(
    "text, faults",
    [
        ("Règles\u00a0: %(preset)s", 0),
        ("Règles : %(preset)s", 1),  # an ordinary space
        ("Règles: %(preset)s", 1),
        ("Quitter le club\u00a0?", 0),
        ("Fin à 21:14, voir https://example.org/?next=/", 0),  # no prose
        ("la page «\u00a0À régler\u00a0»", 0),
        ("la page « À régler »", 2),
        ('par exemple "0.05"', 2),
        ('des points\u00a0: {"Anne": -5}', 0),  # JSON is left as it is
        ('<span class="vh">la donne</span>\u00a0:', 0),  # attributes are no prose
        ("%(what)s\u00a0: %(value)s", 0),
        ("%(what)s: %(value)s", 1),
    ],
)
def test_it_finds_what_breaks_french_typography(text, faults):
    assert len(typography_faults(text)) == faults, typography_faults(text)


def test_it_addresses_the_dutch_reader_one_way():
    """The Dutch texts say "je", as most of them did: never the formal "u"/"uw" beside it."""
    catalogue = polib.pofile(str(ROOT / "locale" / "nl" / "LC_MESSAGES" / "django.po"))
    formal = [
        text
        for entry in catalogue
        for text in _msgstrs(entry)
        if re.search(r"\b(u|uw)\b", NOT_PROSE.sub(" ", text), re.IGNORECASE)
    ]
    assert not formal


def test_it_keeps_the_english_texts_as_the_code_writes_them():
    """The code's messages are English: the English catalogue says the same (no French word where
    the other English pages use another, as 'pot' for the bête did)."""
    catalogue = polib.pofile(str(ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"))
    changed = [
        (entry.msgid, _msgstrs(entry))
        for entry in catalogue
        if _msgstrs(entry) != ([entry.msgid, entry.msgid_plural] if entry.msgid_plural else [entry.msgid])
    ]
    assert not changed


def test_it_names_a_deal_and_its_discarding_one_way():
    """One word for one thing across the scoring page, its queue and its conflicts (issue 30): a deal
    is a "spel" in Dutch (never a "deling"), a waiting deal is "écartée" in French and "weggegooid"
    in Dutch, its button says the same verb."""
    dutch = polib.pofile(str(ROOT / "locale" / "nl" / "LC_MESSAGES" / "django.po"))
    french = polib.pofile(str(ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    assert not [t for e in dutch for t in _msgstrs(e) if re.search(r"\bdeling(en)?\b", t, re.IGNORECASE)]
    discard = [e for e in french if re.search(r"\bdiscard", e.msgid, re.IGNORECASE)]
    assert discard and all("cart" in t for e in discard for t in _msgstrs(e)), [_msgstrs(e) for e in discard]
    assert not [t for e in french for t in _msgstrs(e) if re.search(r"abandonn", t, re.IGNORECASE)]
    discard = [e for e in dutch if re.search(r"\bdiscard", e.msgid, re.IGNORECASE)]
    assert discard and all(re.search(r"weg", t, re.IGNORECASE) for e in discard for t in _msgstrs(e)), [
        _msgstrs(e) for e in discard
    ]
