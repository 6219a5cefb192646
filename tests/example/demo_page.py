"""
What a user does on the example's page, in a browser page: fill in forms, read the lists.

    await log_in_with_form(page, url, email, password)
    await fill_and_submit(page, "#todo-form", {"todo-text": "Buy milk"})
    assert await visible_todos(page) == [["Buy milk", False]]
"""

from __future__ import annotations

import json

from .browser import Page


def js(value: object) -> str:
    """`value` as a JavaScript literal."""
    return json.dumps(value)


async def fill_and_submit(page: Page, form: str, values: dict[str, str]) -> None:
    """Type `values` into the inputs with those ids, then submit the form `form`."""
    await page.evaluate(
        f"""(() => {{
            for (const [id, value] of Object.entries({js(values)})) {{
                document.getElementById(id).value = value;
            }}
            document.querySelector({js(form)}).requestSubmit();
        }})()"""
    )


async def visible_todos(page: Page) -> list[list[object]]:
    """The todo list as shown: `[text, complete]` for each item."""
    return await page.evaluate(
        """[...document.querySelectorAll('#todo-list li')].map(
            (li) => [li.querySelector('span').textContent, li.querySelector('input').checked]
        )"""
    )


async def visible_messages(page: Page) -> list[list[str]]:
    """The chat as shown: `[author, text]` for each message."""
    return await page.evaluate(
        """[...document.querySelectorAll('#message-list li')].map(
            (li) => [li.querySelector('.author').textContent,
                     li.querySelector('.text').textContent]
        )"""
    )


async def log_in_through_django(page: Page, url: str, email: str, password: str) -> None:
    """Log in on Django's login page, which sends the page on: its client uses the session."""
    await page.navigate(f"{url}/login/")
    await fill_and_submit(page, "form", {"id_username": email, "id_password": password})
    await page.wait_for("document.getElementById('status')?.textContent.startsWith('Loaded')")


async def log_in_with_form(page: Page, url: str, email: str, password: str) -> None:
    """Open the page at `url` and log in with its form (the `local` strategy)."""
    await page.navigate(f"{url}/")
    await page.wait_for("!document.getElementById('login').hidden")
    await fill_and_submit(page, "#login-form", {"email": email, "password": password})
    await page.wait_for("document.getElementById('status').textContent.startsWith('Loaded')")
