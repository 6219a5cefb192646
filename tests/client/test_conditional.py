"""
The client with conditional requests, on each of the four connection kinds against the
project's own server: a record read keeps its ETag, a write sends it as `If-Match`, and the
412 (and a revalidation's 304) come back as typed errors.
"""

from __future__ import annotations

import copy
import pickle

import pytest

from django_services.client import etag_of
from django_services.errors import NotModified, PreconditionFailed
from tests.testapp.models import Sample

pytestmark = pytest.mark.usefixtures("live_services", "transactional_db")


@pytest.fixture
def app(harness, live_server, settings):
    services = settings.DJANGO_SERVICES["SERVICES"]
    settings.DJANGO_SERVICES = {
        **settings.DJANGO_SERVICES,
        "SERVICES": {**services, "versioned": "tests.server.conditional_services.VersionedService"},
    }
    return harness.app(live_server.url)


def test_a_write_sends_the_etag_of_the_record_it_read(harness, app):
    versioned, run = app.service("versioned"), harness.run
    created = run(versioned.create({"text": "draft"}))
    read = run(versioned.get(created["id"]))

    written = run(
        versioned.patch(read["id"], {"text": "final"}, {"headers": {"If-Match": etag_of(read)}})
    )

    assert (etag_of(created), etag_of(read), etag_of(written)) == ('"1"', '"1"', '"2"')
    assert read == created and type(read) is not dict and isinstance(read, dict)
    with pytest.raises(PreconditionFailed) as stale:
        run(versioned.patch(read["id"], {"text": "lost"}, {"headers": {"If-Match": etag_of(read)}}))
    assert (stale.value.code, stale.value.data) == (412, {"etag": '"2"'})
    assert Sample.objects.get().text == "final"


def test_a_revalidation_of_a_current_copy_raises_not_modified(harness, app):
    versioned, run = app.service("versioned"), harness.run
    created = run(versioned.create({"text": "draft"}))

    with pytest.raises(NotModified) as current:
        run(versioned.get(created["id"], {"headers": {"If-None-Match": etag_of(created)}}))

    assert current.value.code == 304
    assert run(versioned.find()) == [created]
    assert etag_of(run(versioned.find())) is None  # a list holds no tag; a page would


def test_copies_of_a_tagged_record_are_plain_dicts(harness, app):
    created = harness.run(app.service("versioned").create({"text": "draft"}))

    for copied in (dict(created), copy.copy(created), pickle.loads(pickle.dumps(created))):
        assert copied == created
        assert type(copied) is dict
        assert etag_of(copied) is None
