"""
The page in a real browser: headless Chromium runs the Feathers browser client against the
example, as a user clicking through it would.

Skipped when no Chromium is installed (Debian: `apt-get install chromium`).
"""

from __future__ import annotations

import pytest

from .browser import CHROMIUM
from .conftest import DEMO_EMAIL, DEMO_PASSWORD
from .demo_page import fill_and_submit, js, log_in_through_django, visible_todos
from .project import ExampleServer

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")


@pytest.fixture
def page(browser):
    return browser


async def test_log_in_list_create_complete_and_mark_all_complete(
    page, example_server, sign_up, log_in
):
    user = sign_up()
    await page.navigate(f"{example_server.url}/")
    await page.wait_for("!document.getElementById('login').hidden")
    assert await page.evaluate("document.getElementById('status').textContent") == (
        "Not logged in."
    )
    hint = await page.evaluate("document.querySelector('#login .hint').textContent")
    assert DEMO_EMAIL in hint and DEMO_PASSWORD in hint

    # Log in with the local strategy.
    await fill_and_submit(page, "#login-form", {"email": user["email"], "password": "wrong"})
    error = await page.wait_for("document.getElementById('error').textContent")
    assert error == "NotAuthenticated: Invalid login"
    await fill_and_submit(
        page, "#login-form", {"email": user["email"], "password": user["password"]}
    )
    await page.wait_for("!document.getElementById('todos').hidden")
    assert (
        await page.evaluate("document.getElementById('user-email').textContent") == (user["email"])
    )
    assert await page.evaluate("document.getElementById('user-strategy').textContent") == "local"
    assert await page.evaluate("document.getElementById('error').hidden") is True
    assert await visible_todos(page) == []

    # A server validation error is shown with its class and message.
    await fill_and_submit(page, "#todo-form", {"todo-text": ""})
    error = await page.wait_for("document.getElementById('error').textContent")
    assert error.startswith("BadRequest: ")
    assert error.endswith("(text: This field may not be blank.)")

    # Create, complete one (patch), then markAllComplete.
    for text in ("Write the browser test", "Run it", "Ship it"):
        await fill_and_submit(page, "#todo-form", {"todo-text": text})
        expected = f'Added "{text}".'
        await page.wait_for(f"document.getElementById('status').textContent === {js(expected)}")
    assert await page.evaluate("document.getElementById('error').hidden") is True
    assert await visible_todos(page) == [
        ["Write the browser test", False],
        ["Run it", False],
        ["Ship it", False],
    ]

    await page.evaluate("document.querySelector('#todo-list li input').click()")
    await page.wait_for("document.querySelectorAll('#todo-list li.complete').length === 1")
    assert await page.evaluate("document.getElementById('todo-count').textContent") == (
        "1 of 3 complete"
    )

    await page.evaluate("document.getElementById('mark-all').click()")
    status = await page.wait_for(
        "document.getElementById('status').textContent.startsWith('markAllComplete')"
        " && document.getElementById('status').textContent"
    )
    assert status == "markAllComplete updated 2 todos."
    assert await visible_todos(page) == [
        ["Write the browser test", True],
        ["Run it", True],
        ["Ship it", True],
    ]

    # The server agrees with the page.
    account = log_in(user["email"], user["password"])
    stored = account.app.service("todos").find(query={"$sort": {"id": 1}})
    assert [(todo["text"], todo["complete"]) for todo in stored] == [
        ("Write the browser test", True),
        ("Run it", True),
        ("Ship it", True),
    ]

    # A reload logs in again with the stored token; clearing removes the completed todos.
    await page.navigate(f"{example_server.url}/")
    await page.wait_for("document.getElementById('status').textContent === 'Loaded 3 todos.'")
    assert await page.evaluate("document.getElementById('user-strategy').textContent") == "jwt"
    await page.evaluate("document.getElementById('clear-completed').click()")
    await page.wait_for(
        "document.getElementById('status').textContent === 'Removed 3 completed todos.'"
    )
    assert await visible_todos(page) == []
    assert account.app.service("todos").find() == []

    await page.evaluate("document.getElementById('logout').click()")
    await page.wait_for("!document.getElementById('login').hidden")


async def test_a_django_session_logs_the_page_in_with_the_session_strategy(page, example_server):
    await log_in_through_django(page, example_server.url, DEMO_EMAIL, DEMO_PASSWORD)

    assert await page.evaluate("document.getElementById('user-strategy').textContent") == (
        "session"
    )
    assert await page.evaluate("document.getElementById('user-email').textContent") == (DEMO_EMAIL)
    todos = await visible_todos(page)
    assert ["Read the django-feathers README", True] in todos

    # Logging out ends the Django session too.
    await page.evaluate("document.getElementById('logout').click()")
    await page.wait_for(
        "document.getElementById('app')?.dataset.sessionUser === ''"
        " && !document.getElementById('login').hidden"
    )


#: The access-token lifetime of the short-lived server, in seconds.
SHORT_LIFETIME = 3


@pytest.fixture
def short_lived_server(example_server, tmp_path):
    """The example again, on the same database, issuing access tokens of a few seconds."""
    server = ExampleServer(
        example_server.database,
        tmp_path / "short-lived.log",
        environment={"JWT_EXPIRES_IN": str(SHORT_LIFETIME)},
    ).start()
    yield server
    server.stop()
    log = server.log()
    assert "Traceback" not in log and "Internal Server Error" not in log, log


async def test_the_page_stays_logged_in_across_access_token_expiry(
    page, short_lived_server, sign_up
):
    user = sign_up()
    await page.navigate(f"{short_lived_server.url}/")
    await page.wait_for("!document.getElementById('login').hidden")
    await fill_and_submit(
        page, "#login-form", {"email": user["email"], "password": user["password"]}
    )
    await page.wait_for("document.getElementById('status').textContent.startsWith('Loaded')")
    # Every status the page shows from now on, a lost connection's included.
    await page.evaluate(
        """(() => {
            const status = document.getElementById('status');
            window.statuses = [];
            new MutationObserver(() => window.statuses.push(status.textContent))
                .observe(status, {childList: true, characterData: true, subtree: true});
        })()"""
    )
    first = await page.evaluate("localStorage.getItem('feathers-jwt')")
    first_exp = await page.evaluate(f"JSON.parse(atob({js(first)}.split('.')[1])).exp")

    # The first access token has expired, and the page holds a newer one it refreshed itself.
    await page.wait_for(
        f"Date.now() / 1000 > {first_exp + 0.5}"
        f" && localStorage.getItem('feathers-jwt') !== {js(first)}",
        timeout=SHORT_LIFETIME * 4,
    )
    assert await page.evaluate("localStorage.getItem('feathers-refresh')")

    # The socket was never dropped, and calls go on over it.
    await fill_and_submit(page, "#todo-form", {"todo-text": "Still logged in"})
    await page.wait_for(
        "document.getElementById('status').textContent === 'Added \"Still logged in\".'"
    )
    assert await visible_todos(page) == [["Still logged in", False]]
    statuses = await page.evaluate("window.statuses")
    assert "Connection lost; reconnecting." not in statuses
    assert await page.evaluate("document.getElementById('login').hidden") is True
