"""The evening file (shared/evening-format.md) on the site: export as a download, import from an upload or a paste."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import filesizeformat
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from scorebook.rules.model import RulesError

from .. import services
from ..access import evening_for_user
from scorebook.core.engine_messages import localized

MAX_FILE_BYTES = 1024 * 1024  # 1 MB: a long evening is a few tens of kilobytes


class ImportForm(forms.Form):
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

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if upload and upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                _("This file is %(size)s; an evening file may be 1 MB at most."),
                params={"size": filesizeformat(upload.size)},
                code="too_big",
            )
        return upload

    def clean_text(self):
        text = self.cleaned_data.get("text", "")
        if len(text.encode()) > MAX_FILE_BYTES:
            raise forms.ValidationError(_("This text is more than 1 MB; an evening file may be 1 MB at most."), code="too_big")
        return text

    def clean(self):
        data = super().clean()
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


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def evening_import(request):
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    if form.is_bound and form.is_valid():
        field, content = form.source()
        try:
            evening = services.import_evening(content, request.user)
        except (services.FileError, services.DealError, RulesError) as exc:
            form.add_error(field, _problem(exc))
        else:
            count = evening.deals.count()
            messages.success(request, _("Evening imported with %(count)s deals.") % {"count": count})
            return redirect("evening", evening.pk)
    status = 422 if form.is_bound else 200
    context = {"form": form, "max_size": filesizeformat(MAX_FILE_BYTES)}
    return render(request, "evenings/files/import.html", context, status=status)


@login_required
@require_safe
def evening_export(request, pk):
    evening = evening_for_user(request, pk)
    filename = f"scorebook-{evening.date.isoformat()}-{evening.ruleset}.json"
    response = HttpResponse(services.export_text(evening), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    response["Cache-Control"] = "private, no-store"
    return response
