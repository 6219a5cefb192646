"""
Records shown without a serializer per call (`Representation`): the same JSON as the
serializer gives, for every column type, setting and time zone, and the serializer itself
whenever a field or the serializer may represent records its own way.
"""

from __future__ import annotations

import datetime
import decimal
import uuid
import zoneinfo

import pytest
from django.db import connection
from django.db.models.signals import post_init
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import from_model
from rest_framework import fields, serializers

from django_services.server import ModelService
from django_services.server.services.representation import Representation
from tests.server.http import body
from tests.testapp.models import Label, Person, Sample

pytestmark = pytest.mark.django_db

HERE = "tests.server.services.test_representation."

COLUMNS = [
    "id", "char", "text", "email", "integer", "big", "small", "number", "amount", "flag",
    "maybe", "day", "moment", "clock", "uid", "secret", "owner",
]  # fmt: skip


class ColumnsSerializer(serializers.ModelSerializer):
    """Every column of `Sample`, with the fields DRF builds for them."""

    class Meta:
        model = Sample
        fields = COLUMNS


class DeclaredColumnsSerializer(serializers.ModelSerializer):
    """Declared DRF fields reading columns under other names, with their own formats."""

    label = serializers.CharField(source="char")
    when = serializers.DateTimeField(source="moment", format="%d/%m/%Y %H:%M", allow_null=True)
    price = serializers.DecimalField(
        source="amount", max_digits=10, decimal_places=2, coerce_to_string=False, allow_null=True
    )
    ownerId = serializers.PrimaryKeyRelatedField(source="owner", read_only=True)
    kind = serializers.ChoiceField(source="small", choices=[(1, "one"), (2, "two")])
    tag = serializers.ReadOnlyField(source="text")

    class Meta:
        model = Sample
        fields = ["id", "label", "when", "price", "ownerId", "kind", "tag"]


def representation_of(serializer_class):
    representation = Representation.of(serializer_class(), model=Sample)
    assert representation is not None
    return representation


def serializer_data(serializer_class, instance):
    return dict(serializer_class(instance).data)


# Hypothesis reaches the database through the test transaction.
EXAMPLES = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TIME_ZONES = st.sampled_from(["UTC", "Europe/Paris", "America/St_Johns", "Asia/Kathmandu"])


def samples():
    text = st.text(st.characters(exclude_categories=["Cs", "Cc"]), max_size=30)
    return from_model(
        Sample,
        id=st.just(None),
        char=text,
        text=text,
        secret=text,
        number=st.none() | st.floats(allow_nan=False, allow_infinity=False, width=32),
        amount=st.none()
        | st.decimals(min_value=-99_999_999, max_value=99_999_999, places=2, allow_nan=False),
        moment=st.none()
        | st.datetimes(
            min_value=datetime.datetime(1900, 1, 1),
            max_value=datetime.datetime(2200, 1, 1),
            timezones=st.just(datetime.timezone.utc),
        ),
        day=st.none() | st.dates(min_value=datetime.date(1, 1, 1)),
        clock=st.none() | st.times(),
        small=st.none() | st.integers(min_value=0, max_value=32767),
        integer=st.none() | st.integers(min_value=-(2**31), max_value=2**31 - 1),
        big=st.none() | st.integers(min_value=-(2**63), max_value=2**63 - 1),
        uid=st.none() | st.uuids(),
        owner=st.none(),
    )


@EXAMPLES
@given(sample=samples(), time_zone=TIME_ZONES, with_owner=st.booleans())
def test_every_column_type_is_shown_as_the_serializer_shows_it(sample, time_zone, with_owner):
    if with_owner:
        sample.owner = Person.objects.create(name="Owner")
        sample.save()
    stored = Sample.objects.get(pk=sample.pk)
    with timezone.override(zoneinfo.ZoneInfo(time_zone)):
        for serializer_class in (ColumnsSerializer, DeclaredColumnsSerializer):
            representation = representation_of(serializer_class)
            shown = representation(stored)
            expected = serializer_data(serializer_class, stored)
            assert shown == expected
            assert list(shown) == list(expected)
            # What a find shows, from the columns read as tuples.
            row = Sample.objects.values_list(*representation.columns).get(pk=sample.pk)
            (from_row,) = representation.rows([row])
            assert from_row == expected
            assert list(from_row) == list(expected)


ZONES = st.sampled_from(
    ["UTC", "Etc/UTC", "Europe/London", "Europe/Paris", "America/St_Johns", "Asia/Kathmandu"]
)


@EXAMPLES
@given(
    moment=st.datetimes(
        min_value=datetime.datetime(1900, 1, 1),
        max_value=datetime.datetime(2200, 1, 1),
        timezones=st.none() | ZONES.map(zoneinfo.ZoneInfo) | st.just(datetime.timezone.utc),
    ),
    time_zone=ZONES,
)
def test_datetimes_in_any_zone_are_shown_as_the_serializer_shows_them(moment, time_zone):
    # Values as a create or patch leaves them on the instance, not only as databases return them.
    sample = Sample(id=1, moment=moment)
    with timezone.override(zoneinfo.ZoneInfo(time_zone)):
        for serializer_class in (ColumnsSerializer, DeclaredColumnsSerializer):
            shown = representation_of(serializer_class)(sample)
            assert shown == serializer_data(serializer_class, sample)


@pytest.mark.parametrize(
    "rest_framework",
    [
        {"COERCE_DECIMAL_TO_STRING": False},
        pytest.param(
            {"COERCE_BIGINT_TO_STRING": True},
            marks=pytest.mark.skipif(
                not hasattr(fields, "BigIntegerField"),
                reason="COERCE_BIGINT_TO_STRING came with DRF 3.17",
            ),
        ),
        {"DATETIME_FORMAT": "%Y-%m-%d %H:%M", "DATE_FORMAT": "%d %b %Y", "TIME_FORMAT": None},
    ],
)
def test_drf_settings_apply_as_they_do_to_the_serializer(rest_framework):
    owner = Person.objects.create(name="Owner")
    sample = Sample.objects.create(
        char="é",
        amount=decimal.Decimal("12.50"),
        big=2**60,
        moment=datetime.datetime(2024, 5, 1, 12, 30, tzinfo=datetime.timezone.utc),
        day=datetime.date(2024, 5, 1),
        clock=datetime.time(7, 45, 3),
        uid=uuid.UUID(int=7),
        owner=owner,
    )
    with override_settings(REST_FRAMEWORK=rest_framework):
        shown = representation_of(ColumnsSerializer)(sample)
        assert shown == serializer_data(ColumnsSerializer, sample)
    # The setting did change what is shown.
    assert shown != representation_of(ColumnsSerializer)(sample)


def test_only_keeps_the_serializer_order_and_many_keeps_the_records_order():
    first = Sample.objects.create(char="a", integer=1)
    second = Sample.objects.create(char="b", integer=2)
    representation = representation_of(ColumnsSerializer)
    limited = representation.only(["integer", "char", "id"])
    assert limited.many([second, first]) == [
        {"id": second.pk, "char": "b", "integer": 2},
        {"id": first.pk, "char": "a", "integer": 1},
    ]
    assert list(limited(first)) == ["id", "char", "integer"]
    assert representation.only(["integer", "char", "id"]) is limited


def test_write_only_fields_are_never_shown():
    class WithWriteOnly(ColumnsSerializer):
        class Meta(ColumnsSerializer.Meta):
            extra_kwargs = {"secret": {"write_only": True}}

    sample = Sample.objects.create(secret="hunter2")
    shown = representation_of(WithWriteOnly)(sample)
    assert "secret" not in shown
    assert shown == serializer_data(WithWriteOnly, sample)


# What only the serializer can show --------------------------------------------------------


class MethodFieldSerializer(ColumnsSerializer):
    shout = serializers.SerializerMethodField()

    class Meta(ColumnsSerializer.Meta):
        fields = ["id", "char", "shout"]

    def get_shout(self, sample):
        return sample.char.upper()


class DottedSourceSerializer(ColumnsSerializer):
    ownerName = serializers.CharField(source="owner.name", read_only=True)

    class Meta(ColumnsSerializer.Meta):
        fields = ["id", "ownerName"]


class UpperCharField(serializers.CharField):
    def to_representation(self, value):
        return super().to_representation(value).upper()


class FieldSubclassSerializer(ColumnsSerializer):
    char = UpperCharField()

    class Meta(ColumnsSerializer.Meta):
        fields = ["id", "char"]


class OwnRepresentationSerializer(ColumnsSerializer):
    class Meta(ColumnsSerializer.Meta):
        fields = ["id", "char"]

    def to_representation(self, instance):
        return {**super().to_representation(instance), "kind": "sample"}


class OwnListSerializer(serializers.ListSerializer):
    pass


class CustomListSerializer(ColumnsSerializer):
    class Meta(ColumnsSerializer.Meta):
        fields = ["id", "char"]
        list_serializer_class = OwnListSerializer


class PropertySourceSerializer(ColumnsSerializer):
    label = serializers.ReadOnlyField(source="__str__")

    class Meta(ColumnsSerializer.Meta):
        fields = ["id", "label"]


class PrimaryKeyFieldSerializer(ColumnsSerializer):
    owner = serializers.PrimaryKeyRelatedField(read_only=True, pk_field=serializers.CharField())

    class Meta(ColumnsSerializer.Meta):
        fields = ["id", "owner"]


class OwnFieldsSerializer(ColumnsSerializer):
    class Meta(ColumnsSerializer.Meta):
        fields = ["id", "char"]

    def get_fields(self):
        return super().get_fields()


@pytest.mark.parametrize(
    "serializer_class",
    [
        MethodFieldSerializer,
        DottedSourceSerializer,
        FieldSubclassSerializer,
        OwnRepresentationSerializer,
        CustomListSerializer,
        PropertySourceSerializer,
        PrimaryKeyFieldSerializer,
        OwnFieldsSerializer,
    ],
)
def test_serializers_representing_records_their_own_way_are_left_to_themselves(serializer_class):
    assert Representation.of(serializer_class(), model=Sample) is None


class SampleService(ModelService):
    authentication_classes = []
    queryset = Sample.objects.all()


class OwnRepresentationService(SampleService):
    serializer_class = OwnRepresentationSerializer


class MethodFieldService(SampleService):
    serializer_class = MethodFieldSerializer


class ColumnsService(SampleService):
    serializer_class = ColumnsSerializer
    private_fields = ["secret"]
    paginate = {"default": 10, "max": 50}


def test_a_service_answers_what_its_own_serializer_shows(api, serve):
    serve({"own": HERE + "OwnRepresentationService", "method": HERE + "MethodFieldService"})
    sample = Sample.objects.create(char="quiet")
    assert body(api.get(f"/own/{sample.pk}")) == {
        "id": sample.pk,
        "char": "quiet",
        "kind": "sample",
    }
    assert body(api.get("/own")) == [{"id": sample.pk, "char": "quiet", "kind": "sample"}]
    assert body(api.get(f"/method/{sample.pk}")) == {
        "id": sample.pk,
        "char": "quiet",
        "shout": "QUIET",
    }


def test_a_service_answers_what_drf_would_for_every_method(api, serve):
    serve({"samples": HERE + "ColumnsService"})
    moment = "2024-05-01T12:30:00Z"
    created = api.post(
        "/samples", {"char": "a", "amount": "3.10", "moment": moment, "secret": "s"}, format="json"
    )
    assert created.status_code == 201, created.content
    sample = Sample.objects.get()
    expected = serializer_data(ColumnsSerializer, sample)
    del expected["secret"]
    assert body(created) == expected
    assert body(api.get(f"/samples/{sample.pk}")) == expected
    assert body(api.get("/samples"))["data"] == [expected]
    assert body(api.get(f"/samples/{sample.pk}?$select[]=amount&$select[]=char")) == {
        "id": sample.pk,
        "char": "a",
        "amount": "3.10",
    }

    patched = api.patch(f"/samples/{sample.pk}", {"integer": 5}, format="json")
    expected["integer"] = 5
    assert body(patched) == expected
    assert body(api.delete(f"/samples/{sample.pk}")) == expected
    assert not Sample.objects.exists()


def test_a_setting_change_is_seen_by_the_next_call(api, serve):
    serve({"samples": HERE + "ColumnsService"})
    sample = Sample.objects.create(amount=decimal.Decimal("3.10"))
    assert body(api.get(f"/samples/{sample.pk}"))["amount"] == "3.10"
    with override_settings(REST_FRAMEWORK={"COERCE_DECIMAL_TO_STRING": False}):
        assert body(api.get(f"/samples/{sample.pk}"))["amount"] == 3.1
    assert body(api.get(f"/samples/{sample.pk}"))["amount"] == "3.10"


class InstancesOnlyService(ColumnsService):
    """Shows records its own way: it asks for model instances, the serializer path."""

    representation_class = None

    def represent(self, instance, *, many=False):
        records = instance if many else [instance]
        assert all(isinstance(record, Sample) for record in records)
        return super().represent(instance, many=many)


def page_select(api, path):
    """The answer of a find, and the columns of the SELECT reading its page."""
    with CaptureQueriesContext(connection) as queries:
        answer = body(api.get(path))
    (select,) = [q["sql"] for q in queries.captured_queries if "COUNT(" not in q["sql"]]
    selected = select.split(" FROM ")[0]
    fields = Sample._meta.concrete_fields
    return answer, {field.name for field in fields if f'"{field.column}"' in selected}


def test_a_find_reads_only_the_columns_it_shows(api, serve):
    serve({"samples": HERE + "ColumnsService"})
    sample = Sample.objects.create(char="a", integer=3, secret="s")
    expected = serializer_data(ColumnsSerializer, sample)
    del expected["secret"]

    answer, columns = page_select(api, "/samples")
    assert answer["data"] == [expected]
    assert "secret" not in columns  # a private field is not even read
    assert columns == set(expected)

    answer, columns = page_select(api, "/samples?$select[]=char&$select[]=integer")
    assert answer["data"] == [{"id": sample.pk, "char": "a", "integer": 3}]
    assert columns == {"id", "char", "integer"}


class ContextService(ColumnsService):
    """Adds to the serializer context: nothing about how records are read changes."""

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "tenant": "north"}


class SerializerPathService(ColumnsService):
    """The plain serializer path, chosen explicitly."""

    representation_class = None


def test_a_context_override_keeps_the_sql_and_the_fast_path(api, serve):
    serve({"plain": HERE + "ColumnsService", "context": HERE + "ContextService"})
    Sample.objects.create(char="a", integer=3, secret="s")

    plain = page_select(api, "/plain")
    assert page_select(api, "/context") == plain
    assert "secret" not in plain[1]


def test_the_serializer_path_is_an_explicit_policy(api, serve):
    serve({"plain": HERE + "ColumnsService", "serializer": HERE + "SerializerPathService"})
    Sample.objects.create(char="a", integer=3, secret="s")

    answer, columns = page_select(api, "/serializer")
    assert answer == page_select(api, "/plain")[0]
    assert "secret" in columns  # model instances, read whole


@pytest.mark.parametrize(
    ("serializer", "queryset", "reason"),
    [
        (ColumnsSerializer, Sample.objects.all(), None),
        (OwnRepresentationSerializer, Sample.objects.all(), "overrides to_representation"),
        (MethodFieldSerializer, Sample.objects.all(), "field 'shout' is a SerializerMethodField"),
        (ColumnsSerializer, Sample.objects.prefetch_related("owner"), "prefetches"),
        (ColumnsSerializer, Sample.objects.distinct(), "DISTINCT"),
        (ColumnsSerializer, Sample.objects.values("id"), "other than model instances"),
    ],
)
def test_why_a_representation_declines(serializer, queryset, reason):
    declined = Representation.declines(serializer(), queryset)

    if reason is None:
        assert declined is None
    else:
        assert reason in declined


class LabelSerializer(serializers.ModelSerializer):
    class Meta:
        model = Label
        fields = ["id", "text"]


class LabelService(ModelService):
    authentication_classes = []
    queryset = Label.objects.order_by("pk")
    serializer_class = LabelSerializer


def test_a_column_read_through_a_descriptor_of_its_own_is_shown_as_read(api, serve):
    serve({"labels": HERE + "LabelService"})
    label = Label.objects.create(text="quiet")
    assert Label.objects.values_list("text", flat=True).get() == "quiet"  # as stored

    assert body(api.get("/labels")) == [{"id": label.pk, "text": "QUIET"}]
    assert body(api.get(f"/labels/{label.pk}")) == {"id": label.pk, "text": "QUIET"}


def test_a_find_whose_records_must_be_instances_gets_them(api, serve):
    serve({"samples": HERE + "InstancesOnlyService"})
    sample = Sample.objects.create(char="a", secret="s")
    expected = serializer_data(ColumnsSerializer, sample)
    del expected["secret"]

    answer, columns = page_select(api, "/samples")
    assert answer["data"] == [expected]
    assert "secret" in columns  # the whole record, as a model instance

    def note(sender, instance, **kwargs):
        instance.char = instance.char.upper()

    # Instances the model builds its own way are built that way.
    post_init.connect(note, sender=Sample)
    try:
        serve({"samples": HERE + "ColumnsService"})
        answer, _ = page_select(api, "/samples")
    finally:
        post_init.disconnect(note, sender=Sample)
    assert answer["data"] == [{**expected, "char": "A"}]
