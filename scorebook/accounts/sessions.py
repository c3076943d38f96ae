"""Sessions stored in the database with their account: one query gives a request both.

Django's database sessions read the session's row, then ``AuthenticationMiddleware`` reads its
user: two queries before any view runs. Here the session's row (``accounts.Session``) keeps the
account it is logged in to, and is read with it (``SessionStore``, settings.SESSION_ENGINE);
``AuthenticationMiddleware`` takes that user when Django's own check of the session would accept
it (the same account, the same backend, still active, the password unchanged since the login),
and otherwise lets Django decide as it always does (a query for the user, the session flushed
when its password hash no longer matches). Nothing is kept between requests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends import db
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

if TYPE_CHECKING:  # django-stubs' store is generic in its model; Django's class takes no parameter
    from .models import Session

    _Store = db.SessionStore[Session]
else:
    _Store = db.SessionStore


class SessionStore(_Store):
    """Django's database session store on ``accounts.Session``: the row read with its user
    (``user``: None when the session is anonymous or its account is gone), the user's id written
    with the row."""

    user: User | None = None

    @classmethod
    def get_model_class(cls) -> type[Session]:
        from .models import Session

        return Session

    # a method of Django's db.SessionStore that django-stubs does not declare
    def _get_session_from_db(self) -> Session | None:
        found: Session | None = super()._get_session_from_db()  # type: ignore[misc]  # (as above)  # its manager reads the user in the same query
        self.user = found.user if found is not None else None
        return found

    def create_model_instance(self, data: dict[str, Any]) -> Session:
        instance = super().create_model_instance(data)
        instance.user_id = data.get(auth.SESSION_KEY)
        return instance


def _user_read_with_the_session(request: HttpRequest) -> User | None:
    """The session's user when Django's ``auth.get_user`` would give that very user: the account
    the session's data names, logged in through a ``ModelBackend`` still in settings, still
    active, its password unchanged (the session's hash). None otherwise: Django then decides."""
    session = request.session
    try:
        user_id, backend_path = str(session[auth.SESSION_KEY]), session[auth.BACKEND_SESSION_KEY]
    except KeyError:  # (reading the session's data reads its row, and its user)
        return None
    user = getattr(session, "user", None)
    if user is None or str(user.pk) != user_id or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    backend = auth.load_backend(backend_path)
    if not isinstance(backend, ModelBackend) or not backend.user_can_authenticate(user):
        return None
    session_hash = session.get(auth.HASH_SESSION_KEY)
    if not session_hash or not constant_time_compare(session_hash, user.get_session_auth_hash()):
        return None
    return user


def get_user(request: HttpRequest) -> User | AnonymousUser:
    # Django's own cache of the request's user (its AuthenticationMiddleware keeps it there too)
    if not hasattr(request, "_cached_user"):
        request._cached_user = _user_read_with_the_session(request) or auth.get_user(request)  # type: ignore[attr-defined]
    return request._cached_user  # type: ignore[attr-defined]


class AuthenticationMiddleware(DjangoAuthenticationMiddleware):
    """Django's, with the user read with the session when it is the one Django would accept."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        # the lazy user, as Django's own middleware sets it (django-stubs types request.user as the user itself)
        request.user = SimpleLazyObject(lambda: get_user(request))  # type: ignore[assignment]
