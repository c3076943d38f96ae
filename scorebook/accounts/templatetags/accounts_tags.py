from django import template

from scorebook.accounts.models import display_name as _display_name

register = template.Library()


@register.filter
def display_name(user) -> str:
    """What other people see of an account (never its e-mail address)."""
    return _display_name(user)
