"""The home page: what Scorebook does, and each variant a tap away from a new evening."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scorebook.rules import registry


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "evenings/home.html", {"presets": registry.all_presets()})
