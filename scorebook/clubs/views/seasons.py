"""Placeholder: filled in by the work on this area."""

from django.http import Http404


def _missing(*args, **kwargs):
    raise Http404


club_evenings = player_page = season_new = season = season_edit = season_csv = _missing
