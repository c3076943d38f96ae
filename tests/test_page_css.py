"""The pages a phone opens first (the scoring page, the login page, the list of evenings) carry the
site's stylesheet in a ``<style>`` that the Content-Security-Policy allows by its hash, and link no
stylesheet; the others link it. The text and the hash come from static/css/scorebook.css when the
process starts (scorebook/core/page_css.py): this checks the page's very text against its very
policy, so that a change of the file can never leave the page unstyled."""

import base64
import hashlib
import re

import pytest
from django.test import Client
from django.urls import reverse

from scorebook.core import page_css

pytestmark = pytest.mark.django_db


def _style(html: str) -> str:
    styles = re.findall(r"<style>(.*?)</style>", html, flags=re.S)
    assert len(styles) == 1, f"{len(styles)} <style> elements"
    return styles[0]


def _allowed(response, text: str) -> bool:
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    policy = response["Content-Security-Policy"]
    style_src = next(d for d in policy.split(";") if d.strip().startswith("style-src"))
    return f"'sha256-{digest}'" in style_src.split() and "'unsafe-inline'" not in style_src


@pytest.mark.parametrize("page", ["evening", "login", "evening_list"])
def test_it_writes_the_stylesheet_into_the_first_pages_under_the_policy(scorer_client, make_evening, page):
    client = Client() if page == "login" else scorer_client
    url = reverse(page, args=[make_evening().pk]) if page == "evening" else reverse(page)
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 200
    text = _style(html)
    assert _allowed(response, text)
    assert text == page_css.minified(page_css.FILE.read_text(encoding="utf-8"))  # the file, as it is now
    assert 'rel="stylesheet"' not in html


def test_it_links_the_stylesheet_from_the_other_pages(scorer_client):
    html = scorer_client.get(reverse("club_list")).content.decode()
    assert re.search(r'<link rel="stylesheet" href="[^"]*css/scorebook[^"]*\.css">', html)
    assert "<style>" not in html


def test_it_leaves_out_only_comments_and_spaces_that_mean_nothing():
    css = """/* a comment */
.a :hover , .b > c { color : red ; margin: 0 auto }
@media (max-width: 380px) { .d { padding: 0 8px; } }"""
    expected = ".a :hover,.b > c{color :red;margin:0 auto}@media (max-width:380px){.d{padding:0 8px}}"
    assert page_css.minified(css) == expected
