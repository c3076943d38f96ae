"""A player's page: his evenings in the club, per variant, his records and contracts, what is unpaid.

Points of different grids (kleurenwiezen, Liège, …) are never added up: totals, averages,
money and statistics are given per variant; only counts (evenings, deals) have an overall
line. An evening in which he took no part (rules.md 4, the summary's ``took_part``) is not one
of his evenings ("did not play"); the deals he sat out are counted apart.

Every figure comes from the evenings' summaries (``scorebook.league.standings``) and the
ledger (``open_ledger``), computed once and kept in the cache until one of his evenings or
their payments changes (the key holds a fingerprint read with two aggregate queries, as the
standings do). Long lists are capped: the latest evenings, the newest unpaid transfers, with
links to the rest.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Count, Max, Sum
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Player, Season
from scorebook.core.formatting import decimal_text, lang, signed_points, tone
from scorebook.evenings import charts
from scorebook.evenings.models import Payment, Seat
from scorebook.nights import results as night_results
from scorebook.rules import registry
from scorebook.rules.model import RulesError

from .. import standings as st
from .ledger import OpenTransfer, open_ledger, variant_name
from .seasons import purse_text, purse_tone

SHOWN_EVENINGS = 20  # the latest evenings listed per variant; the club's list (filtered on him) has the rest
SHOWN_UNPAID = 10  # the newest unpaid transfers; the club's ledger has the rest
CHART_POINTS = 250  # a chart of more evenings draws every n-th (and always the last)


def _player_evenings(club, player: Player) -> list[st.EveningSummary]:
    """The player's evenings in the club, with their summaries: one query."""
    out = []
    for name, pk, day, ruleset, currency, summary in (
        Seat.objects.filter(player=player, evening__club=club)
        .order_by("evening__date", "evening__created_at", "evening_id")
        .values_list("name", "evening_id", "evening__date", "evening__ruleset", "evening__currency", "evening__summary")
    ):
        summary = dict(summary or {})
        summary["players"] = [
            {**e, "player": player.pk} if e.get("name") == name else e for e in summary.get("players") or ()
        ]
        out.append(st.EveningSummary(day, summary, id=pk, ruleset=ruleset, currency=currency))
    return out


def _in_season(evening: st.EveningSummary, season: Season) -> bool:
    return season.start <= evening.date <= season.end and evening.ruleset == season.ruleset


def _played(evening: st.EveningSummary, key) -> bool:
    entry = evening.entry(key)
    return evening.counts and entry is not None and st.took_part(entry)


@dataclass
class Figures:
    """What the page computes from the summaries and the ledger (kept in the cache)."""

    season: int | None  # the season shown (None: all evenings)
    variants: list[st.PlayerStats] = field(default_factory=list)  # one per variant, the most played first
    rulesets: list[str] = field(default_factory=list)
    unpaid: dict[str, Decimal] = field(default_factory=dict)  # by currency; > 0: others owe him
    unpaid_transfers: list[OpenTransfer] = field(default_factory=list)  # the newest ones
    unpaid_count: int = 0

    @property
    def evenings(self) -> int:
        return sum(v.evenings for v in self.variants)

    @property
    def deals(self) -> int:
        return sum(v.deals for v in self.variants)

    @property
    def sat_out(self) -> int:
        return sum(v.sat_out for v in self.variants)

    @property
    def won(self) -> int:
        return sum(v.won for v in self.variants)


def _figures(club, player: Player, seasons: list[Season], wanted: str) -> Figures:
    evenings = _player_evenings(club, player)
    if wanted == "all":
        chosen = None
    elif wanted.isdigit():
        chosen = next((s for s in seasons if s.pk == int(wanted)), None)
    else:  # the latest season the player played in
        played = [e for e in evenings if _played(e, player.pk)]
        chosen = next((s for s in seasons if any(_in_season(e, s) for e in played)), None)
    selected = [e for e in evenings if _in_season(e, chosen)] if chosen else evenings
    by_variant: dict[str, list[st.EveningSummary]] = {}
    for e in selected:
        by_variant.setdefault(e.ruleset, []).append(e)
    variants = [st.player_stats(group, player.pk) for group in by_variant.values()]
    rulesets = list(by_variant)
    order = sorted(range(len(variants)), key=lambda i: (-variants[i].evenings, rulesets[i]))
    ledger = open_ledger(club, player)
    mine = [t for t in ledger.transfers if player.pk in (t.payer_key, t.payee_key)]
    balance = ledger.balance_of(player.pk)
    return Figures(
        season=chosen.pk if chosen else None,
        variants=[variants[i] for i in order],
        rulesets=[rulesets[i] for i in order],
        unpaid=dict(balance.money) if balance else {},
        unpaid_transfers=mine[:SHOWN_UNPAID],
        unpaid_count=len(mine),
    )


def figures(club, player: Player, seasons: list[Season], wanted: str) -> Figures:
    """The page's figures, kept until one of the player's evenings or their payments changes
    (two aggregate queries, no summary read, when they are kept)."""
    seats = Seat.objects.filter(player=player, evening__club=club)
    evenings = seats.aggregate(n=Count("id"), ids=Sum("evening_id"), last=Max("evening__updated_at"))
    payments = Payment.objects.filter(evening__club=club, evening__seats__player=player).aggregate(
        n=Count("id"), last=Max("id")
    )
    season_rows = [(s.pk, s.start, s.end, s.ruleset) for s in seasons]
    key = (
        "player:"
        + hashlib.sha256(repr((club.pk, player.pk, wanted, evenings, payments, season_rows)).encode()).hexdigest()
    )
    kept = cache.get(key)
    if kept is None:
        kept = _figures(club, player, seasons, wanted)
        cache.set(key, kept, timeout=24 * 3600)
    return kept


# --- words and numbers for people ---------------------------------------------------------------


def contract_name(ruleset: str, key: str) -> str:
    try:
        contracts = getattr(registry.get(ruleset), "contracts", {})
    except RulesError:
        return key
    contract = contracts.get(key)
    return contract.names.get(lang()) if contract is not None else key


def _mark(mark: st.Mark | None) -> dict | None:
    if mark is None:
        return None
    return {"text": signed_points(mark.value), "tone": tone(mark.value), "date": mark.date, "pk": mark.evening}


def _thinned(steps: list[st.Step]) -> list[st.Step]:
    if len(steps) <= CHART_POINTS:
        return steps
    every = -(-len(steps) // CHART_POINTS)
    kept = steps[::every]
    return kept if kept[-1] is steps[-1] else [*kept, steps[-1]]


def _variant_view(stats: st.PlayerStats, ruleset: str, suffix: str, player: Player, chart_id: str) -> dict:
    steps = _thinned(stats.steps)
    return {
        "ruleset": ruleset,
        "name": variant_name(ruleset),
        "suffix": suffix,
        "stats": stats,
        "points_text": signed_points(stats.points),
        "points_tone": tone(stats.points),
        "average_text": decimal_text(stats.average),
        "money_text": purse_text(stats.money) if stats.money else "",
        "money_tone": purse_tone(stats.money) if stats.money else "zero",
        "records": [
            (_("Biggest win over an evening"), _mark(stats.best_evening), "win"),
            (_("Biggest loss over an evening"), _mark(stats.worst_evening), "loss"),
            (_("Biggest win in one deal"), _mark(stats.best_deal), "win"),
            (_("Biggest loss in one deal"), _mark(stats.worst_deal), "loss"),
        ],
        "contracts": [
            {
                "name": contract_name(c.ruleset, c.contract),
                "declared": c.declared,
                "made": c.made,
                "failed": c.declared - c.made,
                "percent": c.percent,
            }
            for c in stats.contracts
        ],
        "chart": charts.build([player.name], [{player.name: s.cumulative} for s in steps], 360, 240, ident=chart_id)
        if stats.steps
        else None,
        "chart_thinned": len(steps) < len(stats.steps),
        "steps": len(stats.steps),
        "step_rows": [
            {
                "pk": s.evening,
                "date": s.date,
                "points": signed_points(s.points),
                "tone": tone(s.points),
                "cumulative": signed_points(s.cumulative),
            }
            for s in stats.steps[-SHOWN_EVENINGS:]
        ],
        "steps_hidden": max(len(stats.steps) - SHOWN_EVENINGS, 0),
        "step_offset": max(len(stats.steps) - SHOWN_EVENINGS, 0),
    }


@require_safe
@login_required
def player_page(request, slug, player):
    club, role = club_for_user(request, slug)
    player = get_object_or_404(Player, pk=player, club=club)
    seasons = list(club.seasons.all())
    wanted = request.GET.get("season", "")
    found = figures(club, player, seasons, wanted)
    chosen = next((s for s in seasons if s.pk == found.season), None)
    several = len(found.variants) > 1
    variants = [
        _variant_view(
            stats,
            ruleset,
            f"-{ruleset}" if several else "",
            player,
            f"season-chart-{ruleset}" if several else "season-chart",
        )
        for stats, ruleset in zip(found.variants, found.rulesets, strict=True)
    ]
    unpaid = found.unpaid
    context = {
        "club": club,
        "role": role,
        "player": player,
        "seasons": seasons,
        "season": chosen,
        "choice": str(chosen.pk) if chosen else "all",
        "figures": found,
        "variants": variants,
        "several_variants": several,
        "unpaid_texts": [
            {"text": text, "tone": tone(amount)}
            for (currency, amount), text in zip(
                sorted(unpaid.items()), (purse_text({c: a}) for c, a in sorted(unpaid.items())), strict=True
            )
        ],
        "unpaid_tone": purse_tone(unpaid) if unpaid else "zero",
        "unpaid_transfers": found.unpaid_transfers,
        "unpaid_hidden": found.unpaid_count - len(found.unpaid_transfers),
        "player_nights": night_results.nights_of(player),
    }
    return render(request, "league/player.html", context)
