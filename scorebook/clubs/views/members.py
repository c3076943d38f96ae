"""Placeholder: filled in by the work on this area."""

from django.http import Http404


def _missing(*args, **kwargs):
    raise Http404


member_list = member_role = member_remove = invitation_new = invitation_revoke = join = _missing
