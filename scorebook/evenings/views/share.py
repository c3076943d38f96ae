from django.http import Http404


def share(request, pk):
    raise Http404


def public(request, token):
    raise Http404


def public_live(request, token):
    raise Http404
