"""A club renamed keeps its old addresses: ``/c/old/...`` redirects to ``/c/new/...``."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect

from .access import ClubMoved


class FormerAddressMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, ClubMoved):
            return None
        old = f"/c/{exception.old}/"
        path = request.get_full_path()
        index = path.find(old)
        if index < 0:
            return None  # the moved club was not in the address: a plain 404
        target = path[:index] + f"/c/{exception.new}/" + path[index + len(old) :]
        response = HttpResponsePermanentRedirect(target)
        if request.method not in ("GET", "HEAD"):
            response.status_code = 308  # the form is sent again to the new address
        return response
