"""The site's stylesheet written into the pages a phone opens first, allowed by its hash.

A phone on a slow network paints the scoring page (and the login page, the list of evenings) one
round trip sooner when the page carries its stylesheet: no second connection, no request waiting
behind the page before anything shows. ``static/css/scorebook.css`` stays the one file of the
site's styles (the other pages link it, and keep it cached); this module reads it once, when the
process starts, with its comments and needless spaces left out (``TEXT``), and gives the
Content-Security-Policy hash of exactly that text (``HASH``, in settings.SECURE_CSP's style-src), so
that the browser applies this ``<style>`` and no other inline style. The hash is computed from the
text the pages write: a change of the file changes both at the next start
(``tests/test_page_css.py`` checks every page that writes it against its response's policy).

No Django import: settings read it before the apps load.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

FILE = Path(__file__).resolve().parents[2] / "static" / "css" / "scorebook.css"


def minified(css: str) -> str:
    """``css`` without its comments and the spaces that mean nothing: around braces, semicolons and
    commas, and after a colon (a space before one is kept: ``a :hover`` is not ``a:hover``)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"\s+", " ", css)
    css = re.sub(r"\s*([{};,])\s*", r"\1", css)
    css = re.sub(r":\s+", ":", css)
    return css.replace(";}", "}").strip()


def csp_hash(text: str) -> str:
    """The CSP source that allows an inline ``<style>`` holding exactly ``text``."""
    digest = hashlib.sha256(text.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


TEXT = minified(FILE.read_text(encoding="utf-8"))
if "</" in TEXT:  # it would end the <style> element early
    raise ValueError(f"{FILE} holds '</': it cannot be written into a page")
HASH = csp_hash(TEXT)
