from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.base_session import AbstractBaseSession, BaseSessionManager
from django.db import models
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from .sessions import SessionStore


class Profile(models.Model):
    """What other people see of an account: its display name, never its e-mail address."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(_("display name"), max_length=60)

    def __str__(self) -> str:
        return self.display_name


def display_name(user: User | AnonymousUser | None) -> str:
    """The name shown to others: the profile's display name, else the first name, else the user name."""
    if user is None or isinstance(user, AnonymousUser):
        return ""
    profile = getattr(user, "profile", None)  # a missing profile raises a subclass of AttributeError
    return (profile.display_name if profile else "") or user.first_name or user.username


class SessionManager(BaseSessionManager["Session"]):
    def get_queryset(self) -> QuerySet[Session]:
        return super().get_queryset().select_related("user")


class Session(AbstractBaseSession):
    """A browser's session, with the account it is logged in to (``user``, kept from the session's
    data when it is saved): reading a session reads its user in the same query
    (``scorebook.accounts.sessions``). Deleting an account deletes its sessions. No database
    constraint on ``user``: a session saved by a request that began before its account was deleted
    finds no user, and is anonymous."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, db_constraint=False, related_name="+"
    )

    objects: ClassVar[SessionManager] = SessionManager()

    class Meta(AbstractBaseSession.Meta):
        db_table = "accounts_session"

    @classmethod
    def get_session_store_class(cls) -> type[SessionStore]:
        from .sessions import SessionStore

        return SessionStore


class PasswordLink(models.Model):
    """A one-time link that lets an account with no password yet choose one (a member restored from a
    club's backup, which holds no password): made by the site's operator (``import_club``,
    ``password_link``) or by an admin of the member's club, shown once, stored as its digest, dead once
    used, replaced or expired (``accounts.password_links``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="password_links")
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"password link of {self.user_id}"
