from django import template
from django.contrib.auth.models import AnonymousUser, User

from scorebook.accounts import sign_up
from scorebook.accounts.models import display_name as _display_name

register = template.Library()


@register.filter
def display_name(user: User | AnonymousUser | None) -> str:
    """What other people see of an account (never its e-mail address)."""
    return _display_name(user)


@register.simple_tag
def signup_policy() -> str:
    """Who may make an account here (settings.SIGNUP): "open", "invitation" or "closed"."""
    return sign_up.policy()
