"""What makes the site work with no network after one visit: the service worker and the web
app manifest. Both are templates (the worker lists the static files under their served names)."""

import hashlib
import json

from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.http import require_GET

# what the scoring page needs besides itself (kept by the worker when it installs)
OFFLINE_ASSETS = ("css/scorebook.css", "js/htmx-2.0.11.min.js", "js/scoring.js")
WORKER_REVISION = "1"  # a change of the worker's own code


@require_GET
def service_worker(request):
    assets = [static(path) for path in OFFLINE_ASSETS]
    version = hashlib.sha256(json.dumps([WORKER_REVISION, *assets]).encode()).hexdigest()[:12]
    context = {"assets": json.dumps(assets), "version": version, "static_prefix": static("")}
    response = render(request, "core/sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request):
    response = render(request, "core/manifest.webmanifest", content_type="application/manifest+json; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
