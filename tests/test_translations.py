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


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext (make test installs it)")
def test_it_has_every_message_translated_in_the_three_languages(tmp_path):
    scratch = tmp_path / "locale"
    if (ROOT / "locale").exists():
        shutil.copytree(ROOT / "locale", scratch)
    else:
        scratch.mkdir()
    env = os.environ | {"LOCALE_DIR": str(scratch), "DJANGO_SETTINGS_MODULE": "scorebook.settings"}
    env.pop("DATABASE_URL", None)
    command = [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--ignore=.venv/*", "--ignore=tests/*"]
    command += [f"--locale={code}" for code in LANGUAGES]
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
    missing = {}
    for code in LANGUAGES:
        text = (scratch / code / "LC_MESSAGES" / "django.po").read_text()
        untranslated = [msgid for msgid, strs, fuzzy in _entries(text) if fuzzy or not all(strs)]
        if untranslated:
            missing[code] = untranslated
    assert not missing, "\n".join(f"{code}: {len(ids)} untranslated, e.g. {ids[:5]}" for code, ids in missing.items())


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
