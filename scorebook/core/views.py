"""The pages of a refused request (in the site's layout, in the visitor's language). The home page is the
evenings app's (it links to their pages)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import reswap, retarget

from .http import Gone, Refusal


def _refused(request: HttpRequest, *, csrf: bool, reason: str = "") -> HttpResponse:
    """403: a page of the site; to an htmx form, the reason written into the page's notice area.
    ``reason``: a ``Refusal``'s own sentence. The header ``X-Refused`` says which refusal it is
    (``csrf``: the page's token is stale; a phone sending its waiting deals takes a new one)."""
    if getattr(request, "htmx", False):
        response = render(request, "403.html#notice", {"csrf": csrf, "reason": reason}, status=403)
        response["X-Refused"] = "csrf" if csrf else "forbidden"
        return reswap(retarget(response, "#notices"), "innerHTML")
    back = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = ""
    response = render(request, "403.html", {"csrf": csrf, "back": back, "reason": reason}, status=403)
    response["X-Refused"] = "csrf" if csrf else "forbidden"
    return response


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    reason = str(exception) if isinstance(exception, Refusal) else ""
    return _refused(request, csrf=False, reason=reason)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404, the site's page; 410 with its sentence for what is gone for this visitor (``Gone``)."""
    if isinstance(exception, Gone):
        return render(request, "404.html", {"reason": str(exception)}, status=410)
    return render(request, "404.html", status=404)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return _refused(request, csrf=True)
