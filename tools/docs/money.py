"""The club's money on the page, in the page's language: the bounds of the amounts the site's forms take,
and a club's balances settled up by ``rules.settle_up``."""

from __future__ import annotations

from decimal import Decimal

from .examples import amounts, transfers
from .words import number, say


def limits(lang: str = "en") -> str:
    """The bounds of money typed into the site's forms (``core.money``) and the settle-up's budget."""
    from scorebook.core.money import AMOUNT_LIMIT, FEE_LIMIT
    from scorebook.rules import settle_up

    return "\n".join(
        [
            say("limits-head", lang),
            "|---|---:|",
            f"| {say('limit-amount', lang)} | {number(AMOUNT_LIMIT, lang)} |",
            f"| {say('limit-fee', lang)} | {number(FEE_LIMIT, lang)} |",
            f"| {say('limit-nodes', lang)} | {number(settle_up.NODES, lang)} |",
        ]
    )


def settle_up_example(argument: str, lang: str = "en") -> str:
    """A club's balances (``Name +1.00, Name -1.00``) settled up by ``rules.settle_up``: the groups
    that sum to zero, the transfers, and whether the search proved them the fewest."""
    from scorebook.rules import settle_up

    balances = {}
    for part in argument.split(","):
        player, amount = part.split()
        balances[player] = Decimal(amount)
    found = settle_up.fewest_transfers(balances)
    groups = len(balances) - len(found.transfers)
    proof = say("proved" if found.proved else "budget", lang)
    found_lines = transfers(list(found.transfers), lang)
    return (
        f"{say('balances', lang, table=amounts(balances, lang))}\n\n"
        + say("settle-up", lang, n=len(balances), groups=groups, k=len(found.transfers), proof=proof, lines=found_lines)
        + "\n"
    )
