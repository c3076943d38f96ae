"""The read-only link is a secret (issue 13, finding 17): only a digest of it is stored, it is
shown once with Cache-Control: no-store, and a right id with a wrong secret opens nothing."""

import pytest
from django.urls import reverse

from scorebook.evenings.models import Evening

pytestmark = pytest.mark.django_db


@pytest.mark.both_databases
def test_it_stores_no_read_only_link_and_shows_it_only_when_made(scorer_client, make_evening):
    evening = make_evening()
    made = scorer_client.post(reverse("evening_share_reset", args=[evening.pk]))
    token = made.context["url"].split("/s/")[1].rstrip("/")
    assert made["Cache-Control"] == "no-store"
    assert token.split(".")[1] not in str(list(Evening.objects.filter(pk=evening.pk).values_list()))
    later = scorer_client.get(reverse("evening_share", args=[evening.pk]))
    assert later.status_code == 200 and later["Cache-Control"] == "no-store"
    assert token not in later.content.decode()


def test_it_opens_nothing_with_the_right_id_and_a_wrong_secret(client, make_evening):
    evening = make_evening()
    share_id, secret = evening.share_token.split(".")
    assert client.get(f"/s/{share_id}.{secret}/").status_code == 200
    other = "B" if secret.endswith("A") else "A"  # one character changed (1 token in 64 ends with A)
    for forged in (f"{share_id}.{secret[:-1]}{other}", f"{share_id}.", share_id, f".{secret}", f"{share_id}.{secret}x"):
        assert client.get(f"/s/{forged}/").status_code == 404, forged
        assert client.get(f"/s/{forged}/live/").status_code == 404, forged
