"""Two reference views: what a minimal write and a minimal list page cost on this stack.

They go through the same middleware, session, login and template engine as the site,
so the ratios in ``run.py`` compare the application's work with the framework's floor.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.template import engines
from django.views.decorators.http import require_POST

from scorebook.evenings.models import Deal, DealRevision

# A small fragment, as an htmx answer would be.
INSERT_TEMPLATE = engines["django"].from_string(
    """<div id="board" class="board">
  <p class="msg">{{ row.number }} · {{ row.get_action_display }} · {{ user.get_username }}</p>
  <form method="post" action="{{ request.path }}">{% csrf_token %}<button type="submit">OK</button></form>
</div>"""
)

# A page of the site's layout with a table of rows.
LIST_TEMPLATE = engines["django"].from_string(
    """{% extends "base.html" %}{% load i18n %}
{% block title %}{% translate "Deals" %} · Scorebook{% endblock %}
{% block content %}
<table class="deals">
  <thead><tr><th>#</th><th>{% translate "Contract" %}</th><th>{% translate "Declarers" %}</th>
    <th>{% translate "Tricks" %}</th></tr></thead>
  <tbody>
  {% for deal in deals %}
    <tr><td>{{ deal.number }}</td><td>{{ deal.data.contract }}</td>
      <td>{{ deal.data.declarers|join:", " }}</td><td>{{ deal.data.tricks }}</td></tr>
  {% endfor %}
  </tbody>
</table>
{% endblock %}"""
)


@login_required
@require_POST
def insert_one(request, pk):
    """Insert one row, render a small template."""
    row = DealRevision.objects.create(
        evening_id=pk, number=1, action=DealRevision.Action.CORRECTED, after={"contract": "pass"}, by=request.user
    )
    return HttpResponse(INSERT_TEMPLATE.render({"row": row}, request))


@login_required
def list_rows(request, pk):
    """Render the rows of one evening's deals (80 in the benchmark) in the site's layout."""
    deals = list(Deal.objects.filter(evening_id=pk).order_by("number").only("number", "data"))
    return HttpResponse(LIST_TEMPLATE.render({"deals": deals}, request))
