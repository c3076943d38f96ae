"""Request-wide guards that run before any view reads the request."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.utils.translation import gettext as _


class RequestSizeLimitMiddleware:
    """A request whose declared body is larger than REQUEST_MAX_BYTES is answered 413 before a
    byte of it is read (Django itself only caps form fields, and a file upload streams to disk).
    A body sent without a length is not read by Django at all. The reverse proxy caps it too
    (README: deployment), so that a slow client never reaches a worker with it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
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
