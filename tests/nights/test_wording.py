"""A club night's words (issue 20, item 7): its sessions are "tours" in French, never "manches"
(classic whist's manche is something else: a game to a target within a robre), "ronden" in Dutch."""

import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]


def entries(language):
    """The live entries of a catalogue that come from the nights app (its code or its templates)."""
    catalogue = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    for entry in catalogue:
        if entry.obsolete:
            continue
        if any("nights" in path for path, _line in entry.occurrences):
            yield entry


def texts(entry):
    return [entry.msgstr, *entry.msgstr_plural.values()]


def test_it_never_calls_a_session_a_manche_in_french():
    found = [e.msgid for e in entries("fr") if any(re.search(r"\bmanches?\b", t, re.I) for t in texts(e))]
    assert found == []


@pytest.mark.parametrize(("language", "word"), [("fr", r"\btours?\b"), ("nl", r"\bronden?s?\b")])
def test_it_calls_a_session_by_one_word(language, word):
    sessions = [e for e in entries(language) if re.search(r"\bsessions?\b", e.msgid + e.msgid_plural, re.I)]
    assert len(sessions) > 20
    missing = [e.msgid for e in sessions if not all(re.search(word, t, re.I) for t in texts(e) if t)]
    assert missing == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ranking", "said"),
    [
        ("places", "Equal place points are told apart by the total of points"),
        ("total", "Players with equal points share the place."),
    ],
)
def test_the_ranking_states_its_tie_break(client, make_night, ranking, said):
    from django.urls import reverse

    night = make_night(players=8, ranking=ranking)
    html = client.get(reverse("night_ranking", args=[night.ranking_token])).content.decode()
    assert said in html
