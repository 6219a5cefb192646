"""
The page is live: two browser contexts (two sessions, as two people's browsers) on the example
under uvicorn, each seeing the other's changes arrive over socket.io without a reload. Under
`manage.py runserver`, which has no socket.io, the page works over REST.

Skipped when no Chromium is installed (Debian: `apt-get install chromium`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .browser import CHROMIUM
from .conftest import DEMO_EMAIL, DEMO_PASSWORD, FRIEND_EMAIL
from .demo_page import (
    fill_and_submit,
    js,
    log_in_through_django,
    log_in_with_form,
    visible_messages,
    visible_todos,
)
from .project import ExampleServer

LIVE = "over socket.io: changes made elsewhere show up here as they happen"

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")


def todo_shown(text: str, *, complete: bool | None = None) -> str:
    """A condition: the todo list shows `text` (and, if given, with that completion)."""
    state = "" if complete is None else f" && li.classList.contains('complete') === {js(complete)}"
    return (
        "[...document.querySelectorAll('#todo-list li')]"
        f".some((li) => li.textContent.includes({js(text)}){state})"
    )


def message_shown(text: str) -> str:
    """A condition: the chat shows a message `text`."""
    return (
        "[...document.querySelectorAll('#message-list .text')]"
        f".some((span) => span.textContent === {js(text)})"
    )


async def click_todo(page, text: str, action: str) -> None:
    """Click the checkbox (`toggle`) or the remove button (`remove`) of the todo `text`."""
    await page.evaluate(
        f"""[...document.querySelectorAll('#todo-list li')]
            .find((li) => li.textContent.includes({js(text)}))
            .querySelector('[data-action={js(action)}]').click()"""
    )


async def test_two_browsers_of_one_user_see_each_other_s_todo_changes_live(
    browser, example_server, sign_up
):
    user = sign_up()
    first = browser
    second = await browser.new_context()
    for page in (first, second):
        await log_in_with_form(page, example_server.url, user["email"], user["password"])
        assert await page.evaluate("document.getElementById('transport').textContent") == LIVE
    assert await visible_todos(first) == await visible_todos(second) == []

    # Created in one, shown in the other; each page shows its own todo once, though it got
    # both the answer and the event.
    await fill_and_submit(first, "#todo-form", {"todo-text": "Written in the first"})
    await second.wait_for(todo_shown("Written in the first"))
    await fill_and_submit(second, "#todo-form", {"todo-text": "Written in the second"})
    await first.wait_for(todo_shown("Written in the second"))
    # Each socket gets its user's events in order: the second todo's event came after the
    # first's, so both pages have had every event by now.
    await second.wait_for(todo_shown("Written in the second"))
    expected = [["Written in the first", False], ["Written in the second", False]]
    assert await visible_todos(first) == expected
    assert await visible_todos(second) == expected

    # Patched in the second, shown complete in the first.
    await click_todo(second, "Written in the first", "toggle")
    await first.wait_for(todo_shown("Written in the first", complete=True))
    assert await first.evaluate("document.getElementById('todo-count').textContent") == (
        "1 of 2 complete"
    )

    # Removed in the first, gone from the second.
    await click_todo(first, "Written in the first", "remove")
    await second.wait_for("document.querySelectorAll('#todo-list li').length === 1")
    assert await visible_todos(second) == [["Written in the second", False]]

    # markAllComplete in the second: its one event makes the first read the list again.
    await second.evaluate("document.getElementById('mark-all').click()")
    await first.wait_for(todo_shown("Written in the second", complete=True))
    assert await visible_todos(first) == [["Written in the second", True]]

    # Clearing the completed todos in the first empties the second.
    await first.evaluate("document.getElementById('clear-completed').click()")
    await second.wait_for("document.querySelectorAll('#todo-list li').length === 0")
    assert await first.evaluate("document.getElementById('error').hidden") is True
    assert await second.evaluate("document.getElementById('error').hidden") is True


async def test_two_users_see_each_other_s_messages_live_and_not_each_other_s_todos(
    browser, example_server, sign_up
):
    user = sign_up()
    mine = browser
    theirs = await browser.new_context()
    await log_in_with_form(mine, example_server.url, user["email"], user["password"])
    # The other user comes through Django's login page: the page's socket logs in with the
    # session strategy.
    await log_in_through_django(theirs, example_server.url, FRIEND_EMAIL, DEMO_PASSWORD)
    assert await theirs.evaluate("document.getElementById('user-strategy').textContent") == (
        "session"
    )
    assert await theirs.evaluate("document.getElementById('transport').textContent") == LIVE
    their_todos = await visible_todos(theirs)

    # A todo is private: it goes to its owner's sockets only.
    await fill_and_submit(mine, "#todo-form", {"todo-text": "Only mine"})
    await mine.wait_for(todo_shown("Only mine"))

    # Messages go to everybody logged in, shown once each, with their author.
    hello = f"Hello from {user['email']}"
    await fill_and_submit(mine, "#message-form", {"message-text": hello})
    await theirs.wait_for(message_shown(hello))
    reply = "Hello back, from the friend"
    await fill_and_submit(theirs, "#message-form", {"message-text": reply})
    await mine.wait_for(message_shown(reply))
    await theirs.wait_for(message_shown(reply))
    for page in (mine, theirs):
        await page.wait_for(
            f"document.querySelector('#message-list li:last-child .author').textContent"
            f" === {js(FRIEND_EMAIL)}"
        )
        shown = await visible_messages(page)
        assert shown[-2:] == [[user["email"], hello], [FRIEND_EMAIL, reply]]
        assert [text for _, text in shown].count(hello) == 1

    # The message was sent after the todo, to both: the todo's event, had it gone to the
    # other user, would have arrived before it.
    assert await visible_todos(theirs) == their_todos
    assert not await theirs.evaluate(todo_shown("Only mine"))


@pytest.fixture(scope="module")
def runserver(
    example_server: ExampleServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ExampleServer]:
    """The example under `manage.py runserver`, on the database of `example_server`."""
    log = tmp_path_factory.mktemp("runserver") / "runserver.log"
    server = ExampleServer(example_server.database, log, runserver=True).start()
    try:
        yield server
    finally:
        server.stop()


async def test_without_socket_io_the_page_falls_back_to_rest(browser, runserver):
    await log_in_through_django(browser, runserver.url, DEMO_EMAIL, DEMO_PASSWORD)

    assert await browser.evaluate("document.getElementById('transport').textContent") == (
        "over REST: this server has no socket.io, reload to see changes made elsewhere"
    )
    assert await browser.evaluate("document.getElementById('user-strategy').textContent") == (
        "session"
    )
    await fill_and_submit(browser, "#todo-form", {"todo-text": "Added over REST"})
    await browser.wait_for(
        "document.getElementById('status').textContent === 'Added \"Added over REST\".'"
    )
    assert [todo for todo in await visible_todos(browser) if todo[0] == "Added over REST"] == [
        ["Added over REST", False]
    ]
    await click_todo(browser, "Added over REST", "remove")
    await browser.wait_for(f"!({todo_shown('Added over REST')})")
    await fill_and_submit(browser, "#message-form", {"message-text": "Sent over REST"})
    await browser.wait_for(message_shown("Sent over REST"))
    await browser.evaluate("document.getElementById('logout').click()")
    await browser.wait_for(
        "document.getElementById('app')?.dataset.sessionUser === ''"
        " && !document.getElementById('login').hidden"
    )
