"""The site installs as an app from any page (issue 18, items 1 and 9).

Every page links the web app manifest, says its theme colour and names an Apple touch icon;
the manifest starts the app on the evening list (which the service worker keeps) and names a
maskable icon; each icon is a PNG of the size it claims. The worker and the manifest are
served under the manifest storage of production (they answered 500 there: ``static("")``).
(The maskable icon's safe zone is checked in a browser: tests/browser/test_deployed_site.py.)"""

import json
import re
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = re.compile(r"<html[\s>]")
HEAD_LINES = (
    re.compile(r'<link rel="manifest" href="(/manifest\.webmanifest|\{% url \'manifest\' %\})">'),
    re.compile(r'<meta name="theme-color" content="#14171c" media="\(prefers-color-scheme: dark\)">'),
    re.compile(r'<meta name="theme-color" content="#f6f4ef" media="\(prefers-color-scheme: light\)">'),
    re.compile(r'<link rel="apple-touch-icon" href="[^"]*apple-touch-icon\.png[^"]*"'),
)


def png_size(url: str) -> tuple[int, int]:
    path = finders.find(re.sub(r"^/static/", "", url))
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", url
    return struct.unpack(">II", data[16:24])


def test_every_document_template_names_the_manifest_theme_colour_and_touch_icon():
    documents = [p for p in (ROOT / "templates").rglob("*.html") if DOCUMENT.search(p.read_text())]
    assert {p.name for p in documents} >= {"base.html", "500.html"}
    for template in documents:
        text = template.read_text()
        head = text[: text.index("</head>")]
        for line in HEAD_LINES:
            assert line.search(head), f"{template.relative_to(ROOT)}: {line.pattern}"


@pytest.mark.django_db
def test_every_page_links_the_manifest_once(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen", ["Anne", "Bert", "Carl", "Dina"])
    pages = [
        "/",
        reverse("evening_list"),
        reverse("evening_new"),
        reverse("evening", args=[evening.pk]),
        reverse("settlement", args=[evening.pk]),
        reverse("evening_public", args=[evening.share_token]),
        reverse("club_list"),
        reverse("offline"),
        "/no-such-page/",
    ]
    for path in pages:
        html = scorer_client.get(path).content.decode()
        assert html.count('rel="manifest"') == 1, path
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, path
        assert all(line.search(html) for line in HEAD_LINES[1:]), path


def test_the_manifest_starts_on_the_evening_list_with_a_maskable_icon(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(response.content)
    assert manifest["start_url"] == reverse("evening_list") == "/evenings/"
    assert manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"] == manifest["background_color"] == "#14171c"  # base.html's dark theme colour
    for icon in manifest["icons"]:
        if icon["type"] == "image/png":
            width, height = png_size(icon["src"])
            assert icon["sizes"] == f"{width}x{height}", icon
    maskable = [icon for icon in manifest["icons"] if icon.get("purpose") == "maskable"]
    assert [(i["type"], i["sizes"]) for i in maskable] == [("image/png", "512x512")]
    assert {"192x192", "512x512"} <= {i["sizes"] for i in manifest["icons"] if i.get("purpose", "any") == "any"}


def test_the_apple_touch_icon_is_a_180_pixel_png(client):
    html = client.get("/").content.decode()
    href = re.search(r'<link rel="apple-touch-icon" href="([^"]+)"', html).group(1)
    assert png_size(href) == (180, 180)


def test_it_serves_the_worker_and_the_manifest_under_the_manifest_storage(client, settings, tmp_path):
    """The storage of production, with the files collected (but the site's own only, for speed)."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = settings.STORAGES | {
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}
    }
    call_command("collectstatic", "--noinput", "-v", "0", "-i", "admin", "-i", "django_htmx")
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker["Content-Type"] == "text/javascript; charset=utf-8"
    text = worker.content.decode()
    assert 'var STATIC_PREFIX = "/static/";' in text
    assert re.search(r"/static/js/scoring\.[0-9a-f]{12}\.js", text)  # the names served, hashed
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert all(re.search(r"\.[0-9a-f]{12}\.(png|svg)$", icon["src"]) for icon in manifest["icons"])


def test_the_worker_changes_its_cache_name_with_the_files_it_keeps(client, settings, tmp_path):
    """A new cache for new files (the old one is dropped when the new worker takes over)."""
    cache = re.compile(r'var STATIC_CACHE = "(scorebook-\d+-static-[0-9a-f]{12})";')
    before = cache.search(client.get("/sw.js").content.decode()).group(1)
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "scoring.js").write_text("/* another version */")
    settings.STATICFILES_DIRS = [tmp_path, *settings.STATICFILES_DIRS]  # found first
    after = cache.search(client.get("/sw.js").content.decode()).group(1)
    assert before != after
