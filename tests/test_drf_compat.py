"""
Each private attribute of DRF and Django the package relies on, checked against the versions
installed: CI runs this file with the lowest and the newest versions `pyproject.toml` allows,
so a release that renames one fails here, by name.
"""

from __future__ import annotations

import asyncio
import io
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from django.db.models.signals import post_init
from django.http import HttpResponse
from django.test import RequestFactory
from rest_framework import fields, serializers
from rest_framework.parsers import JSONParser
from rest_framework.request import Request

from django_services import _drf_compat as compat
from tests.testapp.models import Label, Person


class PersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "name", "age"]


def test_querysets_say_whether_they_yield_instances():
    assert compat.queryset_yields_instances(Person.objects.all())
    assert not compat.queryset_yields_instances(Person.objects.values("id"))
    assert not compat.queryset_yields_instances(Person.objects.values_list("id"))


def test_querysets_say_whether_they_prefetch():
    assert not compat.queryset_prefetches(Person.objects.all())
    assert compat.queryset_prefetches(Label.objects.prefetch_related("owner"))


def test_models_say_whether_they_build_their_own_instances():
    def receiver(sender, instance, **kwargs):
        pass

    assert not compat.model_builds_own_instances(Person)
    post_init.connect(receiver, sender=Person)
    try:
        assert compat.model_builds_own_instances(Person)
    finally:
        post_init.disconnect(receiver, sender=Person)


def test_a_serializers_fields_are_cached_where_they_are_looked_for():
    serializer = PersonSerializer()
    assert compat.cached_fields(serializer) is None

    built = serializer.fields
    assert compat.cached_fields(serializer) is built
    other = PersonSerializer()
    compat.set_cached_fields(other, built)
    assert other.fields is built
    compat.drop_cached_fields(other)
    assert compat.cached_fields(other) is None
    assert other.fields is not built


def test_a_fields_validators_are_stored_where_they_are_looked_for():
    field = fields.BooleanField()
    assert compat.field_validators(field) is None

    validators = field.validators  # built on first read
    assert compat.field_validators(field) is validators
    compat.set_field_validators(field, [])
    assert field.validators == []


def test_the_readable_fields_hook_is_what_serializers_walk():
    assert compat.READABLE_FIELDS_HOOK in vars(serializers.Serializer)
    names = [field.field_name for field in getattr(PersonSerializer(), compat.READABLE_FIELDS_HOOK)]
    assert names == ["id", "name", "age"]


def test_the_django_request_behind_a_drf_request():
    http = RequestFactory().get("/people")
    assert compat.django_request(Request(http)) is http
    assert compat.django_request(http) is http
    assert compat.django_request(None) is None


@pytest.mark.django_db
def test_a_request_marked_authenticated_keeps_its_user():
    from django.contrib.auth.models import AnonymousUser

    request = Request(RequestFactory().get("/people"))
    request.user = AnonymousUser()
    request.auth = "token"
    compat.mark_authenticated(request)

    assert request.successful_authenticator is None
    assert (request.user.is_anonymous, request.auth) == (True, "token")


def test_a_request_given_parsed_data_reads_it_without_parsing_a_body():
    from django.http import HttpRequest

    django_request = HttpRequest()
    django_request.method = "POST"
    compat.replace_body(django_request, b"")
    request = Request(django_request)
    compat.set_parsed_data(request, {"name": "Ada"})

    assert request.data == {"name": "Ada"}
    assert django_request.body == b""


def test_a_request_says_whether_it_has_its_data():
    request = Request(
        RequestFactory().post("/people", b'{"name": "Ada"}', content_type="application/json"),
        parsers=[JSONParser()],
    )
    assert not compat.has_parsed_data(request)
    assert request.data == {"name": "Ada"}
    assert compat.has_parsed_data(request)


def test_a_request_body_is_replaced_as_unread():
    request = RequestFactory().post("/people", b"old", content_type="text/plain")
    assert request.body == b"old"
    stream = compat.request_body_stream(request)
    assert stream is not None

    request = RequestFactory().post("/people", b"old", content_type="text/plain")
    compat.replace_body(request, b"new body")
    request.META["CONTENT_LENGTH"] = "8"
    assert request.read() == b"new body"
    assert isinstance(compat.request_body_stream(request), io.BytesIO)


def test_a_request_exempted_from_csrf_is_not_checked():
    from django.middleware.csrf import CsrfViewMiddleware

    request = RequestFactory().post("/people")
    compat.skip_csrf_checks(request)

    middleware = CsrfViewMiddleware(lambda request: HttpResponse())
    assert middleware.process_view(request, lambda request: None, (), {}) is None


@pytest.mark.django_db
def test_a_closer_runs_when_the_response_is_closed():
    closed = []
    response = HttpResponse()
    assert compat.add_response_closer(response, lambda: closed.append(True))

    response.close()
    assert closed == [True]


@pytest.mark.parametrize("context", [compat.thread_context, compat._ExecutorContext])
def test_a_thread_context_runs_thread_sensitive_calls_in_its_executor(context):
    executor = ThreadPoolExecutor(1)
    executor_thread = executor.submit(threading.get_ident).result()

    async def calls() -> list[int]:
        async with context(executor):
            return [await sync_to_async(threading.get_ident)() for _ in range(3)]

    try:
        assert asyncio.run(calls()) == [executor_thread] * 3
        # Left running for the next context.
        assert executor.submit(threading.get_ident).result() == executor_thread
        assert asyncio.run(calls()) == [executor_thread] * 3
    finally:
        executor.shutdown()
