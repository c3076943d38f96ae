"""What makes the site work with no network: the service worker, the web app manifest, and the
page the worker shows for a page it does not keep. The worker and the manifest are templates
(they name the static files under their served names, hashed in production)."""

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render, resolve_url
from django.templatetags.static import PrefixNode, static
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET

# what the pages the worker keeps load (the evening list, the scoring page, a deal's correction
# page, the settlement, the offline page): kept when the worker installs, so that they open with
# no network
OFFLINE_ASSETS = (
    "css/scorebook.css",
    "js/htmx-2.0.11.min.js",
    "js/scoring.js",
    "css/settle.css",
    "css/rules.css",
    "css/payments.css",
)
# a change of how the worker stores things: old caches are dropped when its new version takes over
CACHE_REVISION = "2"
KEPT_EVENINGS = 10  # the evenings opened last whose pages are kept


def _assets_digest(assets: list[str]) -> str:
    """Changes with any kept file: its served name (hashed in production) or, with the development
    storage, its content."""
    digest = hashlib.sha256(json.dumps([CACHE_REVISION, *assets]).encode())
    for path in OFFLINE_ASSETS:
        found = finders.find(path)
        if found:
            digest.update(Path(found).read_bytes())
    return digest.hexdigest()[:12]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    assets = [static(path) for path in OFFLINE_ASSETS]
    context = {
        "assets": json.dumps(assets),
        "static_cache": f"scorebook-{CACHE_REVISION}-static-{_assets_digest(assets)}",
        "pages_cache": f"scorebook-{CACHE_REVISION}-pages",
        # the site's static prefix, as {% get_static_prefix %} gives it (static("") is refused by
        # the manifest storage of production: it is not a file)
        "static_prefix": json.dumps(PrefixNode.handle_simple("STATIC_URL")),
        "start_url": json.dumps(resolve_url(settings.LOGIN_REDIRECT_URL)),  # the evenings: a later app's page
        "offline_url": json.dumps(reverse("offline")),
        "logout_url": json.dumps(reverse("logout")),
        "kept_evenings": KEPT_EVENINGS,
        "language": json.dumps(get_language()),
        # said at the top of the evening list when the worker shows its copy (%(time)s: when it was fetched)
        "list_notice": _notice(
            gettext(
                "No network: this is the list kept on this phone at %(time)s."
                " The evenings you opened lately open without the network."
            )
        ),
        # said at the top of a settlement page the worker shows from its copy
        "settlement_notice": _notice(
            gettext(
                "No network: this is the settlement kept on this phone at %(time)s. Deals recorded since then"
                " are not counted in it."
            )
        ),
        "notices_anchor": json.dumps('<div id="notices" class="notices" aria-live="polite">'),
    }
    response = render(request, "core/sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


def _notice(text: str) -> str:
    """A notice the worker writes at the top of a page it shows from its copy (JSON for the script)."""
    return json.dumps('<p class="notice" role="status">' + escape(text) + "</p>")


THEME_COLOR = "#14171c"  # the dark theme's background; base.html's theme-color says the same


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: what a phone needs to install the site as an app."""
    data = {
        "id": "/",
        "name": "Scorebook",
        "short_name": "Scorebook",
        "description": gettext("The score of your whist evening, without pen and paper"),
        "lang": get_language(),
        # where a signed-in visitor starts (the evenings: a later app's page, named by the project);
        # kept by the worker: the installed app opens offline
        "start_url": resolve_url(settings.LOGIN_REDIRECT_URL),
        "scope": "/",
        "display": "standalone",
        "background_color": THEME_COLOR,
        "theme_color": THEME_COLOR,
        "icons": [
            {"src": static("img/app-icon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            {"src": static("img/app-icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("img/app-icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            # full bleed, the spade inside the central circle of 80%: any mask shape keeps it whole
            {
                "src": static("img/app-icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """Shown by the worker, with no network, in place of a page it does not keep."""
    return render(request, "core/offline.html", {"kept_evenings": KEPT_EVENINGS})
