"""Hostile input at the doors: the record-deal endpoint and the evening-file import.

Whatever arrives — wrong types, huge values, markup, unknown keys — the answer is a
page with a clear error (never a 500), and a refused request changes nothing.
"""

import json

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.evenings.models import Deal, Evening

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
NASTY = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "",
            "-1",
            "14",
            "1e9",
            "99999999999999999999",
            "<script>alert(1)</script>",
            "samen-8",
            "pass",
            "Anne",
            "Eric",
            "null",
            "[]",
            "{}",
            "\x00",
            "٣",
            "NaN",
        ]
    ),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
)
FIELDS = [
    "contract",
    "declarers",
    "tricks",
    "tricks_0",
    "tricks_1",
    "tricks_3",
    "playing",
    "trump_changed",
    "exposed_fault",
    "request_key",
    "version",
    "claim",
    "honours",
    "adj-points_0",
    "adj-note",
    "robre-choice",
]
posts = st.dictionaries(st.sampled_from(FIELDS), st.lists(NASTY, min_size=1, max_size=3), max_size=8)


def _state(evening):
    evening.refresh_from_db()
    return evening.version, list(Deal.objects.filter(evening=evening).order_by("number").values_list("data", flat=True))


@pytest.mark.both_databases
@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", ["kleurenwiezen", "encheres", "classique"])
def test_it_never_breaks_on_a_hostile_deal_post(scorer_client, make_evening, ruleset):
    evening = make_evening(ruleset)
    urls = [reverse(name, args=[evening.pk]) for name in ("deal_record", "adjustment")]
    if ruleset == "classique":
        urls.append(reverse("robre_start", args=[evening.pk]))

    @FUZZ
    @given(data=posts, which=st.integers(0, len(urls) - 1), htmx=st.booleans())
    def check(data, which, htmx):
        before = _state(evening)
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = scorer_client.post(urls[which], data, **extra)
        assert response.status_code in (200, 302, 422), response.status_code
        if response.status_code == 422:
            assert _state(evening) == before
            body = response.content.decode()
            assert 'class="errors"' in body or 'class="field-errors"' in body  # the reason is on the page
            assert "<script>alert(1)</script>" not in body  # whatever was posted is escaped

    check()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
evening_like = st.fixed_dictionaries(
    {
        "format": st.sampled_from(["scorebook-evening/1", "x"]),
        "ruleset": st.sampled_from(["kleurenwiezen", "liege", "classique", "nope"]),
    },
    optional={
        "players": st.one_of(st.just(["Anne", "Bert", "Carl", "Dina"]), json_values),
        "deals": st.one_of(st.lists(json_values, max_size=4), json_values),
        "rules": json_values,
        "stake": json_values,
        "first_dealer": json_values,
        "surprise": json_values,
    },
)


@pytest.mark.django_db
def test_it_never_breaks_on_a_hostile_evening_file(scorer_client):
    url = reverse("evening_import")

    @FUZZ
    @given(
        payload=st.one_of(
            evening_like.map(json.dumps),
            st.text(max_size=200),
            st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
        )
    )
    def check(payload):
        before = Evening.objects.count()
        response = scorer_client.post(url, {"text": payload})
        assert response.status_code in (302, 422), response.status_code
        if response.status_code == 422:
            assert Evening.objects.count() == before

    check()


@pytest.mark.both_databases
@pytest.mark.django_db
def test_it_refuses_an_oversized_post_without_a_500(scorer_client, make_evening):
    evening = make_evening("kleurenwiezen")
    response = scorer_client.post(
        reverse("deal_record", args=[evening.pk]), {"contract": "samen-8", "adj-note": "x" * 3_000_000}
    )
    assert response.status_code == 400  # Django's own limit on request bodies (DATA_UPLOAD_MAX_MEMORY_SIZE)
    assert Deal.objects.filter(evening=evening).count() == 0
