"""
Headless Chromium, driven over the Chrome DevTools Protocol with aiohttp's WebSocket client.

    async with Chromium(executable, profile_dir) as page:
        await page.navigate("http://127.0.0.1:8000/")
        await page.wait_for("document.title !== ''")
        title = await page.evaluate("document.title")
        other = await page.new_context()      # a page of its own: cookies, storage

`evaluate` runs JavaScript in the page and returns its (awaited) value; an exception in the
page is raised here as `PageError`, with the browser's description.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

import aiohttp

from tests.waiting import eventually_async

#: The Chromium (or Chrome) installed, or None: tests that need it skip without it.
CHROMIUM = next(
    filter(None, map(shutil.which, ["chromium", "chromium-browser", "google-chrome"])), None
)


class PageError(AssertionError):
    """JavaScript run in the page threw, or a condition did not become true in time."""


class Page:
    """One page of the browser, driven over its DevTools WebSocket."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)

    async def attach(
        self, session: aiohttp.ClientSession, url: str, *, is_page: bool = True
    ) -> None:
        """Connect to the DevTools WebSocket at `url` (a page's, or the browser's)."""
        self.socket = await session.ws_connect(url, max_msg_size=0)
        if is_page:
            await self.send("Page.enable")
            await self.send("Runtime.enable")

    async def detach(self) -> None:
        """Close the DevTools WebSocket."""
        if self.socket is not None:
            await self.socket.close()

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Call a DevTools method and return its result (events on the way are skipped)."""
        assert self.socket is not None
        message_id = next(self._ids)
        await self.socket.send_json({"id": message_id, "method": method, "params": params})
        message = await asyncio.wait_for(self._reply(message_id), self.timeout)
        if "error" in message:
            raise PageError(f"{method} failed: {message['error']}")
        return message["result"]

    async def _reply(self, message_id: int) -> dict[str, Any]:
        assert self.socket is not None
        while True:
            message = await self.socket.receive_json()
            if message.get("id") == message_id:
                return message

    async def evaluate(self, expression: str) -> Any:
        """Run `expression` in the page and return its value, awaiting a promise."""
        result = await self.send(
            "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            description = details.get("exception", {}).get("description") or details["text"]
            raise PageError(f"{expression!r} threw: {description}")
        return result["result"].get("value")

    async def navigate(self, url: str) -> None:
        """Open `url` and wait until the new document has loaded (also when it is a reload)."""
        before = await self.evaluate("performance.timeOrigin")
        await self.send("Page.navigate", url=url)
        await self.wait_for(
            f"performance.timeOrigin !== {before!r} && document.readyState === 'complete'"
        )

    async def wait_for(self, condition: str, *, timeout: float | None = None) -> Any:
        """Evaluate `condition` until it is truthy and return its value."""
        last: list[Any] = [None]

        async def holds() -> Any:
            try:
                last[0] = await self.evaluate(condition)
            except PageError:
                last[0] = None  # the page is navigating away: try again
            return last[0]

        try:
            return await eventually_async(holds, timeout or self.timeout, interval=0.05)
        except AssertionError:
            state = await self.evaluate("document.body ? document.body.innerText : ''")
            raise PageError(f"{condition!r} stayed {last[0]!r}; the page shows:\n{state}") from None


class Chromium(Page):
    """A headless Chromium with a fresh profile, and its first page."""

    def __init__(self, executable: str, profile_dir: Path, *, timeout: float = 30.0) -> None:
        super().__init__(timeout)
        self.executable = executable
        self.profile_dir = profile_dir
        self.process: subprocess.Popen[bytes] | None = None
        self.session: aiohttp.ClientSession | None = None
        self.port = 0
        self.browser: Page | None = None
        self.pages: list[Page] = []

    async def __aenter__(self) -> Chromium:
        try:
            await self.start()
        except BaseException:
            await self.close()
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Start the browser and connect to its first page."""
        log = (self.profile_dir.parent / "chromium.log").open("wb")
        with log:
            self.process = subprocess.Popen(
                [
                    self.executable,
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-dev-shm-usage",
                    "--no-first-run",
                    "--no-default-browser-check",
                    "--remote-debugging-port=0",
                    f"--user-data-dir={self.profile_dir}",
                    "about:blank",
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.port = await self._debugging_port()
        self.session = aiohttp.ClientSession()
        base = f"http://127.0.0.1:{self.port}"
        async with self.session.get(f"{base}/json/list") as response:
            targets = await response.json(content_type=None)
        async with self.session.get(f"{base}/json/version") as response:
            version = await response.json(content_type=None)
        page = next(target for target in targets if target["type"] == "page")
        await self.attach(self.session, page["webSocketDebuggerUrl"])
        self.browser = Page(self.timeout)
        await self.browser.attach(self.session, version["webSocketDebuggerUrl"], is_page=False)

    async def new_context(self) -> Page:
        """A page in a new browser context: cookies and storage of its own, a second user."""
        assert self.browser is not None and self.session is not None
        context = await self.browser.send("Target.createBrowserContext")
        target = await self.browser.send(
            "Target.createTarget", url="about:blank", browserContextId=context["browserContextId"]
        )
        page = Page(self.timeout)
        self.pages.append(page)
        await page.attach(
            self.session, f"ws://127.0.0.1:{self.port}/devtools/page/{target['targetId']}"
        )
        return page

    async def _debugging_port(self) -> int:
        # Chromium writes the port it chose into the profile once it listens.
        port_file = self.profile_dir / "DevToolsActivePort"

        def written_port() -> int | None:
            assert self.process is not None
            if self.process.poll() is not None:
                raise PageError(f"Chromium exited with {self.process.returncode}")
            lines = port_file.read_text().split() if port_file.exists() else []
            return int(lines[0]) if lines else None

        try:
            return int(await eventually_async(written_port, self.timeout, interval=0.1))
        except AssertionError:
            raise PageError(
                f"Chromium did not open its debugging port in {self.timeout}s"
            ) from None

    async def close(self) -> None:
        """Disconnect, and stop the browser and the processes it started."""
        for page in [*self.pages, self.browser, self]:
            if page is not None:
                await page.detach()
        if self.session is not None:
            await self.session.close()
        process = self.process
        if process is not None and process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
