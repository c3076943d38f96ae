from django.http import Http404


def settlement(request, pk):
    raise Http404


def payment_toggle(request, pk):
    raise Http404


def evening_close(request, pk):
    raise Http404


def evening_reopen(request, pk):
    raise Http404


def evening_print(request, pk):
    raise Http404
