"""
`ModelService` on Feathers' adapter semantics (CONTRACT §1, §3, §5, and Feathers'
adapter-tests `methods.ts`), for a service keyed by the primary key and one keyed by `customid`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest

from django_services.errors import MethodNotAllowed
from django_services.server import Params, get_service
from tests.server.http import M, assert_error, body, send
from tests.testapp.models import Note, Person, PersonCustomId

pytestmark = pytest.mark.django_db

_ids = itertools.count(1)


@dataclass
class Variant:
    """One service under test: its path, id field and model, and a way to add records."""

    path: str
    id_field: str
    model: type

    def make(self, name, age=None, created=False):
        extra = {"customid": f"{name.lower()}-{next(_ids)}"} if self.id_field == "customid" else {}
        record = self.model.objects.create(name=name, age=age, created=created, **extra)
        return str(getattr(record, self.id_field))

    def stored(self, id):
        return self.model.objects.filter(**{self.id_field: id}).values("name", "age").first()

    def url(self, id=None, query=""):
        path = f"/{self.path}" if id is None else f"/{self.path}/{id}"
        return f"{path}?{query}" if query else path


@pytest.fixture(params=["people", "custom"])
def svc(request, serve):
    serve(
        {
            "people": M + "PersonService",
            "custom": M + "PersonCustomIdService",
            "multi/people": {"class": M + "PersonService", "multi": True},
            "multi/custom": {"class": M + "PersonCustomIdService", "multi": True},
        }
    )
    if request.param == "people":
        return Variant("people", "id", Person)
    return Variant("custom", "customid", PersonCustomId)


@pytest.fixture
def multi(svc, serve):
    """The same service with `multi` on, and pagination {default: 10, max: 100}."""
    service_class = M + ("PersonService" if svc.id_field == "id" else "PersonCustomIdService")
    serve(
        {
            svc.path: {
                "class": service_class,
                "multi": True,
                "paginate": {"default": 10, "max": 100},
            }
        }
    )
    return svc


def not_found(response, id):
    assert_error(response, "NotFound", f"No record found for id '{id}'", 404, "not-found")


# get ------------------------------------------------------------------------------------


def test_get(api, svc):
    doug = svc.make("Doug", 32)
    answer = body(api.get(svc.url(doug)))
    assert str(answer[svc.id_field]) == doug
    assert (answer["name"], answer["age"]) == ("Doug", 32)


def test_get_with_select(api, svc):
    doug = svc.make("Doug", 32)
    answer = body(api.get(svc.url(doug, "$select[]=name")))
    assert answer == {"name": "Doug", svc.id_field: answer[svc.id_field]}
    assert list(answer) == ["name", svc.id_field] or list(answer) == [svc.id_field, "name"]


def test_get_with_a_query_that_does_not_match(api, svc):
    doug = svc.make("Doug", 32)
    not_found(api.get(svc.url(doug, "name=Tester")), doug)


@pytest.mark.parametrize("id", ["568225fbfe21222432e836ff", "123456789", "0", "-1", "1.5"])
def test_get_unknown_ids(api, svc, id):
    svc.make("Doug", 32)
    not_found(api.get(svc.url(id)), id)


def test_get_with_a_query_on_another_id(api, svc):
    doug = svc.make("Doug", 32)
    alice = svc.make("Alice", 19)
    not_found(api.get(svc.url(doug, f"{svc.id_field}={alice}")), doug)


# find -----------------------------------------------------------------------------------


def test_find_without_pagination_is_a_list(api, svc):
    svc.make("Doug", 32)
    answer = body(api.get(svc.url()))
    assert isinstance(answer, list)
    assert len(answer) == 1


# create ---------------------------------------------------------------------------------


def test_create(api, svc):
    data = {"name": "Bill", "age": 40}
    if svc.id_field == "customid":
        data["customid"] = "bill"
    response = send(api, "POST", svc.url(), data)
    assert response.status_code == 201
    answer = body(response)
    assert (answer["name"], answer["age"], answer["created"]) == ("Bill", 40, False)
    assert svc.stored(answer[svc.id_field]) == {"name": "Bill", "age": 40}


def test_create_ignores_the_query(api, svc):
    data = {"name": "Billy", "customid": "billy"}
    response = send(api, "POST", svc.url(query="name=Dave&unknown[$weird]=1"), data)
    assert (response.status_code, body(response)["name"]) == (201, "Billy")


def test_create_with_select(api, svc):
    data = {"name": "William", "age": 23, "customid": "william"}
    answer = body(send(api, "POST", svc.url(query="$select[]=name"), data))
    assert set(answer) == {"name", svc.id_field}


def test_create_ignores_a_generated_id_in_the_body(api, serve):
    serve({"people": M + "PersonService"})
    response = send(api, "POST", "/people", {"id": 999, "name": "Ida"})
    answer = body(response)
    assert answer["id"] != 999
    assert Person.objects.get(pk=answer["id"]).name == "Ida"


def test_create_with_a_taken_custom_id_is_a_conflict(api, serve):
    serve({"custom": M + "PersonCustomIdService"})
    send(api, "POST", "/custom", {"customid": "taken", "name": "First"})
    assert_error(
        send(api, "POST", "/custom", {"customid": "taken", "name": "Second"}),
        "Conflict",
        "A record with customid 'taken' already exists",
        409,
        "conflict",
    )
    assert PersonCustomId.objects.get(customid="taken").name == "First"


def test_create_validation_errors_per_field(api, svc):
    assert_error(
        send(api, "POST", svc.url(), {"age": "old"}),
        "BadRequest",
        (
            "customid: This field is required.; name: This field is required.; "
            if svc.id_field == "customid"
            else "name: This field is required.; "
        )
        + "age: A valid integer is required.",
        400,
        "bad-request",
        errors={
            **({"customid": ["This field is required."]} if svc.id_field == "customid" else {}),
            "name": ["This field is required."],
            "age": ["A valid integer is required."],
        },
    )


@pytest.mark.parametrize("data", [[], [{"name": "A", "customid": "a"}]])
def test_multi_create_is_off_by_default(api, svc, data):
    assert_error(
        send(api, "POST", svc.url(), data),
        "MethodNotAllowed",
        "Can not create multiple entries",
        405,
        "method-not-allowed",
    )
    assert svc.model.objects.count() == 0


def test_multi_create(api, multi):
    items = [
        {"name": "Gerald", "age": 18, "customid": "gerald"},
        {"name": "Herald", "age": 18, "customid": "herald"},
    ]
    response = send(api, "POST", multi.url(), items)
    assert response.status_code == 201
    answer = body(response)
    assert [item["name"] for item in answer] == ["Gerald", "Herald"]
    assert all(item[multi.id_field] is not None for item in answer)
    assert body(send(api, "POST", multi.url(), [])) == []


# update ---------------------------------------------------------------------------------


def test_update_replaces_the_record(api, svc):
    doug = svc.make("Doug", 32, created=True)
    response = send(api, "PUT", svc.url(doug), {"name": "Dougler", svc.id_field: "other-99"})
    assert response.status_code == 200
    answer = body(response)
    assert str(answer[svc.id_field]) == doug
    # Fields not sent go back to their defaults (created=False) or null (age).
    assert (answer["name"], answer["age"], answer["created"]) == ("Dougler", None, False)
    assert svc.stored(doug) == {"name": "Dougler", "age": None}


def test_update_with_select(api, svc):
    doug = svc.make("Doug", 32)
    answer = body(send(api, "PUT", svc.url(doug, "$select[]=name"), {"name": "Dougler"}))
    assert set(answer) == {"name", svc.id_field}


def test_update_with_a_query_that_does_not_match_writes_nothing(api, svc):
    doug = svc.make("Doug", 32)
    not_found(send(api, "PUT", svc.url(doug, "name=Tester"), {"name": "Dougler"}), doug)
    assert svc.stored(doug) == {"name": "Doug", "age": 32}


def test_update_unknown_ids(api, svc):
    not_found(
        send(api, "PUT", svc.url("568225fbfe21222432e836ff"), {"name": "X"}),
        "568225fbfe21222432e836ff",
    )
    not_found(send(api, "PUT", svc.url("123456789"), {"name": "X"}), "123456789")


def test_update_with_a_query_on_another_id(api, svc):
    doug = svc.make("Doug", 32)
    alice = svc.make("Alice", 19)
    not_found(send(api, "PUT", svc.url(doug, f"{svc.id_field}={alice}"), {"name": "X"}), doug)
    assert svc.stored(doug)["name"] == "Doug"


def test_update_validates_the_whole_record(api, svc):
    doug = svc.make("Doug", 32)
    response = send(api, "PUT", svc.url(doug), {"age": 3})
    assert response.status_code == 400
    assert body(response)["errors"] == {"name": ["This field is required."]}
    assert svc.stored(doug) == {"name": "Doug", "age": 32}


def test_update_without_id_or_with_an_array(api, multi):
    doug = multi.make("Doug", 32)
    for path, data in ((multi.url(), {"name": "X"}), (multi.url(doug), [{"name": "X"}])):
        assert_error(
            send(api, "PUT", path, data),
            "BadRequest",
            "You can not replace multiple instances. Did you mean 'patch'?",
            400,
            "bad-request",
        )
    assert multi.stored(doug)["name"] == "Doug"


# patch ----------------------------------------------------------------------------------


def test_patch_merges(api, svc):
    doug = svc.make("Doug", 32)
    answer = body(send(api, "PATCH", svc.url(doug), {"name": "PatchDoug", svc.id_field: "x"}))
    assert str(answer[svc.id_field]) == doug
    assert (answer["name"], answer["age"]) == ("PatchDoug", 32)
    assert svc.stored(doug) == {"name": "PatchDoug", "age": 32}


def test_patch_with_select(api, svc):
    doug = svc.make("Doug", 32)
    answer = body(send(api, "PATCH", svc.url(doug, "$select[]=name"), {"name": "PatchDoug"}))
    assert set(answer) == {"name", svc.id_field}


def test_patch_with_a_query_that_does_not_match_writes_nothing(api, svc):
    doug = svc.make("Doug", 32)
    not_found(send(api, "PATCH", svc.url(doug, "name=Tester"), {"name": "PatchDoug"}), doug)
    assert svc.stored(doug)["name"] == "Doug"


def test_patch_unknown_ids_and_other_ids(api, svc):
    doug = svc.make("Doug", 32)
    alice = svc.make("Alice", 19)
    not_found(send(api, "PATCH", svc.url("123456789"), {"name": "X"}), "123456789")
    not_found(send(api, "PATCH", svc.url(doug, f"{svc.id_field}={alice}"), {"name": "X"}), doug)
    assert svc.stored(doug)["name"] == "Doug"


def test_multi_patch_is_off_by_default(api, svc):
    svc.make("Doug", 32)
    assert_error(
        send(api, "PATCH", svc.url(), {"age": 2}),
        "MethodNotAllowed",
        "Can not patch multiple entries",
        405,
        "method-not-allowed",
    )
    assert svc.model.objects.filter(age=2).count() == 0


def test_multi_patch(api, multi):
    multi.make("Doug", 32)
    dave = multi.make("Dave", 29, created=True)
    david = multi.make("David", 3, created=True)
    answer = body(send(api, "PATCH", multi.url(query="created=true"), {"age": 2}))
    assert sorted(str(item[multi.id_field]) for item in answer) == sorted([dave, david])
    assert all(item["age"] == 2 for item in answer)
    assert multi.model.objects.filter(age=2).count() == 2


def test_multi_patch_ignores_pagination_and_limit(api, multi):
    for index in range(14):
        multi.make(f"Test {index}", 10, created=True)
    assert body(api.get(multi.url(query="created=true")))["total"] == 14
    answer = body(send(api, "PATCH", multi.url(query="created=true&$limit=3"), {"age": 2}))
    assert len(answer) == 14
    assert multi.model.objects.filter(age=2).count() == 14


def test_multi_patch_returns_the_records_found_before_the_patch(api, multi):
    multi.make("Dave", 8)
    multi.make("David", 10)
    answer = body(send(api, "PATCH", multi.url(query="age[$lt]=10"), {"age": 2}))
    assert [item["name"] for item in answer] == ["Dave"]
    answer = body(send(api, "PATCH", multi.url(query="age=2"), {"age": 10}))
    assert [(item["name"], item["age"]) for item in answer] == [("Dave", 10)]
    answer = body(send(api, "PATCH", multi.url(query="age=10&$sort[name]=-1"), {"age": 2}))
    assert [(item["name"], item["age"]) for item in answer] == [("David", 2), ("Dave", 2)]


def test_multi_patch_with_select(api, multi):
    multi.make("Dave", 8)
    answer = body(send(api, "PATCH", multi.url(query="$select[]=age"), {"age": 2}))
    assert [set(item) for item in answer] == [{"age", multi.id_field}]


# remove ---------------------------------------------------------------------------------


def test_remove_returns_the_removed_record(api, svc):
    doug = svc.make("Doug", 32)
    response = send(api, "DELETE", svc.url(doug))
    assert response.status_code == 200
    answer = body(response)
    assert (str(answer[svc.id_field]), answer["name"]) == (doug, "Doug")
    assert svc.stored(doug) is None


def test_remove_with_select(api, svc):
    doug = svc.make("Doug", 32)
    answer = body(send(api, "DELETE", svc.url(doug, "$select[]=name")))
    assert set(answer) == {"name", svc.id_field}


def test_remove_with_a_query_that_does_not_match_deletes_nothing(api, svc):
    doug = svc.make("Doug", 32)
    alice = svc.make("Alice", 19)
    not_found(send(api, "DELETE", svc.url(doug, "name=Tester")), doug)
    not_found(send(api, "DELETE", svc.url(doug, f"{svc.id_field}={alice}")), doug)
    not_found(send(api, "DELETE", svc.url("123456789")), "123456789")
    assert svc.stored(doug) is not None


def test_multi_remove_is_off_by_default(api, svc):
    svc.make("Doug", 32)
    assert_error(
        send(api, "DELETE", svc.url(query="name=Doug")),
        "MethodNotAllowed",
        "Can not remove multiple entries",
        405,
        "method-not-allowed",
    )
    assert svc.model.objects.count() == 1


def test_multi_remove(api, multi):
    multi.make("Doug", 32)
    multi.make("Dave", 29, created=True)
    multi.make("David", 3, created=True)
    answer = body(send(api, "DELETE", multi.url(query="created=true&$select[]=name")))
    assert sorted(item["name"] for item in answer) == ["Dave", "David"]
    assert [set(item) for item in answer] == [{"name", multi.id_field}] * 2
    assert list(multi.model.objects.values_list("name", flat=True)) == ["Doug"]


def test_multi_remove_ignores_pagination_and_limit(api, multi):
    for index in range(14):
        multi.make(f"Test {index}", created=True)
    assert len(body(api.get(multi.url(query="created=true")))["data"]) == 10
    answer = body(send(api, "DELETE", multi.url(query="created=true&$limit=2")))
    assert len(answer) == 14
    assert multi.model.objects.count() == 0


def test_multi_list_option(api, serve):
    serve({"people": {"class": M + "PersonService", "multi": ["remove"]}})
    Person.objects.create(name="A")
    assert send(api, "PATCH", "/people", {"age": 1}).status_code == 405
    assert send(api, "POST", "/people", []).status_code == 405
    assert len(body(send(api, "DELETE", "/people"))) == 1


# ids ------------------------------------------------------------------------------------


def test_custom_id_is_the_only_key(api, serve):
    serve({"custom": M + "PersonCustomIdService"})
    record = PersonCustomId.objects.create(customid="a b/c%", name="Odd")
    answer = body(api.get("/custom/a%20b%2Fc%25", RAW_URI="/custom/a%20b%2Fc%25"))
    assert answer["customid"] == "a b/c%"
    not_found(api.get(f"/custom/{record.pk}"), str(record.pk))


def test_id_field_must_be_unique(api, serve):
    serve({"people": {"class": M + "PersonService", "id_field": "name"}})
    Person.objects.create(name="A")
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="must be a unique field of Person"):
        api.get("/people/A")


# transactions ---------------------------------------------------------------------------


@pytest.fixture
def todos(serve):
    serve(
        {
            "todos": {"class": M + "TodoService", "multi": True},
            "guarded": {"class": M + "GuardedTodoService", "multi": True},
        }
    )
    from tests.testapp.models import Todo

    return Todo


def test_multi_create_failing_half_way_writes_nothing(api, todos):
    response = send(api, "POST", "/todos", [{"text": "one"}, {"text": "two"}, {"text": "boom"}])
    assert response.status_code == 400
    answer = body(response)
    assert answer["errors"] == {"2": {"text": ["Todos may not explode."]}}
    assert answer["message"] == "item 2: text: Todos may not explode."
    assert todos.objects.count() == 0


def test_multi_create_colliding_ids_writes_nothing(api, serve):
    serve({"custom": {"class": M + "PersonCustomIdService", "multi": True}})
    PersonCustomId.objects.create(customid="taken", name="First")
    items = [{"customid": "new", "name": "A"}, {"customid": "taken", "name": "B"}]
    response = send(api, "POST", "/custom", items)
    assert_error(
        response, "Conflict", "A record with customid 'taken' already exists", 409, "conflict"
    )
    items = [{"customid": "twice", "name": "A"}, {"customid": "twice", "name": "B"}]
    response = send(api, "POST", "/custom", items)
    assert response.status_code == 409
    assert list(PersonCustomId.objects.values_list("customid", flat=True)) == ["taken"]


def test_multi_patch_failing_half_way_writes_nothing(api, todos):
    for text in ("a", "frozen", "b"):
        todos.objects.create(text=text)
    response = send(api, "PATCH", "/todos", {"complete": True})
    assert_error(response, "Conflict", "Frozen todos cannot change", 409, "conflict")
    assert todos.objects.filter(complete=True).count() == 0
    response = send(api, "PATCH", "/todos", {"text": "boom"})
    assert response.status_code == 400
    assert sorted(todos.objects.values_list("text", flat=True)) == ["a", "b", "frozen"]


def test_multi_remove_failing_half_way_deletes_nothing(api, todos):
    for text in ("a", "frozen", "b"):
        todos.objects.create(text=text)
    response = send(api, "DELETE", "/todos")
    assert_error(response, "Conflict", "Frozen todos cannot change", 409, "conflict")
    assert todos.objects.count() == 3
    assert len(body(send(api, "DELETE", "/todos?text[$ne]=frozen"))) == 2


def test_object_permissions_guard_every_record(api, todos):
    mine = todos.objects.create(text="mine 1")
    theirs = todos.objects.create(text="theirs")
    assert api.get(f"/guarded/{mine.pk}").status_code == 200
    assert api.get(f"/guarded/{theirs.pk}").status_code == 403
    assert send(api, "PATCH", f"/guarded/{theirs.pk}", {"text": "mine now"}).status_code == 403
    response = send(api, "DELETE", "/guarded")
    assert_error(
        response,
        "Forbidden",
        "You do not have permission to perform this action.",
        403,
        "forbidden",
    )
    assert todos.objects.count() == 2
    assert send(api, "DELETE", "/guarded?text[$ne]=theirs").status_code == 200
    assert list(todos.objects.values_list("text", flat=True)) == ["theirs"]


# route placeholders, custom methods, internal calls -----------------------------------------


def test_service_scoped_by_a_route_placeholder(api, serve):
    serve({"users/:userId/notes": M + "NoteService"})
    response = send(api, "POST", "/users/7/notes", {"text": "for seven", "user_id": 1})
    assert response.status_code == 201
    note = body(response)
    assert note["user_id"] == 7
    Note.objects.create(text="for eight", user_id=8)
    assert [item["text"] for item in body(api.get("/users/7/notes"))] == ["for seven"]
    not_found(api.get(f"/users/8/notes/{note['id']}"), str(note["id"]))
    assert_error(api.get("/users/x/notes"), "BadRequest", "Invalid userId 'x'", 400, "bad-request")


def test_custom_method_of_a_model_service(api, serve):
    serve({"messages": M + "MessageService"})
    send(api, "POST", "/messages", {"text": "a", "userId": 1})
    send(api, "POST", "/messages", {"text": "b", "userId": 2})
    response = send(api, "POST", "/messages", {"userId": 1}, HTTP_X_SERVICE_METHOD="mark_all_read")
    assert (response.status_code, body(response)) == (200, {"updated": 1})
    assert [item["text"] for item in body(api.get("/messages?read=true"))] == ["a"]


def test_a_custom_method_can_act_on_what_the_query_matches(api, serve):
    serve({"messages": M + "MessageService"})
    for text, user in [("a", 1), ("b", 2), ("c", 3)]:
        send(api, "POST", "/messages", {"text": text, "userId": user})
    response = send(
        api,
        "POST",
        "/messages?userId[$gte]=2&$limit=1",
        {},
        HTTP_X_SERVICE_METHOD="markMatchingRead",
    )
    assert (response.status_code, body(response)) == (200, {"updated": 2})
    assert sorted(item["text"] for item in body(api.get("/messages?read=true"))) == ["b", "c"]
    refused = send(api, "POST", "/messages?nope=1", {}, HTTP_X_SERVICE_METHOD="markMatchingRead")
    assert refused.status_code == 400


def test_internal_calls(serve):
    serve({"people": {"class": M + "PersonService", "paginate": {"default": 1, "max": 5}}})
    people = get_service("people")
    created = people.create({"name": "Ada", "age": 36}, Params())
    people.create({"name": "Bob", "age": 20}, Params())
    page = people.find(Params(query={"$sort": {"name": "1"}, "$limit": "5"}))
    assert (page["total"], [item["name"] for item in page["data"]]) == (2, ["Ada", "Bob"])
    assert people.get(created["id"], Params())["name"] == "Ada"
    assert people.patch(created["id"], {"age": 37}, Params())["age"] == 37
    assert people.remove(created["id"], Params(query={"$select": ["name"]})) == {
        "name": "Ada",
        "id": created["id"],
    }
    with pytest.raises(MethodNotAllowed, match="Can not create multiple entries"):
        people.create([{"name": "C"}], Params())
    assert list(Person.objects.values_list("name", flat=True)) == ["Bob"]
