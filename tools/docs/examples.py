"""Worked examples on the page, in the page's language: one sheet of the engine's own worked examples
(``tests/rules/cases/*.toml``, run as tests), scored by the engine here and compared with what the
sheet says, so that a page never shows a figure the engine and the sheet do not both give."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from scorebook.rules import evening_file, settlement
from scorebook.rules.deals import Adjustment, Claim, ClassicDeal, ContractDeal, Pass, RobreStart
from scorebook.rules.model import ClassicRules, ContractRules, Ruleset
from scorebook.rules.outcome import DealResult
from scorebook.rules.scoring import score

from .presets import name, signed, table
from .words import decimal, note, say, tricks

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "rules" / "cases"


@dataclass(frozen=True)
class Sheet:
    """One ``[[case]]`` of a file of worked examples, as the test of the examples reads it."""

    file: str
    ruleset: str
    case: Mapping[str, Any]
    defaults: Mapping[str, Any]

    @property
    def players(self) -> list[str]:
        return list(self.case.get("players", self.defaults["players"]))

    def evening(self) -> dict[str, Any]:
        """The case as an evening file."""
        out: dict[str, Any] = {"format": evening_file.FORMAT, "ruleset": self.ruleset, "players": self.players}
        for key in ("first_dealer", "rules", "stake"):
            if key in self.case or key in self.defaults:
                out[key] = self.case.get(key, self.defaults.get(key))
        out["deals"] = list(self.case["deals"])
        return out


def sheet(file: str, case_name: str) -> Sheet:
    data = tomllib.loads((CASES / file).read_text())
    for case in data["case"]:
        if case["name"] == case_name:
            return Sheet(file, data["ruleset"], case, data)
    raise ValueError(f"{file}: no case named {case_name!r}")


def checked_report(case: Sheet) -> dict[str, Any]:
    """The engine's report of the sheet, once it agrees with what the sheet says."""
    report = evening_file.report(evening_file.from_dict(case.evening()))
    agrees(case, report)
    return report


def agrees(case: Sheet, report: dict[str, Any]) -> None:
    """The engine gives what the sheet says (the worked examples' test checks it too)."""
    expected = case.case
    checks: list[tuple[str, Any, Any]] = []
    if "totals" in expected:
        checks.append(("totals", report["totals"], {p: expected["totals"].get(p, 0) for p in case.players}))
    for key in ("money", "transfers", "pot"):
        if key in expected:
            checks.append((key, report[key], expected[key]))
    for key, got, want in checks:
        if got != want:
            raise ValueError(f"{case.file}: {case.case['name']}: the engine gives {key} {got}, the sheet {want}")


def side(names: tuple[str, ...] | list[str], lang: str = "en") -> str:
    return say("and", lang).join(names)


def money(amount: str, lang: str = "en") -> str:
    signed_amount = amount if amount.startswith("-") or amount in ("0.00", "0") else f"+{amount}"
    return decimal(signed_amount, lang)


def amounts(values: Mapping[str, Any], lang: str) -> str:
    return ", ".join(f"{p} {money(str(v), lang)}" for p, v in values.items())


def pays(payer: str, payee: str, amount: Any, lang: str) -> str:
    return say("pays", lang, payer=payer, payee=payee, amount=decimal(str(amount), lang))


def transfers(items: list[settlement.Transfer], lang: str) -> str:
    joined = ("\u00a0; " if lang == "fr" else "; ").join(pays(t.payer, t.payee, t.amount, lang) for t in items)
    return joined or say("nobody", lang)


# --- one deal in words ------------------------------------------------------------------------------------


def _classic(deal: Any, lang: str) -> str:
    if isinstance(deal, RobreStart):
        if deal.dummy_partner:
            return say("robre-dummy", lang, player=deal.dummy_partner)
        assert deal.teams is not None
        return say("robre-teams", lang, a=side(deal.teams[0], lang), b=side(deal.teams[1], lang))
    if isinstance(deal, Claim):
        return say("claim-deal", lang, team=deal.team)
    assert isinstance(deal, ClassicDeal)
    text = say("classic-deal", lang, a=deal.tricks[0], b=deal.tricks[1])
    if any(deal.honours):
        text += say("with-honours", lang, a=deal.honours[0], b=deal.honours[1])
    return text


def _contract(deal: ContractDeal, result: DealResult, rules: ContractRules, lang: str) -> str:
    contract = rules.contract(deal.contract)
    head = say("contract-head", lang, name=name(contract, lang), code=contract.key)
    if isinstance(deal.tricks, Mapping):
        each = []
        for player, n in deal.tricks.items():
            outcome = say("made" if result.outcomes.get(player) else "failed", lang)
            each.append(say("each-tricks", lang, player=player, tricks=n, outcome=outcome))
        text = head + ", ".join(each)
    else:
        n = deal.tricks
        text = head + say("side-tricks", lang, side=side(deal.declarers, lang), n=n, tricks=tricks(n, lang).split()[1])
        text += ", " + say("made" if result.made else "failed", lang)
    if deal.trump_changed:
        text += say("trump-changed", lang)
    if deal.exposed_fault:
        text += say("made-to-take", lang, player=deal.exposed_fault)
    if result.multiplier > 1:
        text += say("after-all-pass", lang, m=result.multiplier)
    return text


def describe(deal: Any, result: DealResult, rules: Ruleset, lang: str = "en") -> str:
    """One deal in words."""
    if isinstance(deal, Adjustment):
        points = ", ".join(f"{p} {signed(v)}" for p, v in deal.points.items())
        if deal.note:
            return say("adjustment-note", lang, note=note(deal.note, lang), points=points)
        return say("adjustment", lang, points=points)
    if isinstance(deal, Pass):
        return say("pass", lang)
    if isinstance(deal, RobreStart | Claim | ClassicDeal):
        return _classic(deal, lang)
    assert isinstance(deal, ContractDeal) and isinstance(rules, ContractRules)
    return _contract(deal, result, rules, lang)


def _robres(results: tuple[DealResult, ...], lang: str) -> str:
    """Classic games: who plays with whom in each robre of the example."""
    seen: dict[int, str] = {}
    for res in results:
        robre = res.robre
        if robre is None or robre.number in seen:
            continue
        if robre.dummy_partner is not None:
            others = side(robre.teams[1], lang)
            seen[robre.number] = say("dummy-team", lang, player=robre.dummy_partner, others=others)
        else:
            seen[robre.number] = say("teams", lang, a=side(robre.teams[0], lang), b=side(robre.teams[1], lang))
    return "".join(say("robre-line", lang, n=n, text=text) + "\n" for n, text in seen.items())


def _standing(result: DealResult, before: int, lang: str) -> str:
    """Classic games: where the robre stands after the deal."""
    robre = result.robre
    if robre is None:
        return ""
    if result.ended_robre and robre.result is not None:
        return say("robre-to", lang, team=robre.winner, a=robre.result[0], b=robre.result[1])
    if len(robre.manches) > before:
        manche = robre.manches[-1]
        return say("manche-to", lang, team=manche.winner, a=manche.points[0], b=manche.points[1], value=manche.value)
    return f"{robre.points[0]}–{robre.points[1]}"


def _cell(player: str, result: DealResult, classic: bool) -> str:
    """A player's points for one deal: · when he sat out; in classic games blank until a robre ends."""
    delta = result.deltas.get(player, 0)
    out = player in result.sitting_out or (
        classic and result.robre is not None and player not in result.robre.players and not delta
    )
    if out:
        return "·"
    return "" if classic and not delta else signed(delta)


# --- a whole example --------------------------------------------------------------------------------------


def _intro(engine: Any, data: dict[str, Any], lang: str) -> str:
    rules = engine.rules
    text = say("seats", lang, players=", ".join(engine.players), first=engine.first_dealer)
    if engine.stake is not None:
        jetons = isinstance(rules, ContractRules) and rules.key in ("gand", "encheres")
        unit = say("jeton" if jetons else "point", lang)
        text += say("stake", lang, stake=decimal(str(engine.stake), lang), currency=engine.currency, unit=unit)
    if data.get("rules"):
        text += say("house-rules", lang, rules=json.dumps(data["rules"], ensure_ascii=False))
    return text + "\n"


def _deals_table(engine: Any, result: Any, report: dict[str, Any], lang: str) -> str:
    rules, players = engine.rules, list(engine.players)
    classic = isinstance(rules, ClassicRules)
    bete = isinstance(rules, ContractRules) and rules.bete is not None
    header = ["#", say("dealer", lang), say("deal", lang), *players]
    header += ([say("robre", lang)] if classic else []) + ([say("bete-col", lang)] if bete else [])
    rows, manches = [], 0
    for deal, res in zip(engine.deals, result.deals, strict=True):
        row = [str(res.number), res.dealer or "", describe(deal, res, rules, lang)]
        row += [_cell(p, res, classic) for p in players]
        if classic:
            row.append(_standing(res, manches, lang))
            manches = len(res.robre.manches) if res.robre is not None and not res.ended_robre else 0
        if bete:
            row.append(str(res.pot))
        rows.append(row)
    total = ["", "", say("total", lang), *(f"**{signed(report['totals'][p])}**" for p in players)]
    total += [""] * (classic + bete)
    if bete:
        total[-1] = f"**{report['pot']}**"
    rows.append(total)
    return table(header, rows, "rll" + "r" * len(players) + "l" * classic + "r" * bete)


def _money_lines(report: dict[str, Any], currency: str, lang: str) -> list[str]:
    if "money" not in report:
        return []
    lines = [say("money", lang, currency=currency, amounts=amounts(report["money"], lang)) + "\n"]
    items = [settlement.Transfer(t["from"], t["to"], Decimal(t["amount"])) for t in report["transfers"]]
    lines.append(say("who-pays", lang, transfers=transfers(items, lang)) + "\n")
    return lines


def example(file: str, case_name: str, lang: str = "en") -> str:
    """A worked example: the sheet's deals, each deal's points, the totals, the money and transfers."""
    case = sheet(file, case_name)
    data = case.evening()
    engine = evening_file.from_dict(data)
    result = score(engine)
    report = evening_file.report(engine, result)
    agrees(case, report)
    lines = [say("from-sheet", lang, file=file, name=case_name) + "\n", _intro(engine, data, lang)]
    if isinstance(engine.rules, ClassicRules):
        lines.append(_robres(result.deals, lang))
    lines.append(_deals_table(engine, result, report, lang))
    lines += _money_lines(report, engine.currency, lang)
    lines.append(say("the-file", lang) + "\n")
    lines.append("```json\n" + compact(data) + "\n```\n")
    return "\n".join(lines)


def compact(data: dict[str, Any]) -> str:
    """The evening file with one key, then one deal, a line."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items() if k != "deals"]
    deals = ",\n".join(f"    {json.dumps(d, ensure_ascii=False)}" for d in data["deals"])
    lines.append(f'  "deals": [\n{deals}\n  ]')
    return "{\n" + ",\n".join(lines) + "\n}"


def score_output(argument: str, lang: str = "en") -> str:
    """What ``manage.py score`` prints for a sheet (the sheet's evening file, then the output)."""
    file, _, case_name = argument.partition(": ")
    case = sheet(file, case_name)
    report = checked_report(case)
    return (
        f"{say('from-sheet', lang, file=file, name=case_name)} {say('the-file-score', lang)}\n\n"
        f"```json\n{compact(case.evening())}\n```\n\n{say('score-prints', lang)}\n\n"
        f"```json\n{json.dumps(report, ensure_ascii=False, indent=2)}\n```\n"
    )


def netting(argument: str, lang: str = "en") -> str:
    """A correction after a payment: the evening's settlement, its first transfer paid, the evening
    corrected (the second sheet), and what is still owed (``settlement.remaining_transfers``)."""
    file, _, names = argument.partition(": ")
    before_name, _, after_name = names.partition(" => ")
    first_report, after = (checked_report(sheet(file, n)) for n in (before_name, after_name))
    first = first_report["transfers"][0]
    paid = settlement.Transfer(first["from"], first["to"], Decimal(first["amount"]))
    balances = {p: Decimal(v) for p, v in after["money"].items()}
    left = settlement.outstanding(balances, [paid])
    remaining = settlement.remaining_transfers(balances, [paid])
    before = [settlement.Transfer(t["from"], t["to"], Decimal(t["amount"])) for t in first_report["transfers"]]
    return "\n".join(
        [
            say("from-sheets", lang, file=file, first=before_name, then=after_name) + "\n",
            say("netting-1", lang, money=amounts(first_report["money"], lang), transfers=transfers(before, lang)),
            say("netting-2", lang, payer=paid.payer, payee=paid.payee, amount=decimal(str(paid.amount), lang)),
            say("netting-3", lang, money=amounts(after["money"], lang)),
            say("netting-4", lang, money=amounts(left, lang)),
            say("netting-5", lang, transfers=transfers(remaining, lang)),
        ]
    )
