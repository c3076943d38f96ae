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

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthenticationMiddleware
from django.contrib.sessions.backends import db
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject


class SessionStore(db.SessionStore):
    """Django's database session store on ``accounts.Session``: the row read with its user
    (``user``: None when the session is anonymous or its account is gone), the user's id written
    with the row."""

    user = None

    @classmethod
    def get_model_class(cls):
        from .models import Session

        return Session

    def _get_session_from_db(self):
        found = super()._get_session_from_db()  # its manager reads the user in the same query
        self.user = found.user if found is not None else None
        return found

    def create_model_instance(self, data):
        instance = super().create_model_instance(data)
        instance.user_id = data.get(auth.SESSION_KEY)
        return instance


def _user_read_with_the_session(request):
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


def get_user(request):
    if not hasattr(request, "_cached_user"):
        request._cached_user = _user_read_with_the_session(request) or auth.get_user(request)
    return request._cached_user


class AuthenticationMiddleware(DjangoAuthenticationMiddleware):
    """Django's, with the user read with the session when it is the one Django would accept."""

    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))
