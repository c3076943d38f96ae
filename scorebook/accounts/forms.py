"""Account forms: logging in, signing up, and the profile (display name and e-mail address)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from scorebook.core.cleaning import clean_name

from . import identity
from .models import Profile, display_name

DISPLAY_NAME_MAX: int = Profile._meta.get_field("display_name").max_length or 0  # a CharField: always set


def _display_name_field() -> forms.CharField:
    return forms.CharField(
        label=_("Display name"),
        max_length=DISPLAY_NAME_MAX,
        help_text=_("What the other players see, for example “Marie D.”."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "autocapitalize": "words"}),
    )


def _email_field() -> forms.EmailField:
    return forms.EmailField(
        label=_("E-mail address"),
        required=False,
        max_length=254,
        help_text=_("Optional, but needed to reset a forgotten password. Nobody else sees it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autocapitalize": "none", "spellcheck": "false"}),
    )


def _looks_like_an_email(value: str) -> bool:
    try:
        validate_email(value)
    except ValidationError:
        return False
    return True


def _clean_display_name(value: str, user_pk: int | None = None) -> str:
    """Other people see it: a name, never an e-mail address, nor one that looks like another account's."""
    if identity.display_name_like(" ".join(value.split()), exclude_user_pk=user_pk) is not None:
        raise ValidationError(
            _("Another player already goes by this name, or one that looks like it: add an initial, for example."),
            code="lookalike",
        )
    value = clean_name(value, max_length=DISPLAY_NAME_MAX)
    if _looks_like_an_email(value):
        raise ValidationError(
            _("Other players see this name: choose a name, not an e-mail address."), code="email_as_name"
        )
    return value


def _clean_email(value: str) -> str:
    return User.objects.normalize_email(value) if value else ""


class LoginForm(AuthenticationForm):
    """Django's login form, its fields named as on the sign-up form; the phone's keyboard opens on a tap."""

    def __init__(self, request: HttpRequest | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        username = self.fields["username"]
        username.label = _("User name")
        username.widget.attrs.pop("autofocus", None)
        username.widget.attrs.update({"autocapitalize": "none", "spellcheck": "false"})
        self.fields["password"].label = _("Password")


class SignupForm(UserCreationForm):
    """A new account: user name, display name, optional e-mail address and the password twice."""

    display_name = _display_name_field()
    email = _email_field()

    field_order = ("username", "display_name", "email", "password1", "password2")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.label = _("User name")
        username.help_text = _("To log in. Letters, digits and . + - _ only.")
        username.widget.attrs.update({"autocapitalize": "none", "spellcheck": "false"})
        self.fields["password1"].label = _("Password")
        self.fields["password2"].label = _("Password again")
        self.fields["password2"].help_text = _("The same password, to be sure it is the one you meant.")

    def clean_username(self) -> str:
        _refuse_an_address_as_username(self.cleaned_data.get("username", ""))
        username = super().clean_username()
        if not username:  # refused already (the same name in other capitals)
            return username
        return _clean_new_username(username)

    def clean_display_name(self) -> str:
        return _clean_display_name(self.cleaned_data["display_name"])

    def clean_email(self) -> str:
        return _clean_email(self.cleaned_data["email"])

    @transaction.atomic
    def save(self, commit: bool = True) -> User:
        if not commit:
            raise ValueError("SignupForm.save() always saves: the user and the profile go together.")
        user = super().save(commit=True)
        Profile.objects.create(user=user, display_name=self.cleaned_data["display_name"])
        return user


def _refuse_an_address_as_username(username: str) -> None:
    if "@" in username:
        # a user name may be shown to others where no display name exists: never an e-mail address
        raise ValidationError(_("A user name cannot contain “@”: it is not your e-mail address."), code="at_sign")


def _clean_new_username(username: str) -> str:
    """A new account's user name: neither reserved nor like an existing one."""
    if identity.is_reserved(username):
        raise ValidationError(_("This user name is reserved: choose another."), code="reserved")
    if identity.username_like(username) is not None:
        raise ValidationError(
            _("This user name is taken, or one that looks just like it: choose another."), code="lookalike"
        )
    return username


class AccountForm(forms.Form):
    """An account the operator makes (``manage.py create_account``), with the sign-up form's rules: it
    has no password; its owner chooses one through a one-time link (``password_links``)."""

    username = forms.CharField(max_length=150, validators=[User.username_validator])
    display_name = _display_name_field()
    email = _email_field()

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        _refuse_an_address_as_username(username)
        return _clean_new_username(username)

    def clean_display_name(self) -> str:
        return _clean_display_name(self.cleaned_data["display_name"])

    def clean_email(self) -> str:
        return _clean_email(self.cleaned_data["email"])

    @transaction.atomic
    def save(self) -> User:
        user = User.objects.create_user(
            username=self.cleaned_data["username"], email=self.cleaned_data["email"], password=None
        )
        Profile.objects.create(user=user, display_name=self.cleaned_data["display_name"])
        return user


class ProfileForm(forms.Form):
    """What the owner of an account may change on his profile page."""

    display_name = _display_name_field()
    email = _email_field()

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        self.user = user
        kwargs.setdefault("initial", {"display_name": display_name(user), "email": user.email})
        super().__init__(*args, **kwargs)

    def clean_display_name(self) -> str:
        return _clean_display_name(self.cleaned_data["display_name"], self.user.pk)

    def clean_email(self) -> str:
        return _clean_email(self.cleaned_data["email"])

    @transaction.atomic
    def save(self) -> User:
        user = self.user
        profile, _created = Profile.objects.update_or_create(
            user=user, defaults={"display_name": self.cleaned_data["display_name"]}
        )
        user.profile = profile  # what the rest of this request reads
        if user.email != self.cleaned_data["email"]:
            user.email = self.cleaned_data["email"]
            user.save(update_fields=["email"])
        return user


def focus_first_error(form: forms.BaseForm) -> None:
    """Put the autofocus on the first field with an error, so that the phone's keyboard opens there."""
    first = next((name for name in form.fields if name in form.errors), None)
    if first is None:
        return
    for field in form.fields.values():
        field.widget.attrs.pop("autofocus", None)
    form.fields[first].widget.attrs["autofocus"] = True
