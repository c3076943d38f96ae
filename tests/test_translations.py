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
