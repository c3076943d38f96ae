"""Placeholder: filled in by the accounts work."""

from django.http import Http404


def _missing(*args, **kwargs):
    raise Http404


signup = profile = _missing
