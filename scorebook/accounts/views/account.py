"""Signing up and the profile page. Logging in and out and the passwords are django.contrib.auth's views."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from scorebook.core.http import AuthenticatedHttpRequest

from .. import sign_up
from ..forms import ProfileForm, SignupForm, focus_first_error

INVALID, FORBIDDEN = 422, 403


def _safe_next(request: HttpRequest) -> str:
    """The ``next`` URL of the request when it stays on this site, else an empty string."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return ""


def _after_login(next_url: str) -> HttpResponse:
    return HttpResponseRedirect(next_url) if next_url else redirect(settings.LOGIN_REDIRECT_URL)


@sensitive_post_parameters("password1", "password2")
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return _after_login(next_url)
    if why := sign_up.refusal(invited=False):  # settings.SIGNUP: nothing is written, the page says why
        status = FORBIDDEN if request.method == "POST" else 200
        return render(request, "accounts/signup_refused.html", {"why": why, "next": next_url}, status=status)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return _after_login(next_url)
    focus_first_error(form)
    status = INVALID if form.is_bound else 200
    return render(request, "accounts/signup.html", {"form": form, "next": next_url}, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The owner's own page: the only place where his e-mail address is shown."""
    form = ProfileForm(request.POST if request.method == "POST" else None, user=request.user)
    if form.is_bound and form.is_valid():
        form.save()
        messages.success(request, _("Your profile is saved."))
        return redirect("profile")
    focus_first_error(form)
    status = INVALID if form.is_bound else 200
    return render(request, "accounts/profile.html", {"form": form}, status=status)
