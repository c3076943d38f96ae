from django.http import Http404


def evening_import(request):
    raise Http404


def evening_export(request, pk):
    raise Http404
