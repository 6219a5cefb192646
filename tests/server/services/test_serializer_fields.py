"""
What `ModelService` keeps between calls: the field tables of static services, and the fields
of DRF-built `ModelSerializer`s. Whatever varies by request must still vary.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core import validators
from rest_framework import serializers
from rest_framework.validators import UniqueTogetherValidator

from django_services.server import ModelService
from django_services.server.services.serializer_fields import reuse_built_fields
from tests.server import model_services
from tests.server.http import M, body
from tests.testapp.models import Person

pytestmark = pytest.mark.django_db

HERE = "tests.server.services.test_serializer_fields."


class NamesOnlySerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "name"]


class FullPersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "name", "age"]


class SerializerByHeaderService(ModelService):
    """Staff (`X-Staff: 1`) get a serializer with the age; others do not."""

    authentication_classes = []
    queryset = Person.objects.all()

    def get_serializer_class(self):
        staff = self.request is not None and self.request.headers.get("X-Staff") == "1"
        return FullPersonSerializer if staff else NamesOnlySerializer


class AgeForStaffSerializer(serializers.ModelSerializer):
    """The age is a field for staff requests only, decided in `get_fields()`."""

    class Meta:
        model = Person
        fields = ["id", "name", "age"]

    def get_fields(self):
        fields = super().get_fields()
        request = self.context.get("request")
        if request is None or request.headers.get("X-Staff") != "1":
            del fields["age"]
        return fields


class FieldsByContextService(ModelService):
    authentication_classes = []
    queryset = Person.objects.all()
    serializer_class = AgeForStaffSerializer


class FieldsKwargSerializer(serializers.ModelSerializer):
    """DRF's documented dynamic-fields pattern: `fields=` keeps only the names given."""

    class Meta:
        model = Person
        fields = ["id", "name", "age"]

    def __init__(self, *args, **kwargs):
        keep = kwargs.pop("fields", None)
        super().__init__(*args, **kwargs)
        if keep is not None:
            for name in set(self.fields) - set(keep):
                self.fields.pop(name)


STAFF = {"HTTP_X_STAFF": "1"}


@pytest.fixture
def doug():
    return Person.objects.create(name="Doug", age=32)


@pytest.mark.parametrize("service", ["SerializerByHeaderService", "FieldsByContextService"])
def test_fields_chosen_per_request_stay_per_request(api, serve, doug, service):
    serve({"people": HERE + service})
    for _ in range(2):
        public = api.get("/people?age=32")
        assert public.status_code == 400, public.content
        assert "age" in body(public)["message"]
        assert body(api.get(f"/people/{doug.pk}")) == {"id": doug.pk, "name": "Doug"}

        staff = api.get("/people?age=32", **STAFF)
        assert staff.status_code == 200, staff.content
        assert body(staff) == [{"id": doug.pk, "name": "Doug", "age": 32}]
        assert body(api.get(f"/people/{doug.pk}?$select[]=age", **STAFF)) == {
            "id": doug.pk,
            "age": 32,
        }


def test_options_changed_in_the_settings_are_seen(api, serve, doug):
    serve({"people": M + "PersonService"})
    assert api.get("/people?age=32").status_code == 200

    serve({"people": {"class": M + "PersonService", "query_fields": ["name"]}})
    assert api.get("/people?age=32").status_code == 400
    assert api.get("/people?name=Doug").status_code == 200

    serve({"people": {"class": M + "PersonService", "private_fields": ["age"]}})
    assert api.get("/people?age=32").status_code == 400
    assert body(api.get(f"/people/{doug.pk}")) == {"id": doug.pk, "name": "Doug", "created": False}

    serve({"people": M + "PersonService"})
    assert body(api.get("/people?age=32"))[0]["age"] == 32


def test_one_class_served_with_two_sets_of_options(api, serve, doug):
    serve(
        {
            "open": M + "PersonService",
            "narrow": {"class": M + "PersonService", "query_fields": ["name"]},
            "unsorted": {"class": M + "PersonService", "sort_fields": ["name"]},
        }
    )
    for _ in range(2):
        assert api.get("/open?age=32&$sort[age]=-1").status_code == 200
        assert api.get("/narrow?age=32").status_code == 400
        assert api.get("/narrow?name=Doug&$sort[name]=1").status_code == 200
        assert api.get("/unsorted?age=32").status_code == 200
        assert api.get("/unsorted?$sort[age]=1").status_code == 400


# Fields built once per ModelSerializer class -----------------------------------------------


@pytest.mark.parametrize(
    "serializer_class",
    [
        model_services.PersonSerializer,
        model_services.PersonCustomIdSerializer,
        model_services.MessageSerializer,
        model_services.SampleSerializer,
        model_services.NoteSerializer,
        model_services.TodoSerializer,
    ],
)
def test_reused_fields_are_the_fields_drf_builds(serializer_class):
    built_by_drf = serializer_class()
    for _ in range(2):
        reused = serializer_class()
        assert reuse_built_fields(reused)
        assert repr(reused) == repr(built_by_drf)
        for name, field in reused.fields.items():
            assert field.parent is reused
            assert field.field_name == name
            assert field is not built_by_drf.fields[name]


def test_each_serializer_gets_its_own_fields():
    first = model_services.PersonSerializer()
    reuse_built_fields(first)
    first.fields["name"].write_only = True
    first.fields["name"].validators.append(validators.ProhibitNullCharactersValidator())
    first.fields["age"].validators = []
    del first.fields["created"]

    second = model_services.PersonSerializer(Person(name="Ada", age=36))
    assert reuse_built_fields(second)
    assert second.data == {"id": None, "name": "Ada", "age": 36, "created": False}
    fresh = model_services.PersonSerializer()
    for name in ("name", "age"):
        kinds = [type(validator) for validator in second.fields[name].validators]
        assert kinds == [type(validator) for validator in fresh.fields[name].validators]
    assert second.fields["age"].validators, "the model's bounds validate the age"


def test_serializers_that_build_their_own_fields_are_left_alone():
    assert not reuse_built_fields(AgeForStaffSerializer())
    assert not reuse_built_fields(FieldsKwargSerializer(fields=["name"]))
    assert not reuse_built_fields(serializers.Serializer())
    built = model_services.PersonSerializer()
    built.fields  # noqa: B018 - already built: nothing to replace
    assert not reuse_built_fields(built)


def test_fields_are_built_again_after_a_setting_changes(settings, monkeypatch):
    calls = []
    get_fields = serializers.ModelSerializer.get_fields

    def counting_get_fields(self):
        calls.append(type(self))
        return get_fields(self)

    monkeypatch.setattr(serializers.ModelSerializer, "get_fields", counting_get_fields)
    settings.REST_FRAMEWORK = {"URL_FIELD_NAME": "link"}

    class Fresh(serializers.ModelSerializer):
        class Meta:
            model = Person
            fields = ["id", "name"]

    for _ in range(3):
        serializer = Fresh()
        assert reuse_built_fields(serializer)
        assert serializer.url_field_name == "link"
    assert calls == [Fresh]

    settings.REST_FRAMEWORK = {"URL_FIELD_NAME": "href"}
    serializer = Fresh()
    assert reuse_built_fields(serializer)
    assert serializer.url_field_name == "href"
    assert calls == [Fresh, Fresh]


def test_dynamic_fields_pattern_through_a_service(api, serve, doug):
    serve({"people": HERE + "NamesKeptService"})
    assert body(api.get(f"/people/{doug.pk}")) == {"id": doug.pk, "name": "Doug"}
    assert api.get("/people?age=32").status_code == 400


class NamesKeptService(ModelService):
    authentication_classes = []
    queryset = Person.objects.all()
    serializer_class = FieldsKwargSerializer

    def get_serializer(self, *args, **kwargs):
        kwargs.setdefault("fields", ["id", "name"])
        return super().get_serializer(*args, **kwargs)


class PermissionSerializer(serializers.ModelSerializer):
    """Django's `Permission` is unique together on (content_type, codename)."""

    class Meta:
        model = Permission
        fields = ["id", "name", "content_type", "codename"]


class NoUniqueCheckSerializer(PermissionSerializer):
    def get_validators(self):
        return []


class PermissionService(ModelService):
    authentication_classes = []
    queryset = Permission.objects.order_by("pk")
    serializer_class = PermissionSerializer


def test_reused_serializer_validators_are_the_validators_drf_builds():
    built_by_drf = PermissionSerializer().validators
    assert [type(validator) for validator in built_by_drf] == [UniqueTogetherValidator]
    first, second = PermissionSerializer(), PermissionSerializer()
    for serializer in (first, second):
        assert reuse_built_fields(serializer)
        assert repr(serializer.validators) == repr(built_by_drf)
    assert first.validators is not second.validators
    first.validators.clear()
    assert second.validators


def test_serializers_that_find_their_own_validators_are_left_alone():
    serializer = NoUniqueCheckSerializer()
    assert reuse_built_fields(serializer)
    assert serializer.validators == []
    given = PermissionSerializer(validators=[])
    assert reuse_built_fields(given)
    assert given.validators == []


def test_a_unique_together_violation_is_refused_on_every_create(api, serve):
    serve({"permissions": HERE + "PermissionService"})
    content_type = ContentType.objects.get_for_model(Person).pk
    data = {"name": "Can fly", "content_type": content_type, "codename": "fly"}
    assert api.post("/permissions", data, format="json").status_code == 201
    for _ in range(2):
        response = api.post("/permissions", data, format="json")
        assert response.status_code == 400, response.content
        assert "unique set" in str(body(response))
    assert Permission.objects.filter(codename="fly").count() == 1
