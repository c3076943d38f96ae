"""``{% load scorebook %}``: the figures of every page, written the same way everywhere."""

from decimal import Decimal
from fractions import Fraction

from django import template
from django.conf import settings
from django.shortcuts import resolve_url
from django.utils.safestring import SafeString, mark_safe

from scorebook.core import formatting, page_css
from scorebook.rules.model import Names

register = template.Library()


@register.filter
def signed(value: int) -> str:
    """Points with their sign: ``{{ 12|signed }}`` is "+12", ``{{ -4|signed }}`` is "−4"."""
    return formatting.signed_points(value)


@register.filter
def tone(value: int | Decimal | Fraction) -> str:
    """The colour class of a figure: pos, neg or zero."""
    return formatting.tone(value)


@register.filter
def in_language(names: Names) -> str:
    """A variant's or contract's name in the active language: ``{{ preset.names|in_language }}``."""
    return names.get(formatting.lang())


@register.simple_tag
def start_url() -> str:
    """Where a signed-in visitor starts (``settings.LOGIN_REDIRECT_URL``): the page of a later app, which
    the project names, so that the lower apps' templates link to it without knowing it."""
    return resolve_url(settings.LOGIN_REDIRECT_URL)


@register.simple_tag
def page_stylesheet() -> SafeString:
    """The site's stylesheet written into the page (``scorebook.core.page_css``: the pages a phone
    opens first paint without waiting for it), allowed by its hash in the Content-Security-Policy."""
    # the site's own file, as it is: a <style> element reads no entities, so nothing is escaped
    return mark_safe(f"<style>{page_css.TEXT}</style>")
