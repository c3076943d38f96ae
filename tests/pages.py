"""Reading the site's pages in view tests: the body, URLs, and the errors shown next to fields."""

import html as html_lib
import re

from django.urls import reverse

from scorebook.evenings.models import Deal


def body(response) -> str:
    return response.content.decode()


def url(name, evening, *args):
    return reverse(name, args=[evening.pk, *args])


def field_errors(html: str, field: str) -> str:
    """The text of the error list rendered next to ``field`` (empty when there is none)."""
    match = re.search(rf'<ul class="field-errors" id="id_{field}_error"[^>]*>(.*?)</ul>', html, re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", match.group(1))) if match else ""


def datas(evening) -> list[dict]:
    """The stored deals of an evening, in order."""
    return [d.data for d in Deal.objects.filter(evening=evening).order_by("number")]
