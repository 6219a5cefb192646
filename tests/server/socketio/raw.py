"""
A socket.io client speaking raw frames over websocket or long-polling (aiohttp), for input no
well-behaved client sends.

    async with RawSocket.open(url, "polling") as raw:
        await raw.send('420["find","people",{}]')
        assert await raw.ack(0) == [None, []]

`send` writes Engine.IO packets as they are (`str` for text, `bytes` for binary frames; over
polling several packets go in one POST), `send_text(b"...")` a text frame of any bytes (the
body of a POST over polling). `ack(n)` waits for the ack of call `n`, `closed()` for the end
of the session (`close_code` is then the websocket's), and `call(event, *args)` sends an event
and returns its ack; a poll that failed is raised by whichever waits. `attachment(data)` is a
binary attachment as the transport carries it.

    client = await StalledClient.connect(port)     # a websocket read by hand, when told to
    await client.text()

    with logged() as records:       # every record the server side logs, uvicorn's included
        ...
    assert not [record for record in records if record.exc_info]
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import json
import logging
import socket
import struct
from collections.abc import AsyncIterator, Coroutine, Iterator
from typing import Any

import aiohttp

__all__ = ["Closed", "RawSocket", "StalledClient", "logged"]

#: The loggers a server-side record may reach without passing the root logger's handlers:
#: uvicorn's do not propagate.
LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.access")


class Closed(Exception):
    """The server ended the session."""


class RawSocket:
    """One socket.io session over a raw transport, connected to the main namespace."""

    def __init__(
        self, session: aiohttp.ClientSession, base: str, transport: str, compress: int = 0
    ) -> None:
        self.session = session
        self.compress = compress
        self.base = base
        self.transport = transport
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.url = ""
        #: What the server sent; then None at the end of the session, or the error that
        #: ended the reader (a failed poll), which `receive` raises.
        self.packets: asyncio.Queue[str | bytes | Exception | None] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None
        self.next_id = 1000

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls, server_url: str, transport: str, compress: int = 0
    ) -> AsyncIterator[RawSocket]:
        """A session; over websocket, offering permessage-deflate when `compress` (its wbits)."""
        base = f"{server_url}/socket.io/?EIO=4&transport={transport}"
        async with aiohttp.ClientSession() as session:
            raw = cls(session, base, transport, compress)
            try:
                await raw._connect()
                yield raw
            finally:
                if raw.ws is None and raw.reader is not None and not raw.reader.done():
                    # A polling client's close packet, so that its waiting poll ends.
                    with contextlib.suppress(aiohttp.ClientError):
                        await raw.send("1")
                if raw.reader is not None:
                    raw.reader.cancel()
                if raw.ws is not None:
                    await raw.ws.close()

    async def _connect(self) -> None:
        if self.transport == "websocket":
            self.ws = await self.session.ws_connect(self.base, compress=self.compress)
            self.reader = asyncio.ensure_future(self._reading(self._read_websocket()))
            assert str(await self.receive()).startswith("0{")
        else:
            async with self.session.get(self.base) as response:
                sid = json.loads((await response.text())[1:])["sid"]
            self.url = f"{self.base}&sid={sid}"
            self.reader = asyncio.ensure_future(self._reading(self._read_polls()))
        await self.send("40")
        assert str(await self.receive()).startswith("40{")

    async def _reading(self, reader: Coroutine[Any, Any, None]) -> None:
        try:
            await reader
        except Exception as exc:
            # Raised by `receive`: a poll that failed is not a wait for a packet that never comes.
            self.packets.put_nowait(exc)

    async def _read_websocket(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.TEXT and message.data == "2":
                await self.ws.send_str("3")
            elif message.type == aiohttp.WSMsgType.TEXT and message.data == "1":
                break  # Engine.IO's close packet, on which a client closes
            elif message.type in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY):
                self.packets.put_nowait(message.data)
        self.packets.put_nowait(None)

    async def _read_polls(self) -> None:
        while True:
            async with self.session.get(self.url) as response:
                if response.status != 200:
                    break
                text = await response.text()
            ended = False
            for packet in text.split("\x1e"):
                if packet == "2":
                    await self.send("3")
                elif packet == "1":
                    ended = True
                elif packet and packet != "6":
                    self.packets.put_nowait(packet)
            if ended:
                break
        self.packets.put_nowait(None)

    async def send(self, *packets: str | bytes) -> int:
        """Write Engine.IO packets; the status of the POST over polling (0 over websocket)."""
        if self.ws is not None:
            # Frames written once the server has closed the websocket are lost, as on a network.
            with contextlib.suppress(ConnectionResetError):
                for packet in packets:
                    if isinstance(packet, bytes):
                        await self.ws.send_bytes(packet)
                    else:
                        await self.ws.send_str(packet)
            return 0
        body = b"\x1e".join(
            packet if isinstance(packet, bytes) else packet.encode("utf-8", "surrogatepass")
            for packet in packets
        )
        async with self.session.post(self.url, data=io.BytesIO(body)) as response:
            await response.read()
            return response.status

    async def send_text(self, data: bytes) -> int:
        """A text frame of `data` as it is, UTF-8 or not (a POST's body over polling)."""
        if self.ws is None:
            return await self.send(data)
        with contextlib.suppress(ConnectionResetError):
            await self.ws.send_frame(data, aiohttp.WSMsgType.TEXT)
        return 0

    def attachment(self, data: bytes) -> str | bytes:
        """A binary attachment as the transport carries it (base64 in a polling payload)."""
        return data if self.ws is not None else "b" + base64.b64encode(data).decode()

    @property
    def close_code(self) -> int | None:
        """The code the server closed the websocket with (None over polling)."""
        return None if self.ws is None else self.ws.close_code

    async def receive(self, timeout: float = 10) -> str | bytes:
        """The next packet the server sent; Closed when the session ended, the reader's error
        when it failed (a poll refused its connection, say)."""
        packet = await asyncio.wait_for(self.packets.get(), timeout)
        if packet is None or isinstance(packet, Exception):
            self.packets.put_nowait(packet)
            if packet is None:
                raise Closed
            raise packet
        return packet

    async def ack(self, call_id: int, timeout: float = 10) -> list[Any]:
        """The ack of call `call_id`; every other packet before it is an assertion error."""
        packet = await self.receive(timeout)
        prefix = f"43{call_id}"
        assert isinstance(packet, str) and packet.startswith(prefix + "["), packet[:200]
        return json.loads(packet[len(prefix) :])

    async def call(self, event: str, *args: Any) -> list[Any]:
        """Send a call whose ack is the next packet, and return that ack."""
        self.next_id += 1
        frame = json.dumps([event, *args])
        await self.send(f"42{self.next_id}{frame}")
        return await self.ack(self.next_id)

    async def closed(self, timeout: float = 10) -> bool:
        """Whether the server ends the session, every packet before the end dropped."""
        with contextlib.suppress(Closed):
            while True:
                await self.receive(timeout)
        return True


class StalledClient:
    """A websocket client that reads its frames by hand, and only when told to."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        #: The data of the server's CONNECT answer (`sid`, and `pid` with recovery on).
        self.connected_with: dict[str, Any] = {}

    @classmethod
    async def connect(cls, port: int) -> StalledClient:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # A small receive window: the server's buffers fill after a few frames.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        # A small read buffer too: what the client has not read stays in the network.
        reader, writer = await asyncio.open_connection(sock=sock, limit=4096)
        writer.write(
            b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
        client = cls(reader, writer)
        assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
        assert (await client.text()).startswith("0{")
        client.send("40")
        answer = await client.text()
        assert answer.startswith("40{"), answer
        client.connected_with = json.loads(answer[2:])
        return client

    def send(self, text: str) -> None:
        payload = text.encode()
        mask = b"\x01\x02\x03\x04"
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.writer.write(bytes((0x81, 0x80 | len(payload))) + mask + masked)

    async def text(self) -> str:
        """The next text frame's payload, answering engine.io's pings, skipping control frames."""
        while True:
            head = await self.reader.readexactly(2)
            length = head[1] & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", await self.reader.readexactly(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", await self.reader.readexactly(8))
            payload = (await self.reader.readexactly(length)).decode()
            if head[0] & 0x0F != 0x1:
                continue
            if payload == "2":
                self.send("3")
                continue
            return payload


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self.seen: set[int] = set()

    def handle(self, record: logging.LogRecord) -> bool:
        # A record that propagates reaches this handler at each logger it passes.
        if id(record) not in self.seen:
            self.seen.add(id(record))
            self.records.append(record)
        return True

    def emit(self, record: logging.LogRecord) -> None:
        self.handle(record)


@contextlib.contextmanager
def logged() -> Iterator[list[logging.LogRecord]]:
    """
    The records logged meanwhile, by any logger (each once), at the levels they log at. Open
    it once the server has started: uvicorn's logging configuration takes its loggers' handlers.
    """
    handler = _Records()
    loggers = [logging.getLogger(name) for name in LOGGERS]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
