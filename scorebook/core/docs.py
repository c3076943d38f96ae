"""The parts of ``docs/`` that are made from the code, never typed by hand.

A Markdown file of ``docs/`` marks each such part with a pair of comments; ``manage.py docs``
(``make docs``) writes what is between them, and ``manage.py docs --check`` (a test) fails when a
file differs from what the code makes::

    <!-- generated: figures kleurenwiezen -->      the settings of a preset and its contracts
    <!-- generated: grid kleurenwiezen -->         every contract's payout table, by tricks
    <!-- generated: example gand.toml: NAME -->    a worked example: the sheet NAME of tests/rules/cases
    <!-- generated: variants -->                   the eight presets
    <!-- generated: limits -->                     the bounds of money typed, the settle-up's budget
    <!-- generated: settle-up Anne +6.00, Bert -4.00, ... -->   a club's balances settled up
    ...
    <!-- end generated -->

The figures come from the presets (``scorebook.rules.presets``) through ``to_dict``, the shape
``manage.py rules show`` prints; a worked example is one sheet of the engine's own worked examples
(``tests/rules/cases/*.toml``, run as tests), scored by the engine here and compared with what the
sheet says, so that a page never shows a figure the engine and the sheet do not both give. The
JSON Schema of the evening file (``docs/evening-file.schema.json``) is written from
``scorebook.rules.evening_schema``.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from scorebook.rules import evening_file, registry, settlement
from scorebook.rules.deals import Adjustment, Claim, ClassicDeal, ContractDeal, Pass, RobreStart
from scorebook.rules.model import ClassicRules, Contract, ContractRules, Kind, Payout, Ruleset, payout_cells, to_dict
from scorebook.rules.outcome import DealResult
from scorebook.rules.scoring import score

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CASES = ROOT / "tests" / "rules" / "cases"
SCHEMA_FILE = DOCS / "evening-file.schema.json"
BLOCK = re.compile(r"(?P<open><!-- generated: (?P<what>.+?) -->\n)(?P<body>.*?)(?P<close><!-- end generated -->)", re.S)

KINDS = {
    Kind.PAIR: "pair",
    Kind.SOLO: "solo",
    Kind.TROU: "trou (three aces)",
    Kind.MISERE: "misère",
    Kind.PICCOLO: "piccolo",
}
COMBINATIONS = {
    "each-vs-table": "each declarer is settled on his own against the three others, and the results are added up",
    "failures-pay-others": "each declarer scores his own row; every player who is not a declarer takes "
    "the opponents' figure of every declarer's row",
}


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def names_line(rules: Ruleset | Contract) -> str:
    return f"{rules.names.fr} (fr) · {rules.names.nl} (nl) · {rules.names.en} (en)"


def table(header: list[str], rows: list[list[str]], align: str = "") -> str:
    """A Markdown table; ``align`` gives each column's alignment (``l`` or ``r``, left by default)."""
    marks = [("---:" if a == "r" else "---") for a in align.ljust(len(header), "l")]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(marks) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


# --- the presets ------------------------------------------------------------------------------------


def variants() -> str:
    rows = []
    for rules in registry.all_presets():
        players = (
            str(rules.min_players)
            if rules.min_players == rules.max_players
            else f"{rules.min_players} to {rules.max_players}"
        )
        rows.append([f"[`{rules.key}`]({rules.key}.md)", rules.names.en, rules.names.fr, rules.names.nl, players])
    return table(["key", "English", "français", "Nederlands", "players"], rows)


def _players(rules: Ruleset) -> str:
    low, high = rules.min_players, rules.max_players
    return f"{low}" if low == high else f"{low} to {high}"


def _classic_figures(rules: ClassicRules) -> list[list[str]]:
    data = to_dict(rules)
    honours = data["honours"]
    cards = "A K Q J" if honours["cards"] == 4 else "A K Q J 10"
    points = ", ".join(f"{held} held: {value}" for held, value in honours["points"].items())
    values = data["manche_values"]
    ranges = []
    for i, (low, value) in enumerate(values):
        high = values[i + 1][0] - 1 if i + 1 < len(values) else None
        span = f"{low}" if high == low else (f"{low} or more" if high is None else f"{low} to {high}")
        ranges.append(f"{span}: {value}")
    by_what = "the losers' trick points" if data["manche_scoring"] == "difference" else "the losers' points"
    claim = data["claim"]
    rows = [
        ["players", "`players`", _players(rules) + (", one of them with the dummy" if rules.dummy else "")],
        ["tricks in the book (a trick over them is a point)", "`book`", str(data["book"])],
        ["points that win a manche", "`manche_target`", str(data["manche_target"])],
        ["honours counted", "`honours.cards`", f"{honours['cards']} ({cards} of trumps)"],
        ["points for the honours held", "`honours.points`", points],
        [
            "honours count towards the manche",
            "`honours.towards_manche`",
            "yes" if honours["towards_manche"] else "no: kept aside until the manche ends",
        ],
        [
            "a side standing at this score cannot score honours",
            "`honours.barred_at`",
            ", ".join(map(str, honours["barred_at"])) or "–",
        ],
        [
            "the claim with honours",
            "`claim`",
            "–" if claim is None else f"a side standing at exactly {claim['at']}, scores {claim['points']}",
        ],
        [
            "how a won manche is valued",
            "`manche_scoring`",
            "by the difference of the two sides' points"
            if data["manche_scoring"] == "difference"
            else "by the losers' points",
        ],
        [f"manche value, by {by_what}", "`manche_values`", "; ".join(ranges)],
        ["points for winning the manche (difference scoring)", "`manche_base`", str(data["manche_base"])],
        ["manches that win the robre", "`manches_to_win`", str(data["manches_to_win"])],
        ["robre bonus", "`robre_bonus`", str(data["robre_bonus"])],
        [
            "all 13 tricks (chelem), outside the manche",
            "`chelem_points`",
            "–" if data["chelem_points"] is None else str(data["chelem_points"]),
        ],
    ]
    return rows


def _contract_settings(rules: ContractRules) -> list[list[str]]:
    bete = rules.bete
    rows = [
        ["players", "`players`", _players(rules) + ": four play each deal"],
        ["several misère or piccolo declarers", "`misere_combination`", COMBINATIONS[str(rules.combination)]],
        [
            "after an all-pass deal",
            "`all_pass_multiplier`",
            "no doubling"
            if rules.all_pass_multiplier == 1
            else f"the next deal played counts ×{rules.all_pass_multiplier}",
        ],
    ]
    if bete is None:
        rows.append(["the bête (a pot)", "`bete`", "none"])
    else:
        rows += [
            [
                "a failure pays at least the contract's value into the bête",
                "`bete.failure_floor`",
                "yes" if bete.failure_floor else "no",
            ],
            ["jetons the dealer puts in the bête each deal", "`bete.ante`", str(bete.ante)],
            [
                "what is left in the bête at the end",
                "`bete.end`",
                "carried to the next evening"
                if str(bete.end) == "carry"
                else "shared equally by the evening's players",
            ],
        ]
    return rows


def _needs(contract: Contract) -> str:
    if contract.exact:
        each = "together" if contract.declarers == 2 else "each"
        n = contract.needs
        return f"exactly {n} trick{'s' if n != 1 else ''} {each}"
    text = str(contract.needs)
    if contract.needs_if_trump_changed:
        text += f" ({contract.needs_if_trump_changed} if the trump was changed)"
    return text


def figures(key: str) -> str:
    rules = registry.get(key)
    header = ["", "key in `rules show`", "as shipped"]
    if isinstance(rules, ClassicRules):
        return table(header, _classic_figures(rules))
    out = table(header, _contract_settings(rules)) + "\n"
    rows = []
    for contract in rules.contracts.values():
        declarers = str(contract.declarers)
        if contract.simultaneous > 1:
            declarers = f"1 (up to {contract.simultaneous} in one deal)"
        rows.append(
            [
                f"[{contract.names.en}](#{contract.key})",
                f"`{contract.key}`",
                KINDS[contract.kind],
                declarers,
                _needs(contract),
                "yes" if contract.trumps else "no",
            ]
        )
    out += table(["contract", "key", "kind", "declarers", "tricks needed", "trumps"], rows)
    return out


def _runs(contract: Contract) -> Iterator[tuple[int, int, str, Payout]]:
    """The rows of a contract's tables, equal neighbours merged: (from, to, made or failed, payout)."""
    rows: list[tuple[int, int, str, Payout]] = []
    for tricks, can_make, can_fail in payout_cells(contract):
        for made, possible in ((True, can_make), (False, can_fail)):
            if not possible:
                continue
            payout = contract.payout(tricks, made)
            result = "made" if made else "failed"
            if rows and rows[-1][1] == tricks - 1 and rows[-1][2] == result and rows[-1][3] == payout:
                rows[-1] = (rows[-1][0], tricks, result, payout)
            else:
                rows.append((tricks, tricks, result, payout))
    rows.sort(key=lambda row: (row[0], row[2] == "made"))
    yield from rows


def grid(key: str) -> str:
    rules = registry.get(key)
    if not isinstance(rules, ContractRules):
        raise ValueError(f"{key} has no contracts")
    parts = []
    for contract in rules.contracts.values():
        if contract.exact and contract.declarers == 1:
            taken = "tricks taken by the declarer"
        else:
            taken = "tricks taken by the declaring side"
        opponent = "each other player" if contract.kind.per_declarer else "each opponent"
        parts.append(f'<a id="{contract.key}"></a>\n\n#### {contract.names.en} · `{contract.key}`\n')
        parts.append(
            f"{names_line(contract)}. {KINDS[contract.kind].capitalize()}, "
            f"{contract.declarers} declarer{'s' if contract.declarers > 1 else ''}, "
            f"tricks needed: {_needs(contract)}, {'with' if contract.trumps else 'without'} trumps.\n"
        )
        rows = []
        for low, high, result, payout in _runs(contract):
            span = str(low) if low == high else f"{low} to {high}"
            if rules.bete is not None and result == "failed":
                rows.append([span, result, f"pays at least {-payout.declarer} into the bête", "0"])
            else:
                rows.append([span, result, signed(payout.declarer), signed(payout.opponent)])
        parts.append(table([taken, "", "each declarer", opponent], rows, "rlrr"))
    return "\n".join(parts)


# --- worked examples --------------------------------------------------------------------------------


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


def sheet(file: str, name: str) -> Sheet:
    data = tomllib.loads((CASES / file).read_text())
    for case in data["case"]:
        if case["name"] == name:
            return Sheet(file, data["ruleset"], case, data)
    raise ValueError(f"{file}: no case named {name!r}")


def _side(names: tuple[str, ...] | list[str]) -> str:
    return " & ".join(names)


def describe(deal: Any, result: DealResult, rules: Ruleset) -> str:
    """One deal in words."""
    if isinstance(deal, Adjustment):
        points = ", ".join(f"{p} {signed(v)}" for p, v in deal.points.items())
        return f"adjustment ({deal.note}): {points}" if deal.note else f"adjustment: {points}"
    if isinstance(deal, Pass):
        return "all pass: the same dealer deals again"
    if isinstance(deal, RobreStart):
        if deal.dummy_partner:
            return f"a robre: {deal.dummy_partner} plays with the dummy"
        assert deal.teams is not None
        return f"a robre: {_side(deal.teams[0])} (team 0) against {_side(deal.teams[1])} (team 1)"
    if isinstance(deal, Claim):
        return f"team {deal.team} stands at 8 and shows its honours"
    if isinstance(deal, ClassicDeal):
        text = f"tricks {deal.tricks[0]}–{deal.tricks[1]}"
        if any(deal.honours):
            text += f", honours {deal.honours[0]}–{deal.honours[1]}"
        return text
    assert isinstance(deal, ContractDeal) and isinstance(rules, ContractRules)
    contract = rules.contract(deal.contract)
    if isinstance(deal.tricks, Mapping):
        each = []
        for player, tricks in deal.tricks.items():
            outcome = "made" if result.outcomes.get(player) else "failed"
            each.append(f"{player} {tricks} ({outcome})")
        text = f"{contract.names.en} (`{contract.key}`): " + ", ".join(each)
    else:
        n = deal.tricks
        text = f"{contract.names.en} (`{contract.key}`): {_side(deal.declarers)}, {n} trick{'s' if n != 1 else ''}"
        text += ", made" if result.made else ", failed"
    if deal.trump_changed:
        text += ", trump changed"
    if deal.exposed_fault:
        text += f", {deal.exposed_fault} made to take a trick"
    if result.multiplier > 1:
        text += f" (×{result.multiplier} after the all-pass)"
    return text


def _robres(results: tuple[DealResult, ...]) -> str:
    """Classic games: who plays with whom in each robre of the example."""
    seen: dict[int, str] = {}
    for res in results:
        robre = res.robre
        if robre is None or robre.number in seen:
            continue
        if robre.dummy_partner is not None:
            others = _side(robre.teams[1])
            seen[robre.number] = f"{robre.dummy_partner} plays with the dummy (team 0) against {others} (team 1)"
        else:
            seen[robre.number] = f"{_side(robre.teams[0])} (team 0) against {_side(robre.teams[1])} (team 1)"
    return "".join(f"- Robre {n}: {text}.\n" for n, text in seen.items())


def _standing(result: DealResult, before: int) -> str:
    """Classic games: where the robre stands after the deal."""
    robre = result.robre
    if robre is None:
        return ""
    if result.ended_robre and robre.result is not None:
        return f"robre to team {robre.winner}: {robre.result[0]} to {robre.result[1]}"
    if len(robre.manches) > before:
        manche = robre.manches[-1]
        return f"manche to team {manche.winner} at {manche.points[0]}–{manche.points[1]}: value {manche.value}"
    return f"{robre.points[0]}–{robre.points[1]}"


def example(file: str, name: str) -> str:
    """A worked example: the sheet's deals, each deal's points, the totals, the money and transfers."""
    case = sheet(file, name)
    data = case.evening()
    engine = evening_file.from_dict(data)
    result = score(engine)
    report = evening_file.report(engine, result)
    _agrees(case, report)
    rules = engine.rules
    players = list(engine.players)
    classic = isinstance(rules, ClassicRules)
    bete = isinstance(rules, ContractRules) and rules.bete is not None
    lines = [f"From the worked examples, `tests/rules/cases/{file}`: *{name}*.\n"]
    intro = f"Players, clockwise: {', '.join(players)}; {engine.first_dealer} deals first."
    if engine.stake is not None:
        unit = "jeton" if isinstance(rules, ContractRules) and rules.key in ("gand", "encheres") else "point"
        intro += f" Stake: {engine.stake} {engine.currency} a {unit}."
    if data.get("rules"):
        intro += f" House rules: `{json.dumps(data['rules'], ensure_ascii=False)}`."
    lines.append(intro + "\n")
    header = ["#", "dealer", "deal", *players] + (["robre"] if classic else []) + (["bête"] if bete else [])
    rows = []
    manches = 0
    for deal, res in zip(engine.deals, result.deals, strict=True):
        cells = [_cell(p, res, classic) for p in players]
        row = [str(res.number), res.dealer or "", describe(deal, res, rules), *cells]
        if classic:
            row.append(_standing(res, manches))
            manches = len(res.robre.manches) if res.robre is not None and not res.ended_robre else 0
        if bete:
            row.append(str(res.pot))
        rows.append(row)
    total = ["", "", "**total**", *(f"**{signed(report['totals'][p])}**" for p in players)]
    total += [""] * (classic + bete)
    if bete:
        total[-1] = f"**{report['pot']}**"
    rows.append(total)
    if classic:
        lines.append(_robres(result.deals))
    lines.append(table(header, rows, "rll" + "r" * len(players) + "l" * classic + "r" * bete))
    if "money" in report:
        money = ", ".join(f"{p} {_money(report['money'][p])}" for p in report["money"])
        lines.append(f"Money ({engine.currency}): {money}.\n")
        if report["transfers"]:
            pays = "; ".join(f"{t['from']} pays {t['to']} {t['amount']}" for t in report["transfers"])
            lines.append(f"Who pays whom: {pays}.\n")
        else:
            lines.append("Who pays whom: nobody.\n")
    lines.append("The evening file:\n")
    lines.append("```json\n" + _compact(data) + "\n```\n")
    return "\n".join(lines)


def _cell(player: str, result: DealResult, classic: bool) -> str:
    """A player's points for one deal: · when he sat out; in classic games blank until a robre ends."""
    delta = result.deltas.get(player, 0)
    out = player in result.sitting_out or (
        classic and result.robre is not None and player not in result.robre.players and not delta
    )
    if out:
        return "·"
    return "" if classic and not delta else signed(delta)


def _money(amount: str) -> str:
    return amount if amount.startswith("-") or amount in ("0.00", "0") else f"+{amount}"


def _compact(data: dict[str, Any]) -> str:
    """The evening file with one key, then one deal, a line."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items() if k != "deals"]
    deals = ",\n".join(f"    {json.dumps(d, ensure_ascii=False)}" for d in data["deals"])
    lines.append(f'  "deals": [\n{deals}\n  ]')
    return "{\n" + ",\n".join(lines) + "\n}"


def _agrees(case: Sheet, report: dict[str, Any]) -> None:
    """The engine gives what the sheet says (the worked examples' test checks it too)."""
    expected = case.case
    players = case.players
    checks: list[tuple[str, Any, Any]] = []
    if "totals" in expected:
        checks.append(("totals", report["totals"], {p: expected["totals"].get(p, 0) for p in players}))
    for key in ("money", "transfers", "pot"):
        if key in expected:
            checks.append((key, report[key], expected[key]))
    for key, got, want in checks:
        if got != want:
            raise ValueError(f"{case.file}: {case.case['name']}: the engine gives {key} {got}, the sheet {want}")


def score_output(argument: str) -> str:
    """What ``manage.py score`` prints for a sheet (the sheet's evening file, then the output)."""
    file, _, name = argument.partition(": ")
    case = sheet(file, name)
    data = case.evening()
    report = evening_file.report(evening_file.from_dict(data))
    _agrees(case, report)
    return (
        f"From the worked examples, `tests/rules/cases/{file}`: *{name}*. The file:\n\n"
        f"```json\n{_compact(data)}\n```\n\n`manage.py score` prints:\n\n"
        f"```json\n{json.dumps(report, ensure_ascii=False, indent=2)}\n```\n"
    )


def netting(argument: str) -> str:
    """A correction after a payment: the evening's settlement, its first transfer paid, the evening
    corrected (the second sheet), and what is still owed (``settlement.remaining_transfers``)."""
    file, _, names = argument.partition(": ")
    before_name, _, after_name = names.partition(" => ")
    before, after = sheet(file, before_name), sheet(file, after_name)
    reports = []
    for case in (before, after):
        report = evening_file.report(evening_file.from_dict(case.evening()))
        _agrees(case, report)
        reports.append(report)
    first = reports[0]["transfers"][0]
    paid = settlement.Transfer(first["from"], first["to"], Decimal(first["amount"]))
    balances = {p: Decimal(v) for p, v in reports[1]["money"].items()}
    left = settlement.outstanding(balances, [paid])
    remaining = settlement.remaining_transfers(balances, [paid])

    def money(amounts: Mapping[str, Any]) -> str:
        return ", ".join(f"{p} {_money(str(v))}" for p, v in amounts.items())

    def transfers(items: list[settlement.Transfer]) -> str:
        return "; ".join(f"{t.payer} pays {t.payee} {t.amount}" for t in items)

    first_transfers = [settlement.Transfer(t["from"], t["to"], Decimal(t["amount"])) for t in reports[0]["transfers"]]
    return "\n".join(
        [
            f"From the worked examples, `tests/rules/cases/{file}`: *{before_name}*, then *{after_name}*.\n",
            f"1. The evening's money: {money(reports[0]['money'])}. Who pays whom: {transfers(first_transfers)}.",
            f"2. {paid.payer} pays {paid.payee} {paid.amount}, and the scorer marks it paid.",
            f"3. A deal is corrected. The money is now: {money(reports[1]['money'])}.",
            f"4. With the payment counted, what is still owed: {money(left)}.",
            f"5. Who pays whom now: {transfers(remaining) or 'nobody'}.",
        ]
    )


# --- the club's money ---------------------------------------------------------------------------------


def limits() -> str:
    """The bounds of money typed into the site's forms (``core.money``) and the settle-up's budget."""
    from scorebook.core.money import AMOUNT_LIMIT, FEE_LIMIT
    from scorebook.rules import settle_up

    return "\n".join(
        [
            "| what | at most |",
            "|---|---:|",
            "| one amount typed: a payment in part or free, on account, into or out of the kitty, an expense, "
            f"a prize | {AMOUNT_LIMIT:,} |",
            f"| the kitty's fee per player, for an evening or for a club night | {FEE_LIMIT:,} |",
            "| the settle-up's search, in nodes (then it gives the best it found, without saying "
            f'"the fewest") | {settle_up.NODES:,} |',
        ]
    )


def settle_up_example(argument: str) -> str:
    """A club's balances (``Name +1.00, Name -1.00``) settled up by ``rules.settle_up``: the groups
    that sum to zero, the transfers, and whether the search proved them the fewest."""
    from scorebook.rules import settle_up

    balances = {}
    for part in argument.split(","):
        name, amount = part.split()
        balances[name] = Decimal(amount)
    found = settle_up.fewest_transfers(balances)
    groups = len(balances) - len(found.transfers)
    lines = "; ".join(f"{t.payer} pays {t.payee} {t.amount}" for t in found.transfers)
    table = ", ".join(f"{name} {_money(str(amount))}" for name, amount in balances.items())
    proof = "the search finished: no settlement takes fewer" if found.proved else "the search stopped at its budget"
    return (
        f"Balances: {table}.\n\n"
        f"{len(balances)} players with a balance, {groups} groups that each add up to zero: "
        f"{len(found.transfers)} payments ({proof}). Settle up: {lines}.\n"
    )


# --- the files --------------------------------------------------------------------------------------

MAKERS: dict[str, Callable[..., str]] = {
    "variants": variants,
    "figures": figures,
    "grid": grid,
    "netting": netting,
    "score": score_output,
    "limits": limits,
    "settle-up": settle_up_example,
}


def make(what: str) -> str:
    """The text of one generated part, from its marker's words."""
    kind, _, argument = what.partition(" ")
    if kind == "example":
        file, _, name = argument.partition(": ")
        return example(file, name)
    maker = MAKERS.get(kind)
    if maker is None:
        raise ValueError(f"unknown generated part {what!r}")
    return maker(argument) if argument else maker()


def regenerate(text: str) -> str:
    return BLOCK.sub(lambda m: m["open"] + "\n" + make(m["what"]).strip("\n") + "\n\n" + m["close"], text)


def schema_text() -> str:
    from scorebook.rules import evening_schema

    return json.dumps(evening_schema.json_schema(), ensure_ascii=False, indent=2) + "\n"


def outputs() -> dict[Path, str]:
    """Every file of docs/ that holds a generated part, with the text it should have."""
    out = {}
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text()
        if BLOCK.search(text):
            out[path] = regenerate(text)
    out[SCHEMA_FILE] = schema_text()
    return out


def stale() -> list[Path]:
    """The files whose generated parts differ from what the code makes now."""
    return [path for path, text in outputs().items() if not path.exists() or path.read_text() != text]


def write() -> list[Path]:
    changed = stale()
    for path, text in outputs().items():
        if path in changed:
            path.write_text(text)
    return changed
