"""An oversized request is refused before its body is read (issue 13, finding 15)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

pytestmark = pytest.mark.django_db


def test_it_answers_413_without_reading_a_body_declared_too_large(scorer_client):
    # the body is empty: any attempt to read 50 MB of it fails the test client's fake input
    response = scorer_client.generic(
        "POST", "/evenings/import/", b"", CONTENT_TYPE="multipart/form-data; boundary=xyz", CONTENT_LENGTH="50000000"
    )
    assert response.status_code == 413


def test_it_answers_413_to_an_upload_over_the_overall_cap(scorer_client, settings):
    big = SimpleUploadedFile("evening.json", b" " * (settings.REQUEST_MAX_BYTES + 1))
    assert scorer_client.post("/evenings/import/", {"file": big}).status_code == 413


def test_it_still_takes_an_evening_file_of_one_megabyte(scorer_client):
    upload = SimpleUploadedFile("evening.json", b" " * (1024 * 1024))
    assert scorer_client.post("/evenings/import/", {"file": upload}).status_code == 422  # read, and refused as JSON
