"""Opening a scoring link (``/t/<token>/``): the holder's session may score that evening."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scorebook.accounts.limits import client_address

from .. import links

TOO_MANY = 429
GONE = 410  # a replaced card: the page says to ask the director for the new one


@require_safe
@never_cache
def scoring_link(request, token):
    address = client_address(request) or "unknown"
    if links.was_replaced(token):  # a redraw seated its table again: not a guess, the card is old
        response = render(request, "evenings/link_replaced.html", status=GONE)
    elif links.limited(address):
        response = render(request, "evenings/link_limited.html", status=TOO_MANY)
    else:
        link = links.link_for(token, address)
        if link is None:
            raise Http404("No such link")
        links.remember(request, link)
        response = redirect("evening", pk=link.evening_id)
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
