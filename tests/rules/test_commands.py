"""The command line: ``manage.py score FILE`` and ``manage.py rules list|show KEY``.

Exit codes and the split between standard output and standard error are checked in a
real process (``subprocess``); the printed JSON is checked against hand-computed figures.
"""

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from scorebook.rules import registry
from scorebook.rules.evening_file import FORMAT

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
ENV = {**os.environ, "DJANGO_SETTINGS_MODULE": "scorebook.settings"}
FIVE = ["Anne", "Bert", "Carl", "Dina", "Eric"]


def manage(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=ENV,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def write(tmp_path: Path, evening: dict | str, name: str = "evening.json") -> Path:
    path = tmp_path / name
    path.write_text(evening if isinstance(evening, str) else json.dumps(evening), encoding="utf-8")
    return path


def evening(ruleset: str, players: list[str], deals: list, **extra) -> dict:
    return {"format": FORMAT, "ruleset": ruleset, "players": players, "deals": deals, **extra}


# A small kleurenwiezen evening at five with a stake, scored by hand (docs/rules/kleurenwiezen.md and money.md).
# Deal 1: Anne deals and sits out; Bert, Carl, Dina, Eric play. Alleen 6 made with 7 tricks
#         (one overtrick: 5 per opponent): Bert +15, Carl, Dina, Eric -5 each.
# Deal 2: Bert deals and sits out; Carl, Dina, Eric, Anne play. Samen 8 made exactly:
#         Anne and Carl +8 each, Dina and Eric -8 each.
# Deal 3: an adjustment, Anne -2 and Dina +2.
# Totals: Anne 8 - 2 = 6, Bert 15, Carl -5 + 8 = 3, Dina -5 - 8 + 2 = -11, Eric -5 - 8 = -13.
# Money at 0.05 a point (zero-sum, the mean is 0): 0.30, 0.75, 0.15, -0.55, -0.65.
# Transfers: no smaller group of balances sums to zero, so 5 - 1 = 4 payments. The largest
# debtor pays the largest creditor: Eric -> Bert 0.65, then Dina -> Anne 0.30,
# Dina -> Carl 0.15, Dina -> Bert 0.10; listed by payer's seat, then payee's seat.
SMALL = evening(
    "kleurenwiezen",
    FIVE,
    [
        {"contract": "alleen-6", "declarers": ["Bert"], "tricks": 7},
        {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 8},
        {"adjustment": {"Anne": -2, "Dina": 2}, "note": "revoke"},
    ],
    first_dealer="Anne",
    date="2026-11-20",
    stake="0.05",
    currency="EUR",
)
SMALL_REPORT = {
    "totals": {"Anne": 6, "Bert": 15, "Carl": 3, "Dina": -11, "Eric": -13},
    "deals": [
        {"deltas": {"Bert": 15, "Carl": -5, "Dina": -5, "Eric": -5}, "pot": 0},
        {"deltas": {"Anne": 8, "Carl": 8, "Dina": -8, "Eric": -8}, "pot": 0},
        {"deltas": {"Anne": -2, "Dina": 2}, "pot": 0},
    ],
    "pot": 0,
    "money": {"Anne": "0.30", "Bert": "0.75", "Carl": "0.15", "Dina": "-0.55", "Eric": "-0.65"},
    "transfers": [
        {"from": "Dina", "to": "Anne", "amount": "0.30"},
        {"from": "Dina", "to": "Bert", "amount": "0.10"},
        {"from": "Dina", "to": "Carl", "amount": "0.15"},
        {"from": "Eric", "to": "Bert", "amount": "0.65"},
    ],
}

# A robre of long whist with a stake: team 0 (Anne & Carl) wins 2-0 with manche values 3
# (losers at 0) and 2 (losers at 2), bonus 2: D = 7, shown only on the deal that ends it.
# Money at 0.10: 0.70 each way; Bert pays Anne and Dina pays Carl.
ROBRE = evening(
    "classique",
    ["Anne", "Bert", "Carl", "Dina"],
    [
        {"tricks": [13, 0]},  # 7-0
        {"tricks": [10, 3]},  # 11-0: manche, value 3
        {"tricks": [5, 8]},  # 0-2
        {"tricks": [12, 1], "honours": [4, 0]},  # 6-2, then honours: 10-2: manche, value 2
    ],
    stake="0.10",
)
ROBRE_REPORT = {
    "totals": {"Anne": 7, "Bert": -7, "Carl": 7, "Dina": -7},
    "deals": [
        {"deltas": {}, "pot": 0},
        {"deltas": {}, "pot": 0},
        {"deltas": {}, "pot": 0},
        {"deltas": {"Anne": 7, "Bert": -7, "Carl": 7, "Dina": -7}, "pot": 0},
    ],
    "pot": 0,
    "money": {"Anne": "0.70", "Bert": "-0.70", "Carl": "0.70", "Dina": "-0.70"},
    "transfers": [
        {"from": "Bert", "to": "Anne", "amount": "0.70"},
        {"from": "Dina", "to": "Carl", "amount": "0.70"},
    ],
}


# --- manage.py score ------------------------------------------------------------------


@pytest.mark.slow
def test_it_prints_exactly_the_report_of_the_format_for_a_small_evening_with_a_stake(tmp_path):
    result = manage("score", str(write(tmp_path, SMALL)))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == SMALL_REPORT


def test_it_prints_a_classic_robre_with_its_money(tmp_path):
    out = StringIO()
    call_command("score", str(write(tmp_path, ROBRE)), stdout=out)
    assert json.loads(out.getvalue()) == ROBRE_REPORT


def test_it_prints_no_money_without_a_stake(tmp_path):
    no_stake = {k: v for k, v in SMALL.items() if k not in ("stake", "currency")}
    out = StringIO()
    call_command("score", str(write(tmp_path, no_stake)), stdout=out)
    expected = {k: v for k, v in SMALL_REPORT.items() if k not in ("money", "transfers")}
    assert json.loads(out.getvalue()) == expected


@pytest.mark.slow
def test_it_reads_the_evening_from_standard_input_with_a_dash():
    result = manage("score", "-", stdin=json.dumps(SMALL))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == SMALL_REPORT


@pytest.mark.slow
def test_it_gives_the_same_report_from_a_file_and_from_standard_input(tmp_path):
    from_file = manage("score", str(write(tmp_path, ROBRE)))
    from_stdin = manage("score", "-", stdin=json.dumps(ROBRE))
    assert from_file.returncode == from_stdin.returncode == 0
    assert json.loads(from_file.stdout) == json.loads(from_stdin.stdout) == ROBRE_REPORT


def _with_deal(deals: list, number: int, deal: dict) -> list:
    """``deals`` with ``deal`` put at (1-based) position ``number``."""
    return deals[: number - 1] + [deal] + deals[number - 1 :]


GOOD = SMALL["deals"][:2]
INVALID = {
    "unknown contract": (
        evening(
            "kleurenwiezen",
            FIVE,
            _with_deal(GOOD, 2, {"contract": "samen-7", "declarers": ["Anne", "Carl"], "tricks": 8}),
        ),
        2,
        ["samen-7"],
    ),
    "unknown deal key": (
        evening(
            "kleurenwiezen", FIVE, _with_deal(GOOD, 3, {"contract": "alleen-6", "declarer": ["Carl"], "tricks": 6})
        ),
        3,
        ["declarer"],
    ),
    "14 tricks": (
        evening(
            "kleurenwiezen", FIVE, _with_deal(GOOD, 2, {"contract": "alleen-6", "declarers": ["Carl"], "tricks": 14})
        ),
        2,
        ["14"],
    ),
    # Anne deals the first deal and sits out (five at the table)
    "declarer sitting out": (
        evening(
            "kleurenwiezen", FIVE, [{"contract": "alleen-6", "declarers": ["Anne"], "tricks": 7}], first_dealer="Anne"
        ),
        1,
        ["Anne", "sitting out"],
    ),
    # Anne deals deal 1, Bert deal 2, Carl deal 3: Carl sits out the third deal
    "declarer sitting out later": (
        evening(
            "kleurenwiezen", FIVE, _with_deal(GOOD, 3, {"contract": "alleen-6", "declarers": ["Carl"], "tricks": 7})
        ),
        3,
        ["Carl", "sitting out"],
    ),
    "classic tricks that do not add up to 13": (
        evening("classique", FIVE[:4], [{"tricks": [8, 5]}, {"tricks": [7, 5]}]),
        2,
        ["13"],
    ),
    "classic 14 tricks": (
        evening("classique", FIVE[:4], [{"tricks": [14, 0]}]),
        1,
        ["14"],
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize(("data", "number", "words"), INVALID.values(), ids=INVALID.keys())
def test_it_exits_with_status_2_naming_the_deal_and_the_cause(tmp_path, data, number, words):
    result = manage("score", str(write(tmp_path, data)))
    assert result.returncode == 2
    assert result.stdout == ""
    assert f"deal {number}" in result.stderr
    for word in words:
        assert word in result.stderr


@pytest.mark.slow
def test_it_names_an_unknown_top_level_key(tmp_path):
    data = dict(SMALL, dealer="Anne")
    result = manage("score", str(write(tmp_path, data)))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "unknown" in result.stderr
    assert "dealer" in result.stderr


@pytest.mark.slow
def test_it_refuses_a_file_that_is_not_json(tmp_path):
    result = manage("score", str(write(tmp_path, '{"format": "scorebook-evening/1", "deals": [')))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "JSON" in result.stderr


@pytest.mark.slow
def test_it_refuses_bad_json_on_standard_input():
    result = manage("score", "-", stdin="not json at all")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "JSON" in result.stderr


@pytest.mark.slow
def test_it_refuses_an_invalid_deal_on_standard_input_too():
    data = evening("classique", FIVE[:4], [{"tricks": [8, 5]}, {"tricks": [7, 5]}])
    result = manage("score", "-", stdin=json.dumps(data))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "deal 2" in result.stderr


@pytest.mark.slow
def test_it_exits_with_status_2_for_a_missing_file(tmp_path):
    result = manage("score", str(tmp_path / "nowhere.json"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "nowhere.json" in result.stderr


# --- manage.py rules ------------------------------------------------------------------

PRESETS = ["classique", "short", "francais", "mort", "gand", "kleurenwiezen", "liege", "encheres"]

# Every contract key the scoring reference lists for each contract game (docs/rules/: gand to encheres).
CONTRACT_KEYS = {
    "gand": ["emballage", "solo", "misere", "abondance", "misere-table", "grande-abondance"],
    "kleurenwiezen": [
        *(f"samen-{k}" for k in range(8, 14)),
        *(f"alleen-{k}" for k in range(5, 9)),
        *(f"abondance-{k}" for k in range(9, 13)),
        "troel",
        "kleine-miserie",
        "piccolo",
        "grote-miserie",
        "open-miserie",
        "solo-slim",
    ],
    "liege": [
        *(f"emballage-{k}" for k in range(8, 14)),
        "solo-6",
        "solo-7",
        "solo-8",
        "abondance-9",
        "abondance-10",
        "abondance-11",
        "petit-chelem",
        "grand-chelem",
        "trou",
        "petite-misere",
        "piccolo",
        "grande-misere",
        "grande-misere-etalee",
    ],
    "encheres": [
        "solo-chelem-table",
        "chelem-a-deux",
        "solo-chelem",
        "grande-misere-table",
        "abondance-table",
        "grande-misere",
        "abondance",
        "petite-misere-table",
        "piccolo",
        "huit-seul",
        "piccolissimo",
        "sept-seul",
        "petite-misere-a-deux",
        "petite-misere",
        "solo",
        "huit-a-deux",
    ],
}

# The figures the scoring reference gives for each classic game (docs/rules/: classique to mort).
CLASSIC_FIGURES = {
    "classique": {"manche_target": 10, "robre_bonus": 2, "manches_to_win": 2, "dummy": False},
    "short": {"manche_target": 5, "robre_bonus": 2, "manches_to_win": 2, "dummy": False},
    "francais": {"manche_target": 5, "robre_bonus": 0, "manches_to_win": 2, "dummy": False, "chelem_points": 20},
    "mort": {"manche_target": 10, "robre_bonus": 2, "manches_to_win": 2, "dummy": True},
}

# A few deals for each preset, to score with and without the printed rules.
SAMPLES = {
    "classique": evening(
        "classique",
        FIVE[:4],
        [
            {"tricks": [13, 0]},
            {"tricks": [10, 3], "honours": [3, 1]},
            {"tricks": [5, 8], "honours": [0, 4]},
            {"tricks": [10, 3]},
            {"tricks": [10, 3]},
            {"claim": 0},
        ],
    ),
    "short": evening(
        "short",
        FIVE[:4],
        [
            {"tricks": [10, 3]},
            {"tricks": [6, 7], "honours": [4, 0]},
            {"tricks": [8, 5]},
            {"tricks": [2, 11]},
            {"tricks": [11, 2]},
        ],
    ),
    "francais": evening(
        "francais",
        FIVE[:4],
        [
            {"tricks": [9, 4], "honours": [0, 4]},
            {"tricks": [13, 0]},
            {"tricks": [8, 5], "honours": [3, 0]},
            {"tricks": [5, 8]},
            {"tricks": [12, 1]},
        ],
    ),
    "mort": evening(
        "mort",
        FIVE[:3],
        [{"tricks": [13, 0]}, {"tricks": [10, 3]}, {"tricks": [5, 8]}, {"tricks": [12, 1], "honours": [4, 0]}],
    ),
    "gand": evening(
        "gand",
        FIVE,
        [
            {"contract": "emballage", "declarers": ["Bert", "Dina"], "tricks": 9},
            {"contract": "solo", "declarers": ["Dina"], "tricks": 4},
            {"contract": "pass"},
            {"contract": "misere", "declarers": ["Eric"], "tricks": 0},
        ],
        stake="0.05",
    ),
    "kleurenwiezen": evening(
        "kleurenwiezen",
        FIVE[:4],
        [
            {"contract": "alleen-6", "declarers": ["Bert"], "tricks": 7},
            {"contract": "pass"},
            {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": 8},
            {"contract": "piccolo", "declarers": ["Dina", "Bert"], "tricks": {"Dina": 1, "Bert": 2}},
        ],
    ),
    "liege": evening(
        "liege",
        FIVE[:4],
        [
            {"contract": "solo-6", "declarers": ["Bert"], "tricks": 5},
            {"contract": "emballage-8", "declarers": ["Anne", "Carl"], "tricks": 10},
            {"contract": "petite-misere", "declarers": ["Dina", "Bert"], "tricks": {"Dina": 0, "Bert": 1}},
        ],
        stake="0.05",
    ),
    "encheres": evening(
        "encheres",
        FIVE[:4],
        [
            {"contract": "solo", "declarers": ["Bert"], "tricks": 5},
            {"contract": "sept-seul", "declarers": ["Carl"], "tricks": 6},
            {"contract": "solo", "declarers": ["Anne"], "tricks": 8},
        ],
    ),
}


@pytest.mark.slow
def test_it_lists_the_eight_presets():
    result = manage("rules", "list")
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert [line.split()[0] for line in lines] == PRESETS


def test_it_lists_the_presets_of_the_registry_in_process():
    out = StringIO()
    call_command("rules", "list", stdout=out)
    listed = [line.split()[0] for line in out.getvalue().splitlines() if line.strip()]
    assert listed == registry.keys() == PRESETS


def _show(key: str) -> dict:
    out = StringIO()
    call_command("rules", "show", key, stdout=out)
    return json.loads(out.getvalue())


def _score(tmp_path: Path, data: dict) -> dict:
    out = StringIO()
    call_command(
        "score", str(write(tmp_path, data, f"{data['ruleset']}-{len(data.get('rules', {}))}.json")), stdout=out
    )
    return json.loads(out.getvalue())


@pytest.mark.parametrize("key", PRESETS)
def test_it_shows_rules_that_change_nothing_when_given_back(tmp_path, key):
    shown = _show(key)
    assert shown["key"] == key
    plain = SAMPLES[key]
    with_rules = dict(plain, rules=shown)
    before, after = _score(tmp_path, plain), _score(tmp_path, with_rules)
    assert after == before
    assert any(before["totals"].values()), "the sample evening should score something"


@pytest.mark.slow
@pytest.mark.parametrize("key", PRESETS)
def test_it_shows_rules_as_json_in_a_real_process(key):
    result = manage("rules", "show", key)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == _show(key)


@pytest.mark.parametrize("key", list(CONTRACT_KEYS))
def test_it_shows_every_contract_key_of_the_reference(key):
    shown = _show(key)
    missing = set(CONTRACT_KEYS[key]) - set(shown["contracts"])
    assert not missing, f"{key}: contracts of the reference missing from rules show: {sorted(missing)}"


@pytest.mark.parametrize("key", list(CLASSIC_FIGURES))
def test_it_shows_the_figures_of_the_reference_for_classic_games(key):
    shown = _show(key)
    for field, value in CLASSIC_FIGURES[key].items():
        assert shown[field] == value, field
    assert shown["honours"]["points"] == {"3": 2, "4": 4}
    assert shown["book"] == 6


@pytest.mark.slow
def test_it_exits_with_status_2_for_an_unknown_preset():
    result = manage("rules", "show", "nope")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "nope" in result.stderr
