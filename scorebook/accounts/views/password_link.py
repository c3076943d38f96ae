"""A one-time link to choose a password (``accounts.password_links``): the form at the link's own
address, which it posts back to; the token never goes into the session (nothing in the database
holds it), and the page is never cached. Like every page of the site it sends its address to no
other site (``SECURE_REFERRER_POLICY = "same-origin"``; "no-referrer" would make the browser send
its form with ``Origin: null``, which the CSRF protection refuses)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import SetPasswordForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from .. import password_links
from ..forms import focus_first_error
from ..models import display_name

INVALID, GONE = 422, 410


@sensitive_post_parameters("new_password1", "new_password2")
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def password_link(request: HttpRequest, token: str) -> HttpResponse:
    link = password_links.find(token)
    if link is None:
        return render(request, "accounts/password_link.html", {"gone": True}, status=GONE)
    form = SetPasswordForm(link.user, request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        try:
            user = password_links.use(link, form.cleaned_data["new_password1"])
        except password_links.Spent:
            return render(request, "accounts/password_link.html", {"gone": True}, status=GONE)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Your password is set: you are logged in."))
        return redirect(settings.LOGIN_REDIRECT_URL)
    focus_first_error(form)
    context = {"form": form, "username": link.user.get_username(), "name": display_name(link.user)}
    return render(request, "accounts/password_link.html", context, status=INVALID if form.is_bound else 200)
