"""Django's authentication views as the site uses them: login throttled after repeated failures,
and every invalid form answered with 422, as on the rest of the site."""

from django.contrib.auth import views as auth_views
from django.utils.translation import gettext as _

from .. import throttle

TOO_MANY = 429


def _address(request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


class ThrottledLoginView(auth_views.LoginView):
    def post(self, request, *args, **kwargs):
        username = request.POST.get("username", "")
        if throttle.blocked(username, _address(request)):
            form = self.get_form()
            form.errors.clear()
            form.add_error(None, _("Too many failed attempts. Wait a quarter of an hour, or reset your password."))
            return self.render_to_response(self.get_context_data(form=form), status=TOO_MANY)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        throttle.record_failure(self.request.POST.get("username", ""), _address(self.request))
        return self.render_to_response(self.get_context_data(form=form), status=422)

    def form_valid(self, form):
        throttle.clear(form.get_user().get_username())
        return super().form_valid(form)


login = ThrottledLoginView.as_view()


class _Invalid422:
    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=422)


class PasswordChangeView(_Invalid422, auth_views.PasswordChangeView):
    pass


class PasswordResetView(_Invalid422, auth_views.PasswordResetView):
    pass


class PasswordResetConfirmView(_Invalid422, auth_views.PasswordResetConfirmView):
    pass


password_change = PasswordChangeView.as_view()
password_reset = PasswordResetView.as_view()
password_reset_confirm = PasswordResetConfirmView.as_view()
