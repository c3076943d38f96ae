from django.http import Http404


def evening_chart(request, pk):  # filled in by the chart work
    raise Http404
