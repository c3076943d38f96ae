"""The presets on the page, in the page's language: the eight variants, the figures of one as it ships,
and every contract's payout table by tricks. The figures come from the presets
(``scorebook.rules.presets``) through ``to_dict``, the shape ``manage.py rules show`` prints."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scorebook.rules import registry
from scorebook.rules.model import ClassicRules, Contract, ContractRules, Kind, Payout, Ruleset, payout_cells, to_dict

from .words import NBSP, count, say, tricks

KINDS = {
    Kind.PAIR: "kind-pair",
    Kind.SOLO: "kind-solo",
    Kind.TROU: "kind-trou",
    Kind.MISERE: "kind-misere",
    Kind.PICCOLO: "kind-piccolo",
}


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def table(header: list[str], rows: list[list[str]], align: str = "") -> str:
    """A Markdown table; ``align`` gives each column's alignment (``l`` or ``r``, left by default)."""
    marks = [("---:" if a == "r" else "---") for a in align.ljust(len(header), "l")]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(marks) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def semicolons(parts: list[str], lang: str) -> str:
    return (NBSP + "; " if lang == "fr" else "; ").join(parts)


def span(low: int, high: int, lang: str) -> str:
    return str(low) if low == high else say("span", lang, low=low, high=high)


def players(rules: Ruleset, lang: str) -> str:
    return span(rules.min_players, rules.max_players, lang)


def name(thing: Ruleset | Contract, lang: str) -> str:
    return thing.names.get(lang)


def names_line(thing: Ruleset | Contract) -> str:
    return f"{thing.names.fr} (fr) · {thing.names.nl} (nl) · {thing.names.en} (en)"


def variants(lang: str = "en") -> str:
    rows = []
    for rules in registry.all_presets():
        link = f"[`{rules.key}`]({rules.key}.md)"
        rows.append([link, rules.names.en, rules.names.fr, rules.names.nl, players(rules, lang)])
    return table([say("key", lang), "English", "français", "Nederlands", say("players", lang)], rows)


# --- the figures of a preset ---------------------------------------------------------------------------


def _honours(honours: dict[str, Any], lang: str) -> list[list[str]]:
    cards = say("cards-4" if honours["cards"] == 4 else "cards-5", lang)
    held = ", ".join(say("held", lang, held=h, value=v) for h, v in honours["points"].items())
    towards = say("yes", lang) if honours["towards_manche"] else say("kept-aside", lang)
    return [
        [say("honours-cards", lang), "`honours.cards`", say("of-trumps", lang, n=honours["cards"], cards=cards)],
        [say("honours-points", lang), "`honours.points`", held],
        [say("towards-manche", lang), "`honours.towards_manche`", towards],
        [say("barred-at", lang), "`honours.barred_at`", ", ".join(map(str, honours["barred_at"])) or "–"],
    ]


def _manche_values(data: dict[str, Any], lang: str) -> list[str]:
    values = data["manche_values"]
    ranges = []
    for i, (low, value) in enumerate(values):
        high = values[i + 1][0] - 1 if i + 1 < len(values) else None
        text = say("or-more", lang, low=low) if high is None else span(low, high, lang)
        ranges.append(say("range-value", lang, span=text, value=value))
    difference = data["manche_scoring"] == "difference"
    by = say("losers-trick-points" if difference else "losers-points", lang)
    return [say("manche-values", lang, by=by), "`manche_values`", semicolons(ranges, lang)]


def _classic_figures(rules: ClassicRules, lang: str) -> list[list[str]]:
    data = to_dict(rules)
    claim = data["claim"]
    claim_text = "–" if claim is None else say("claim-at", lang, at=claim["at"], points=claim["points"])
    difference = data["manche_scoring"] == "difference"
    chelem = "–" if data["chelem_points"] is None else str(data["chelem_points"])
    seats = players(rules, lang) + (say("with-dummy", lang) if rules.dummy else "")
    return [
        [say("players", lang), "`players`", seats],
        [say("book", lang), "`book`", str(data["book"])],
        [say("manche-target", lang), "`manche_target`", str(data["manche_target"])],
        *_honours(data["honours"], lang),
        [say("claim", lang), "`claim`", claim_text],
        [say("manche-scoring", lang), "`manche_scoring`", say("by-difference" if difference else "by-losers", lang)],
        _manche_values(data, lang),
        [say("manche-base", lang), "`manche_base`", str(data["manche_base"])],
        [say("manches-to-win", lang), "`manches_to_win`", str(data["manches_to_win"])],
        [say("robre-bonus", lang), "`robre_bonus`", str(data["robre_bonus"])],
        [say("chelem", lang), "`chelem_points`", chelem],
    ]


def _contract_settings(rules: ContractRules, lang: str) -> list[list[str]]:
    multiplier = rules.all_pass_multiplier
    rows = [
        [say("players", lang), "`players`", say("four-play", lang, players=players(rules, lang))],
        [say("combination", lang), "`misere_combination`", say(str(rules.combination), lang)],
        [
            say("all-pass", lang),
            "`all_pass_multiplier`",
            say("no-doubling", lang) if multiplier == 1 else say("next-counts", lang, m=multiplier),
        ],
    ]
    bete = rules.bete
    if bete is None:
        return rows + [[say("bete", lang), "`bete`", say("none", lang)]]
    end = say("carry" if str(bete.end) == "carry" else "share", lang)
    return rows + [
        [say("failure-floor", lang), "`bete.failure_floor`", say("yes" if bete.failure_floor else "no", lang)],
        [say("ante", lang), "`bete.ante`", str(bete.ante)],
        [say("bete-end", lang), "`bete.end`", end],
    ]


def needs(contract: Contract, lang: str = "en") -> str:
    if contract.exact:
        each = "exactly-together" if contract.declarers == 2 else "exactly-each"
        n = contract.needs
        return say(each, lang, n=n, tricks=tricks(n, lang).split(" ", 1)[1])
    if contract.needs_if_trump_changed:
        return say("trump-changed-needs", lang, n=contract.needs, m=contract.needs_if_trump_changed)
    return str(contract.needs)


def figures(key: str, lang: str = "en") -> str:
    rules = registry.get(key)
    header = ["", say("key-in-rules-show", lang), say("as-shipped", lang)]
    if isinstance(rules, ClassicRules):
        return table(header, _classic_figures(rules, lang))
    assert isinstance(rules, ContractRules)
    out = table(header, _contract_settings(rules, lang)) + "\n"
    rows = []
    for contract in rules.contracts.values():
        declarers = str(contract.declarers)
        if contract.simultaneous > 1:
            declarers = say("up-to", lang, n=contract.simultaneous)
        rows.append(
            [
                f"[{name(contract, lang)}](#{contract.key})",
                f"`{contract.key}`",
                say(KINDS[contract.kind], lang),
                declarers,
                needs(contract, lang),
                say("yes" if contract.trumps else "no", lang),
            ]
        )
    words = ("contract", "key", "kind", "declarers", "tricks-needed", "trumps")
    return out + table([say(word, lang) for word in words], rows)


# --- the grids ------------------------------------------------------------------------------------------


def runs(contract: Contract) -> Iterator[tuple[int, int, str, Payout]]:
    """The rows of a contract's tables, equal neighbours merged: (from, to, made or failed, payout)."""
    rows: list[tuple[int, int, str, Payout]] = []
    for n, can_make, can_fail in payout_cells(contract):
        for made, possible in ((True, can_make), (False, can_fail)):
            if not possible:
                continue
            payout = contract.payout(n, made)
            result = "made" if made else "failed"
            if rows and rows[-1][1] == n - 1 and rows[-1][2] == result and rows[-1][3] == payout:
                rows[-1] = (rows[-1][0], n, result, payout)
            else:
                rows.append((n, n, result, payout))
    rows.sort(key=lambda row: (row[0], row[2] == "made"))
    yield from rows


def _twice(contract: Contract) -> set[int]:
    """The numbers of tricks that make the contract or fail it, as the trump was changed or not."""
    return {n for n, can_make, can_fail in payout_cells(contract) if can_make and can_fail}


def _rows(rules: ContractRules, contract: Contract, lang: str) -> list[list[str]]:
    twice = _twice(contract)
    rows = []
    for low, high, result, payout in runs(contract):
        text = say(result, lang)
        if low == high and low in twice:
            text = say("made-trump-kept" if result == "made" else "failed-trump-changed", lang)
        if rules.bete is not None and result == "failed":
            rows.append([span(low, high, lang), text, say("pays-into-bete", lang, n=-payout.declarer), "0"])
        else:
            rows.append([span(low, high, lang), text, signed(payout.declarer), signed(payout.opponent)])
    return rows


def _contract_grid(rules: ContractRules, contract: Contract, lang: str) -> list[str]:
    taken = "taken-by-declarer" if contract.exact and contract.declarers == 1 else "taken-by-side"
    opponent = "each-other" if contract.kind.per_declarer else "each-opponent"
    kind = say(KINDS[contract.kind], lang)
    line = say(
        "grid-line",
        lang,
        kind=kind[0].upper() + kind[1:],
        n=contract.declarers,
        declarers=count(contract.declarers, "declarer", lang).split(" ", 1)[1],
        needs=needs(contract, lang),
        trumps=say("with-trumps" if contract.trumps else "without-trumps", lang),
    )
    parts = [
        f'<a id="{contract.key}"></a>\n\n#### {name(contract, lang)} · `{contract.key}`\n',
        f"{names_line(contract)}. {line}\n",
    ]
    header = [say(taken, lang), "", say("each-declarer", lang), say(opponent, lang)]
    parts.append(table(header, _rows(rules, contract, lang), "rlrr"))
    twice = sorted(_twice(contract))
    if twice and contract.needs_if_trump_changed:
        parts.append(say("two-rows", lang, n=twice[0], m=contract.needs_if_trump_changed) + "\n")
    return parts


def grid(key: str, lang: str = "en") -> str:
    rules = registry.get(key)
    if not isinstance(rules, ContractRules):
        raise ValueError(f"{key} has no contracts")
    parts = []
    for contract in rules.contracts.values():
        parts += _contract_grid(rules, contract, lang)
    return "\n".join(parts)
