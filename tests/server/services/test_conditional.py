"""
Conditional requests over REST: validators on reads and writes (`ETag`, `Last-Modified`),
304 for a client's current copy, 412 for a write from a stale one, 428 where a service
requires `If-Match`.
"""

from __future__ import annotations

import hashlib

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.http import http_date

from django_services.errors import PreconditionFailed
from django_services.server import Params, get_service
from tests.server.http import assert_error, body, send
from tests.testapp.models import Sample, Todo

pytestmark = pytest.mark.django_db

C = "tests.server.conditional_services."
CHANGED = "The record has changed since it was read: its ETag is not the one sent"


@pytest.fixture
def versioned(serve):
    serve({"versioned": C + "VersionedService", "todos": C + "TodoService"})


def body_tag(response):
    return f'"{hashlib.sha256(response.content).hexdigest()[:32]}"'


def create_versioned(api, text="draft"):
    return body(send(api, "POST", "/versioned", {"text": text}))


# Reads ------------------------------------------------------------------------------------


def test_a_get_answers_the_strong_etag_of_its_body(api, versioned):
    todo = Todo.objects.create(text="milk")

    response = api.get(f"/todos/{todo.pk}")

    assert response.status_code == 200
    assert response["ETag"] == body_tag(response)
    assert "Last-Modified" not in response


def test_if_none_match_with_the_current_tag_answers_304_without_a_body(api, versioned):
    todo = Todo.objects.create(text="milk")
    etag = api.get(f"/todos/{todo.pk}")["ETag"]

    for sent in (etag, f'"other", {etag}', f"W/{etag}", "*"):
        response = api.get(f"/todos/{todo.pk}", HTTP_IF_NONE_MATCH=sent)
        assert (response.status_code, response.content, response["ETag"]) == (304, b"", etag)
        assert "Content-Type" not in response

    Todo.objects.filter(pk=todo.pk).update(text="bread")
    changed = api.get(f"/todos/{todo.pk}", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert body(changed)["text"] == "bread"
    assert changed["ETag"] not in (etag, None)


def test_a_find_page_carries_an_etag_and_revalidates(api, versioned):
    Todo.objects.create(text="milk")
    page = api.get("/todos?$limit=5")
    etag = page["ETag"]

    assert etag == body_tag(page)
    assert api.get("/todos?$limit=5", HTTP_IF_NONE_MATCH=etag).status_code == 304
    Todo.objects.create(text="bread")
    assert api.get("/todos?$limit=5", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_a_declared_version_field_gives_the_etag_and_last_modified(api, versioned):
    sample = create_versioned(api)
    stored = Sample.objects.get(pk=sample["id"])

    response = api.get(f"/versioned/{sample['id']}")

    assert response["ETag"] == '"1"'
    assert response["Last-Modified"] == http_date(stored.moment.timestamp())
    assert body(response)["version"] == 1


def test_a_declared_field_settles_if_none_match_with_the_get_s_one_query(api, versioned):
    sample = create_versioned(api)
    path = f"/versioned/{sample['id']}"
    with CaptureQueriesContext(connection) as plain:
        api.get(path)
    with CaptureQueriesContext(connection) as revalidated:
        response = api.get(path, HTTP_IF_NONE_MATCH='"1"')

    assert (response.status_code, response.content, response["ETag"]) == (304, b"", '"1"')
    assert "Last-Modified" in response
    assert len(revalidated) == len(plain) == 1


def test_if_modified_since_answers_304_unless_if_none_match_is_sent(api, versioned):
    sample = create_versioned(api)
    path = f"/versioned/{sample['id']}"
    modified = api.get(path)["Last-Modified"]
    earlier = http_date(Sample.objects.get().moment.timestamp() - 60)

    assert api.get(path, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
    assert api.get(path, HTTP_IF_MODIFIED_SINCE=earlier).status_code == 200
    # If-None-Match takes precedence: a tag that does not match means the copy is stale.
    stale = api.get(path, HTTP_IF_MODIFIED_SINCE=modified, HTTP_IF_NONE_MATCH='"0"')
    assert stale.status_code == 200


# Writes -----------------------------------------------------------------------------------


def test_a_patch_with_the_current_tag_writes_and_answers_the_new_one(api, versioned):
    sample = create_versioned(api)

    response = send(
        api, "PATCH", f"/versioned/{sample['id']}", {"text": "final"}, HTTP_IF_MATCH='"1"'
    )

    assert response.status_code == 200
    assert response["ETag"] == '"2"'
    assert body(response)["version"] == 2


@pytest.mark.parametrize("sent", ['"1"', '"7"', 'W/"2"', "garbage"])
def test_a_patch_with_a_stale_or_never_issued_tag_is_412_and_writes_nothing(api, versioned, sent):
    sample = create_versioned(api)
    send(api, "PATCH", f"/versioned/{sample['id']}", {"text": "second"})

    response = send(
        api, "PATCH", f"/versioned/{sample['id']}", {"text": "stale"}, HTTP_IF_MATCH=sent
    )

    assert_error(
        response, "PreconditionFailed", CHANGED, 412, "precondition-failed", data={"etag": '"2"'}
    )
    assert Sample.objects.get().text == "second"


def test_update_and_remove_check_if_match_too(api, versioned):
    sample = create_versioned(api)
    path = f"/versioned/{sample['id']}"
    send(api, "PATCH", path, {"text": "second"})

    assert send(api, "PUT", path, {"text": "x"}, HTTP_IF_MATCH='"1"').status_code == 412
    assert send(api, "DELETE", path, HTTP_IF_MATCH='"1"').status_code == 412
    assert Sample.objects.get().text == "second"
    replaced = send(api, "PUT", path, {"text": "x"}, HTTP_IF_MATCH='"2"')
    assert (replaced.status_code, replaced["ETag"]) == (200, '"3"')
    assert send(api, "DELETE", path, HTTP_IF_MATCH="*").status_code == 200
    assert not Sample.objects.exists()


def test_if_match_star_means_the_record_exists(api, versioned):
    sample = create_versioned(api)

    assert (
        send(api, "PATCH", f"/versioned/{sample['id']}", {}, HTTP_IF_MATCH="*").status_code == 200
    )
    assert send(api, "PATCH", "/versioned/999", {}, HTTP_IF_MATCH="*").status_code == 404


def test_representation_tags_guard_writes_of_a_service_without_a_version(api, versioned):
    todo = Todo.objects.create(text="milk")
    path = f"/todos/{todo.pk}"
    etag = api.get(path)["ETag"]

    first = send(api, "PATCH", path, {"text": "bread"}, HTTP_IF_MATCH=etag)
    second = send(api, "PATCH", path, {"complete": True}, HTTP_IF_MATCH=etag)

    assert first.status_code == 200
    assert first["ETag"] == api.get(path)["ETag"] != etag
    assert second.status_code == 412
    assert Todo.objects.get().complete is False


def test_if_match_costs_a_patch_no_query(api, versioned):
    sample = create_versioned(api)
    path = f"/versioned/{sample['id']}"
    with CaptureQueriesContext(connection) as plain:
        send(api, "PATCH", path, {"text": "a"})
    with CaptureQueriesContext(connection) as guarded:
        response = send(api, "PATCH", path, {"text": "b"}, HTTP_IF_MATCH='"2"')

    assert response.status_code == 200
    assert len(guarded) == len(plain)


def test_a_service_may_require_if_match_on_writes_by_id(api, serve):
    serve({"guarded": C + "GuardedVersionedService"})
    sample = body(send(api, "POST", "/guarded", {"text": "draft"}))
    path = f"/guarded/{sample['id']}"

    for method in ("PATCH", "PUT", "DELETE"):
        assert_error(
            send(api, method, path, {"text": "x"}),
            "PreconditionRequired",
            f"This service requires If-Match (or $ifMatch) on "
            f"{ {'PATCH': 'patch', 'PUT': 'update', 'DELETE': 'remove'}[method] }: send the "
            "ETag of the record as read",
            428,
            "precondition-required",
        )
    assert send(api, "PATCH", path, {"text": "x"}, HTTP_IF_MATCH='"1"').status_code == 200


def test_multi_writes_refuse_preconditions(api, versioned):
    create_versioned(api)

    for method in ("PATCH", "DELETE"):
        response = send(api, method, "/versioned?flag=false", {"text": "x"}, HTTP_IF_MATCH='"1"')
        assert_error(
            response,
            "BadRequest",
            "If-Match and If-None-Match (or $ifMatch and $ifNoneMatch) apply to one record: "
            f"{'patch' if method == 'PATCH' else 'remove'} it by id",
            400,
            "bad-request",
        )
    assert Sample.objects.get().text == "draft"


# The reserved query keys -----------------------------------------------------------------


def test_the_reserved_query_keys_work_over_rest_and_never_reach_the_filter(api, versioned):
    sample = create_versioned(api)
    path = f"/versioned/{sample['id']}"

    assert api.get(path + "?$ifNoneMatch=1").status_code == 304
    assert api.get(path + '?$ifNoneMatch="1"&text=draft').status_code == 304
    assert send(api, "PATCH", path + "?$ifMatch=0", {"text": "x"}).status_code == 412
    assert send(api, "PATCH", path + "?$ifMatch=1", {"text": "x"}).status_code == 200
    assert api.get("/todos?$ifNoneMatch=x").status_code == 200


def test_a_reserved_key_that_is_not_a_tag_is_400(api, versioned):
    sample = create_versioned(api)

    response = send(api, "PATCH", f"/versioned/{sample['id']}?$ifMatch[a]=1", {"text": "x"})

    assert_error(
        response,
        "BadRequest",
        "$ifMatch must be an entity tag (or a version), or a list of them; got {'a': '1'}",
        400,
        "bad-request",
    )


def test_a_plain_service_s_reads_carry_the_etag_of_their_body(api, serve):
    serve({"echo": "tests.server.echo_services.EchoService"})
    etag = api.get("/echo/1?a=b")["ETag"]

    assert api.get("/echo/1?a=b", HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert api.get("/echo/1?a=c", HTTP_IF_NONE_MATCH=etag).status_code == 200
    # The query keys are the model services': a plain service receives them as sent.
    assert body(api.get("/echo/1?$ifMatch=x"))["query"] == {"$ifMatch": "x"}


@pytest.mark.parametrize("path", ["/todos/{todo}", "/versioned/{sample}"])
def test_a_read_whose_if_match_fails_is_412(api, versioned, path):
    todo, sample = Todo.objects.create(text="milk"), create_versioned(api)
    path = path.format(todo=todo.pk, sample=sample["id"])
    etag = api.get(path)["ETag"]

    assert api.get(path, HTTP_IF_MATCH=etag).status_code == 200
    stale = api.get(path, HTTP_IF_MATCH='"0"')
    assert (stale.status_code, body(stale)["name"]) == (412, "PreconditionFailed")


def test_internal_calls_take_the_reserved_keys_a_version_zero_included(api, versioned):
    sample = create_versioned(api)
    service = get_service("versioned")

    with pytest.raises(PreconditionFailed):
        service.patch(sample["id"], {"text": "x"}, Params(query={"$ifMatch": 0}))
    patched = service.patch(sample["id"], {"text": "x"}, Params(query={"$ifMatch": [0, 1]}))
    assert patched["version"] == 2
