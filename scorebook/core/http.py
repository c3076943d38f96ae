"""Small HTTP helpers shared by the apps' views."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.vary import vary_on_headers
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware: the type its documentation gives views
    that read ``request.htmx`` (true for a request made by htmx, with its headers as attributes)."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request of a signed-in user (a view behind ``login_required``): its ``user`` is an account."""

    user: User


# A view whose address answers both a page and, to htmx, a fragment of it: the answer varies on
# ``HX-Request``, so that the browser's cache (Back, a reload) and the service worker never give
# the fragment for the page (a bare board without styles, header or scripts).
page_or_fragment = vary_on_headers("HX-Request")


class Refusal(PermissionDenied):
    """A 403 whose message is a sentence for the person, in his language: the refusal page says it
    (instead of the general "your role does not allow this")."""


class Gone(Http404):
    """What the address showed is gone for this visitor (a table's link withdrawn): answered 410 by
    the not-found page with this sentence for the person, in his language."""


class Vanished(Gone):
    """What a write was about was deleted meanwhile (by another phone, between the form and its post or
    while it was written): said in words, as a gone evening is (``core.middleware.VanishedMiddleware``):
    the sentence as a message and the person sent on to ``where`` (an address; HX-Redirect for htmx),
    or, without one, the 410 page with the sentence."""

    where = ""


def noindex(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """No search engine indexes a page that only its link opens (read-only links: a score, a ranking)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return wrapped
