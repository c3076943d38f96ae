"""Django's authentication views as the site uses them: every invalid form answered with 422,
as on the rest of the site; the login limits are django-axes' (scorebook.accounts.limits),
whose lockout is answered here (``locked_out``); a password reset sends its mail after the
response, so that a known and an unknown address take the same time to answer."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, SetPasswordForm
from django.forms import Form
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.generic.edit import FormView

from ..forms import LoginForm
from ..limits import account_locked, lift_lockouts, remember_device

TOO_MANY = 429
log = logging.getLogger(__name__)


class _Invalid422(FormView):
    def form_invalid(self, form: Form) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=422)


class LoginView(_Invalid422, auth_views.LoginView):
    authentication_form = LoginForm

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        remember_device(self.request, response, form.get_user())
        return response


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the login page again, saying what happened and what lifts it
    (for the admin's login page too)."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        wanted = ""
    if not wanted and request.path.startswith(reverse("admin:login")):
        wanted = reverse("admin:index")
    form = LoginForm(request, initial={"username": request.POST.get("username", "")})
    context = {
        "form": form,
        "next": wanted,
        "lockout": _(
            "Too many wrong passwords for this account from several connections: for a quarter of an hour it "
            "can only log in on a device where you logged in before. Resetting your password lifts this at once."
        )
        if account_locked(request, credentials)
        else _(
            "Too many wrong passwords for this user name from your connection: it cannot log in from here "
            "for a quarter of an hour. Resetting your password lifts this at once."
        ),
    }
    response = render(request, "registration/login.html", context, status=TOO_MANY)
    response["Cache-Control"] = "no-store"
    return response


login = LoginView.as_view()


class PasswordChangeView(_Invalid422, auth_views.PasswordChangeView):
    pass


class MailLaterResetForm(PasswordResetForm):
    """Keeps the reset mails instead of sending them; ``send_kept`` renders and sends them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("E-mail address")
        self.kept: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def send_mail(self, *args: Any, **kwargs: Any) -> None:
        self.kept.append((args, kwargs))

    def send_kept(self) -> None:
        for args, kwargs in self.kept:
            super().send_mail(*args, **kwargs)


class RedirectThenMail(HttpResponseRedirect):
    """The answer goes out first; the server then closes the response, and the mails are sent."""

    def __init__(self, url: str, form: MailLaterResetForm) -> None:
        super().__init__(url)
        self.form = form
        self.language = translation.get_language()

    def close(self) -> None:
        # the server has written the answer; the request's database connection is still open
        # until super().close() announces the end of the request
        try:
            with translation.override(self.language):
                self.form.send_kept()
        except Exception:  # the visitor has his answer: the failure goes to the log
            log.exception("A password reset mail could not be sent")
        finally:
            super().close()


class PasswordResetView(_Invalid422, auth_views.PasswordResetView):
    form_class = MailLaterResetForm

    def form_valid(self, form: MailLaterResetForm) -> HttpResponse:
        super().form_valid(form)  # form.save() keeps the mails
        return RedirectThenMail(self.get_success_url(), form)


class PasswordResetConfirmView(_Invalid422, auth_views.PasswordResetConfirmView):
    """Django's, except that the link's token stays in the page's address (the form posts back to it)
    and never goes into the session: the sessions are in the database, which keeps no link in clear.
    Django moved the token out of the address lest the page's Referer carry it to another site: the
    site's Referrer-Policy (same-origin) sends it to none."""

    @method_decorator(sensitive_post_parameters())
    @method_decorator(never_cache)
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.user = self.get_user(kwargs["uidb64"])
        token = kwargs["token"]
        self.validlink = (
            self.user is not None
            and token != self.reset_url_token
            and self.token_generator.check_token(self.user, token)
        )
        if self.validlink:
            return FormView.dispatch(self, request, *args, **kwargs)  # the form, here
        return self.render_to_response(self.get_context_data())

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        form.save()  # Django's would also take the token out of the session, where it never was
        response = HttpResponseRedirect(self.get_success_url())
        lift_lockouts(form.user)
        remember_device(self.request, response, form.user)  # she proved the account is hers, on this device
        return response


password_change = PasswordChangeView.as_view()
password_reset = PasswordResetView.as_view()
password_reset_confirm = PasswordResetConfirmView.as_view()

__all__ = ["locked_out", "login", "password_change", "password_reset", "password_reset_confirm"]
