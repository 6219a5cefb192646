"""
The example's services over real HTTP, called with the package's Python client: what the
README promises a user of the running example.
"""

from __future__ import annotations

import pytest

from django_services import errors

from .conftest import DEMO_EMAIL, DEMO_PASSWORD, FRIEND_EMAIL, NEW_PASSWORD
from .project import manage

SEEDED_FOR_DEMO = [
    ("Read the django-feathers README", True),
    ("Log in on the demo page", False),
    ("Add a todo from the browser", False),
    ("Try markAllComplete", False),
]


# Authentication --------------------------------------------------------------------------


def test_the_demo_user_logs_in_with_the_seeded_password(connect):
    result = connect().authenticate(
        {"strategy": "local", "email": DEMO_EMAIL, "password": DEMO_PASSWORD}
    )

    user = result["user"]
    assert user == {"id": user["id"], "email": DEMO_EMAIL}
    assert result["authentication"]["strategy"] == "local"
    assert result["authentication"]["payload"]["sub"] == str(user["id"])
    assert result["accessToken"].count(".") == 2


def test_a_wrong_password_is_an_invalid_login(connect):
    with pytest.raises(errors.NotAuthenticated) as caught:
        connect().authenticate(
            {"strategy": "local", "email": DEMO_EMAIL, "password": "not the password"}
        )

    assert caught.value.message == "Invalid login"


@pytest.mark.parametrize(
    "path", ["todos", "api/v1/messages", "users", "users/1/notes"], ids=lambda path: path
)
def test_every_service_but_sign_up_needs_credentials(connect, path):
    with pytest.raises(errors.NotAuthenticated) as caught:
        connect().service(path).find()

    assert caught.value.code == 401


def test_after_logout_the_client_no_longer_sends_the_token(log_in, sign_up):
    user = sign_up()
    account = log_in(user["email"], user["password"])
    assert account.app.service("todos").find() == []

    result = account.app.logout()

    assert result["user"]["email"] == user["email"]
    with pytest.raises(errors.NotAuthenticated):
        account.app.service("todos").find()


# todos ----------------------------------------------------------------------------------


def test_the_demo_user_sees_the_seeded_todos(demo):
    todos = demo.app.service("todos").find(query={"$sort": {"id": 1}})

    seeded = [(todo["text"], todo["complete"]) for todo in todos[: len(SEEDED_FOR_DEMO)]]
    assert seeded == SEEDED_FOR_DEMO
    assert {todo["userId"] for todo in todos} == {demo.id}


def test_todos_create_get_patch_update_and_remove(newcomer):
    todos = newcomer.app.service("todos")

    created = todos.create({"text": "Write the example's tests"})
    assert created == {
        "id": created["id"],
        "text": "Write the example's tests",
        "complete": False,
        "userId": newcomer.id,
    }
    assert todos.get(created["id"]) == created
    assert todos.find() == [created]

    patched = todos.patch(created["id"], {"complete": True})
    assert patched == {**created, "complete": True}
    replaced = todos.update(created["id"], {"text": "Run them"})
    assert replaced == {**created, "text": "Run them", "complete": False}

    assert todos.remove(created["id"]) == replaced
    assert todos.find() == []
    with pytest.raises(errors.NotFound) as caught:
        todos.get(created["id"])
    assert caught.value.message == f"No record found for id '{created['id']}'"


def test_todos_belong_to_their_owner(newcomer, demo):
    mine = newcomer.app.service("todos").create({"text": "Mine only"})
    theirs = demo.app.service("todos").find(query={"$limit": 1})[0]

    assert theirs["id"] not in [todo["id"] for todo in newcomer.app.service("todos").find()]
    with pytest.raises(errors.NotFound):
        newcomer.app.service("todos").get(theirs["id"])
    with pytest.raises(errors.NotFound):
        newcomer.app.service("todos").patch(theirs["id"], {"text": "Taken over"})
    with pytest.raises(errors.NotFound):
        demo.app.service("todos").remove(mine["id"])
    assert newcomer.app.service("todos").get(mine["id"]) == mine


def test_the_user_id_of_a_todo_is_the_caller_s(newcomer, demo):
    created = newcomer.app.service("todos").create({"text": "Mine", "userId": demo.id})

    assert created["userId"] == newcomer.id


def test_an_invalid_todo_is_a_bad_request_naming_the_field(newcomer):
    with pytest.raises(errors.BadRequest) as caught:
        newcomer.app.service("todos").create({"text": ""})

    assert caught.value.errors == {"text": ["This field may not be blank."]}
    assert newcomer.app.service("todos").find() == []


def test_mark_all_complete_completes_the_caller_s_open_todos(newcomer, demo):
    todos = newcomer.app.service("todos")
    todos.create({"text": "a"})
    todos.create({"text": "b"})
    done = todos.create({"text": "c"})
    todos.patch(done["id"], {"complete": True})
    demo_open = demo.app.service("todos").find(query={"complete": False})

    assert todos.markAllComplete({}) == {"updated": 2}

    assert [todo["complete"] for todo in todos.find()] == [True, True, True]
    assert todos.markAllComplete({}) == {"updated": 0}
    assert demo.app.service("todos").find(query={"complete": False}) == demo_open


def test_mark_all_complete_applies_the_query(newcomer):
    todos = newcomer.app.service("todos")
    first = todos.create({"text": "first"})
    second = todos.create({"text": "second"})

    result = todos.markAllComplete({}, query={"id": {"$in": [first["id"]]}})

    assert result == {"updated": 1}
    assert todos.get(first["id"])["complete"] is True
    assert todos.get(second["id"])["complete"] is False


def test_completed_todos_are_cleared_with_one_multi_remove(newcomer):
    todos = newcomer.app.service("todos")
    kept = todos.create({"text": "keep"})
    for text in ("done 1", "done 2"):
        todos.patch(todos.create({"text": text})["id"], {"complete": True})

    removed = todos.remove(None, query={"complete": True})

    assert sorted(todo["text"] for todo in removed) == ["done 1", "done 2"]
    assert todos.find() == [kept]


def test_todos_refuse_multi_patch(demo):
    with pytest.raises(errors.MethodNotAllowed) as caught:
        demo.app.service("todos").patch(None, {"complete": True})

    assert caught.value.message == "Can not patch multiple entries"


# api/v1/messages --------------------------------------------------------------------------


def test_messages_come_a_page_at_a_time(demo):
    messages = demo.app.service("api/v1/messages")

    first = messages.find()
    everything = messages.find(query={"$limit": 50, "$sort": {"id": 1}})
    page = messages.find(query={"$limit": 5, "$skip": 5, "$sort": {"id": 1}})

    assert list(first) == ["total", "limit", "skip", "data"]
    assert (first["limit"], first["skip"], len(first["data"])) == (10, 0, 10)
    assert first["total"] == everything["total"] >= 22
    assert page["total"] == everything["total"]
    assert (page["limit"], page["skip"]) == (5, 5)
    assert page["data"] == everything["data"][5:10]


def test_messages_cap_the_limit_at_fifty(demo):
    page = demo.app.service("api/v1/messages").find(query={"$limit": 500})

    assert page["limit"] == 50


def test_messages_are_seeded_as_a_conversation(demo, friend):
    messages = demo.app.service("api/v1/messages")
    page = messages.find(query={"$sort": {"id": 1}, "$limit": 22})

    authors = [message["userId"] for message in page["data"]]
    assert authors == [demo.id, friend.id] * 11
    assert page["data"][0]["text"] == "Hello! Is this chat served by Feathers?"


def test_messages_can_be_filtered_sorted_and_searched(demo, friend):
    messages = demo.app.service("api/v1/messages")

    by_friend = messages.find(query={"userId": friend.id, "$limit": 50})
    newest = messages.find(query={"$sort": {"createdAt": -1}, "$limit": 3})
    found = messages.find(query={"text": {"$ilike": "%DJANGO REST%"}})

    assert by_friend["total"] >= 11
    assert {message["userId"] for message in by_friend["data"]} == {friend.id}
    created = [message["createdAt"] for message in newest["data"]]
    assert created == sorted(created, reverse=True)
    assert [message["text"] for message in found["data"]] == [
        "By Django REST Framework, speaking the Feathers REST contract."
    ]


def test_a_new_message_is_written_by_the_caller(demo, friend):
    messages = friend.app.service("api/v1/messages")

    created = messages.create({"text": "Written by the tests", "userId": demo.id})

    assert created["userId"] == friend.id
    assert created["text"] == "Written by the tests"
    assert demo.app.service("api/v1/messages").get(created["id"]) == created
    messages.remove(created["id"])


def test_only_the_author_changes_a_message(demo, friend):
    created = friend.app.service("api/v1/messages").create({"text": "Hands off"})
    messages = demo.app.service("api/v1/messages")

    with pytest.raises(errors.Forbidden) as caught:
        messages.patch(created["id"], {"text": "Edited by someone else"})
    assert caught.value.message == "Only the author of a message can change it."
    with pytest.raises(errors.Forbidden):
        messages.remove(created["id"])

    assert messages.get(created["id"])["text"] == "Hands off"
    friend.app.service("api/v1/messages").remove(created["id"])


def test_a_message_query_naming_an_unknown_field_is_a_bad_request(demo):
    with pytest.raises(errors.BadRequest) as caught:
        demo.app.service("api/v1/messages").find(query={"author": "demo"})

    assert "author" in caught.value.message


# users --------------------------------------------------------------------------------------


def test_anyone_signs_up_and_the_password_is_never_sent(connect, log_in, example_server):
    users = connect().service("users")

    created = users.create({"email": "new@example.org", "password": NEW_PASSWORD})

    assert created == {"id": created["id"], "email": "new@example.org"}
    account = log_in("new@example.org", NEW_PASSWORD)
    assert account.user == created
    own = account.app.service("users")
    assert own.get(created["id"]) == created
    with pytest.raises(errors.BadRequest) as caught:
        own.patch(created["id"], {"password": "another granite orbit"})
    assert list(caught.value.errors) == ["oldPassword"]
    change = {"password": "another granite orbit", "oldPassword": NEW_PASSWORD}
    assert "password" not in own.patch(created["id"], change)
    # The new password ends the token that set it: the account logs in again with it.
    with pytest.raises(errors.NotAuthenticated, match="password change"):
        own.get(created["id"])
    own = log_in("new@example.org", "another granite orbit").app.service("users")
    # A find lists no one's account but the caller's.
    assert own.find(query={"$limit": 50})["data"] == [created]
    stored = manage(
        "shell",
        "--verbosity=0",
        "-c",
        "from accounts.models import User; "
        "print(User.objects.get(email='new@example.org').password)",
        database=example_server.database,
    )
    assert stored.startswith("pbkdf2_sha256$")
    assert "granite" not in stored


@pytest.mark.parametrize(
    "query",
    [{"password": "x"}, {"$select": ["password"]}, {"$sort": {"password": 1}}],
    ids=["filter", "select", "sort"],
)
def test_the_password_cannot_be_queried(demo, query):
    with pytest.raises(errors.BadRequest) as caught:
        demo.app.service("users").find(query=query)

    assert "password" in caught.value.message


def test_a_weak_password_is_refused(connect):
    with pytest.raises(errors.BadRequest) as caught:
        connect().service("users").create({"email": "weak@example.org", "password": "12345678"})

    assert "password" in caught.value.errors


def test_an_email_signs_up_once(connect):
    with pytest.raises(errors.BadRequest) as caught:
        connect().service("users").create({"email": DEMO_EMAIL, "password": NEW_PASSWORD})

    assert list(caught.value.errors) == ["email"]


def test_users_change_only_their_own_account_staff_too(demo, friend):
    for account, other in ((demo, friend), (friend, demo)):  # the demo user is staff
        with pytest.raises(errors.NotFound):
            account.app.service("users").patch(other.id, {"email": "stolen@example.org"})
    assert demo.app.service("users").get(friend.id)["email"] == FRIEND_EMAIL
    assert friend.app.service("users").get(demo.id)["email"] == DEMO_EMAIL


# users/:userId/notes ----------------------------------------------------------------------


def test_notes_are_those_of_the_user_in_the_path(demo):
    notes = demo.app.service("users/:userId/notes")

    found = notes.find(route={"userId": demo.id}, query={"$sort": {"id": 1}, "$limit": 2})

    assert [note["text"] for note in found] == [
        "Notes live at users/:userId/notes: only their owner can read them.",
        "The page gets a token from the local strategy, or from the Django session.",
    ]
    assert {note["userId"] for note in found} == {demo.id}


def test_a_note_is_created_for_the_user_in_the_path(newcomer):
    notes = newcomer.app.service("users/:userId/notes")
    route = {"userId": newcomer.id}

    created = notes.create({"text": "Remember the milk"}, route=route)

    assert created["userId"] == newcomer.id
    assert notes.find(route=route) == [created]
    assert notes.patch(created["id"], {"text": "Bought"}, route=route)["text"] == "Bought"
    assert notes.remove(created["id"], route=route)["id"] == created["id"]
    assert notes.find(route=route) == []


def test_notes_of_another_user_are_forbidden(demo, friend):
    notes = demo.app.service("users/:userId/notes")

    with pytest.raises(errors.Forbidden) as caught:
        notes.find(route={"userId": friend.id})
    assert caught.value.message == "You can only read and write your own notes."
    with pytest.raises(errors.Forbidden):
        notes.create({"text": "Planted"}, route={"userId": friend.id})


def test_a_note_id_of_another_user_is_not_found_under_one_s_own_path(demo, friend):
    friend_note = friend.app.service("users/:userId/notes").find(route={"userId": friend.id})[0]

    with pytest.raises(errors.NotFound):
        demo.app.service("users/:userId/notes").get(friend_note["id"], route={"userId": demo.id})
