"""Request-wide guards that run before any view reads the request."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from .http import Vanished


class RequestSizeLimitMiddleware:
    """A request whose declared body is larger than REQUEST_MAX_BYTES is answered 413 before a
    byte of it is read (Django itself only caps form fields, and a file upload streams to disk).
    A body sent without a length is not read by Django at all. The reverse proxy caps it too
    (docs/operating.md), so that a slow client never reaches a worker with it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = -1
        if declared < 0 or declared > settings.REQUEST_MAX_BYTES:
            response = HttpResponse(
                _("This request is too large: %(size)s MB at most.")
                % {"size": settings.REQUEST_MAX_BYTES // (1024 * 1024)},
                status=413,
                content_type="text/plain; charset=utf-8",
            )
            response["Connection"] = "close"
            return response
        return self.get_response(request)


class PrivatePagesMiddleware:
    """A page made for one visitor (a logged-in user, or a table's phone whose link is kept in its
    session) is his: no shared cache may keep it, and a browser asks again before it shows a kept
    copy: ``Cache-Control: private, no-cache``. A kept copy stays usable where the site wants one
    (the service worker keeps pages for the table that loses its network: it stores anything but
    ``no-store``; a 304 answers a page that did not change). A response that says its own
    ``Cache-Control`` keeps it: ``no-store`` where a page shows a secret (a new link), the worker's
    own files."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.has_header("Cache-Control"):
            return response
        user = getattr(request, "user", None)
        session = getattr(request, "session", None)
        if (user is not None and user.is_authenticated) or (session is not None and session.keys()):
            patch_cache_control(response, private=True, no_cache=True)
        return response


class VanishedMiddleware:
    """A write whose evening, night, season or payment was deleted under it (``Vanished``, raised by the
    service that found it gone under its lock) is answered as a gone evening always was: the sentence as
    a message and the person sent on (HX-Redirect for htmx), never a 500. Without an address to go on to,
    Django's not-found handling answers it: the 410 page with the sentence."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, Vanished) or not exception.where:
            return None
        messages.error(request, str(exception))
        if request.headers.get("HX-Request") == "true":
            return HttpResponseClientRedirect(exception.where)
        return HttpResponseRedirect(exception.where)
