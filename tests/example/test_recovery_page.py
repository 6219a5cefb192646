"""
The page across a network outage: the browser reaches the example through a TCP proxy that the
test takes down and brings back. What another session wrote meanwhile shows up once the network
is back, without a reload: replayed by the server (socket.io's connection state recovery) after
a short outage, read again by the page when the outage outlasted the recovery window.

Skipped when no Chromium is installed (Debian: `apt-get install chromium`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests

from django_services.client import App, authentication_client, rest_client
from tests.client.proxy import Proxy

from .browser import CHROMIUM, Page
from .conftest import DEMO_PASSWORD, FRIEND_EMAIL
from .demo_page import fill_and_submit, js, log_in_with_form, visible_messages, visible_todos
from .project import ExampleServer

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")

LOST = "Connection lost; reconnecting."
RECOVERED = "Back online: changes made meanwhile received."


def reloaded(count: int) -> str:
    """The status of a page that read its lists again after an unrecovered reconnect."""
    return f"Back online: reloaded {count} todos."


@pytest.fixture
def no_window_server(example_server: ExampleServer, tmp_path: Path) -> Iterator[ExampleServer]:
    """The example again, on the same database, recovering no lost connection."""
    server = ExampleServer(
        example_server.database,
        tmp_path / "no-window.log",
        environment={"SOCKETIO_RECOVERY_WINDOW": "0"},
    ).start()
    yield server
    server.stop()
    log = server.log()
    assert "Traceback" not in log and "Internal Server Error" not in log, log


@dataclass
class Outage:
    """The server, the proxy the browser reaches it through, and what a reconnect shows."""

    server: ExampleServer
    proxy: Proxy
    recovered: bool


@pytest.fixture(params=["within the window", "after the window"])
def outage(request: pytest.FixtureRequest) -> Iterator[Outage]:
    """A proxy to the example, recovering lost connections or not."""
    recovered = request.param == "within the window"
    server = request.getfixturevalue("example_server" if recovered else "no_window_server")
    proxy = Proxy(server.url).start()
    yield Outage(server, proxy, recovered)
    proxy.stop()


@contextmanager
def logged_in(server: ExampleServer, email: str, password: str) -> Iterator[App]:
    """
    A REST client of `server` itself, logged in: the events of its writes go straight to its
    sockets, while a process that keeps no recovery window prunes the event log of their
    database before another process would have read them from it.
    """
    with requests.Session() as session:
        app = App()
        app.configure(rest_client(server.url).requests(session))
        app.configure(authentication_client())
        app.authenticate({"strategy": "local", "email": email, "password": password})
        yield app


async def record_statuses(page: Page) -> None:
    """From now on, `window.statuses` lists every status the page shows."""
    await page.evaluate(
        """(() => {
            const status = document.getElementById('status');
            window.statuses = [];
            new MutationObserver(() => window.statuses.push(status.textContent))
                .observe(status, {childList: true, characterData: true, subtree: true});
        })()"""
    )


async def test_the_page_shows_what_was_written_while_its_network_was_down(
    browser, outage: Outage, sign_up
):
    user = sign_up()
    with (
        logged_in(outage.server, user["email"], user["password"]) as elsewhere,
        logged_in(outage.server, FRIEND_EMAIL, DEMO_PASSWORD) as friend,
    ):
        await see_the_gap(browser, outage, user, elsewhere.service("todos"), friend)


async def see_the_gap(
    browser: Page, outage: Outage, user: dict[str, Any], elsewhere: Any, friend: App
) -> None:
    """The page logs in, loses its network while the others write, and gets it back."""
    proxy = outage.proxy
    await log_in_with_form(browser, proxy.url, user["email"], user["password"])
    await fill_and_submit(browser, "#todo-form", {"todo-text": "Before the outage"})
    added = js('Added "Before the outage".')
    await browser.wait_for(f"document.getElementById('status').textContent === {added}")
    await record_statuses(browser)

    proxy.down()
    await browser.wait_for(f"window.statuses.includes({js(LOST)})")
    gap = [elsewhere.create({"text": f"Written in the gap {n}"})["text"] for n in range(3)]
    chat = friend.service("api/v1/messages")
    said = chat.create({"text": f"Said in the gap to {user['email']}"})["text"]
    proxy.up()

    shown = ["Before the outage", *gap]
    status = RECOVERED if outage.recovered else reloaded(len(shown))
    await browser.wait_for(f"window.statuses.includes({js(status)})")
    assert await visible_todos(browser) == [[text, False] for text in shown]
    await browser.wait_for(
        "[...document.querySelectorAll('#message-list .text')]"
        f".some((span) => span.textContent === {js(said)})"
    )
    assert [text for _, text in await visible_messages(browser)].count(said) == 1
    statuses = await browser.evaluate("window.statuses")
    # Recovered, the page read nothing again: the todos came as the server's replayed events.
    assert any(text.startswith("Loaded") for text in statuses) is not outage.recovered

    # Live again, in its user's channel: a todo written elsewhere now arrives as it happens.
    after = elsewhere.create({"text": "After the outage"})["text"]
    await browser.wait_for(
        "[...document.querySelectorAll('#todo-list li')]"
        f".some((li) => li.textContent.includes({js(after)}))"
    )
    assert await visible_todos(browser) == [[text, False] for text in [*shown, after]]
    assert await browser.evaluate("document.getElementById('error').hidden") is True
