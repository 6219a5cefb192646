"""
What python-engineio's clients need from us to hold up against engine.io servers.

`adapt(client)` gives the engine.io client of a python-socketio client (`client.eio`) these
fixes; each would be better upstream, as said beside it:

- **A long-polling answer may hold any number of packets.** engine.io servers send everything
  they buffered in one answer; python-engineio's client refuses more than 16 packets
  (`Payload.max_decode_packets`, a guard meant for servers) and drops the connection. The
  clients' modules decode with a `Payload` without that limit; the servers' keep theirs.
  Upstream: no packet limit when decoding as a client. The other way, python-engineio servers
  refuse a POST of more than 16 packets, so a burst of calls is sent 16 packets per POST.
- **Messages are handled in the order they arrived.** The threaded client handles each message
  on a thread of its own, so events and acks could overtake each other; here one thread per
  connection handles them in order. Upstream: an ordered dispatch in `engineio.Client`.
- **A close queued during a long-polling POST is still sent.** The write loop stops as soon as
  the client is disconnecting, leaving the close packet in its queue, so the server kept the
  session for a ping interval. Upstream: drain the queue before the write loop ends.
- **An async long-polling connection whose POST fails is lost at once.** The write loop ended
  without a word while the long poll (which aiohttp retries on a new connection) went on, so
  nothing was sent until the server's ping timeout. Upstream: end the read loop when the
  write loop fails.
- **An async long poll the server refuses is released.** The read loop gives up on a GET
  answered with an error status (a session the server ended, as when a poll that aiohttp
  retried on a new connection arrives after it) without reading it, so aiohttp's connection
  stayed acquired until the collector found it (`ResourceWarning: Unclosed connection`).
  Upstream: release the response before giving up.

They use python-engineio's internals (`_trigger_event`, `_write_loop`, `_send_request`, the
`payload` its client modules import), checked by `tests/client/transports/test_engineio.py` on
every version the package supports (python-engineio 4.11 and later).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sys
import types
from typing import Any

import engineio
from engineio import async_client, client, payload

__all__ = ["AsyncOrderedClient", "ClientPayload", "OrderedClient", "adapt"]


class ClientPayload(payload.Payload):
    """A payload a client decodes: as many packets as the server sent."""

    max_decode_packets = sys.maxsize


_SEPARATOR = "\x1e"
_CLIENT_PAYLOAD = types.SimpleNamespace(Payload=ClientPayload)
client.payload = _CLIENT_PAYLOAD
async_client.payload = _CLIENT_PAYLOAD


#: The packets python-engineio servers accept in one POST (their `Payload.max_decode_packets`).
SERVER_PACKETS = 16


def _bodies(kwargs: dict[str, Any]) -> list[dict[str, Any]]:
    """The POSTs to send a payload in, at most `SERVER_PACKETS` packets each."""
    body = kwargs.get("body")
    if not isinstance(body, str) or body.count(_SEPARATOR) < SERVER_PACKETS:
        return [kwargs]
    # JSON escapes control characters and binary packets are base64: the separator is only one.
    packets = body.split(_SEPARATOR)
    return [
        {**kwargs, "body": _SEPARATOR.join(packets[start : start + SERVER_PACKETS])}
        for start in range(0, len(packets), SERVER_PACKETS)
    ]


def _failed(answer: Any) -> bool:
    if answer is None or isinstance(answer, str):
        return True
    status: Any = getattr(answer, "status_code", None) or getattr(answer, "status", 200)
    return not 200 <= int(status) < 300


def _drain(pending: Any) -> list[Any]:
    """The packets still queued, up to the end-of-queue marker."""
    packets: list[Any] = []
    while True:
        try:
            pkt = pending.get_nowait()
        except Exception:  # the queue's own Empty, queue.Empty or asyncio.QueueEmpty
            return packets
        pending.task_done()
        if pkt is None:
            return packets
        packets.append(pkt)


class OrderedClient(engineio.Client):
    """`engineio.Client` with the fixes above."""

    _messages: queue.SimpleQueue[Any] | None = None
    message_task: Any = None

    def _trigger_event(self, event: str, *args: Any, **kwargs: Any) -> Any:
        if event == "message" and kwargs.get("run_async"):
            if self._messages is None:
                self._messages = queue.SimpleQueue()
                self.message_task = self.start_background_task(
                    self._handle_messages, self._messages
                )
            self._messages.put(args)
            return None
        return super()._trigger_event(event, *args, **kwargs)

    def _handle_messages(self, messages: queue.SimpleQueue[Any]) -> None:
        while (args := messages.get()) is not None:
            super()._trigger_event("message", *args, run_async=False)

    def _send_request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        answer = None
        for part in _bodies(kwargs) if method == "POST" else [kwargs]:
            answer = super()._send_request(method, url, *args, **part)
            if _failed(answer):
                break
        return answer

    #: Whether `_reset()` runs: the last connection is not over before it returns.
    resetting = False

    def _reset(self) -> None:
        self.resetting = True
        try:
            super()._reset()
        finally:
            self.resetting = False
        messages, self._messages = self._messages, None
        if messages is not None:
            messages.put(None)

    def _write_loop(self) -> None:
        super()._write_loop()
        if self.state == "disconnecting" and self.current_transport == "polling":
            packets = _drain(self.queue)
            if packets:
                self._send_request(
                    "POST",
                    self.base_url,
                    body=payload.Payload(packets=packets).encode(),
                    headers={"Content-Type": "text/plain"},
                    timeout=self.request_timeout,
                )


class AsyncOrderedClient(engineio.AsyncClient):
    """`engineio.AsyncClient` with the fixes above."""

    _post_failed = False
    #: Set when the write loop ended on a failed POST: the long poll under way gives up.
    _write_failed: asyncio.Event | None = None
    #: Whether `_reset()` runs (it awaits closing the HTTP session after saying "disconnected").
    resetting = False

    async def _reset(self) -> None:
        self.resetting = True
        self._write_failed = None
        try:
            await super()._reset()
        finally:
            self.resetting = False

    async def _send_request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        if method == "GET":
            if self._write_failed is not None:
                answer = await self._long_poll(self._write_failed, url, *args, **kwargs)
            else:
                answer = await super()._send_request(method, url, *args, **kwargs)
            if _failed(answer) and not isinstance(answer, (str, type(None))):
                # The read loop gives up on a refused poll (a session the server ended) by
                # its status alone: its connection goes back to the pool, not to the collector.
                answer.release()
            return answer
        answer = None
        for part in _bodies(kwargs) if method == "POST" else [kwargs]:
            answer = await super()._send_request(method, url, *args, **part)
            if method == "POST" and not isinstance(answer, (str, type(None))):
                answer.release()  # only its status is read: the connection goes back to the pool
            if _failed(answer):
                if method == "POST":
                    self._post_failed = True
                break
        return answer

    async def _long_poll(
        self, write_failed: asyncio.Event, url: str, *args: Any, **kwargs: Any
    ) -> Any:
        # The read loop's GET, given up when the write loop fails: the read loop then ends the
        # connection as for any transport error (python-socketio reconnects).
        poll = asyncio.ensure_future(super()._send_request("GET", url, *args, **kwargs))
        failed = asyncio.ensure_future(write_failed.wait())
        try:
            await asyncio.wait({poll, failed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            failed.cancel()
        if poll.done():
            return poll.result()
        poll.cancel()
        with contextlib.suppress(BaseException):
            await poll
        return "the connection was lost: a POST failed"

    async def _write_loop(self) -> None:
        self._post_failed = False
        self._write_failed = write_failed = asyncio.Event()
        await super()._write_loop()
        if self.current_transport != "polling":
            return
        if self.state == "disconnecting":
            packets = _drain(self.queue)
            if packets:
                await self._send_request(
                    "POST",
                    self.base_url,
                    body=payload.Payload(packets=packets).encode(),
                    headers={"Content-Type": "text/plain"},
                    timeout=self.request_timeout,
                )
        elif self._post_failed:
            write_failed.set()


_ADAPTED: dict[type[Any], type[Any]] = {}


def adapt(engine: Any) -> Any:
    """Give `engine` (a python-socketio client's `eio`) the fixes above; return it."""
    cls = type(engine)
    if cls in _ADAPTED.values():
        return engine
    if cls not in _ADAPTED:
        fixes = AsyncOrderedClient if isinstance(engine, engineio.AsyncClient) else OrderedClient
        if cls in (engineio.Client, engineio.AsyncClient):
            _ADAPTED[cls] = fixes
        else:
            _ADAPTED[cls] = type(f"Ordered{cls.__name__}", (fixes, cls), {})
    engine.__class__ = _ADAPTED[cls]
    return engine
