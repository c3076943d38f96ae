from django import template
from django.contrib.auth.models import AnonymousUser, User

from scorebook.accounts.models import display_name as _display_name

register = template.Library()


@register.filter
def display_name(user: User | AnonymousUser | None) -> str:
    """What other people see of an account (never its e-mail address)."""
    return _display_name(user)
