"""
The floor under a delivered event: one websocket frame, built once, written with
`transport.write()` to many connected asyncio transports on loopback, paced.

    python -m bench.socket_floor                              # 500 sockets, 20 events/s, 5 s
    python -m bench.socket_floor --sockets 1000 --writes 200 --loop asyncio

No server, no socket.io, no ASGI: this process accepts the sockets and writes a `people
created` event's frame to each of them `writes` times a second; a child process connects them
and reads and discards what arrives, counting the bytes. The figure is this process's CPU
(user and kernel) over the writes, divided by the frames written: what a delivery costs at
least on this machine, the kernel's `send` included. `bench.sockets` prints it under every
run, beside the servers' CPU per delivered event. The loop is uvloop when installed (uvicorn's
choice then), else asyncio's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import selectors
import socket
import subprocess
import sys
import time
from typing import Any

#: A `people created` event as the benchmark's servers send it, in one unmasked text frame.
EVENT = (
    '42["people created",{"id":1234,"name":"1234 123456.789012","age":34,'
    '"created":"2024-01-01T00:00:00Z"}]'
)


def text_frame(payload: bytes) -> bytes:
    """A final, unmasked websocket text frame (RFC 6455, 5.2), as a server sends it."""
    length = len(payload)
    if length < 126:
        return bytes((0x81, length)) + payload
    return bytes((0x81, 126)) + length.to_bytes(2, "big") + payload


def loops() -> list[str]:
    """The event loops this machine can measure: uvloop when installed, and asyncio's."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return ["asyncio"]
    return ["uvloop", "asyncio"]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class _Accepted(asyncio.Protocol):
    def __init__(self, transports: list[asyncio.Transport]) -> None:
        self.transports = transports

    def connection_made(self, transport: Any) -> None:
        self.transports.append(transport)


async def _write(sockets: int, writes: float, duration: float) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    transports: list[asyncio.Transport] = []
    server = await loop.create_server(lambda: _Accepted(transports), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader = subprocess.Popen(
        [sys.executable, "-m", "bench.socket_floor", "--read", str(port), str(sockets)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert reader.stdout is not None
    await loop.run_in_executor(None, reader.stdout.readline)  # "connected"
    while len(transports) < sockets:
        await asyncio.sleep(0.01)
    frame = text_frame(EVENT.encode())
    events = int(writes * duration)
    started, cpu = time.monotonic(), _cpu()
    for sequence in range(events):
        delay = started + sequence / writes - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        for transport in transports:
            transport.write(frame)
    while any(transport.get_write_buffer_size() for transport in transports):
        await asyncio.sleep(0.001)
    cpu = _cpu() - cpu
    for transport in transports:
        transport.close()
    server.close()
    received = int(await loop.run_in_executor(None, reader.stdout.readline))
    reader.wait()
    written = events * sockets
    return {
        "sockets": sockets,
        "writes": writes,
        "frames": written,
        "complete": received == written * len(frame),
        "us_per_recipient": cpu / written * 1e6,
    }


def measure(sockets: int, writes: float, duration: float, loop: str) -> dict[str, Any]:
    """The floor's CPU per recipient, run in a fresh event loop of kind `loop`."""
    if loop == "uvloop":
        import uvloop

        result = uvloop.run(_write(sockets, writes, duration))
    else:
        result = asyncio.run(_write(sockets, writes, duration))
    return {**result, "loop": loop}


def read(port: int, sockets: int) -> None:
    """The child: connect `sockets` sockets, read until each is closed, print the bytes."""
    selector = selectors.DefaultSelector()
    for _ in range(sockets):
        connection = socket.create_connection(("127.0.0.1", port))
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ)
    print("connected", flush=True)
    received, open_sockets = 0, sockets
    while open_sockets:
        for key, _ in selector.select():
            data = key.fileobj.recv(1 << 16)  # type: ignore[union-attr]
            if data:
                received += len(data)
            else:
                selector.unregister(key.fileobj)
                key.fileobj.close()  # type: ignore[union-attr]
                open_sockets -= 1
    print(received, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=500, help="sockets (default 500)")
    parser.add_argument("--writes", type=float, default=20, help="events a second (default 20)")
    parser.add_argument("--duration", type=float, default=5, help="seconds (default 5)")
    parser.add_argument("--loop", choices=("uvloop", "asyncio"), help="default: both, or asyncio")
    parser.add_argument("--read", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.read:
        read(*args.read)
        return 0
    for loop in [args.loop] if args.loop else loops():
        result = measure(args.sockets, args.writes, args.duration, loop)
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
