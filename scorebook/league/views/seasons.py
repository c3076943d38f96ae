"""Seasons and standings, and the club's past evenings (a player's page: ``player.py``).

Every figure comes from ``Evening.summary`` (the computation is in
``scorebook.league.standings``, plain Python): no deal is scored again, and the number
of queries does not grow with the number of evenings.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorebook.clubs import services as club_services
from scorebook.clubs.access import club_for_user
from scorebook.clubs.models import Player, Ranking, Role, Season, TieBreak
from scorebook.clubs.season_forms import EveningFilterForm, SeasonForm
from scorebook.core import spreadsheet
from scorebook.core.collation import by_name
from scorebook.core.formatting import decimal_text, money_text, signed_points, tone
from scorebook.evenings.models import Evening, Seat, usual_variant
from scorebook.ledger.books import variant_name
from scorebook.nights import results as night_results

from .. import standings as st
from . import prizes

INVALID = 422
CONFLICT = 409
PER_PAGE = 30
MINUS = "\u2212"


# --- reading the summaries (a constant number of queries) --------------------------------------


def season_evenings(season: Season):
    """The season's evenings: the club's, dated within the season, of the season's variant."""
    return Evening.objects.filter(
        club_id=season.club_id, date__gte=season.start, date__lte=season.end, ruleset=season.ruleset
    )


def summaries(evenings) -> list[st.EveningSummary]:
    """The summaries of ``evenings`` (a queryset), oldest first: one query, no deal read.

    A summary names each seat's player (``summary.summarize``); merging two players
    rebuilds the summaries of the evenings concerned, so the ids are current.
    """
    out, nights = [], {}
    for pk, day, ruleset, currency, summary, night in evenings.order_by("date", "created_at", "pk").values_list(
        "id", "date", "ruleset", "currency", "summary", "night_table__session__night_id"
    ):
        if night is None:
            out.append(st.EveningSummary(day, summary or {}, id=pk, ruleset=ruleset, currency=currency))
        elif night not in nights:  # a club night is one result per player, placed by its own ranking
            nights[night] = len(out)
            out.append(st.EveningSummary(day, {}, id=pk, ruleset=ruleset, currency=currency))
    for night, outcome in night_results.outcomes(nights).items():
        e = out[nights[night]]
        # a night counts once its last session is closed (before, its ranking is provisional): until
        # then it is an evening without a result, which counts for nobody
        finished = all(status == Evening.Status.CLOSED for *_rest, status in outcome.evenings)
        out[nights[night]] = st.EveningSummary(e.date, outcome.summary if finished else {}, e.id, e.ruleset, e.currency)
    return out


def evening_count(evenings) -> tuple[int, int, int]:
    """(how many evenings, club nights among them, their tables) in ``evenings`` (a queryset):
    a club night counts as one evening, as in the standings, however many tables it had."""
    counts = evenings.aggregate(
        alone=Count("id", filter=Q(night_table__isnull=True)),
        nights=Count("night_table__session__night", distinct=True),
        tables=Count("night_table"),
    )
    return counts["alone"] + counts["nights"], counts["nights"], counts["tables"]


def player_names(club) -> dict[int, str]:
    return dict(Player.objects.filter(club=club).values_list("id", "name"))


def rules_of(season: Season) -> st.Rules:
    return st.Rules(
        ranking=season.ranking,
        min_evenings=season.min_evenings,
        league_points=tuple(season.league_points or ()),
        drop_worst=season.drop_worst,
        tie_break=season.tie_break,
    )


# --- words and numbers for people --------------------------------------------------------------


def ordinal(place: int) -> str:
    return {1: _("1st"), 2: _("2nd"), 3: _("3rd")}.get(place) or _("%(n)sth") % {"n": place}


def rule_sentences(season: Season) -> list[str]:
    """The season's rule, in words."""
    out = []
    if season.ranking == Ranking.LEAGUE:
        places = ", ".join(
            _("%(place)s %(points)s") % {"place": ordinal(i), "points": p}
            for i, p in enumerate(season.league_points or (), start=1)
        )
        out.append(
            _("Each evening gives league points by place: %(places)s; the places after get 0.") % {"places": places}
        )
        out.append(_("Players tied in an evening share the better place and each get its points."))
        out.append(_("Players are ranked by their league points added up."))
    elif season.ranking == Ranking.AVERAGE:
        out.append(_("Players are ranked by their average points per evening."))
        if season.min_evenings:
            out.append(
                ngettext(
                    "A player needs at least %(n)s evening to be ranked; the others are listed apart.",
                    "A player needs at least %(n)s evenings to be ranked; the others are listed apart.",
                    season.min_evenings,
                )
                % {"n": season.min_evenings}
            )
    else:
        out.append(_("Players are ranked by their points of the season added up."))
    if season.drop_worst:
        out.append(
            ngettext(
                "Each player's worst evening is not counted (at least one evening always counts).",
                "Each player's %(n)s worst evenings are not counted (at least one evening always counts).",
                season.drop_worst,
            )
            % {"n": season.drop_worst}
        )
    out.append(
        _(
            "Equal scores: %(rule)s decides; players it cannot separate share the place "
            "(the same number, listed by name) and the next place is skipped."
        )
        % {"rule": TieBreak(season.tie_break).label}
    )
    out.append(_("Evenings without any deal played are not counted."))
    out.append(_("A club night counts as one evening, its tables added up, once its last session is closed."))
    return out


def score_text(value: Fraction, ranking: str) -> str:
    if ranking == Ranking.AVERAGE:
        return decimal_text(value, 2)
    return signed_points(int(value)) if ranking == Ranking.TOTAL else str(int(value))


def purse_text(money: dict[str, Decimal]) -> str:
    return " · ".join(money_text(amount, currency, signed=True) for currency, amount in sorted(money.items()))


def purse_tone(money: dict[str, Decimal]) -> str:
    return tone(next(iter(money.values()))) if len(money) == 1 else "zero"


def movement_label(row: st.Row) -> str:
    if row.rank is None:
        return ""
    if row.is_new:
        return _("new")
    move = row.movement
    if move == 0:
        return _("no change")
    return (
        ngettext("up %(n)s place", "up %(n)s places", move) % {"n": move}
        if move > 0
        else ngettext("down %(n)s place", "down %(n)s places", -move) % {"n": -move}
    )


# --- the table's columns, the same on the page and in the CSV ----------------------------------


def score_column(season: Season) -> str | None:
    """The header of the score column, when the score is not already the points or the average."""
    if season.ranking == Ranking.LEAGUE:
        return _("League points")
    if season.drop_worst:
        return _("Counted average") if season.ranking == Ranking.AVERAGE else _("Counted points")
    return None


def columns(season: Season) -> list[tuple[str, str, str]]:
    """(key, header, short header) of the standings, in the order of the page and of the CSV."""
    cols = [
        ("rank", _("Rank"), "#"),
        ("movement", _("Movement"), "±"),
        ("player", _("Player"), _("Player")),
    ]
    header = score_column(season)
    if header:
        short = _("League") if season.ranking == Ranking.LEAGUE else _("Counted")
        cols.append(("score", header, short))
    cols += [
        ("points", _("Points"), _("Points")),
        ("average", _("Average"), _("Avg.")),
        ("evenings", _("Evenings"), _("Even.")),
        ("deals", _("Deals played"), _("Deals")),
        ("money", _("Money"), _("Money")),
    ]
    return cols


def ranking_column(season: Season) -> str:
    """The column the ranking reads."""
    if score_column(season):
        return "score"
    return "average" if season.ranking == Ranking.AVERAGE else "points"


def csv_cell(key: str, row: st.Row, season: Season, fmt: spreadsheet.Format | None = None) -> str:
    """A cell of the standings' CSV, its numbers as the reader's spreadsheet reads them
    (``1,50`` in French and Dutch)."""
    fmt = fmt or spreadsheet.local_format()
    if key == "rank":
        return str(row.rank) if row.rank is not None else ""
    if key == "player":
        return row.name
    if key in ("evenings", "deals", "points"):
        return str(getattr(row, key))
    if key == "average":
        return spreadsheet.number(row.score if ranking_column(season) == "average" else row.average, 2, fmt)
    if key == "score":
        return spreadsheet.number(row.score, 2, fmt) if season.ranking == Ranking.AVERAGE else str(int(row.score))
    if key == "money":
        if len(row.money) == 1:
            return spreadsheet.number(next(iter(row.money.values())), None, fmt)
        return " · ".join(f"{spreadsheet.number(a, None, fmt)} {c}" for c, a in sorted(row.money.items()))
    if key == "movement":
        if row.rank is None:
            return ""
        if row.is_new:
            return _("new")
        return "=" if row.movement == 0 else f"{row.movement:+d}"
    raise KeyError(key)  # pragma: no cover


def _movement_class(row: st.Row) -> str:
    if row.rank is None:
        return ""
    if row.is_new:
        return "new"
    return "same" if row.movement == 0 else "up" if row.movement > 0 else "down"


def _row_view(row: st.Row, season: Season, cols, player_url) -> dict:
    measure = ranking_column(season)
    texts = {
        "score": score_text(row.score, season.ranking),
        "points": signed_points(row.points),
        "average": decimal_text(row.score, 2) if measure == "average" else decimal_text(row.average),
        "evenings": str(row.evenings),
        "deals": str(row.deals),
        "money": purse_text(row.money) if row.money else "–",
    }
    tones = {"points": tone(row.points), "money": purse_tone(row.money) if row.money else "zero"}
    cells = [
        {
            "key": key,
            "text": texts[key],
            "tone": tones.get(key, ""),
            "measure": key == measure,
            "tied": key == measure and row.tied,
        }
        for key, _header, _short in cols
        if key in texts
    ]
    return {
        "row": row,
        "name": row.name,
        "url": player_url(row.key),
        "cells": cells,
        "movement": "" if row.is_new else row.movement_text,
        "movement_label": movement_label(row),
        "movement_class": _movement_class(row),
    }


# --- seasons ------------------------------------------------------------------------------------


def _season_for(club, pk) -> Season:
    return get_object_or_404(Season, pk=pk, club=club)


def season_table(season: Season) -> st.Standings:
    """The standings, computed from the evenings' summaries and kept until one of them changes.

    The key holds what the table depends on: the season's rules, the roster's names,
    and a fingerprint of its evenings (how many, which, the latest change), read with
    one aggregate query that does not load any summary. The cached table leaves out each
    row's per-evening results, so reading it back costs the same for 200 or 2,000 evenings.
    """
    names = player_names(season.club)
    fingerprint = season_evenings(season).aggregate(n=Count("id"), ids=Sum("id"), last=Max("updated_at"))
    key = (
        "standings:"
        + hashlib.sha256(repr((season.pk, rules_of(season), sorted(names.items()), fingerprint)).encode()).hexdigest()
    )
    table = cache.get(key)
    if table is None:
        table = st.standings(rules_of(season), summaries(season_evenings(season)), names).without_results()
        cache.set(key, table, timeout=24 * 3600)
    return table


@require_safe
@login_required
def season(request, slug, pk):
    club, role = club_for_user(request, slug)
    season = _season_for(club, pk)
    season.club = club
    table = season_table(season)

    def player_url(key):
        return _player_url(club, key)

    cols = columns(season)
    measure = ranking_column(season)
    context = {
        "club": club,
        "role": role,
        "is_admin": role == Role.ADMIN,
        "season": season,
        "variant": variant_name(season.ruleset),
        "table": table,
        "ranked": [_row_view(r, season, cols, player_url) for r in table.ranked],
        "apart": [_row_view(r, season, cols, player_url) for r in table.apart],
        "columns": [
            {"key": key, "header": header, "short": short, "measure": key == measure}
            for key, header, short in cols
            if key not in ("rank", "movement", "player")
        ],
        "rules": rule_sentences(season),
        "any_tied": any(r.tied for r in table.ranked),
        "any_shared": any(r.shared for r in table.ranked),
        "seasons": list(club.seasons.filter(archived=False).only("id", "name", "start")),
        "tie_break": TieBreak(season.tie_break).label,
    }
    context |= prizes.context(season, table, role)
    return render(request, "league/seasons/standings.html", context)


def _player_url(club, key) -> str:
    return reverse("club_player", args=[club.slug, key]) if isinstance(key, int) else ""


@require_safe
@login_required
def season_csv(request, slug, pk):
    """The standings as a CSV file in the reader's language: ``;`` and ``1,50`` for French and
    Dutch (Belgian Excel opens it in columns), ``,`` and ``1.50`` for English; a translated name."""
    club, _role = club_for_user(request, slug)
    season = _season_for(club, pk)
    season.club = club
    table = season_table(season)
    cols = columns(season)
    fmt = spreadsheet.local_format()
    filename = spreadsheet.file_name(club.slug, season.name or str(season.pk), pgettext("file name", "standings"))
    return spreadsheet.csv_download(
        filename,
        [header for _key, header, _short in cols],
        ([csv_cell(key, row, season, fmt) for key, _header, _short in cols] for row in table.rows),
        fmt,
    )


@require_safe
@login_required
def season_print(request, slug, pk):
    """The standings on paper: every column, the rule in words, no navigation."""
    club, _role = club_for_user(request, slug)
    season = _season_for(club, pk)
    season.club = club
    table = season_table(season)
    cols = columns(season)
    measure = ranking_column(season)
    context = {
        "club": club,
        "season": season,
        "variant": variant_name(season.ruleset),
        "table": table,
        "ranked": [_row_view(r, season, cols, lambda key: "") for r in table.ranked],
        "apart": [_row_view(r, season, cols, lambda key: "") for r in table.apart],
        "columns": [
            {"key": key, "header": header, "short": short, "measure": key == measure}
            for key, header, short in cols
            if key not in ("rank", "movement", "player")
        ],
        "rules": rule_sentences(season),
        "printed_at": timezone.localtime(),
    }
    return render(request, "league/seasons/print.html", context)


def _season_form_page(request, club, role, form, season=None, status=None):
    status = status or (INVALID if form.is_bound else 200)
    return render(
        request,
        "league/seasons/form.html",
        {"club": club, "role": role, "form": form, "season": season},
        status=status,
    )


def _new_season(club) -> dict:
    """What a new season's form proposes: the club's usual variant; a year from the day after its
    latest season ends (the first season: from the club's first evening of that variant, or from
    the first of this month); named by its years."""
    ruleset = usual_variant(club) or "kleurenwiezen"
    last = club.seasons.order_by("-end").values_list("end", flat=True).first()
    if last is not None:
        start = last + timedelta(days=1)
    else:
        first = Evening.objects.filter(club=club, ruleset=ruleset).order_by("date").values_list("date", flat=True)
        start = first.first() or timezone.localdate().replace(day=1)
    try:
        end = start.replace(year=start.year + 1) - timedelta(days=1)
    except ValueError:  # 29 February
        end = start.replace(year=start.year + 1, day=28)
    name = f"{start.year}–{end.year}" if end.year != start.year else str(start.year)
    return {"ruleset": ruleset, "start": start, "end": end, "name": name}


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def season_new(request, slug):
    club, role = club_for_user(request, slug, Role.ADMIN)
    form = SeasonForm(request.POST or None, instance=Season(club=club), initial=_new_season(club))
    if request.method == "POST" and form.is_valid():
        try:
            season = _save_season(form)
        except club_services.Conflict as conflict:  # the same season saved in the meantime
            return _refused_again(request, club, role, conflict, Season(club=club))
        messages.success(request, _("The season “%(name)s” is created.") % {"name": season.name})
        return redirect("season", club.slug, season.pk)
    return _season_form_page(request, club, role, form)


def _save_season(form) -> Season:
    return club_services.save_season(
        form.save(commit=False), overlap_confirmed=bool(form.cleaned_data.get("confirm_overlap"))
    )


def _refused_again(request, club, role, conflict, instance, shown=None):
    """The form, checked again after a change in the meantime, says why nothing was saved (409)."""
    form = SeasonForm(request.POST, instance=instance)
    if form.is_valid():  # what changed is nothing the form checks (the season was deleted): said above it
        form.add_error(None, conflict.message)
    return _season_form_page(request, club, role, form, shown, status=CONFLICT)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def season_edit(request, slug, pk):
    club, role = club_for_user(request, slug, Role.ADMIN)
    season = _season_for(club, pk)
    shown = Season(pk=season.pk, club=club, name=season.name, archived=season.archived)  # the form changes its instance
    form = SeasonForm(request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        try:
            _save_season(form)
        except club_services.Conflict as conflict:  # deleted, or another season saved, in the meantime
            instance = Season.objects.filter(pk=shown.pk).first() or Season(pk=shown.pk, club=club)
            return _refused_again(request, club, role, conflict, instance, shown)
        messages.success(request, _("The season is saved."))
        return redirect("season", club.slug, season.pk)
    return _season_form_page(request, club, role, form, shown)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def season_delete(request, slug, pk):
    """GET: what deleting the season does (and does not); POST: delete it. Its evenings stay."""
    club, _role = club_for_user(request, slug, Role.ADMIN)
    season = _season_for(club, pk)
    if request.method == "POST":
        if club_services.delete_season(season):
            messages.success(request, _("The season “%(name)s” is deleted; its evenings stay.") % {"name": season.name})
        else:  # another request deleted it a moment before
            messages.info(request, _("The season “%(name)s” was already deleted.") % {"name": season.name})
        return redirect(club)
    count, _nights, _tables = evening_count(season_evenings(season))
    context = {
        "title": _("Delete the season “%(name)s”?") % {"name": season.name},
        "eyebrow": club.name,
        "lines": [
            ngettext(
                "Its standings go; its %(n)s evening stays in the club, with its deals and money.",
                "Its standings go; its %(n)s evenings stay in the club, with their deals and money.",
                count,
            )
            % {"n": count},
            _("To keep it without showing it, archive it instead."),
        ],
        "action": reverse("season_delete", args=[club.slug, season.pk]),
        "button": _("Delete the season"),
        "cancel_url": reverse("season", args=[club.slug, season.pk]),
    }
    return render(request, "core/confirm.html", context)


@require_POST
@login_required
def season_archive(request, slug, pk):
    """Archive a season out of the club's lists (``archived`` = 1), or bring it back (0)."""
    club, _role = club_for_user(request, slug, Role.ADMIN)
    season = _season_for(club, pk)
    archived = request.POST.get("archived", "1") != "0"
    try:
        club_services.archive_season(season, archived)
    except club_services.Conflict as conflict:  # deleted in the meantime
        messages.error(request, conflict.message)
        return redirect(club)
    if archived:
        messages.success(
            request, _("“%(name)s” is archived: it is kept, out of the club's lists.") % {"name": season.name}
        )
    else:
        messages.success(request, _("“%(name)s” is back in the club's lists.") % {"name": season.name})
    return redirect("season", club.slug, season.pk)


# --- the club's past evenings ------------------------------------------------------------------


def _evening_row(pk, day, ruleset, status, summary) -> dict:
    summary = summary or {}
    seats = summary.get("players") or ()
    # a player who took no part did not play the evening: no total, never a 0 among the others
    entries = [(e.get("name", ""), int(e.get("points") or 0)) for e in seats if st.took_part(e)]
    deals = int(summary.get("deals") or 0)
    top = max((points for _name, points in entries), default=0)
    winners = [name for name, points in entries if points == top] if deals else []
    ranked = sorted(entries, key=lambda e: -e[1])  # stable: equal points keep the seat order
    return {
        "pk": pk,
        "url": reverse("evening", args=[pk]),
        "night": "",
        "tables": [],
        "date": day,
        "variant": variant_name(ruleset),
        "open": status == Evening.Status.OPEN,
        "deals": deals,
        "players": [name for name, _points in entries],
        # nobody "did not play" a table where no deal was played yet
        "absent": [e.get("name", "") for e in seats if not st.took_part(e)] if deals else [],
        "winners": winners,
        "totals": [
            {"name": name, "text": signed_points(points), "tone": tone(points), "winner": name in winners}
            for name, points in ranked
        ],
    }


def lines_of(evenings):
    """``evenings`` (a queryset) as the lines of a list: a club night is one line (docs/rules/club-nights.md),
    stood for by the first of its tables' evenings; every other evening is a line of its own."""
    first = Evening.objects.filter(night_table__session__night=OuterRef("night_table__session__night")).order_by("pk")
    return evenings.filter(Q(night_table__isnull=True) | Q(pk=Subquery(first.values("pk")[:1])))


def _night_row(outcome) -> dict:
    """A club night's line: its own ranking's winners and totals, its tables behind it on tap."""
    row = _evening_row(outcome.evening, outcome.date, outcome.ruleset, "", outcome.summary)
    entries = [e for e in outcome.summary.get("players") or () if e.get("night_place") is not None]
    entries.sort(key=lambda e: (e["night_place"], str(e.get("name", "")).casefold()))
    winners = [e.get("name", "") for e in entries if e["night_place"] == 1]
    row.update(
        night=outcome.name,
        url=reverse("night_results", args=[outcome.pk]),
        open=any(status == Evening.Status.OPEN for *_rest, status in outcome.evenings),
        winners=winners,
        totals=[
            {
                "name": e.get("name", ""),
                "text": signed_points(int(e.get("points") or 0)),
                "tone": tone(int(e.get("points") or 0)),
                "winner": e["night_place"] == 1,
                "place": e["night_place"],
            }
            for e in entries
        ],
        tables=[
            {"session": session, "table": table, "pk": pk, "url": reverse("evening", args=[pk])}
            for session, table, pk, _status in outcome.evenings
        ],
    )
    return row


@require_safe
@login_required
def club_evenings(request, slug):
    club, role = club_for_user(request, slug)
    seasons = list(club.seasons.all())
    players = by_name(Player.objects.filter(club=club).values("id", "name"), lambda p: p["name"])
    params = {k: v for k, v in request.GET.items() if k != "page" and v}
    form = EveningFilterForm(params or None, seasons=seasons, players=players)
    valid = form.is_valid() if form.is_bound else True
    data = form.cleaned_data if form.is_bound else {}
    archived = bool(data.get("archived"))
    evenings = Evening.objects.filter(club=club)
    chosen_season = next((s for s in seasons if s.pk == data.get("season")), None)
    if chosen_season is not None:
        evenings = season_evenings(chosen_season)
    if data.get("player"):  # his evenings only; a night when he took part at one of its tables
        his = Seat.objects.filter(player_id=data["player"], took_part=True, evening__club=club)
        evenings = evenings.filter(
            Q(pk__in=his.values("evening_id"))
            | Q(night_table__session__night__in=his.values("evening__night_table__session__night_id"))
        )
    if data.get("date_from"):
        evenings = evenings.filter(date__gte=data["date_from"])
    if data.get("date_to"):
        evenings = evenings.filter(date__lte=data["date_to"])
    archived_count = 0 if archived else lines_of(evenings.filter(archived=True)).count()
    evenings = (
        lines_of(evenings.filter(archived=archived))
        .order_by("-date", "-created_at", "-pk")
        .values_list("id", "date", "ruleset", "status", "summary", "night_table__session__night_id")
    )
    count = evenings.count()
    count_text = ngettext("%(n)s evening", "%(n)s evenings", count) % {"n": count}
    page = Paginator(evenings, PER_PAGE).get_page(request.GET.get("page"))
    nights = night_results.outcomes(values[5] for values in page.object_list if values[5] is not None)
    query = urlencode({k: v for k, v in params.items() if k in form.fields})
    context = {
        "club": club,
        "role": role,
        "form": form,
        "filtered": bool(params) and valid,
        "page": page,
        "rows": [
            _night_row(nights[values[5]]) if values[5] is not None else _evening_row(*values[:5])
            for values in page.object_list
        ],
        "count_text": count_text,
        "query": query,
        "seasons": [s for s in seasons if not s.archived],
        "can_score": role in (Role.ADMIN, Role.SCORER),
        "archived": archived,
        "archived_count": archived_count,
        "archived_query": urlencode({k: v for k, v in params.items() if k in form.fields} | {"archived": "1"}),
    }
    return render(request, "league/evenings.html", context, status=200 if valid else INVALID)
