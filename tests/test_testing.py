"""
`django_services.testing`: the in-process connections (no network) and the fixture pointing
remotes at the project itself.
"""

from __future__ import annotations

import pytest
from django.test import AsyncClient, Client, RequestFactory

from django_services.client import App
from django_services.client.remotes import RemoteDoesNotExist, remotes
from django_services.errors import Conflict, Forbidden, NotFound
from django_services.testing import (
    AsyncInProcessTransport,
    InProcessTransport,
    in_process_remote,
)
from tests.remotes.fixtures import EMAIL, SERVICE_EMAIL, remotes_settings

SERVICES = {
    "todos": "tests.client.services.TodoService",
    "headers": "tests.client.services.EchoService",
    "failing": "tests.client.services.FailingService",
    "caller": "tests.remotes.services.CallerService",
    "echo": "tests.remotes.services.EchoService",
}


@pytest.fixture(autouse=True)
def project(settings):
    settings.ROOT_URLCONF = "tests.remotes.urls"
    settings.DJANGO_SERVICES = {**remotes_settings("http://testserver"), "SERVICES": SERVICES}
    yield
    remotes.close_all()


def test_a_round_trip_through_the_project(db):
    app = App().configure(InProcessTransport(Client(), base="http://testserver"))
    todos = app.service("todos")

    created = todos.create({"text": "write tests"})
    patched = todos.patch(created["id"], {"complete": True})
    found = todos.find(query={"complete": True})
    removed = todos.remove(created["id"])
    with pytest.raises(NotFound):
        todos.get(created["id"])

    assert patched == {"id": created["id"], "text": "write tests", "complete": True}
    assert found == [patched]
    assert removed == patched


def test_errors_arrive_as_feathers_errors(db):
    app = App().configure(InProcessTransport(Client(), base="http://testserver"))

    with pytest.raises(Conflict) as raised:
        app.service("failing").get("conflict")

    assert raised.value.data == {"field": "name"}


def test_queries_and_headers_arrive_as_sent():
    options = {"headers": {"X-Api-Version": "3"}}
    app = App().configure(InProcessTransport(Client(), base="http://testserver", options=options))

    echoed = app.service("headers").find(query={"age": {"$gt": 18}, "$sort": {"name": -1}})

    assert echoed["query"] == {"age": {"$gt": "18"}, "$sort": {"name": "-1"}}
    assert echoed["headers"]["x-api-version"] == "3"


def test_the_test_client_s_cookies_are_neither_sent_nor_changed():
    client = Client()
    client.cookies["sessionid"] = "the-test-client-s-own"
    app = App().configure(InProcessTransport(client, base="http://testserver"))

    planted = app.service("echo").create({})
    received = app.service("echo").find(headers={"Cookie": "visible=1"})

    assert planted["cookies"] == []
    assert received["cookies"] == ["visible"]
    assert list(client.cookies) == ["sessionid"]


async def test_the_async_connection():
    connection = AsyncInProcessTransport(AsyncClient(), base="http://testserver")
    app = App().configure(connection)

    echoed = await app.service("headers").find(query={"page": 2})

    assert echoed["query"] == {"page": "2"}


def test_each_connection_takes_its_own_test_client():
    with pytest.raises(TypeError, match=r"django\.test\.Client"):
        InProcessTransport(AsyncClient())
    with pytest.raises(TypeError, match=r"django\.test\.AsyncClient"):
        AsyncInProcessTransport(Client())


def test_in_process_remote_points_a_remote_at_the_project_for_a_block():
    with pytest.raises(RemoteDoesNotExist):
        remotes["elsewhere"]

    with in_process_remote("elsewhere") as remote:
        received = remote.service("echo").find()

    assert received["authorization"] is None
    with pytest.raises(RemoteDoesNotExist):
        remotes["elsewhere"]


def test_the_fixture_keeps_the_remote_s_credentials(in_process_remotes, users):
    login = in_process_remotes("login")

    answer = login.service("caller").find()

    assert answer["email"] == SERVICE_EMAIL
    assert remotes["login"].config.transport_class.name == "in-process"


async def test_the_fixture_makes_async_remotes(in_process_remotes):
    remote = in_process_remotes("plain", asynchronous=True)

    received = await remote.service("echo").find()

    assert remote.is_async
    assert received["cookies"] == []


def test_forward_session_over_https_sends_a_matching_origin(in_process_remotes, users):
    client = Client()
    client.force_login(users["person"])
    request = RequestFactory().post(
        "/", headers={"Cookie": f"sessionid={client.cookies['sessionid'].value}"}
    )
    session = in_process_remotes("session", base_url="https://testserver")
    caller = session.for_request(request).service("caller")

    created = caller.create({"text": "hi"})
    with pytest.raises(Forbidden, match="Referer checking failed"):
        caller.create({}, headers={"Origin": None, "Referer": None})

    assert created["email"] == EMAIL
    assert created["origin"] == "https://testserver"
    assert created["referer"] == "https://testserver/"


@pytest.mark.parametrize("base_url", ["http://testserver", "http://testserver/billing-api"])
def test_stand_ins_answer_in_a_project_that_serves_no_services(settings, base_url):
    settings.ROOT_URLCONF = "tests.remotes.client_only_urls"

    with in_process_remote("plain", base_url=base_url, AUTH=None) as remote:
        received = remote.service("echo").find()
    after = Client().get("/echo")

    assert received["authorization"] is None
    assert after.status_code == 404, "the project's own URLs are as they were"
