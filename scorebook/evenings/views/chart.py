"""The running totals of an evening as a chart (server-rendered SVG, no script).

The chart itself is the partial ``evenings/chart.html#chart``; other pages include
it with ``chart = chart_context(result)`` in their context (and link
``css/chart.css``).
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from scorebook.core.http import AuthenticatedHttpRequest, page_or_fragment

from ..access import evening_for_user
from ..charts import build, chart_context
from ..stored import read_sheet

__all__ = ["chart_context", "evening_chart"]


@page_or_fragment
@login_required
@require_safe
def evening_chart(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    evening = evening_for_user(request, pk).evening
    sheet = read_sheet(evening)  # every deal's stored result: nothing scored again
    context = {"evening": evening, "chart": build(sheet.table.players, sheet.running())}
    if request.htmx:  # a live refresh only needs the chart
        return render(request, "evenings/chart.html#chart", context)
    return render(request, "evenings/chart.html", context)
