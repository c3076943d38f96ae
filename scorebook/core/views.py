from django.shortcuts import render

from scorebook.rules import registry


def home(request):
    return render(request, "core/home.html", {"presets": registry.all_presets()})

