"""Small HTTP helpers shared by the apps' views."""

from __future__ import annotations

from functools import wraps

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware: the type its documentation gives views
    that read ``request.htmx`` (true for a request made by htmx, with its headers as attributes)."""

    htmx: HtmxDetails


def noindex(view):
    """No search engine indexes a page that only its link opens (read-only links: a score, a ranking)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return wrapped
