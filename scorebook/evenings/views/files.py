"""The evening file (docs/evening-file.md) on the site: export as a download, import from an upload or a paste."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from scorebook.clubs.models import Club, Player
from scorebook.clubs.models.club import SCORING_ROLES
from scorebook.core import cleaning
from scorebook.core.engine_messages import localized
from scorebook.core.forms import ChoiceRows, field_of
from scorebook.core.http import AuthenticatedHttpRequest
from scorebook.rules import evening_file
from scorebook.rules.evening_file import FileError
from scorebook.rules.model import RulesError
from scorebook.rules.scoring import DealError

from .. import creation
from ..access import evening_for_user
from ..models import Evening

MAX_FILE_BYTES = 1024 * 1024  # 1 MB: a long evening is a few tens of kilobytes


class ImportForm(forms.Form):
    club: forms.ModelChoiceField[Club] = forms.ModelChoiceField(
        label=gettext_lazy("Table book"),
        queryset=None,
        required=False,
        empty_label=gettext_lazy("My private table book"),
        help_text=gettext_lazy(
            "In a club, the evening joins the club's seasons and ledger, and its players are those of the "
            "club's roster with the same names."
        ),
    )
    add_players = forms.BooleanField(
        label=gettext_lazy("Add the players who are not on the club's roster yet"),
        required=False,
    )
    rules = forms.ChoiceField(
        label=gettext_lazy("Rules, in a club"),
        choices=[
            ("club", gettext_lazy("The club's house rules")),
            ("file", gettext_lazy("The rules written in the file")),
        ],
        initial="club",
        required=False,  # the club's unless the file's are asked for
        widget=ChoiceRows,
        help_text=gettext_lazy(
            "With the club's, its deals are scored as the club's other evenings of the variant; with the "
            "file's, its totals stay as they were where it was played. The evening says which."
        ),
    )
    file = forms.FileField(
        label=gettext_lazy("Evening file"),
        required=False,
        help_text=gettext_lazy("A .json file exported by Scorebook (1 MB at most)."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    text = forms.CharField(
        label=gettext_lazy("Paste the evening file"),
        required=False,
        help_text=gettext_lazy('The JSON text, starting with {"format": "scorebook-evening/1", …'),
        widget=forms.Textarea(
            attrs={"rows": 10, "maxlength": MAX_FILE_BYTES, "spellcheck": "false", "autocomplete": "off"}
        ),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the clubs where this user records deals (as for a new evening)
        field_of(self, "club", forms.ModelChoiceField).queryset = Club.objects.filter(
            memberships__user=user, memberships__role__in=SCORING_ROLES
        ).order_by("name")

    def clean_file(self) -> UploadedFile | None:
        upload = self.cleaned_data.get("file")
        if upload and upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                _("This file is %(size)s; an evening file may be 1 MB at most."),
                params={"size": filesizeformat(upload.size)},
                code="too_big",
            )
        return upload

    def clean_text(self) -> str:
        text = self.cleaned_data.get("text", "")
        if len(text.encode()) > MAX_FILE_BYTES:
            raise forms.ValidationError(
                _("This text is more than 1 MB; an evening file may be 1 MB at most."), code="too_big"
            )
        return text

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        if data.get("file") and data.get("text"):
            self.add_error("text", _("Give either a file or a pasted text, not both."))
        elif not data.get("file") and not data.get("text"):
            self.add_error("file", _("Choose an evening file, or paste its text below."))
        return data

    def source(self) -> tuple[str, str | bytes]:
        """The field the evening file came from, and its content."""
        upload = self.cleaned_data.get("file")
        if upload:
            return "file", upload.read()
        return "text", self.cleaned_data["text"]


def _problem(exc: Exception) -> str:
    """An engine error in the language of the page, naming its deal."""
    number = getattr(exc, "number", 0)
    message = localized(exc)
    if number:
        return _("Deal %(number)s: %(message)s") % {"number": number, "message": message}
    return message


def _name_problems(form: ImportForm, field: str, names: list[str]) -> bool:
    """The file's players as the site's forms take names (``cleaning.clean_name``: no invisible or
    direction character, no mix of alphabets, kept as typed), and no two that a reader would take
    for one (``aIice`` and ``Alice``). True (with the errors on the form) when one is refused."""
    refused = False
    for i, name in enumerate(names):
        try:
            kept = cleaning.clean_name(name)
        except ValidationError as error:
            form.add_error(field, f"{cleaning.shown(name)}: {' '.join(error.messages)}")
            refused = True
            continue
        twin = cleaning.looks_like(name, names[:i])
        if kept != name or twin is not None:
            form.add_error(
                field,
                _("%(name)s looks like %(other)s: write each player's name once, in plain letters.")
                % {"name": cleaning.shown(name), "other": twin or kept},
            )
            refused = True
    return refused


def _roster_problems(form: ImportForm, club: Club, names: list[str]) -> bool:
    """The file's players against the club's roster: the same name is the same player; a name
    the roster writes otherwise (another case, or a look-alike: ``cleaning.Names``) is never merged
    silently; new names are added only when the form says so. False (with the errors on the form)
    when the import must wait."""
    roster = cleaning.Names(Player.objects.filter(club=club).values_list("name", flat=True))
    known = {n: roster.like(n) for n in names}
    spelled = [(n, theirs) for n, theirs in known.items() if theirs is not None and theirs != n]
    new = [n for n, theirs in known.items() if theirs is None]
    for name, theirs in spelled:
        form.add_error(
            "club",
            _(
                "%(name)s is written %(roster)s on the club's roster: correct the name in the file, or import it "
                "into your private table book."
            )
            % {"name": name, "roster": theirs},
        )
    if new and not form.cleaned_data.get("add_players"):
        form.add_error(
            "add_players",
            ngettext(
                "%(names)s is not on the club's roster: tick the box to add this player.",
                "%(names)s are not on the club's roster: tick the box to add these players.",
                len(new),
            )
            % {"names": ", ".join(new)},
        )
    return not spelled and (not new or bool(form.cleaned_data.get("add_players")))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def evening_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES, user=request.user)
    else:
        form = ImportForm(user=request.user)
    if form.is_bound and form.is_valid():
        field, content = form.source()
        club = form.cleaned_data.get("club")
        try:
            table = evening_file.loads(content)
            if _name_problems(form, field, list(table.players)):
                evening = None
            elif club is None or _roster_problems(form, club, list(table.players)):
                # an evening of an earlier day arrives closed, reopened by an admin only; tonight's may go on
                old = table.date is not None and table.date < timezone.localdate()
                house_rules = form.cleaned_data.get("rules") != "file"
                evening = creation.import_evening(content, request.user, club=club, closed=old, house_rules=house_rules)
            else:
                evening = None
                if field == "file":  # keep what was sent: the next submit does not need the file again
                    # a QueryDict, copied so (django-stubs types a form's data as a read-only Mapping)
                    data = form.data.copy()  # type: ignore[attr-defined]
                    data["text"] = content.decode("utf-8", "replace") if isinstance(content, bytes) else content
                    form.data = data
        except (FileError, DealError, RulesError) as exc:
            form.add_error(field, _problem(exc))
        else:
            if evening is not None:
                count = evening.deals.count()
                messages.success(
                    request,
                    ngettext("Evening imported with %(count)s deal.", "Evening imported with %(count)s deals.", count)
                    % {"count": count},
                )
                if club is not None:
                    messages.info(
                        request,
                        _("Its deals are scored with the club's house rules.")
                        if evening.rules_from == Evening.RulesFrom.CLUB
                        else _("It keeps the rules written in the file."),
                    )
                if not evening.is_open:
                    messages.info(
                        request,
                        _("It is closed, being of an earlier day: only an admin of the club can reopen it.")
                        if club is not None
                        else _("It is closed, being of an earlier day: reopen it to correct a deal."),
                    )
                return redirect("evening", evening.pk)
    status = 422 if form.is_bound else 200
    context = {"form": form, "max_size": filesizeformat(MAX_FILE_BYTES)}
    return render(request, "evenings/files/import.html", context, status=status)


@login_required
@require_safe
def evening_export(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    evening = evening_for_user(request, pk).evening
    filename = f"scorebook-{evening.date.isoformat()}-{evening.ruleset}.json"
    response = HttpResponse(creation.export_text(evening), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    response["Cache-Control"] = "private, no-store"
    return response
