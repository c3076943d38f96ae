"""Placeholder: filled in by the work on this area."""

from django.http import Http404


def _missing(*args, **kwargs):
    raise Http404


player_list = player_link = player_merge = _missing
