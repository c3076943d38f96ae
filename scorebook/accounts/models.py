from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """What other people see of an account: its display name, never its e-mail address."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(_("display name"), max_length=60)

    def __str__(self):
        return self.display_name


def display_name(user) -> str:
    """The name shown to others: the profile's display name, else the first name, else the user name."""
    if user is None or getattr(user, "is_anonymous", False):
        return ""
    profile = getattr(user, "profile", None)  # a missing profile raises a subclass of AttributeError
    return (profile.display_name if profile else "") or user.first_name or user.username
