"""Opening a scoring link (``/t/<token>/``): the holder's session may score that evening."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scorebook.accounts.limits import client_address

from .. import links

TOO_MANY = 429
GONE = 410  # a replaced card: the page says to ask the director for the new one


@require_safe
@never_cache
def scoring_link(request: HttpRequest, token: str) -> HttpResponse:
    address = client_address(request) or "unknown"
    response: HttpResponse
    link = links.find(token)  # a valid card always opens its table, whatever else was tried from here
    if link is not None:
        links.remember(request, link)
        response = redirect("evening", pk=link.evening_id)
    elif links.was_replaced(token):  # a redraw seated its table again: not a guess, the card is old
        response = render(request, "evenings/link_replaced.html", status=GONE)
    elif links.limited(address):  # only unknown links are slowed down
        response = render(request, "evenings/link_limited.html", status=TOO_MANY)
    else:
        links.count_unknown(address)
        raise Http404("No such link")
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
