"""An undone deletion gives the deal its request key back (issue 13, finding 13): a late retry
of the original submission, arriving after the delete and the undo, records nothing."""

import pytest
from django.urls import reverse

from scorebook.evenings.models import Deal, DealRevision

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

SENT = {"contract": "samen-9", "declarers": ["Anne", "Carl"], "tricks": "10", "request_key": "sent-once"}


def test_it_records_nothing_for_a_late_retry_after_a_delete_and_its_undo(scorer_client, make_evening):
    evening = make_evening()
    assert scorer_client.post(reverse("deal_record", args=[evening.pk]), SENT).status_code == 302
    scorer_client.post(reverse("deal_delete", args=[evening.pk, 1]))
    revision = DealRevision.objects.get(evening=evening, action=DealRevision.Action.DELETED)
    scorer_client.post(reverse("deal_restore", args=[evening.pk, revision.pk]))
    assert Deal.objects.filter(evening=evening).count() == 1

    late = scorer_client.post(reverse("deal_record", args=[evening.pk]), SENT)

    assert late.status_code == 302
    assert list(Deal.objects.filter(evening=evening).values_list("number", "request_key")) == [(1, "sent-once")]
