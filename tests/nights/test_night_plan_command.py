"""``manage.py night_plan``: run in a real process, its JSON checked."""

import json
import os
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a real server / a process per test

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
ENV = {**os.environ, "DJANGO_SETTINGS_MODULE": "scorebook.settings"}


def night_plan(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "manage.py", "night_plan", *args], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60
    )


# the best known number of sessions without a repeated meeting (resolvable designs, the social
# golfer tables): 32 players in 10 sessions is A. Aguado's published solution
@pytest.mark.parametrize(
    ("players", "sessions"), [(16, 5), (24, 7), (28, 9), (32, 10), (40, 13), (52, 17), (40, 5), (40, 8)]
)
def test_it_prints_a_plan_without_a_repeated_meeting_for_the_best_known_nights(players, sessions):
    done = night_plan("--players", str(players), "--sessions", str(sessions), "--seed", "5")
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert len(plan["sessions"]) == sessions
    pairs = []
    for session in plan["sessions"]:
        assert sorted(p for t in session["tables"] for p in t) == list(range(1, players + 1))
        assert {len(t) for t in session["tables"]} == {4}
        pairs += [frozenset(pair) for t in session["tables"] for pair in combinations(t, 2)]
    assert len(pairs) == len(set(pairs))
    assert plan["repeats"] == 0


def test_it_states_how_many_meetings_repeat_when_some_must():
    plan = json.loads(night_plan("--players", "17", "--sessions", "6").stdout)
    pairs = [frozenset(pair) for s in plan["sessions"] for t in s["tables"] for pair in combinations(t, 2)]
    assert plan["repeats"] == len(pairs) - len(set(pairs)) > 0


def test_it_prints_the_same_plan_for_the_same_seed():
    one = night_plan("--players", "41", "--sessions", "3", "--seed", "9")
    assert one.stdout == night_plan("--players", "41", "--sessions", "3", "--seed", "9").stdout


@pytest.mark.parametrize("players", ["3", "7", "-1"])
def test_it_exits_with_status_2_and_a_sentence_for_an_impossible_night(players):
    done = night_plan("--players", players, "--sessions", "5")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().endswith(".")
