"""Small HTTP helpers shared by the apps' views."""

from __future__ import annotations

from functools import wraps


def noindex(view):
    """No search engine indexes a page that only its link opens (read-only links: a score, a ranking)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return wrapped
