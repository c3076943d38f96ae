"""Every worked example and every contract, as score sheets in ``cases/*.toml``.

Each file names a ruleset and the players; each ``[[case]]`` lists deals in the
evening-file format and what the sheet says: totals, per-deal deltas, the bête,
money and transfers, or the error a wrong deal must give.
"""

import json
import tomllib
from pathlib import Path

import pytest

from scorebook.rules.evening_file import FORMAT, FileError, score_file
from scorebook.rules.scoring import DealError

CASES_DIR = Path(__file__).parent / "cases"
CASE_KEYS = {
    "name",
    "deals",
    "players",
    "first_dealer",
    "rules",
    "stake",
    "totals",
    "deltas",
    "pot",
    "pots",
    "money",
    "transfers",
    "error",
    "error_deal",
}


def _load():
    for path in sorted(CASES_DIR.glob("*.toml")):
        sheet = tomllib.loads(path.read_text())
        for case in sheet["case"]:
            unknown = set(case) - CASE_KEYS
            assert not unknown, f"{path.name}: {case.get('name')}: unknown keys {unknown}"
            yield pytest.param(sheet, case, id=f"{path.stem}: {case['name']}")


def _evening(sheet, case):
    evening = {
        "format": FORMAT,
        "ruleset": sheet["ruleset"],
        "players": case.get("players", sheet["players"]),
        "deals": case["deals"],
    }
    for key in ("first_dealer", "rules", "stake"):
        if key in case or key in sheet:
            evening[key] = case.get(key, sheet.get(key))
    return json.dumps(evening)


@pytest.mark.parametrize(("sheet", "case"), list(_load()))
def test_it_scores_the_sheet_as_written(sheet, case):
    text = _evening(sheet, case)
    if "error" in case:
        with pytest.raises((FileError, DealError)) as excinfo:
            score_file(text)
        assert case["error"] in str(excinfo.value)
        if "error_deal" in case:
            assert excinfo.value.number == case["error_deal"]
        return
    report = score_file(text)
    players = case.get("players", sheet["players"])
    if "totals" in case:
        assert report["totals"] == {p: case["totals"].get(p, 0) for p in players}
    if "deltas" in case:
        assert len(case["deltas"]) == len(report["deals"])
        assert [d["deltas"] for d in report["deals"]] == [{p: v for p, v in d.items() if v} for d in case["deltas"]]
    if "pot" in case:
        assert report["pot"] == case["pot"]
    if "pots" in case:
        assert [d["pot"] for d in report["deals"]] == case["pots"]
    if "money" in case:
        assert report["money"] == case["money"]
    if "transfers" in case:
        assert report["transfers"] == case["transfers"]


def test_it_has_a_sheet_for_every_preset():
    from scorebook.rules import registry

    covered = {tomllib.loads(p.read_text())["ruleset"] for p in CASES_DIR.glob("*.toml")}
    assert covered >= set(registry.keys())
