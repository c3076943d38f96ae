"""The pages of a refused request (in the site's layout, in the visitor's language). The home page is the
evenings app's (it links to their pages)."""

from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import reswap, retarget


def _refused(request, *, csrf: bool):
    """403: a page of the site; to an htmx form, the reason written into the page's notice area."""
    if getattr(request, "htmx", False):
        response = render(request, "403.html#notice", {"csrf": csrf}, status=403)
        return reswap(retarget(response, "#notices"), "innerHTML")
    back = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = ""
    return render(request, "403.html", {"csrf": csrf, "back": back}, status=403)


def forbidden(request, exception=None):
    return _refused(request, csrf=False)


def csrf_failure(request, reason=""):
    return _refused(request, csrf=True)
